"""schema: the file against its kind's JSON Schema (rules/schemas/), with positions.

The in-house evaluator (minischema) covers the keywords the packs use; a user's schema
that goes further is handed to jsonschema.
"""

from __future__ import annotations

from ..config import ConfigError, load_schema

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterator
    from typing import Any

    from .context import Context


def check_schema(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple]:
    name = ctx.spec.get("schema")
    if not name:
        return
    caps = _trim_caps(ctx) if "suggestion-over-cap" in opts else {}
    for err in evaluator(name).errors(ctx.data):
        err_path, message = err.path, err.message
        text = f"{_dotted(err_path)}: {message}" if err_path else message
        cap = caps.get(err_path[0]) if err.keyword == "maxItems" and len(err_path) == 1 else None
        if cap is not None:  # too many items where the trimmer caps them: trim is the fix
            keep, most = cap
            advice = opts["suggestion-over-cap"].format(field=err_path[0], keep=keep, max=most)
            yield err_path, text, err.on_key, advice
        else:
            yield err_path, text, err.on_key


def _trim_caps(ctx: Context) -> dict[str, tuple[str, int]]:
    """{list field: (first|last, max)} the trimmer caps in files of this kind."""
    trim = ctx.config.section("trim")
    if ctx.kind not in trim.get("kinds", []):
        return {}
    caps = trim.get("caps", {})
    return {k: (v.get("keep", "last"), v.get("max", 0)) for k, v in caps.items()}


RULES = {"schema": check_schema}


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


_EVALUATORS: dict[str, Any] = {}


def evaluator(schema_name: str) -> Any:
    """The compiled evaluator of a schema in rules/schemas/ (once per process)."""
    if schema_name not in _EVALUATORS:
        schema = load_schema(schema_name)
        from ..minischema import Evaluator, unsupported_keywords

        _EVALUATORS[schema_name] = (
            Evaluator(schema) if not unsupported_keywords(schema) else _JsonschemaAdapter(schema)
        )
    return _EVALUATORS[schema_name]


def schema_errors(data: Any, schema_name: str) -> Iterator[tuple[tuple, str, bool]]:
    """(instance path, message, on_key) for each schema violation."""
    for err in evaluator(schema_name).errors(data):
        yield err.path, err.message, err.on_key


class _JsonschemaAdapter:
    """Full jsonschema for user schemas that go beyond the in-house subset."""

    def __init__(self, schema: dict[str, Any]) -> None:
        import jsonschema

        cls = jsonschema.validators.validator_for(schema)
        try:
            cls.check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise ConfigError(f"invalid JSON Schema: {exc.message}") from None
        self.validator = cls(schema)

    def errors(self, data: Any) -> list[Any]:
        from ..minischema import SchemaError
        from ..readers.loaders import to_plain

        out = []
        for err in self.validator.iter_errors(to_plain(data)):
            on_key = err.validator == "additionalProperties"
            out.append(
                SchemaError(tuple(err.absolute_path), err.message, str(err.validator), on_key)
            )
        return out
