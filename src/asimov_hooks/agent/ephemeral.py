"""`asimov-hooks ephemeral`: the `asimov-ephemeral` pre-commit hook.

ADR-007 calls `.claude_checkpoint.yaml` ephemeral and every repository that follows
the protocol git-ignores it, so the commit-time hooks, which only see staged files,
never meet it. This hook runs on every commit (`always_run`, no file names): it finds
the work tree's files of the `ephemeral` kinds that are not in the index (ignored or
untracked), trims the trimmable ones (with their archive) and checks them all.

A trim changed a file, so the hook exits 1, as pre-commit's fixers do: pre-commit
then shows the report whatever runs the commit (a terminal, an agent's shell, an IDE),
and the next commit passes. Problems in those files are not part of the commit, so by
default they do not fail it (exit 0); `--strict` makes errors fail (exit 1). Under
pre-commit a clean run says nothing (the hook is not `verbose`); a run that passes with
something to say (a warning, an error) also writes its report to the terminal, where
there is one.
"""

from __future__ import annotations

import os
import sys

from ..fs.access import FileProblem, show

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence

PROG = "asimov-hooks ephemeral"
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def fast_main(args: Sequence[str]) -> int | None:
    """The hook's usual command line without click; None to let click parse it."""
    from ..options import EPHEMERAL, parse_command

    opts = parse_command(EPHEMERAL, args)
    if opts is None:
        return None
    try:
        return run(**opts)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        return 130


def run(
    paths: Sequence[str] = (),
    *,
    strict: bool = False,
    no_trim: bool = False,
    quiet: bool = False,
    config_path: str | None = None,
) -> int:
    from ..config.config import ConfigError, load_config
    from ..config.discovery import ephemeral_kinds, ignored_ephemeral
    from ..validation.engine import Checker

    try:
        from ..config.follows import WORK_TREE

        config = load_config(config_path)
        config.derived["scope"] = WORK_TREE  # these files are the work tree's own
        kinds = ephemeral_kinds(config)
        files: list[str] = []
        for directory in paths or ["."]:
            if not os.path.isdir(directory):
                sys.stderr.write(f"{PROG}: error: {show(directory)}: not a directory\n")
                return EXIT_USAGE
            for path in sorted(ignored_ephemeral(directory, config, untracked=True)):
                if path not in files and not config.excluded(config.relpath(path)):
                    files.append(path)
        if not kinds or not files:
            if not quiet:
                sys.stdout.write(f"{PROG}: no git-ignored or untracked ephemeral files\n")
            _hook_types(True)
            return EXIT_OK
        checker = Checker(config)
        results = []
        trimmed = set(_trim_settings(config).kinds) if not no_trim else set()
        for path in files:
            fixed: list[str] = []
            fix_error = None
            if config.kind_for(config.relpath(path)) in trimmed:
                from ..trim.trimmer import fix_file

                outcome = fix_file(path, config)
                fixed = outcome.messages if outcome.written else []
                fix_error = outcome.error
            result = checker.check(path)
            result.fixed, result.fix_error = fixed, fix_error
            results.append(result)
    except ConfigError as exc:
        sys.stderr.write(f"{PROG}: error: {show(str(exc))}\n")
        return EXIT_USAGE
    except FileProblem as exc:  # git cannot list the files (a FIFO where it reads .gitignore)
        sys.stderr.write(f"{PROG}: error: {show(exc.message)}\n")
        return EXIT_USAGE
    import io

    from ..output.report import write

    failed = any(r.fix_error or any(f.level == "error" for f in r.findings) for r in results)
    changed = [r for r in results if r.fixed]
    code = EXIT_FAIL if (strict and failed) or changed else EXIT_OK
    news = any(
        r.fixed or r.fix_error or any(f.level in ("warning", "error") for f in r.findings)
        for r in results
    )
    out = io.StringIO()
    out.write(
        f"{PROG}: {len(files)} file(s) git does not track (not part of this commit"
        + ("" if strict else "; problems reported, failing only with --strict")
        + ")\n"
    )
    write(results, "text", out, quiet)
    if changed:
        out.write(
            f"{PROG}: trimmed {len(changed)} file(s) git does not track (archived what it "
            "removed); they are not part of the commit: commit again\n"
        )
    sys.stdout.write(out.getvalue())
    if news and code == EXIT_OK and os.environ.get("PRE_COMMIT"):
        _tell_terminal(out.getvalue())
    _hook_types(code == EXIT_OK)
    return code


def _hook_types(passing: bool) -> None:
    """The git hooks the pre-commit config asks for and this clone lacks (validation.hooktypes)."""
    from ..validation.hooktypes import warn

    warn("asimov-ephemeral", passing)


def _tell_terminal(text: str) -> None:
    """pre-commit shows a passing hook's output only with `verbose: true`, which prints
    lines on every clean commit too; a report worth reading goes to the terminal the
    commit runs in instead (none in CI or an editor: then pre-commit keeps it)."""
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(text)
    except OSError:
        pass


def _trim_settings(config: object) -> object:
    from ..trim.trimmer import Settings

    return Settings.from_config(config)  # type: ignore[arg-type]
