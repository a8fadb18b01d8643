"""What a run shows: the report in each format (`report`), SARIF (`sarif`), colour
(`color`) and the rule documentation (`ruledocs`). Imports nothing: the hook pays only
for the format it writes."""
