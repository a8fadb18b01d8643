"""Every byte the package prints that can come from the checkout is escaped.

A file's content, a file name, a config key or value, an agent settings key and a URL
are the checkout's (or a server's): printed raw they could end a line and forge a CI
annotation (`::error ...::`, `::stop-commands::`) or drive the terminal. The one
escaping function is `fs.access.show` (text), with `fs.access.github_escape` for GitHub
workflow commands; JSON and SARIF go through their encoders.

This test reads every module of `src/` (its syntax tree) and finds each output call
(`print`, `click.echo`/`secho`, `sys.stdout.write`, `sys.stderr.write`, a click
exception's message). An argument passes when every piece of it is a literal, a
module constant (UPPER_CASE), a number formatted as one (`{n:,}`), or the result of an
escaping function. The functions that print anything else are listed below, each with
the reason what they print is safe; an entry that no longer matches a site fails too.
"""

from __future__ import annotations

import ast

from source_scan import scan, stale, unlisted

# what escapes: fs.access.show (imported as show, or as visible), the report's _show and
# _escape (show / github_escape), oc's Project.show (show of a relative path)
ESCAPERS = {"show", "visible", "github_escape", "_show", "_escape"}
NUMBER_FORMATS = tuple(",dfgenx%")

# (module, function) -> why what it prints is not raw data from the checkout
ALLOWED = {
    (
        "cli/checkpoint.py",
        "run",
    ): "`/checkpoint stats`: stats.text_report escapes every line (show)",
    ("stats/command.py", "run"): (
        "the text report's lines are escaped (show) in _render; json.dumps escapes every "
        "non-ASCII and control character; the HTML page escapes its values (html.escape)"
    ),
    ("agent/cli.py", "_report"): (
        "each line is escaped (show); `command` is the command's own name (install, uninstall)"
    ),
    ("agent/runtime/event.py", "_main"): (
        "the usage text of our own tables, and the agent adapter's answer: JSON "
        "(json.dumps escapes every control character) or nothing"
    ),
    ("agent/ephemeral.py", "run"): "the report output/report wrote (escaped there)",
    (
        "agent/runtime/payload.py",
        "log_context",
    ): "each line of the context is escaped (show) just above",
    ("validation/run.py", "validate"): (
        "a ConfigError's lines are escaped when it is made (packs.ConfigError), error_lines "
        "only joins them; the --select/--ignore problems are escaped (show) one by one"
    ),
    ("output/ruledocs.py", "main"): "docs/rules.md, generated from the shipped rule docs",
    ("oc/cli.py", "rotate_command"): (
        "`shown` is Project.show of the path, the fields are escaped (show), `count` a "
        "number; `refused.what` is our own word"
    ),
    ("oc/session_cli.py", "_refused"): "`refused.what` is our own word (checkpoint, result)",
    ("oc/cliutil.py", "write_checkpoint"): "`shown` is Project.show of the path",
    ("oc/output.py", "dump_json"): (
        "JSON from the door's printer (readers.json_loader.dump_text): json.dumps escapes "
        "every control character, a lone surrogate is written as its \\u escape"
    ),
    ("cli/checkpoint.py", "_load"): (
        "a ConfigError's lines are escaped when it is made (packs.ConfigError), error_lines "
        "only joins them"
    ),
    ("cli/commands.py", "_guarded"): "`prog` is the command's own name",
    ("cli/info.py", "rules_command"): "the shipped rule documentation",
    ("cli/info.py", "schema_command"): "a shipped schema (rules/schemas/) and its path",
    ("merge/install.py", "_fail"): "the message is escaped (show); `command` is our own name",
    ("adoption/command.py", "_run"): "the asimov-hooks command line init runs",
    ("adoption/command.py", "command"): (
        "the file names init writes (constants); the agent names click checked against "
        "its choices; the hook binding text of this installation"
    ),
}


def _is_output(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "print"
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value
    if isinstance(owner, ast.Name) and owner.id == "click":
        return func.attr in ("echo", "secho", "ClickException", "UsageError")
    return (
        func.attr == "write"
        and isinstance(owner, ast.Attribute)
        and owner.attr in ("stdout", "stderr")
        and isinstance(owner.value, ast.Name)
        and owner.value.id == "sys"
    )


def _safe(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper()  # a module constant
    if isinstance(node, ast.JoinedStr):
        return all(_safe(value) for value in node.values)
    if isinstance(node, ast.FormattedValue):
        spec = node.format_spec
        if isinstance(spec, ast.JoinedStr) and spec.values:
            last = spec.values[-1]
            if isinstance(last, ast.Constant) and str(last.value).endswith(NUMBER_FORMATS):
                return True
        return _safe(node.value)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        return name in ESCAPERS
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _safe(node.left) and _safe(node.right)
    if isinstance(node, ast.IfExp):
        return _safe(node.body) and _safe(node.orelse)
    return False


def _sites(tree: ast.AST) -> list[tuple[str, int, str]]:
    """(enclosing function, line, call) of every output call with an argument that is
    not known to be escaped."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and _is_output(child):
                arguments = [*child.args, *(k.value for k in child.keywords if k.arg == "message")]
                if not all(_safe(arg) for arg in arguments):
                    found.append((function, child.lineno, ast.unparse(child)[:100]))
            visit(child, function)

    visit(tree, "<module>")
    return found


def _scan() -> dict[tuple[str, str], list[object]]:
    """(module, function) -> `line: call` of each output call not known to be escaped."""
    return scan(lambda tree: ((fn, f"{line}: {call}") for fn, line, call in _sites(tree)))


def test_every_printed_value_is_escaped() -> None:
    raw = unlisted(_scan(), ALLOWED)
    assert not raw, (
        "these print values that are not known to be escaped: pass data from the "
        "checkout (file content, file names, config keys and values, settings keys, "
        "URLs) through fs.access.show (or github_escape), or, where nothing printed can "
        "come from the checkout, add the function to ALLOWED with the reason:\n" + "\n".join(raw)
    )


def test_every_allowed_function_still_prints() -> None:
    gone = stale(_scan(), ALLOWED)
    assert not gone, f"ALLOWED lists functions that print nothing unescaped any more: {gone}"


def test_the_scan_finds_every_output_call() -> None:
    source = (
        "import sys, click\n"
        "def f(name, n):\n"
        "    print(name)\n"
        "    click.echo(f'{name}: x')\n"
        "    click.secho(name)\n"
        "    sys.stdout.write(name + '\\n')\n"
        "    sys.stderr.write(f'{PROG}: {name}')\n"
        "    raise click.ClickException(str(name))\n"
        "    click.echo(f'{show(name)}: {n:,} {PROG}')\n"  # escaped, a number, a constant
        "    sys.stderr.write(f'{x.show(name)}' + 'x')\n"
        "    click.echo(github_escape(name) if n else 'none')\n"
        "    out.write(name)\n"  # a stream of the report's: checked where it is built
    )
    found = _sites(ast.parse(source))
    assert [line for _, line, _ in found] == [3, 4, 5, 6, 7, 8], found
    assert {function for function, _, _ in found} == {"f"}
