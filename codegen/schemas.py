"""JSON Schema structure: where the subschemas of a schema are (as opposed to data such as
`const`, `enum`, `default` or a property that happens to be named "default")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


def flatten_all_of(node: dict[str, Any], resolve: Callable[[str], Any], _seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """node with its `allOf` merged in: properties (later members refine earlier ones), required keys
    and the rest of each member. `$ref` members are resolved with resolve(ref). The engine would
    otherwise emit a subclass that narrows its base's field types, which type checkers reject."""
    members = node.get("allOf")
    if not isinstance(members, list):
        return node
    merged: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    parts: list[dict[str, Any]] = []
    for member in members:
        if isinstance(member, dict) and isinstance(member.get("$ref"), str) and member["$ref"] not in _seen:
            target = resolve(member["$ref"])
            if isinstance(target, dict):
                parts.append(flatten_all_of(target, resolve, _seen | {member["$ref"]}))
        elif isinstance(member, dict):
            parts.append(flatten_all_of(member, resolve, _seen))
    parts.append({k: v for k, v in node.items() if k != "allOf"})
    for part in parts:
        for key, value in part.items():
            if key == "properties" and isinstance(value, dict):
                for name, schema in value.items():
                    previous = properties.get(name)
                    if isinstance(previous, dict) and isinstance(schema, dict):
                        properties[name] = {**previous, **schema}
                    else:
                        properties[name] = schema
            elif key == "required" and isinstance(value, list):
                required.extend(r for r in value if r not in required)
            elif key not in ("$ref",):
                merged[key] = value
    if properties:
        merged["properties"] = properties
    if required:
        merged["required"] = required
    return merged
