"""asimov-hooks: keep AI-agent context files small, mergeable and honest."""

__version__ = "0.2.0"
