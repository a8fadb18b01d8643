"""`oc init`: set up `.checkpoints/` on a fresh project, never replacing a file.

Creates the directory and its README; in a git work tree routes the checkpoint files to
the asimov-checkpoint merge driver (what `asimov-hooks install` does: git config and a
marked block in .gitattributes, undone by `asimov-hooks uninstall`), and checks that git
does not ignore `.checkpoints/`, which the protocol requires to be tracked.
"""

from __future__ import annotations

import os

README = """\
# .checkpoints/

Session state of the skills that work on this project, one file per skill:
`<skill>.checkpoint.json` (OC Checkpoint Protocol, on-disk schema 1.0). A new session
reads its skill's file instead of the chat history, so keep each file honest and current.

- Tracked in git on purpose: a checkpoint must survive a new machine or an ephemeral runner.
  Do not add this directory to `.gitignore`.
- Written by the skills, or by hand with `asimov-hooks oc update <skill> --field=value` and
  `asimov-hooks oc done <skill>`, which validate the result before writing it.
- Read with `asimov-hooks oc status` (where did I leave off?) and `asimov-hooks oc next`
  (the one thing to do now). `asimov-hooks oc doctor` cross-checks them against git and
  the file system.
- Keep `progress_summary` to a few sentences and `context_primer.key_decisions` to about
  twenty items. Append-only telemetry in `skill_state` (merged PR lists, reconciliation
  logs) goes to `history/` with `asimov-hooks oc rotate <skill>` instead of growing here.
- Merge conflicts in these files are resolved by the asimov-checkpoint merge driver on a
  local `git merge`; hosted merge buttons do not run it, so validate after resolving by hand
  (`asimov-validate .checkpoints`).
"""


def init(root: str, dirname: str, merge_driver: bool) -> tuple[list[str], list[str]]:
    """Scaffold; returns (what was done, problems the user must fix)."""
    done: list[str] = []
    problems: list[str] = []
    from ..fs.access import atomic_write, make_dirs
    from ..gitutil import find_toplevel

    # every write confined to the work tree (or `root` outside git), out of .git/: the
    # directory name comes from a committed config, and any part of it may be a link
    work_tree = find_toplevel(root)
    top = work_tree or os.path.realpath(root)
    cdir = os.path.join(root, dirname)
    probe = os.path.join(cdir, "probe.checkpoint.json")
    if work_tree is not None:
        _refuse_blocking(work_tree, probe)  # before anything is written
    if not os.path.isdir(cdir):
        make_dirs(cdir, top)
        done.append(f"created {dirname}/")
    readme = os.path.join(cdir, "README.md")
    if not os.path.lexists(readme):
        atomic_write(readme, README.encode("utf-8"), root=top)
        done.append(f"created {dirname}/README.md")
    from ..gitutil import toplevel

    top = toplevel(root)
    if top is None:
        return done, problems
    if merge_driver:
        from ..merge.install import install

        here = os.getcwd()
        os.chdir(top)
        try:
            done += install(False, "auto")
        finally:
            os.chdir(here)
    from ..gitutil import git

    proc = git(*_CHECK_IGNORE, probe, cwd=top, check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        source = proc.stdout.split("\t")[0]
        problems.append(
            f"{dirname}/ is git-ignored ({source}); the protocol requires it tracked: "
            "remove that line"
        )
    return done, problems


_CHECK_IGNORE = ("check-ignore", "--no-index", "-v")


def _refuse_blocking(top: str, probe: str) -> None:
    """GitError when a file git would open for init's questions is a FIFO or another
    special file (a `.gitignore` on the way to the checkpoint directory, a config file):
    git would wait on it for ever, so init stops before it writes anything."""
    from ..gitutil import GitError, would_block

    blocked = would_block((*_CHECK_IGNORE, probe), top, None)
    if blocked:
        raise GitError(blocked)
