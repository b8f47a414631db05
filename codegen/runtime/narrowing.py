"""Typed structured content of tool results (SEP-2106): the part no revision changes. Each
revision package's narrowing.py types `narrow` and `narrow_result` with its own CallToolResult and
hands this module what it read from the result (`structured`).

- `narrow(result, T)` validates a CallToolResult's `structuredContent` into `T` (a model,
  `list[Model]`, a primitive; a union through `TypeAdapter[T]`). When `structuredContent` is absent,
  it reads the JSON that SEP-2106 asks servers to repeat in a TextContent block for older clients.
  It raises `ToolReportedError` for an `isError` result (never narrowed silently) and
  `NarrowingError` when neither source fits `T`.
- `narrow_result(result, T)` returns a `Structured[T]`: the value with the result it came from.
- `is_json_object`, `is_json_array`, ... are `TypeIs` predicates for each JSON shape.

Validation is strict JSON validation: "7" is not an int and 1 is not a bool, but an ISO string is a
datetime, a list a tuple, a value an Enum member (JSON has no such types of its own).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError
from pydantic_core import MISSING, PydanticSerializationError, from_json, to_json
from typing_extensions import TypeIs

__all__ = [
    "JSONSource",
    "NarrowingError",
    "ToolReportedError",
    "is_json_array",
    "is_json_boolean",
    "is_json_integer",
    "is_json_null",
    "is_json_number",
    "is_json_object",
    "is_json_string",
    "structured",
]

JSONSource = Literal["structuredContent", "text"]


class NarrowingError(ValueError):
    """The result's structured content (or its JSON text fallback) does not fit the requested
    type. `result` is the CallToolResult it came from (of whichever revision)."""

    def __init__(self, message: str, result: Any) -> None:
        super().__init__(message)
        self.result = result


class ToolReportedError(NarrowingError):
    """The tool reported an error (`isError: true`): its content is an error report, not output."""


def is_json_object(value: object) -> TypeIs[dict[str, Any]]:
    return isinstance(value, dict)


def is_json_array(value: object) -> TypeIs[list[Any]]:
    return isinstance(value, list)


def is_json_string(value: object) -> TypeIs[str]:
    return isinstance(value, str)


def is_json_number(value: object) -> TypeIs[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_json_integer(value: object) -> TypeIs[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def is_json_boolean(value: object) -> TypeIs[bool]:
    return isinstance(value, bool)


def is_json_null(value: object) -> TypeIs[None]:
    return value is None


_ADAPTERS: dict[object, TypeAdapter[Any]] = {}


def _adapter(target: type[Any]) -> TypeAdapter[Any]:
    """One TypeAdapter per target type: building one costs far more than validating with it."""
    adapter = _ADAPTERS.get(target)
    if adapter is None:
        adapter = _ADAPTERS[target] = TypeAdapter(target)
    return adapter


def structured(
    result: object,
    is_error: bool,
    content: object,
    texts: Iterable[tuple[int, str]],
    target: TypeAdapter[Any] | type[Any],
    *,
    allow_error: bool = False,
) -> tuple[Any, JSONSource]:
    """The structured content of a tool result validated as target, and where it came from.

    is_error: the result's `isError` is true; content: its `structuredContent` (MISSING when
    absent); texts: (index, text) of its TextContent blocks, read when there is no
    structuredContent."""
    if is_error and not allow_error:
        raise ToolReportedError(
            "the tool reported an error (isError: true); pass allow_error=True to read it", result
        )
    adapter = _as_adapter(target)
    problems: list[str] = []
    if content is not MISSING:
        try:
            return _validate(adapter, content), "structuredContent"
        except (ValueError, PydanticSerializationError) as exc:  # ValidationError included
            problems.append(f"structuredContent: {_first(exc)}")
    else:
        for index, text in texts:
            try:
                value = from_json(text, allow_inf_nan=False)
            except ValueError:
                problems.append(f"content[{index}]: text is not JSON")
                continue
            try:
                return _validate(adapter, value), "text"
            except (ValueError, PydanticSerializationError) as exc:  # ValidationError included
                problems.append(f"content[{index}]: {_first(exc)}")
        if not problems:
            problems.append("no structuredContent and no text content")
    raise NarrowingError(f"cannot narrow to {_name(target)}: " + "; ".join(problems), result)


def _validate(adapter: TypeAdapter[Any], value: object) -> Any:
    """Validate a JSON value as JSON, strictly: "7" is no int, but "2024-01-01" is a date and a
    list a tuple, as JSON has no such types of its own. NaN and Infinity (Python floats JSON cannot
    carry) are a ValueError: written out as such, then refused by the strict parse."""
    text = to_json(value, inf_nan_mode="constants")
    if b"NaN" in text or b"Infinity" in text:
        from_json(text, allow_inf_nan=False)
    return adapter.validate_json(text, strict=True)


# Beyond this many errors only their number is told: listing them all would cost more than the
# validation itself (a million wrong items).
_ERRORS_LISTED = 1_000


def _first(exc: ValueError | PydanticSerializationError) -> str:
    if isinstance(exc, PydanticSerializationError):
        return "value cannot be read back as JSON (nested too deeply?)"
    if not isinstance(exc, ValidationError):
        return "NaN or Infinity is not a JSON number"
    if exc.error_count() > _ERRORS_LISTED:
        return f"{exc.error_count()} values do not fit"
    error = exc.errors(include_url=False)[0]
    location = ".".join(str(part) for part in error["loc"]) or "value"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{location}: {error['msg']}{more}"


def _as_adapter(target: TypeAdapter[Any] | type[Any]) -> TypeAdapter[Any]:
    if isinstance(target, TypeAdapter):
        return target
    return _adapter(target)


def _name(target: object) -> str:
    name = getattr(target, "__name__", None)
    return name if isinstance(name, str) else repr(target)
