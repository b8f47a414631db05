"""SEP-1330 helpers for elicitation forms, the same in every revision: each revision package's
elicitation.py gives the functions of an `Elicitation` reading a schema into its own
PrimitiveSchemaDefinition model.

- `enum_choice(schema)`: any enum schema variant (untitled/titled single-select, untitled/titled
  multi-select, legacy `enumNames`) as a list of (value, title) options plus single/multi select.
- `check_answer(requested_schema, content)`: the problems of an `ElicitResult.content` answer to a
  form's `requestedSchema` (required fields, types, lengths, bounds, enum values, item counts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar, cast

from pydantic import BaseModel, TypeAdapter
from pydantic_core import MISSING

__all__ = [
    "AnswerProblem",
    "Elicitation",
    "EnumChoice",
    "EnumOption",
    "check_answer",
    "enum_choice",
]

P = TypeVar("P")  # a revision's PrimitiveSchemaDefinition


@dataclass(frozen=True)
class EnumOption:
    value: str
    title: str  # the display title; the value itself where the schema gives none


@dataclass(frozen=True)
class EnumChoice:
    options: tuple[EnumOption, ...]
    multiple: bool  # a multi-select (an array of values) rather than a single value
    min_items: int | None = None
    max_items: int | None = None
    default: str | tuple[str, ...] | None = None

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(option.value for option in self.options)


@dataclass(frozen=True)
class AnswerProblem:
    field: str
    message: str


def _get(obj: object, key: str) -> Any:
    """The value of a schema keyword (its wire name) in a parsed model, whatever its attribute is
    called (field-naming), or among its unknown keys; None when absent."""
    if not isinstance(obj, BaseModel):
        return None
    value = getattr(obj, _attributes(type(obj)).get(key, key), MISSING)
    if value is MISSING and obj.model_extra:
        value = obj.model_extra.get(key, MISSING)
    return None if value is MISSING else value


@cache
def _attributes(model: type[BaseModel]) -> dict[str, str]:
    """A model's attributes by wire name."""
    return {
        info.alias if isinstance(info.alias, str) else name: name
        for name, info in model.model_fields.items()
    }


def _titled(options: Sequence[Any]) -> tuple[EnumOption, ...]:
    return tuple(
        EnumOption(str(_get(o, "const")), str(_get(o, "title") or _get(o, "const")))
        for o in options
    )


def enum_choice(parsed: object) -> EnumChoice | None:
    """The options of an enum schema (any SEP-1330 variant: a revision's PrimitiveSchemaDefinition
    model), or None for a non-enum field."""
    kind = _get(parsed, "type")
    default = _get(parsed, "default")
    if kind == "array":
        items = _get(parsed, "items")
        if _get(items, "anyOf"):
            options = _titled(_get(items, "anyOf"))
        elif _get(items, "enum"):
            options = tuple(EnumOption(v, v) for v in _get(items, "enum"))
        else:
            return None
        return EnumChoice(
            options,
            multiple=True,
            min_items=_get(parsed, "minItems"),
            max_items=_get(parsed, "maxItems"),
            default=(
                tuple(str(v) for v in cast("list[object]", default))
                if isinstance(default, list)
                else None
            ),
        )
    if kind != "string":
        return None
    if _get(parsed, "oneOf"):
        options = _titled(_get(parsed, "oneOf"))
    elif _get(parsed, "enum"):
        values = list(_get(parsed, "enum"))
        titles = list(_get(parsed, "enumNames") or values)
        options = tuple(
            EnumOption(str(v), str(titles[i] if i < len(titles) else v))
            for i, v in enumerate(values)
        )
    else:
        return None
    return EnumChoice(
        options, multiple=False, default=default if isinstance(default, str) else None
    )


