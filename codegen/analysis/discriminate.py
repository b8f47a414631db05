"""Structural discriminators for unions without a shared `const` tag.

For every arm (an object model) the analysis collects what a valid instance must look like —
required keys, the `const`/`enum` values of required properties (one level into inline objects, so
`items.anyOf` tells a titled multi-select from `items.enum`), optional `const` properties — drops
what all arms share, separates arms that still look alike by a key only one of them declares, and
orders the rules most specific first. Arms that remain indistinguishable leave the union to
pydantic's smart mode, with the reason reported.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from codegen.analysis import ir
from codegen.schema import schemas
from codegen.schema.jsontypes import is_array, is_object
Resolve = Callable[[str], Mapping[str, Any]]
Flat = Callable[[Mapping[str, Any]], Mapping[str, Any]]


# The values of `resultType` (2026-07-28 on) that name a result's kind, from the schema's ResultType
# description: "input_required" means the result is an InputRequiredResult, "complete" the request's own
# result. The type itself stays an open string: any other value (an extension's result) is left to the
# structural rules, as the schema leaves it to the union's arms.
_RESULT_TYPE = "resultType"
_INPUT_REQUIRED = ("#/$defs/InputRequiredResult", "input_required")
_COMPLETE = "complete"


def structural_dispatch(
    arms: Sequence[str], resolve: Resolve, flattened: schemas.Flattened | None = None
) -> ir.Dispatch | str:
    """A dispatch for the union of these arm pointers, or the reason there is none.

    flattened: a memo of merged `allOf` targets, shared with other calls using the same resolve."""
    memo: schemas.Flattened = {} if flattened is None else flattened
    pointer, value = _INPUT_REQUIRED
    if pointer not in arms or not all(
        _RESULT_TYPE in (schemas.flatten_all_of(dict(resolve(arm)), lambda ref: resolve(ref), memo).get("properties") or {})
        for arm in arms
    ):
        return _by_shape(arms, resolve, memo)
    # Routed by resultType first; values it does not name go to the arms' shapes.
    rest = [arm for arm in arms if arm != pointer]
    by_shape = _by_shape(arms, resolve, memo)
    if isinstance(by_shape, str):
        by_shape = _by_shape(rest, resolve, memo) if len(rest) > 1 else ir.Dispatch((ir.Rule(rest[0], ()),), ())
    if isinstance(by_shape, str):
        return by_shape
    lead = [ir.Rule(pointer, (ir.Predicate("eq", (_RESULT_TYPE,), (value,)),))]
    if len(rest) == 1:
        lead.append(ir.Rule(rest[0], (ir.Predicate("eq", (_RESULT_TYPE,), (_COMPLETE,)),)))
    rules = (*lead, *by_shape.rules)
    return ir.Dispatch(rules=rules, closed_keys=_closed_keys(rules))


def _by_shape(arms: Sequence[str], resolve: Resolve, memo: schemas.Flattened) -> ir.Dispatch | str:
    """A dispatch from the arms' required keys, pinned values and JSON types, or the reason there is none."""

    def flat(schema: Mapping[str, Any]) -> Mapping[str, Any]:
        return schemas.flatten_all_of(dict(schema), lambda ref: resolve(ref), memo)

    shapes = [flat(resolve(arm)) for arm in arms]
    kinds = [_json_kind(shape) for shape in shapes]
    others = [k for k in kinds if k != "object"]
    shared = {k for k in others if others.count(k) > 1}
    if shared - {"array"}:
        return "two arms share the JSON type " + sorted(shared - {"array"})[0]
    required: list[frozenset[ir.Predicate]] = [
        (
            _required_predicates(shape, resolve, flat)
            if kind == "object"
            else (
                _first_item_predicates(shape, resolve, flat)
                if kind in shared  # arrays of different things (JSON-RPC batches) differ in their items
                else frozenset()
            )
        )
        for shape, kind in zip(shapes, kinds, strict=True)
    ]
    if others:  # arms of other JSON types (a batch array) are told apart by type first
        required = [preds | {ir.Predicate("is", (), (kind,))} for preds, kind in zip(required, kinds, strict=True)]
    common = frozenset[ir.Predicate].intersection(*required)
    specific = [preds - common for preds in required]

    # Arms alike so far may differ by an optional key only one of them declares (legacy `enumNames`).
    for index, preds in enumerate(specific):
        twins = [j for j, other in enumerate(specific) if j != index and other == preds]
        if not twins:
            continue
        others_declare = set[str]().union(*(_declared(shapes[j]) for j in twins))
        hints = sorted(_declared(shapes[index]) - others_declare)
        if hints:
            specific[index] = preds | {ir.Predicate("has", (hints[0],))}
    for index, preds in enumerate(specific):
        for other in range(index + 1, len(specific)):
            if specific[other] == preds:
                return f"arms {_short(arms[index])} and {_short(arms[other])} have the same required keys and constants"

    catch_all = [i for i, preds in enumerate(specific) if not preds]
    weak = [i for i, preds in enumerate(specific) if preds and not any(p.op in ("eq", "is") for p in preds)]
    if catch_all and len(weak) > 1:
        return (
            f"arm {_short(arms[catch_all[0]])} accepts any object, so the keys that mark "
            f"{', '.join(_short(arms[i]) for i in weak)} cannot decide (such values are not self-describing)"
        )

    order = _errors_first(sorted(range(len(arms)), key=lambda i: (-_decisive(specific[i]), -len(specific[i]), i)), specific)
    rules = tuple(ir.Rule(arms[i], tuple(sorted(specific[i]))) for i in order)
    return ir.Dispatch(rules=rules, closed_keys=_closed_keys(rules))


