"""The checkpoint trimmer (ADR-007 rolling windows): the trimmer, its YAML layout
analysis, the archive of what it removed (and the merge driver's cuts waiting for it,
`pending`), and the `asimov-hooks trim` command."""
