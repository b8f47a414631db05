"""Most-specific-arm facts for unions of models that no rule can tell apart (ServerResult).

Such a union stays pydantic's smart union: every arm is validated and the one that fills the most
declared fields wins, the first on a tie. That costs one validation per arm. The facts below let
the generated package predict the winner from the keys a value has (see _specific.py): for each
arm, the keys it requires and, per declared key, a signature of what validates its value (equal
signatures validate alike, so they fill alike), and one level into object-valued keys the same
again. With them, a value's keys often single out one arm that would beat every other arm that
can validate at all; that arm alone is then tried, and the smart union only when it fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from codegen.analysis import ir
from codegen.schema import schemas
from codegen.schema.jsontypes import is_array, is_object

Resolve = Callable[[str], Mapping[str, Any]]

# Keywords that describe a value without constraining it: two properties differing only in these
# validate alike.
_ANNOTATIONS = frozenset({"description", "title", "examples", "$comment", "default", "deprecated"})
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMAS = ("items", "additionalProperties", "not", "contains", "propertyNames")


def specificity(arms: Sequence[str], resolve: Resolve, flattened: schemas.Flattened) -> ir.Specificity | None:
    """The facts of a union whose arms (pointers, past `$ref` aliases) are all object models, or
    None when some arm is not a plain object schema."""

    def flat(schema: Mapping[str, Any]) -> Mapping[str, Any]:
        return schemas.flatten_all_of(dict(schema), lambda ref: resolve(ref), flattened)

    signatures: dict[str, int] = {}
    shaped: list[tuple[str, ir.Shape]] = []
    for arm in dict.fromkeys(arms):  # an arm listed twice never wins the second time
        schema = flat(resolve(arm))
        if not _is_model(schema):
            return None
        shaped.append((arm, _shape(schema, resolve, flat, signatures, depth=1)))
    return ir.Specificity(arms=_pruned(shaped))


def _pruned(shaped: Sequence[tuple[str, ir.Shape]]) -> tuple[tuple[str, ir.Shape], ...]:
    """The arms with a held model's shape kept only where a choice can use it: a required key whose
    model requires keys of its own (an arm without them cannot validate), and a key the arms
    declare with different signatures (the held models' keys may still rank the arms). Without it a
    choice reads less (and keeps fewer tables): it may only take more arms as possible."""
    signatures: dict[str, set[int]] = {}
    for _, shape in shaped:
        for k in shape.keys:
            signatures.setdefault(k.key, set()).add(k.signature)
    differing = {key for key, seen in signatures.items() if len(seen) > 1}

    def useful(shape: ir.Shape, k: ir.ShapeKey) -> bool:
        assert k.nested is not None
        return k.key in differing or (k.key in shape.required and bool(k.nested.required))

    return tuple(
        (
            arm,
            replace(
                shape,
                keys=tuple(k if k.nested is None or useful(shape, k) else replace(k, nested=None) for k in shape.keys),
            ),
        )
        for arm, shape in shaped
    )


def _is_model(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    return (kind is None or kind == "object") and is_object(schema.get("properties")) and not any(
        schema.get(key) for key in ("anyOf", "oneOf")
    )


def _shape(
    schema: Mapping[str, Any],
    resolve: Resolve,
    flat: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    signatures: dict[str, int],
    depth: int,
) -> ir.Shape:
    properties: Mapping[str, Any] = schema.get("properties") or {}
    required = tuple(sorted(key for key in schema.get("required") or () if isinstance(key, str) and key in properties))
    keys: list[ir.ShapeKey] = []
    for key in sorted(properties):
        sub = properties[key]
        if not is_object(sub):
            continue
        signature = signatures.setdefault(_signature(sub), len(signatures))
        nested: ir.Shape | None = None
        if depth > 0:
            held: Mapping[str, Any] = sub
            if isinstance(sub.get("$ref"), str) and set(sub) <= {"$ref", *_ANNOTATIONS}:
                held = resolve(sub["$ref"])
            held = flat(held)
            if _is_model(held):
                nested = _shape(held, resolve, flat, signatures, depth - 1)
        keys.append(ir.ShapeKey(key, signature, nested))
    return ir.Shape(required=required, keys=tuple(keys))


def _signature(schema: Any) -> str:
    return json.dumps(_constraints(schema), sort_keys=True, separators=(",", ":"))


def _constraints(schema: Any) -> Any:
    """schema without its annotation keywords, at every schema position."""
    if not is_object(schema):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key == "properties" and is_object(value):
            out[key] = {name: _constraints(sub) for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS and is_array(value):
            out[key] = [_constraints(sub) for sub in value]
        elif key in _SUBSCHEMAS:
            out[key] = _constraints(value)
        else:
            out[key] = value
    return out


def in_use(revision: ir.Revision) -> list[ir.Entity]:
    """The unions whose generated alias predicts its smart union's winner (the rest stay plain).

    Only with the generator's own reading rules: a base class of the user's may validate on its
    own, `inbound = "lenient"` reads null as absent, and `populate_by_name` reads attribute names
    too; any of them changes which fields a value fills, which the shapes count by wire key."""
    options = revision.options
    by_name = any(key == "populate_by_name" and value for key, value in options.pydantic_config)
    if options.base_class or options.inbound != "strict" or by_name:
        return []
    return [e for e in revision.entities if e.specific is not None]


ANY_ARM_TAG = "*"
"""The tag of a union's smart union over every arm, beside its arms' own (class names): the models
module writes it, `_base.most_specific` answers it and `_base.union_arms` looks for it."""


def any_arm_name(union: str) -> str:
    """The private alias of a union's plain smart union, beside the union's own alias."""
    return f"_{union}AnyArm"


def nested_keys(facts: ir.Specificity) -> tuple[str, ...]:
    """The keys whose values' own keys a choice reads: those holding a model in some arm."""
    return tuple(sorted({k.key for _, shape in facts.arms for k in shape.keys if k.nested is not None}))
