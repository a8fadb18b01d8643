"""not-protocol-file: a file that only shares a protocol file's name.

A Kubernetes manifest called `warmup.yaml` must not fail a commit. A kind's `identify`
keys say what a real one holds; a file with none of them is skipped, and the engine
reports why under this id at the rule's level (info by default, which never fails;
`off` switches the detection off: the file is then checked as a protocol file).
"""

RULES: dict[str, object] = {}  # the engine reports it, through config/identify.py
