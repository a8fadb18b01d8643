"""schema: the file against its kind's JSON Schema (rules/schemas/), with positions.

The schema is evaluated through `minischema.compile_schema`, the one entry point: the
in-house evaluator for the keywords it implements, jsonschema for a schema that goes
further. A kind's schema is a shipped one or a file
inside the repository (config.schemas); a repository schema's patterns run time-bounded.
"""

from __future__ import annotations

from ..config.config import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterator
    from typing import Any

    from .context import Context


def check_schema(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple]:
    name = ctx.spec.get("schema")
    if not name:
        return
    for err in _errors(name, ctx):
        text = f"{_dotted(err.path)}: {err.message}" if err.path else err.message
        err_path = _data_path(ctx.data, err.path)  # where the file holds it
        cap = None
        if err.keyword == "maxItems" and len(err_path) == 1 and "suggestion-over-cap" in opts:
            cap = _trim_cap(ctx, err_path[0])
        refused = _trim_refuses(ctx) if cap is not None else None
        if refused is not None:  # trim would leave the file as it is: say why, not "run it"
            advice = (
                f"`asimov-hooks trim` cannot fix this file ({refused}); remove items of "
                f"{err_path[0]} by hand"
            )
            yield err_path, text, err.on_key, advice
        elif cap is not None:  # too many items where the trimmer caps them: trim is the fix
            keep, most = cap
            advice = opts["suggestion-over-cap"].format(field=err_path[0], keep=keep, max=most)
            yield err_path, text, err.on_key, advice
        else:
            yield err_path, text, err.on_key


def _trim_cap(ctx: Context, name: Any) -> tuple[str, int] | None:
    """(first|last, max) when the trimmer caps the list `name` in files of this kind:
    the end it keeps of this file's list (`Settings.ends`, asked of that list alone),
    else None."""
    Settings, keep_for, _ = _TRIM or _trim()
    settings = Settings.from_config(ctx.config)  # the one reading of the section
    cap = settings.caps.get(name)
    if cap is None or ctx.kind not in settings.kinds:
        return None
    data = ctx.data if isinstance(ctx.data, dict) else {}
    return keep_for(cap.keep, settings.order, data.get(name) or []), cap.max


def _trim_refuses(ctx: Context) -> str | None:
    return (_TRIM or _trim())[2](ctx)  # trim_refusal


# the trimmer's pieces the advice asks, imported on the first list over its cap and
# kept (an import statement per file costs more than the lookup)
_TRIM: list[Any] = []


def _trim() -> list[Any]:
    """[Settings, keep_for, trim_refusal]."""
    if not _TRIM:
        from ..trim.algorithm import trim_refusal
        from ..trim.order import keep_for
        from ..trim.settings import Settings

        _TRIM.extend((Settings, keep_for, trim_refusal))
    return _TRIM


def _errors(name: str, ctx: Context) -> list[Any]:
    """The schema's errors; a repository schema that cannot run is a config error."""
    return list(_run(name, ctx.config, ctx.data))


def _run(name: str, config: Any, data: Any) -> list[Any]:
    try:
        return evaluator(name, config).errors(data)
    except RecursionError:
        raise ConfigError(f"schema {name!r}: nests or refers to itself too deeply") from None
    except Exception as exc:  # what it is, asked only when there is one
        from ..minischema import PatternTimeout
        from ..minischema.fallback import InvalidSchema

        if isinstance(exc, PatternTimeout):
            raise ConfigError(
                f"schema {name!r}: keyword 'pattern' {exc.pattern[:80]!r} ran longer than "
                f"{exc.seconds:g} s on one value (limits.pattern-milliseconds); simplify it"
            ) from None
        if isinstance(exc, InvalidSchema):
            raise ConfigError(f"schema {name!r}: {exc.message}") from None
        raise


RULES = {"schema": check_schema}


def _data_path(data: Any, path: tuple) -> tuple:
    """`path` (object keys as their YAML text, as both evaluators see them) with the
    keys the data holds (`1`, a date), so the finding points at the right line."""
    real: list[Any] = []
    node = data
    for part in path:
        if isinstance(node, dict) and part not in node:
            from ..readers import key_text

            part = next((key for key in node if key_text(key) == part), part)
        real.append(part)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
    return tuple(real)


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


_EVALUATORS: dict[tuple[str, str, bool], Any] = {}
# (schema name, whether formats are asserted) -> the compiled schema, for a shipped one
_SHIPPED: dict[tuple[str, bool], Any] = {}


def evaluator(schema_name: str, config: Any = None) -> Any:
    """The compiled schema a kind names (once per process): shipped, or a file in the
    repository (see config.schemas), whose patterns run with a time bound."""
    formats = bool(getattr(config, "format_assertion", False))
    found = _SHIPPED.get((schema_name, formats))
    if found is not None:  # every later file of the kind: no import, no path test
        return found
    from ..config.schemas import is_user_schema, schema_for

    user = is_user_schema(schema_name)
    key = (schema_name, config.base_dir if user and config is not None else "", formats)
    if key not in _EVALUATORS:
        schema = schema_for(schema_name, config)
        from ..minischema import compile_schema
        from ..minischema.fallback import InvalidSchema

        seconds = None
        if user:
            limits = config.limits if config is not None else {}
            seconds = limits.get("pattern-milliseconds", 1000) / 1000
        try:
            _EVALUATORS[key] = compile_schema(schema, seconds, formats)
        except InvalidSchema as exc:
            raise ConfigError(f"schema {schema_name!r}: {exc.message}") from None
    if not user:
        _SHIPPED[(schema_name, formats)] = _EVALUATORS[key]
    return _EVALUATORS[key]
