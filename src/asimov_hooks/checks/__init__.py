"""Rule checks: size measures, structure rules and drift (git-aware) rules."""
