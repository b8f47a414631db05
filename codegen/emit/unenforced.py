"""What a generated model accepts that its schema refuses: the keywords the engine has no type for.

The models check types, `const`/`enum`, bounds, lengths, `pattern`, `multipleOf`, required and
extra keys, `patternProperties`, `propertyNames` and `allOf`. These they do not check, and a value
breaking them is accepted (measured, keyword by keyword, in tests/test_hardening_r3_outputs.py):

- `required` naming a key the object does not declare in `properties` (its own or its `allOf`'s);
- `uniqueItems`, `prefixItems` (item types by position), `contains` (with `minContains`/`maxContains`);
- `dependentRequired`, `dependentSchemas`, `not`, `if`/`then`/`else`.

Enforcing them would take a second validator in every generated package; the generator says so
instead, where it matters most, for schemas nobody vetted: `mcp-codegen tools` prints a warning per
tool and keyword, and the class docstring names them (codegen/tools/package.py). `check_output`
(and jsonschema) check every keyword. Nothing under `not`, `if`, `contains` or `dependentSchemas`
is checked either, so it is not listed again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codegen.errors import printable
from codegen.schema import pointers, schemas
from codegen.schema.jsontypes import is_array, is_object

# In the order a report lists them (`contains` stands for min/maxContains too).
KEYWORDS = (
    "required", "uniqueItems", "prefixItems", "contains", "dependentRequired", "dependentSchemas", "not", "if/then/else",
)  # fmt: skip
_UNCHECKED_BELOW = frozenset({"not", "if", "then", "else", "contains", "dependentSchemas"})


def unenforced(schema: Any) -> dict[str, list[str]]:
    """keyword -> the pointers (into schema, "#/properties/xs") where the models do not enforce it."""
    found: dict[str, list[str]] = {}
    merged: schemas.Flattened = {}  # each referenced `allOf` member merged once for the whole walk
    stack: list[tuple[str, Any, bool]] = [("#", schema, False)]
    while stack:
        pointer, node, member = stack.pop()
        if not is_object(node):
            continue
        for keyword in _loose_keywords(schema, node, member, merged):
            found.setdefault(keyword, []).append(pointer)
        children = [
            (where, sub, keyword == "allOf")
            for where, keyword, _, sub in schemas.children(node, pointer)
            if keyword not in _UNCHECKED_BELOW
        ]
        stack.extend(reversed(children))
    return {keyword: sorted(found[keyword]) for keyword in KEYWORDS if keyword in found}


def _loose_keywords(document: Any, node: Mapping[str, Any], member: bool, merged: schemas.Flattened) -> list[str]:
    """The keywords of node the models leave unchecked; member: node is an `allOf` member, whose
    `required` is checked with the object it is merged into."""
    loose: list[str] = []
    if not member and _undeclared_required(document, node, merged):
        loose.append("required")
    if node.get("uniqueItems") is True:
        loose.append("uniqueItems")
    if is_array(node.get("prefixItems")) and node["prefixItems"]:
        loose.append("prefixItems")
    if "contains" in node:
        loose.append("contains")
    for keyword in ("dependentRequired", "dependentSchemas"):
        if is_object(node.get(keyword)) and node[keyword]:
            loose.append(keyword)
    if "not" in node:
        loose.append("not")
    if "if" in node and ("then" in node or "else" in node):
        loose.append("if/then/else")
    return loose


def _undeclared_required(document: Any, node: Mapping[str, Any], merged: schemas.Flattened) -> bool:
    """Whether the object requires a key it does not declare in `properties`, with what its `allOf`
    members (and a `$ref` beside its keywords) merge into it, as the generator merges them. A bare
    `$ref` is its target's class, checked where the target is."""
    if "required" not in node and "allOf" not in node:
        return False

    def resolve(ref: str) -> Any:
        try:
            return pointers.resolve(document, ref)
        except (KeyError, ValueError):
            return None

    members: list[Any] = list(node["allOf"]) if is_array(node.get("allOf")) else []
    if isinstance(node.get("$ref"), str):  # keywords beside a `$ref` apply with its target's
        members.append({"$ref": node["$ref"]})
    flat = schemas.flatten_all_of({**node, "allOf": members}, resolve, merged) if members else node
    required, properties = flat.get("required"), flat.get("properties")
    named = {key for key in required if isinstance(key, str)} if is_array(required) else set[str]()
    return bool(named - set(properties if is_object(properties) else ()))


def docstring_note(found: Mapping[str, list[str]]) -> str:
    """A paragraph for a class docstring naming what its model does not enforce."""
    listed = "; ".join(f"{keyword} at {_few(where)}" for keyword, where in found.items())
    return (
        f"Not enforced by this model: {listed}.\nValidate against the schema itself to check them "
        "(codegen.checks.outputschema.check_output, or jsonschema)."
    )


def _few(where: list[str], limit: int = 3) -> str:
    shown = ", ".join(printable(pointer) for pointer in where[:limit])  # one line each: names are data
    return shown + (f" and {len(where) - limit} more" if len(where) > limit else "")