def _errors_first(order: list[int], specific: Sequence[frozenset[ir.Predicate]]) -> list[int]:
    """JSON-RPC: a message with `error` is an error response first, whatever else it holds (another
    implementation's extra `result`), so an arm marked by a `result` key is tried after every arm
    marked by an `error` key. Other arms keep their places (a `method` still makes a request)."""

    def marked(index: int, key: str) -> bool:
        return any(p.op == "has" and p.path == (key,) for p in specific[index])

    errors = [i for i in order if marked(i, "error")]
    if not errors:
        return order
    last = order.index(errors[-1])
    results = [i for i in order[:last] if marked(i, "result") and not marked(i, "error")]
    rest = [i for i in order if i not in results]
    at = rest.index(errors[-1]) + 1
    return [*rest[:at], *results, *rest[at:]]


def _json_kind(shape: Mapping[str, Any]) -> str:
    kind = shape.get("type")
    return kind if isinstance(kind, str) else "object"


def _declared(shape: Mapping[str, Any]) -> set[str]:
    return set(shape.get("properties") or {})


def _values(sub: Mapping[str, Any]) -> tuple[ir.JSONScalar, ...] | None:
    if "const" in sub and _is_scalar(sub["const"]):
        return (sub["const"],)
    enum = sub.get("enum")
    if is_array(enum) and enum and all(_is_scalar(v) for v in enum):
        return tuple(sorted(enum, key=json.dumps))
    return None


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _required_predicates(
    shape: Mapping[str, Any], resolve: Resolve, flat: Flat, prefix: tuple[str, ...] = ()
) -> frozenset[ir.Predicate]:
    properties: Mapping[str, Any] = shape.get("properties") or {}
    required = [r for r in shape.get("required") or () if isinstance(r, str)]
    preds: set[ir.Predicate] = set()
    for key in required:
        path = (*prefix, key)
        sub = properties.get(key)
        if not is_object(sub):
            preds.add(ir.Predicate("has", path))
            continue
        inline = "$ref" not in sub
        if not inline and set(sub) <= {"$ref", "description"}:
            sub = resolve(sub["$ref"])
        # the key's JSON types where the schema fixes them: a key of the wrong type does not mark
        # the arm (`"id": null` is not a request's id; the schema reads it as a notification's extra key)
        preds.add(ir.Predicate("has", path, _json_types(sub, resolve)))
        values = _values(sub)
        if values is not None:
            preds.add(ir.Predicate("eq", path, values))
        elif not prefix and inline and "properties" in sub:
            # one level into inline objects only: `items.anyOf` vs `items.enum`
            preds |= _required_predicates(flat(sub), resolve, flat, path)
    if not prefix:
        for key, sub in properties.items():
            if key not in required and is_object(sub) and "const" in sub and _is_scalar(sub["const"]):
                preds.add(ir.Predicate("eq_or_absent", (key,), (sub["const"],)))
    return frozenset(preds)


