"""Types for decoded JSON (schema documents, instances, config) at the generator's boundaries.

A decoded JSON value is `Any` on purpose: its shape is what the code checks at run time, and an
explicit `Any` keeps the type checkers quiet only where it is spelled out. The guards below narrow
a value to a JSON object or array with string keys, which a bare `isinstance(x, dict)` cannot say
(pyright narrows it to `dict[Unknown, Unknown]`).
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypeIs

JSON = Any  # a decoded JSON value: None, bool, int, float, str, list, or dict with str keys
JSONObject = dict[str, Any]
JSONArray = list[Any]


def is_object(value: object) -> TypeIs[dict[str, Any]]:
    """A decoded JSON object (json.loads gives dicts with str keys only)."""
    return isinstance(value, dict)


def is_array(value: object) -> TypeIs[list[Any]]:
    """A decoded JSON array."""
    return isinstance(value, list)


def json_type(value: object) -> str:
    """What a decoded JSON value is, in words for an error line ("an array", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"
