"""At commit time: the git hooks `.pre-commit-config.yaml` asks for that this clone lacks.

`pre-commit install` installs the hook types of `default_install_hook_types` once per
clone; a clone set up before the team added a type (pre-merge-commit, post-checkout,
post-merge) keeps what it had, and nothing says so: merges are not checked and the
checkpoint merge driver is never registered, so git line-merges checkpoints. Run by the
commit-time hooks (asimov-validate, asimov-ephemeral) when git runs them for a commit,
this says in one line which types are missing and how to install them. A warning:
the commit goes on.

Cheap, as it runs on every commit: one read of `.pre-commit-config.yaml` (its top-level
`default_install_hook_types`, read without a YAML parser), one `git rev-parse` for the
hooks directory (core.hooksPath honoured), and a look at one file there per type. It
reads nothing else outside the work tree.
"""

from __future__ import annotations

import os
import sys

CONFIG = ".pre-commit-config.yaml"
MAX_CONFIG_BYTES = 1 << 20
MAX_HOOK_BYTES = 1 << 20
KEY = "default_install_hook_types"
# the git hook types pre-commit installs (it refuses any other name); a name outside
# them is never looked up, so a committed config cannot point the look outside .git/hooks
HOOK_TYPES = frozenset(
    (
        "commit-msg",
        "post-checkout",
        "post-commit",
        "post-merge",
        "post-rewrite",
        "pre-commit",
        "pre-merge-commit",
        "pre-push",
        "pre-rebase",
        "prepare-commit-msg",
    )
)


def asked_types(text: str) -> list[str]:
    """The hook types of the config's top-level `default_install_hook_types`: a flow
    list (`[pre-commit, pre-merge-commit]`, over lines too) or a block list."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        if not line.startswith(KEY):
            continue
        rest = line[len(KEY) :].lstrip()
        if not rest.startswith(":"):
            continue
        value = _uncomment(rest[1:]).strip()
        if value.startswith("["):
            parts = [value]
            for more in lines[at + 1 :]:
                if "]" in parts[-1]:
                    break
                parts.append(_uncomment(more).strip())
            return _names(" ".join(parts)[1:].partition("]")[0].split(","))
        items = []
        for more in lines[at + 1 :]:
            item = _uncomment(more).strip()
            if not item:
                continue
            if not more[:1].isspace() and not item.startswith("-"):
                break  # the next top-level key
            if not item.startswith("-"):
                break
            items.append(item[1:])
        return _names(items)
    return []


def _uncomment(line: str) -> str:
    at = line.find(" #")
    return line if at < 0 else line[:at]


def _names(items: list[str]) -> list[str]:
    """The known hook types among `items`, each once, in their order."""
    out: dict[str, None] = {}
    for item in items:
        name = item.strip().strip("'\"").strip()
        if name in HOOK_TYPES:
            out[name] = None
    return list(out)


def missing_types(top: str, config: bytes) -> tuple[list[str], str | None]:
    """(the hook types `config` asks for that this clone lacks, the hooks directory when
    core.hooksPath moves it, else None)."""
    from ..fs.access import FileProblem, read_bytes
    from ..gitutil import GitError, git

    asked = asked_types(config.decode("utf-8", "replace"))
    if not asked:
        return [], None
    try:
        out = git("rev-parse", "--git-common-dir", "--git-path", "hooks", cwd=top).stdout
    except (GitError, OSError):
        return [], None
    common, _, hooks = out.strip().partition("\n")
    hooks_dir = os.path.abspath(os.path.join(top, hooks.strip()))
    default = os.path.abspath(os.path.join(top, common.strip(), "hooks"))
    missing = []
    for name in asked:
        path = os.path.join(hooks_dir, name)
        try:  # pre-commit's own script, where git looks for it, and executable
            ours = b"pre-commit" in read_bytes(path, MAX_HOOK_BYTES, confined=False)
        except FileProblem:
            ours = False
        if not (ours and os.access(path, os.X_OK)):
            missing.append(name)
    return missing, (hooks_dir if hooks_dir != default else None)


def message(missing: list[str], moved: str | None) -> str:
    types = ", ".join(missing)
    what = f"this clone lacks the git hook{'s' if len(missing) > 1 else ''} {types} that "
    what += f"{CONFIG} asks for ({KEY})"
    if moved is None:
        return f"asimov-hooks: warning: {what}: run `pre-commit install` to add them"
    return (
        f"asimov-hooks: warning: {what}: core.hooksPath points git at {moved}, where "
        "`pre-commit install` does not write: add them there, or unset core.hooksPath "
        "and run `pre-commit install`"
    )


def at_commit() -> bool:
    """Whether git runs this for a commit through pre-commit (not `pre-commit run` by
    hand or in CI): git sets GIT_INDEX_FILE for its commit hooks, pre-commit PRE_COMMIT."""
    return bool(os.environ.get("PRE_COMMIT") and os.environ.get("GIT_INDEX_FILE"))


def warn(hook: str, passing: bool) -> str | None:
    """Say what is missing, once per commit: from `hook`, the asimov-ephemeral hook where
    the config runs it (on every commit), else asimov-validate. Returns the line said."""
    if not at_commit():
        return None
    top = os.getcwd()  # pre-commit runs its hooks from the top of the work tree
    from ..fs.access import FileProblem, read_bytes

    try:
        config = read_bytes(os.path.join(top, CONFIG), MAX_CONFIG_BYTES, root=top)
    except FileProblem:
        return None
    speaker = "asimov-ephemeral" if b"asimov-ephemeral" in config else "asimov-validate"
    if hook != speaker:
        return None
    missing, moved = missing_types(top, config)
    if not missing:
        return None
    line = message(missing, moved)
    from ..fs.access import show

    sys.stdout.write(show(line) + "\n")
    if passing:  # pre-commit shows a passing hook's output only with `verbose: true`
        tell_terminal(show(line) + "\n")
    return line


def tell_terminal(text: str) -> None:
    """The terminal the commit runs in (none in CI or an editor: nothing)."""
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(text)
    except OSError:
        pass
