"""`asimov-hooks rules [ID]` and `asimov-hooks schema KIND`: documentation from the data."""

from __future__ import annotations

import os
import sys

import click

from ..config.config import ConfigError, default_data, load_schema, rules_dir
from ..options.clickopts import Choice

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
CONFIG_SCHEMA = "config"  # `asimov-hooks schema config`: the .asimov-hooks.yaml schema


def _fail(message: str) -> None:
    from ..fs.access import show

    sys.stderr.write(f"asimov-hooks: error: {show(message)}\n")
    sys.exit(2)


@click.command("rules", context_settings=CONTEXT)
@click.argument("rule_id", required=False, metavar="[ID]")
@click.option(
    "--format", "fmt", type=Choice(("text", "markdown")), default="text", show_default=True
)
def rules_command(rule_id: str | None, fmt: str) -> None:
    """List every rule (id, default level, the file kinds it applies to, what it reports),
    or explain one: why it exists and where that comes from, its options and defaults, an
    example that fails and the fix."""
    from ..output import ruledocs

    try:
        if rule_id is None:
            text = ruledocs.markdown() if fmt == "markdown" else ruledocs.list_text()
        else:
            rule = ruledocs.info(rule_id)
            if rule is None:
                from ..config.check import did_you_mean, known_rule_ids

                hint = did_you_mean(rule_id, known_rule_ids())
                _fail(f"unknown rule id {rule_id!r}{hint} (`asimov-hooks rules` lists them)")
            text = (
                ruledocs.rule_markdown(rule) if fmt == "markdown" else ruledocs.explain_text(rule)
            )  # type: ignore[arg-type]
    except ConfigError as exc:
        _fail(str(exc))
    sys.stdout.write(text)


def schema_files() -> dict[str, str]:
    """KIND -> schema file name, for every kind that has a schema, and `config`."""
    kinds = default_data().get("kinds", {})
    found = {kind: spec["schema"] for kind, spec in kinds.items() if spec.get("schema")}
    found[CONFIG_SCHEMA] = "config.schema.json"
    return found


@click.command("schema", context_settings=CONTEXT)
@click.argument("kind", required=False)
@click.option("--path", "show_path", is_flag=True, help="Print the installed file's path instead.")
@click.option("--list", "show_list", is_flag=True, help="List the kinds that have a schema.")
def schema_command(kind: str | None, show_path: bool, show_list: bool) -> None:
    """Print the JSON Schema of a file KIND (`config` for .asimov-hooks.yaml), for editors
    and other validators. Each schema has a stable $id."""
    try:
        files = schema_files()
        if show_list or kind is None:
            if kind is None and not show_list:
                _fail("missing KIND; one of: " + ", ".join(sorted(files)))
            for name in sorted(files):
                schema = load_schema(files[name])
                sys.stdout.write(f"{name}\t{schema.get('$id', '')}\n")
            return
        if kind not in files:
            from ..config.check import did_you_mean

            hint = did_you_mean(kind, files)
            _fail(f"no schema for kind {kind!r}{hint}; one of: " + ", ".join(sorted(files)))
        path = os.path.join(rules_dir(), "schemas", files[kind])
        if show_path:
            sys.stdout.write(path + "\n")
            return
        with open(path, encoding="utf-8") as fh:
            sys.stdout.write(fh.read())
    except ConfigError as exc:
        _fail(str(exc))