def _json_types(sub: Mapping[str, Any], resolve: Resolve) -> tuple[ir.JSONScalar, ...]:
    """The JSON types a property's schema allows, sorted, or () when it does not fix them."""
    found: set[str] = set()
    stack: list[Any] = [sub]
    while stack:
        node = stack.pop()
        if not is_object(node):
            return ()
        if "$ref" in node and set(node) <= {"$ref", "description"}:
            node = resolve(node["$ref"])
        kind = node.get("type")
        arms: list[Any] = [a for key in ("anyOf", "oneOf") for a in node.get(key) or ()]
        if isinstance(kind, str):
            found.add(kind)
        elif is_array(kind) and kind and all(isinstance(k, str) for k in kind):
            found.update(str(k) for k in kind)
        elif arms:
            stack.extend(arms)
        else:
            return ()
    if "number" in found:
        found.discard("integer")  # a number test accepts integers
    return tuple(sorted(found))


def _first_item_predicates(shape: Mapping[str, Any], resolve: Resolve, flat: Flat) -> frozenset[ir.Predicate]:
    """What the first item of an array arm must look like: what all its item variants require."""
    items = shape.get("items")
    if not is_object(items):
        return frozenset()
    if "$ref" in items and set(items) <= {"$ref", "description"}:
        items = resolve(items["$ref"])
    variants = [a for key in ("anyOf", "oneOf") for a in items.get(key) or ()] or [items]
    per_variant: list[frozenset[ir.Predicate]] = []
    for variant in variants:
        if is_object(variant) and "$ref" in variant and set(variant) <= {"$ref", "description"}:
            variant = resolve(variant["$ref"])
        per_variant.append(
            _required_predicates(flat(variant), resolve, flat) if is_object(variant) else frozenset()
        )
    common = frozenset[ir.Predicate].intersection(*per_variant) if per_variant else frozenset[ir.Predicate]()
    return frozenset(ir.Predicate(p.op, ("0", *p.path), p.values) for p in common)


def _decisive(preds: frozenset[ir.Predicate]) -> int:
    """How many tag-like tests an arm has: arms identified by a value are tried first."""
    return sum(1 for p in preds if p.op in ("eq", "is") and len(p.values) == 1)


def _closed_keys(rules: tuple[ir.Rule, ...]) -> tuple[tuple[str, tuple[ir.JSONScalar, ...]], ...]:
    """Top-level keys that every arm pins to known values: any other value is a wrong tag."""
    allowed: dict[str, set[ir.JSONScalar]] | None = None
    for rule in rules:
        pinned: dict[str, set[ir.JSONScalar]] = {}
        for p in rule.predicates:
            if p.op in ("eq", "eq_or_absent") and len(p.path) == 1:
                pinned.setdefault(p.path[0], set()).update(p.values)
        if allowed is None:
            allowed = pinned
        else:
            allowed = {k: allowed[k] | pinned[k] for k in allowed.keys() & pinned.keys()}
    return tuple((k, tuple(sorted(v, key=json.dumps))) for k, v in sorted((allowed or {}).items()))


def _short(pointer: str) -> str:
    return pointer.rsplit("/", 1)[-1]
