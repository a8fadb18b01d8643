"""File access for repository files: confinement, bounded reads, atomic writes, locks."""
