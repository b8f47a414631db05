"""JSON Schema structure: where the subschemas of a schema are (as opposed to data such as
`const`, `enum`, `default` or a property that happens to be named "default")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from codegen.schema import budget, pointers
from codegen.schema.jsontypes import is_array, is_object
MAP_KEYWORDS = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
SINGLE_KEYWORDS = (
    "additionalProperties", "items", "contains", "unevaluatedProperties", "unevaluatedItems",
    "propertyNames", "not", "if", "then", "else", "additionalItems",
)  # fmt: skip
LIST_KEYWORDS = ("anyOf", "oneOf", "allOf", "prefixItems")


def children(node: Any, pointer: str) -> Iterator[tuple[str, str, str | int | None, Any]]:
    """(pointer, keyword, key or index, subschema) for each direct subschema of node."""
    if not is_object(node):
        return
    for keyword, value in node.items():
        # the keywords are plain tokens: only the keys below them need escaping
        if keyword in MAP_KEYWORDS and is_object(value):
            prefix = f"{pointer}/{keyword}/"
            for key, sub in value.items():
                yield prefix + pointers.escape(key), keyword, key, sub
        elif keyword in SINGLE_KEYWORDS and isinstance(value, dict | bool):
            yield f"{pointer}/{keyword}", keyword, None, value
        elif keyword in LIST_KEYWORDS and is_array(value) or keyword == "items" and is_array(value):
            prefix = f"{pointer}/{keyword}/"  # `items` as a list: draft-07's tuple form
            for index, sub in enumerate(value):
                yield prefix + str(index), keyword, index, sub


def all_subschemas(node: Any, pointer: str = "#", *, revision: str | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object at or below node (iterative: hostile schemas nest deeply). Each node
    visited is charged to the run's work budget (a node shared by several parents counts at each).

    pointer is where node is (a definition: "#/$defs/Tool"; the default "#" only for a whole document), and
    revision the document it is in when that is not the budget's own (one side of a diff): the
    budget names the place it ran out at, so that place must be one the input has."""
    stack: list[tuple[str, Any]] = [(pointer, node)]
    while stack:
        here, value = stack.pop()
        if not isinstance(value, dict):
            continue
        budget.charge(here, revision=revision)
        yield here, value
        stack.extend((p, sub) for p, _, _, sub in reversed(list(children(value, here))))


def schema_nodes(node: Any, pointer: str = "#") -> Iterator[tuple[str, dict[str, Any] | bool]]:
    """Every schema at or below node, objects and booleans (`true` is a whole schema), in document
    order; iterative, and not charged to the work budget: for the checks that size a schema.

    Lazy: a caller that stops after k schemas has paid for k, not for the siblings of the last one
    (a check that refuses at its 3,001st member of a 40,000-property object stays cheap)."""
    pending: list[Iterator[tuple[str, Any]]] = [iter(((pointer, node),))]
    while pending:
        step = next(pending[-1], None)
        if step is None:
            pending.pop()
            continue
        here, value = step
        if isinstance(value, dict | bool):
            yield here, value
            if isinstance(value, dict):
                pending.append((p, sub) for p, _, _, sub in children(value, here))


# A named type (a class or an alias) costs the engine, black and pydantic about twice a field.
NAMED_TYPE_WEIGHT = 2


def members_declared(node: dict[str, Any] | bool, pointer: str, *, definition: bool | None = None) -> int:
    """What the schema at pointer adds to the generated models, its subschemas not counted: 1 for
    itself (a field's type, a union arm, an item type), one per enum value, and NAMED_TYPE_WEIGHT in
    all when it is a named type (a definition, or an object with properties, which becomes a class).
    definition: whether the schema becomes a definition, when its pointer does not say (None)."""
    if not isinstance(node, dict):
        return 1
    if definition is None:
        parts = pointer.split("/")
        definition = len(parts) == 3 and parts[1] in ("$defs", "definitions")
    named = definition or isinstance(node.get("properties"), dict)
    values = node.get("enum")
    return (NAMED_TYPE_WEIGHT if named else 1) + (len(values) if is_array(values) else 0)


def count_subschemas(node: Any) -> int:
    """How many schema objects are at or below node (not charged: it sizes the budget)."""
    count = 0
    stack: list[Any] = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            count += 1
            stack.extend(sub for _, _, _, sub in children(value, "#"))
    return count


Flattened = dict[str, dict[str, Any] | None]


def flatten_all_of(
    node: dict[str, Any], resolve: Callable[[str], Any], memo: Flattened | None = None, *, revision: str | None = None
) -> dict[str, Any]:
    """node with its `allOf` merged in: properties (later members refine earlier ones), required keys
    and the rest of each member. `$ref` members are resolved with resolve(ref). The engine would
    otherwise emit a subclass that narrows its base's field types, which type checkers reject.

    Each referenced member is merged once per memo (pass one memo, keyed by reference, to calls
    with the same resolve): a diamond of references costs its size, not the number of its paths.
    A reference met again while it is being merged (a loop) is left out. revision: the document
    the references are in, when it is not the budget's own (one side of a diff)."""
    if not isinstance(node.get("allOf"), list):
        return node
    return _flatten(node, resolve, {} if memo is None else memo, set(), revision)


def _flatten(
    node: dict[str, Any], resolve: Callable[[str], Any], memo: Flattened, busy: set[str], revision: str | None
) -> dict[str, Any]:
    members = node.get("allOf")
    if not is_array(members):
        return node
    parts: list[dict[str, Any]] = []
    for member in members:
        if is_object(member) and isinstance(member.get("$ref"), str):
            ref = member["$ref"]
            if ref in busy:
                continue
            if ref not in memo:
                busy.add(ref)
                target = resolve(ref)
                memo[ref] = _flatten(target, resolve, memo, busy, revision) if is_object(target) else None
                busy.discard(ref)
            part = memo[ref]
            if part is not None:
                units = budget.MERGED_WEIGHT * (1 + len(part) + len(part.get("properties") or ()))
                budget.charge(ref, units, revision=revision)
                parts.append(part)
        elif is_object(member):
            parts.append(_flatten(member, resolve, memo, busy, revision))
    merged: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    parts.append({k: v for k, v in node.items() if k != "allOf"})
    for part in parts:
        for key, value in part.items():
            if key == "properties" and is_object(value):
                for name, schema in value.items():
                    previous = properties.get(name)
                    if isinstance(previous, dict) and isinstance(schema, dict):
                        properties[name] = {**previous, **schema}
                    else:
                        properties[name] = schema
            elif key == "required" and is_array(value):
                # names only: flattening may run before the well-formedness check refuses the rest
                required.extend(name for name in value if isinstance(name, str))
            elif key not in ("$ref",):
                merged[key] = value
    if properties:
        merged["properties"] = properties
    if required:
        merged["required"] = list(dict.fromkeys(required))
    return merged
