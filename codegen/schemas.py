"""JSON Schema structure: where the subschemas of a schema are (as opposed to data such as
`const`, `enum`, `default` or a property that happens to be named "default")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import pointers

MAP_KEYWORDS = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
SINGLE_KEYWORDS = (
    "additionalProperties", "items", "contains", "unevaluatedProperties", "unevaluatedItems",
    "propertyNames", "not", "if", "then", "else", "additionalItems",
)  # fmt: skip
LIST_KEYWORDS = ("anyOf", "oneOf", "allOf", "prefixItems")


def children(node: Any, pointer: str) -> Iterator[tuple[str, str, str | int | None, Any]]:
    """(pointer, keyword, key or index, subschema) for each direct subschema of node."""
    if not isinstance(node, dict):
        return
    for keyword, value in node.items():
        if keyword in MAP_KEYWORDS and isinstance(value, dict):
            for key, sub in value.items():
                yield pointers.join(pointer, keyword, key), keyword, key, sub
        elif keyword in SINGLE_KEYWORDS and isinstance(value, dict | bool):
            yield pointers.join(pointer, keyword), keyword, None, value
        elif keyword in LIST_KEYWORDS and isinstance(value, list):
            for index, sub in enumerate(value):
                yield pointers.join(pointer, keyword, index), keyword, index, sub
        elif keyword == "items" and isinstance(value, list):  # draft-07 tuple form
            for index, sub in enumerate(value):
                yield pointers.join(pointer, keyword, index), keyword, index, sub


def all_subschemas(node: Any, pointer: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object at or below node (iterative: hostile schemas nest deeply)."""
    stack: list[tuple[str, Any]] = [(pointer, node)]
    while stack:
        here, value = stack.pop()
        if not isinstance(value, dict):
            continue
        yield here, value
        stack.extend((p, sub) for p, _, _, sub in reversed(list(children(value, here))))
