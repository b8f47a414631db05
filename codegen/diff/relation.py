"""How the values two schemas accept relate: equivalent, compatible, widened, narrowed or changed.

`covers(a, b)` answers "does a accept every value b accepts?", conservatively (False when it cannot
tell). It is exact for what MCP schemas use (types, const/enum, objects, arrays, unions, `$ref`,
numeric and length bounds) and treats any other keyword that differs as a change.

- A `$ref` to the same definition on both sides (after renames) covers: that definition's own
  changes are reported once, under its name, not again at every use.
- Recursive schemas are compared coinductively: a pair already being compared is assumed covered.
- In lenient mode, keys an open object does not declare are read as unused extensions rather than
  "anything": an optional member added to or removed from an open object changes nothing either
  way. `relation` reports that as "compatible"; strictly equal value sets are "equivalent".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen.schema import budget
from codegen.diff.source import Side, definition_of
from codegen.schema.jsontypes import is_array, is_object
ANNOTATIONS = frozenset(
    {"description", "title", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
     "$schema", "$id", "$anchor", "markdownDescription"}
)  # fmt: skip
JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
_LOWER = ("minimum", "minLength", "minItems", "minProperties", "exclusiveMinimum")
_UPPER = ("maximum", "maxLength", "maxItems", "maxProperties", "exclusiveMaximum")
_HANDLED = frozenset(
    {"type", "const", "enum", "properties", "required", "additionalProperties", "items", "anyOf", "oneOf",
     "allOf", "$ref", "$defs", "definitions", *_LOWER, *_UPPER}
) | ANNOTATIONS

_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})

EQUIVALENT = "equivalent"
COMPATIBLE = "compatible"
WIDENED = "widened"
NARROWED = "narrowed"
CHANGED = "changed"


@dataclass(frozen=True)
class Node:
    side: Side
    schema: Any


@dataclass
class Comparer:
    """Compares schemas of two revisions; `same_definition(old, new)` says two names are one type."""

    same_definition: Callable[[str, str], bool]
    lenient: bool = True
    # (revision, pointer) the work is charged to outside any reference: the definition compared
    origin: tuple[str | None, str] = (None, "#")
    _assumed: set[tuple[str, str]] = field(default_factory=set[tuple[str, str]])
    # Answers through references, kept when they hold whatever was assumed: a pair reached again by
    # another path (a diamond of references) is answered once, not once per path.
    _known: dict[tuple[str, str], bool] = field(default_factory=dict[tuple[str, str], bool])
    _assumptions_used: int = 0
    _where: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])  # (side, reference) being expanded
    _keys: dict[int, tuple[Any, str]] = field(default_factory=dict[int, tuple[Any, str]])

    def covers(self, a: Node, b: Node) -> bool:
        side, where = self._where[-1] if self._where else self.origin
        budget.charge(where, revision=side)
        a_schema, b_schema = _normal(a.schema), _normal(b.schema)
        if b_schema is False:
            return True
        if a_schema is False:
            return False
        if not _constrains(a_schema):
            return True  # a accepts anything
        a_ref, b_ref = _pure_ref(a_schema), _pure_ref(b_schema)
        if a_ref and b_ref:
            a_def, b_def = definition_of(a_ref), definition_of(b_ref)
            if a_def and b_def and a_ref.count("/") == b_ref.count("/") == 2 and self._same(a_def, b_def, a, b):
                return True
        if a_ref or b_ref:
            key = (self._key(a.side, a_ref, a_schema), self._key(b.side, b_ref, b_schema))
            if key in self._known:
                return self._known[key]
            if key in self._assumed:
                self._assumptions_used += 1
                return True
            self._assumed.add(key)
            self._where.append((b.side.label, b_ref) if b_ref else (a.side.label, a_ref or "#"))
            used = self._assumptions_used
            try:
                answer = self.covers(_deref(a, a_schema), _deref(b, b_schema))
            finally:
                self._assumed.discard(key)
                self._where.pop()
            # No assumption consulted: the answer is exact. False is exact either way (assuming
            # more pairs covered can only turn answers to True).
            if not answer or self._assumptions_used == used:
                self._known[key] = answer
            return answer
        a_schema, b_schema = _flatten(a.side, a_schema), _flatten(b.side, b_schema)
        b_arms = _arms(b_schema)
        if b_arms is not None:
            return all(self.covers(a, Node(b.side, _arm_with(b_schema, arm))) for arm in b_arms)
        a_arms = _arms(a_schema)
        if a_arms is not None:
            pieces = (
                [b_schema] if len(types_of(b_schema)) == 1 else [_only_type(b_schema, t) for t in types_of(b_schema)]
            )
            return all(
                any(self.covers(Node(a.side, _arm_with(a_schema, arm)), Node(b.side, piece)) for arm in a_arms)
                for piece in pieces
            )
        return self._plain(Node(a.side, a_schema), Node(b.side, b_schema))

    def _key(self, side: Side, ref: str | None, schema: Any) -> str:
        """Identifies a schema in the comparisons under way: recursive ones come back to the same key."""
        if ref:
            return f"{side.label}:{ref}"
        known = self._keys.get(id(schema))
        if known is None or known[0] is not schema:
            known = (schema, f"{side.label}={json.dumps(schema, sort_keys=True, default=str)}")
            self._keys[id(schema)] = known  # the schema is kept with it, so its id is not reused
        return known[1]

    def _same(self, a_def: str, b_def: str, a: Node, b: Node) -> bool:
        # covers(new, old) and covers(old, new) both come here: try the pair both ways.
        return self.same_definition(b_def, a_def) or self.same_definition(a_def, b_def)

    def _plain(self, a: Node, b: Node) -> bool:
        sa, sb = a.schema, b.schema
        ta, tb = types_of(sa), types_of(sb)
        if not all(t in ta or (t == "integer" and "number" in ta) for t in tb):
            return False
        va, vb = _values(sa), _values(sb)
        if va is not None:
            if vb is None or not vb <= va:
                return False
        elif vb is not None and not all(_json_type(json.loads(v)) in ta or _is_int_in(v, ta) for v in vb):
            return False
        if vb is not None:
            return True  # every value b admits is listed and a admits each of them
        if not _bounds_cover(sa, sb):
            return False
        if {k: v for k, v in sa.items() if k not in _HANDLED} != {k: v for k, v in sb.items() if k not in _HANDLED}:
            extra = {k for k in set(sa) | set(sb) if k not in _HANDLED and sa.get(k) != sb.get(k)}
            if any(k in sa for k in extra):  # a constrains something b does not (or differently)
                return False
        if "object" in tb and not self._object(a, b):
            return False
        if "array" in tb and "items" in sa:
            if not self.covers(Node(a.side, sa["items"]), Node(b.side, sb.get("items", {}))):
                return False
        return True

    def _object(self, a: Node, b: Node) -> bool:
        sa, sb = a.schema, b.schema
        pa, pb = sa.get("properties") or dict[str, Any](), sb.get("properties") or dict[str, Any]()
        ra, rb = set(sa.get("required") or ()), set(sb.get("required") or ())
        if not ra <= rb:
            return False
        extra_a, extra_b = _additional(sa), _additional(sb)
        for name, schema in pa.items():
            if name in pb:
                if not self.covers(Node(a.side, schema), Node(b.side, pb[name])):
                    return False
            elif extra_b is not False and not (self.lenient and extra_b is True):
                if not self.covers(Node(a.side, schema), Node(b.side, {} if extra_b is True else extra_b)):
                    return False
        for name, schema in pb.items():
            if name not in pa and extra_a is not True:
                if extra_a is False or not self.covers(Node(a.side, extra_a), Node(b.side, schema)):
                    return False
        if extra_b is False or extra_a is True:
            return True
        if extra_a is False:
            return False
        return self.covers(Node(a.side, extra_a), Node(b.side, {} if extra_b is True else extra_b))


def relation(comparer: Comparer, old: Node, new: Node) -> str:
    """How what new accepts relates to what old accepts."""
    strict = Comparer(comparer.same_definition, lenient=False, origin=comparer.origin)
    if strict.covers(new, old) and strict.covers(old, new):
        return EQUIVALENT
    wider, narrower = comparer.covers(new, old), comparer.covers(old, new)
    if wider and narrower:
        return COMPATIBLE
    if wider:
        return WIDENED
    if narrower:
        return NARROWED
    return CHANGED


def types_of(schema: Any) -> tuple[str, ...]:
    """The JSON types a (non-union) schema admits; integer is listed apart from number."""
    if not is_object(schema):
        return JSON_TYPES if schema is not False else ()
    declared = schema.get("type")
    if isinstance(declared, str):
        return (declared,)
    if is_array(declared):
        return tuple(sorted(t for t in declared if isinstance(t, str)))
    values = _values(schema)
    if values is not None:
        return tuple(sorted({_json_type(json.loads(v)) for v in values}))
    if {"properties", "required", "additionalProperties"} & set(schema):
        return ("object",)
    if "items" in schema:
        return ("array",)
    return JSON_TYPES


def essential(node: Any) -> Any:
    """A schema without annotations, for comparing shape. Keys of `properties` and the like are
    names, not keywords: a property called `title` or `description` stays."""
    if is_array(node):
        return [essential(v) for v in node]
    if not is_object(node):
        return node
    result: dict[str, Any] = {}
    for key, value in sorted(node.items()):
        if key in ANNOTATIONS:
            continue
        if key in _NAME_MAPS and is_object(value):
            result[key] = {name: essential(sub) for name, sub in sorted(value.items())}
        elif key in ("const", "enum"):
            result[key] = value  # data, kept as it is
        else:
            result[key] = essential(value)
    return result


def _constrains(schema: Any) -> bool:
    """Whether a schema says anything beyond annotations (`essential(schema)` is not empty)."""
    return not is_object(schema) or any(key not in ANNOTATIONS for key in schema)


def _normal(schema: Any) -> Any:
    if schema is True or schema is None:
        return {}
    if is_object(schema) and schema.get("not") == {} and len(essential(schema)) == 1:
        return False
    return schema


def _pure_ref(schema: Any) -> str | None:
    if is_object(schema) and isinstance(schema.get("$ref"), str):
        return str(schema["$ref"])
    return None


def _deref(node: Node, schema: Any) -> Node:
    ref = _pure_ref(schema)
    if ref is None:
        return Node(node.side, schema)
    target = node.side.resolve(ref)
    siblings = {k: v for k, v in schema.items() if k != "$ref" and k not in ANNOTATIONS}
    if siblings and isinstance(target, dict):  # 2020-12 allows keywords beside $ref: both apply
        return Node(node.side, {"allOf": [target, siblings]})
    return Node(node.side, {} if target is None else target)


def _flatten(side: Side, schema: Any) -> Any:
    if not is_object(schema) or not isinstance(schema.get("allOf"), list):
        return schema
    return side.flat(dict(schema))


def _arms(schema: Any) -> list[Any] | None:
    if not is_object(schema):
        return None
    arms = [arm for key in ("anyOf", "oneOf") for arm in (schema.get(key) or ())]
    return arms if arms else None


def _arm_with(union: Mapping[str, Any], arm: Any) -> Any:
    """An arm with the union's own keywords (a shared `type`, say) applied to it."""
    rest = {k: v for k, v in union.items() if k not in ("anyOf", "oneOf") and k not in ANNOTATIONS}
    if not rest:
        return arm
    if is_object(arm) and "$ref" in arm:
        return {"allOf": [rest, arm]}
    return {**rest, **(arm if isinstance(arm, dict) else {})}


def _only_type(schema: Any, json_type: str) -> Any:
    base = schema if is_object(schema) else {}
    return {**base, "type": json_type}


def _values(schema: Any) -> frozenset[str] | None:
    if not is_object(schema):
        return None
    if "const" in schema:
        return frozenset({json.dumps(schema["const"], sort_keys=True)})
    if isinstance(schema.get("enum"), list):
        return frozenset(json.dumps(v, sort_keys=True) for v in schema["enum"])
    return None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _is_int_in(value: str, types: tuple[str, ...]) -> bool:
    return _json_type(json.loads(value)) == "integer" and "number" in types


def _additional(schema: Mapping[str, Any]) -> Any:
    """additionalProperties as True (anything), False (nothing) or a schema."""
    extra = schema.get("additionalProperties", True)
    if extra is True or extra == {} or (is_object(extra) and not essential(extra)):
        return True
    return extra


def _bounds_cover(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    for key in _LOWER:
        if key in a and (key not in b or not _number(b[key]) >= _number(a[key])):
            return False
    for key in _UPPER:
        if key in a and (key not in b or not _number(b[key]) <= _number(a[key])):
            return False
    return True


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else float("nan")