def check_answer(
    requested_schema: object, content: Mapping[str, Any] | None, read: Callable[[Any], object]
) -> list[AnswerProblem]:
    """Problems of a form answer against the form's `requestedSchema` (an empty list: it fits).

    requested_schema: the `requestedSchema` model of an elicitation request, or its JSON object;
    read: a property's schema as the revision's PrimitiveSchemaDefinition model (a JSON object
    validated, a model as it is).
    """
    if isinstance(requested_schema, Mapping):
        form = cast("Mapping[str, Any]", requested_schema)
        properties: Mapping[str, Any] = form.get("properties") or {}
        required: list[str] = list(form.get("required") or ())
    else:
        properties = _get(requested_schema, "properties") or {}
        required = list(_get(requested_schema, "required") or ())
    answer: dict[str, Any] = dict(content or {})
    problems = [AnswerProblem(name, "is required") for name in required if name not in answer]
    for name, value in answer.items():
        if name not in properties:
            problems.append(AnswerProblem(name, "is not a field of the form"))
            continue
        problems.extend(
            AnswerProblem(name, message)
            for message in _field_problems(read(properties[name]), value)
        )
    return problems


def _field_problems(schema: object, value: object) -> list[str]:
    problems: list[str] = []
    choice = enum_choice(schema)
    if choice is not None:
        return _choice_problems(choice, value)
    kind = _get(schema, "type")
    if kind == "boolean":
        return [] if isinstance(value, bool) else ["must be true or false"]
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return ["must be a number"]
        if kind == "integer" and not (isinstance(value, int) or float(value).is_integer()):
            return ["must be an integer"]
        minimum, maximum = _get(schema, "minimum"), _get(schema, "maximum")
        if minimum is not None and value < minimum:
            problems.append(f"must be at least {minimum}")
        if maximum is not None and value > maximum:
            problems.append(f"must be at most {maximum}")
        return problems
    if not isinstance(value, str):
        return ["must be a string"]
    problems = []
    min_length, max_length = _get(schema, "minLength"), _get(schema, "maxLength")
    if min_length is not None and len(value) < min_length:
        problems.append(f"must be at least {min_length} characters")
    if max_length is not None and len(value) > max_length:
        problems.append(f"must be at most {max_length} characters")
    pattern = _get(schema, "pattern")
    if isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                problems.append(f"must match {pattern}")
        except re.error:
            problems.append(
                f"cannot be checked: {pattern!r} is not a regular expression Python reads"
            )
    return problems


def _choice_problems(choice: EnumChoice, value: object) -> list[str]:
    allowed = ", ".join(repr(v) for v in choice.values)
    if not choice.multiple:
        return (
            []
            if isinstance(value, str) and value in choice.values
            else [f"must be one of {allowed}"]
        )
    if not isinstance(value, list):
        return ["must be a list of strings"]
    selected = cast("list[object]", value)
    if not all(isinstance(v, str) for v in selected):
        return ["must be a list of strings"]
    problems = [f"{v!r} is not one of {allowed}" for v in selected if v not in choice.values]
    if len(set(selected)) != len(selected):
        problems.append("must not repeat a value")
    if choice.min_items is not None and len(selected) < choice.min_items:
        problems.append(f"must have at least {choice.min_items} selections")
    if choice.max_items is not None and len(selected) > choice.max_items:
        problems.append(f"must have at most {choice.max_items} selections")
    return problems


class Elicitation(Generic[P]):
    """The helpers of one revision, which reads a field's schema with its own models (`schema`: a
    TypeAdapter of its PrimitiveSchemaDefinition)."""

    def __init__(self, schema: TypeAdapter[P]) -> None:
        self._schema = schema

    def _read(self, schema: object) -> Any:
        """A field's schema as the revision's model: a JSON object validated, a model as it is."""
        return self._schema.validate_python(schema) if isinstance(schema, Mapping) else schema

    def enum_choice(self, schema: P | Mapping[str, Any]) -> EnumChoice | None:
        """The options of an enum schema (any SEP-1330 variant), or None for a non-enum field."""
        return enum_choice(self._read(schema))

    def check_answer(
        self, requested_schema: object, content: Mapping[str, Any] | None
    ) -> list[AnswerProblem]:
        """Problems of a form answer against the form's `requestedSchema` (an empty list: it fits).

        requested_schema: the `requestedSchema` model of an elicitation request, or its JSON object.
        """
        return check_answer(requested_schema, content, self._read)
