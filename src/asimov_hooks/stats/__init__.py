"""`asimov-hooks stats`: what the agent hooks' numbers-only record
(`agent.runtime.record`) says about a repository's checkpoints and limits: `summary`
(the record read back and summed up), `text` (the default report and what the data
says about the limits), `html` (one self-contained page with inline SVG charts),
`command` (the click command)."""
