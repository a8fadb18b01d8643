"""`jsonschema` for a schema that uses what minischema does not implement.

The schema is checked against its meta-schema when built (`InvalidSchema` otherwise),
references are looked up inside the document only (an empty registry: nothing is ever
fetched), and the errors come back as minischema's `SchemaError`s, so a caller cannot
tell which evaluator ran except by what they support.
"""

from __future__ import annotations

from .keywords import SchemaError
from .patterns import _timed_call

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any


class InvalidSchema(Exception):
    """The schema itself is wrong (meta-schema, or a reference that resolves nowhere)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class JsonschemaEvaluator:
    """Full jsonschema behind the `Evaluator.errors` interface."""

    def __init__(self, schema: Any, seconds: float | None = None, formats: bool = False) -> None:
        import jsonschema
        from referencing import Registry

        self.seconds = seconds
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        cls = _finite_multiple(cls)
        try:
            cls.check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise InvalidSchema(f"invalid JSON Schema: {exc.message[:200]}") from None
        if formats:  # exactly minischema's format checks (formats.py): one verdict
            from .formats import format_checker

            self.validator = cls(schema, registry=Registry(), format_checker=format_checker())
        else:
            self.validator = cls(schema, registry=Registry())

    def errors(self, data: Any) -> list[SchemaError]:
        from referencing.exceptions import Unresolvable

        from ..readers.loaders import to_plain

        plain = to_plain(data)
        try:
            if self.seconds is not None:  # a user's schema: the whole check is time-bounded
                found = _timed_call(
                    lambda: list(self.validator.iter_errors(plain)), self.seconds * 5
                )
            else:
                found = list(self.validator.iter_errors(plain))
        except Unresolvable as exc:
            raise InvalidSchema(f"$ref {exc.ref!r} does not resolve inside the schema") from None
        return [
            SchemaError(
                tuple(err.absolute_path),
                err.message,
                str(err.validator),
                err.validator == "additionalProperties",
            )
            for err in found
        ]


def _finite_multiple(cls: Any) -> Any:
    """`cls` whose `multipleOf` answers for NaN and the infinities too: jsonschema says
    they are not a multiple of an integer, and fails (ValueError, OverflowError) on a
    fractional divisor; YAML's `.nan` and `.inf` are not a multiple of either."""
    import jsonschema

    original = cls.VALIDATORS.get("multipleOf")
    if original is None:
        return cls

    def multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Any:
        if isinstance(instance, float) and (
            instance != instance or instance in (float("inf"), float("-inf"))
        ):
            yield jsonschema.ValidationError(f"{instance!r} is not a multiple of {divisor}")
            return
        yield from original(validator, divisor, instance, schema)

    return jsonschema.validators.extend(cls, {"multipleOf": multiple_of})
