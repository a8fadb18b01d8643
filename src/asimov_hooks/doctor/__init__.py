"""`asimov-hooks doctor`: whether the merge driver and the agent hooks are set up and
will actually run (`diagnosis`). Imports nothing until the command runs."""
