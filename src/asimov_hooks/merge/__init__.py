"""The checkpoint merge driver: the tree merge (`core`), its JSON, YAML and text
front ends, the git-facing driver, and `install` / `uninstall` (`doctor/` diagnoses it)."""
