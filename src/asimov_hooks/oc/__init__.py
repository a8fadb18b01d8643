"""`asimov-hooks oc ...`: the OC Checkpoint Protocol toolkit (status, next, update, done,
init, rotate, doctor) on a project's `.checkpoints/` directory.

Modules: `jsonfmt` (read and write checkpoints as the protocol's writer does), `store`
(find, read, validate-then-write), `summary` and `priority` (the read commands),
`edit` (updates on dotted paths), `rotate`, `scaffold` (init), `drift_report` (doctor),
`output` (terminal width and colour) and `cli` (the click group).
"""
