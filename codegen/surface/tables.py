"""What the surface's send and receive read: per surface class and revision, the keys that
revision defines there; per method, the revisions that have it, who sends it and its classes.

Everything is read off the revisions' own (errata-applied) schemas and their analysed method
tables: no hand-kept rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from codegen.analysis import ir, methods
from codegen.schema import pointers, schemas
from codegen.schema.jsontypes import JSON, is_object
from codegen.surface.merge import DEFS_REF, Merged


@dataclass(frozen=True)
class Shape:
    """One surface class as one revision has it."""

    model: str | None  # that revision's class in its models module (None: a plain map there)
    keys: tuple[str, ...]  # the wire keys the revision defines there, sorted
    required: tuple[str, ...]  # those it requires, sorted
    open: bool  # the revision's schema allows more keys there (additionalProperties given)
    # A wire class (ir.Method.wire_class, in the revision's messages module; then `model` names
    # it): the generic envelope the definition leaves `jsonrpc` / `id` to.
    envelope: str | None = None


@dataclass(frozen=True)
class Widened:
    """A property a later revision widened beyond what earlier ones carry (SEP-2106), and what send
    does at a revision that cannot carry a value: it leaves the value out and, where `fallback` names
    a sibling array of content blocks, puts the value's JSON there as a TextContent."""

    key: str
    fallback: str | None


# SEP-2106, "Backward Compatibility": a server whose structuredContent is an array or a primitive
# MUST also emit a TextContent holding the serialized JSON, for clients that cannot read it (a tool
# result's, and a sampling ToolResultContent's, which 2026-07-28 widened alike). A Tool's outputSchema
# an older revision cannot carry promises structured results that revision cannot send (its results
# fall back to text): it is left out. Which revisions cannot carry which value is not listed here:
# send asks each revision's own model of the property.
SEP_2106: tuple[Widened, ...] = (Widened("structuredContent", "content"), Widened("outputSchema", None))


@dataclass(frozen=True)
class MethodAcross:
    method: str
    kind: str  # "request" | "notification"
    revisions: tuple[str, ...]  # oldest first
    senders: tuple[tuple[str, tuple[str, ...]], ...]  # per revision: "client" and/or "server"
    classes: tuple[tuple[str, str, str | None, str | None], ...]  # per revision: message, params, result
    surface: tuple[str, str | None, str | None]  # the surface's message, params, result


@dataclass(frozen=True)
class Revised:
    """One revision as the surface reads it."""

    revision: str
    package: str
    document: Mapping[str, JSON]  # normalised (definitions under `$defs`), errata applied
    model: ir.Revision


def shapes(surface: ir.Revision, merged: Merged, revisions: Sequence[Revised]) -> dict[str, dict[str, Shape]]:
    """Surface class name -> revision -> Shape, for every surface model class whose place in each
    revision can be found (a class under a union arm written inline has no such place: left out,
    and send leaves it to that revision's validation)."""
    result: dict[str, dict[str, Shape]] = {}
    for entity in surface.entities:
        if entity.kind is not ir.Kind.MODEL:
            continue
        definition, _, rest = entity.pointer[len(DEFS_REF) :].partition("/")
        if any(token in ("anyOf", "oneOf", "allOf") for token in rest.split("/")):
            continue
        per_revision: dict[str, Shape] = {}
        for revised in revisions:
            origin = merged.origins[revised.revision].get(pointers.unescape(definition))
            if origin is None:
                continue  # the definition does not exist in this revision
            pointer = origin + ("/" + rest if rest else "")
            shape = _shape(revised, pointer)
            if shape is not None:
                per_revision[revised.revision] = shape
        result[entity.name] = per_revision
    return result


def widened(shaped: Mapping[str, Mapping[str, Shape]]) -> dict[str, dict[str, str | None]]:
    """Surface class -> each SEP_2106 key some revision defines on it -> its fallback key: kept only
    where every revision with the widened key also has the fallback there."""
    result: dict[str, dict[str, str | None]] = {}
    for name, per_revision in shaped.items():
        for rule in SEP_2106:
            having = [shape for shape in per_revision.values() if rule.key in shape.keys]
            if not having:
                continue
            fallback = rule.fallback if rule.fallback and all(rule.fallback in s.keys for s in having) else None
            result.setdefault(name, {})[rule.key] = fallback
    return result


def wire_shapes(shaped: Mapping[str, Mapping[str, Shape]], revisions: Sequence[Revised]) -> dict[str, dict[str, Shape]]:
    """Surface class name -> revision -> the Shape of the wire class that revision sends the class as,
    where its definition leaves `jsonrpc` / `id` to the generic envelope (before 2025-11-25): the
    definition's keys and the envelope's fields it adds, all of them required."""
    result: dict[str, dict[str, Shape]] = {}
    for revised in revisions:
        tables = revised.model.methods
        added, envelopes = dict(tables.envelope_fields), dict(tables.envelopes)
        wire_of = {m.message: m for m in tables.methods if m.wire_class}
        for name, per_revision in sorted(shaped.items()):
            shape = per_revision.get(revised.revision)
            method = wire_of.get(shape.model or "") if shape is not None else None
            if shape is None or method is None or method.wire_class is None:
                continue
            envelope_keys = {field.wire_name for field in added[method.kind]}
            result.setdefault(name, {})[revised.revision] = Shape(
                method.wire_class,
                tuple(sorted(set(shape.keys) | envelope_keys)),
                tuple(sorted(set(shape.required) | envelope_keys)),
                shape.open,
                envelopes[method.kind],
            )
    return result


def with_envelope_params(
    shaped: Mapping[str, Mapping[str, Shape]], surface: ir.Revision, merged: Merged, revisions: Sequence[Revised]
) -> dict[str, dict[str, Shape]]:
    """shaped, where a revision leaves its requests and notifications to the generic envelope
    (ir.Method.wire_class): each such method's params class also has the properties the envelope's
    `params` declares (`_meta`, with `progressToken` for a request). On the wire the message is the
    definition and the envelope at once, so these are keys that revision defines there. A class
    under such a key with no place of its own in the revision gets the envelope's (the `_meta` of
    SetLevelRequestParams at 2024-11-05). Only declared properties: the envelope's `params` also
    allows any key, which would make the sieve keep every other revision's params keys."""
    result = {name: dict(per_revision) for name, per_revision in shaped.items()}
    by_pointer = surface.by_pointer()
    by_name = {e.name: e for e in surface.entities}
    for revised in revisions:
        tables = revised.model.methods
        envelopes = dict(tables.envelopes)
        entities = {e.name: e for e in revised.model.entities}
        for method in tables.methods:
            envelope = entities.get(envelopes.get(method.kind, ""))
            if method.wire_class is None or method.params is None or envelope is None:
                continue
            params = pointers.join(envelope.pointer, "properties", "params")
            added = _properties(revised, params)
            for name, per_revision in result.items():
                shape = per_revision.get(revised.revision)
                if shape is None or shape.model != method.params or set(added) <= set(shape.keys):
                    continue
                per_revision[revised.revision] = replace(shape, keys=tuple(sorted(set(shape.keys) | set(added))))
                for key in added:
                    member = _member(by_name.get(name), key, merged.document, by_pointer)
                    inner = _shape(revised, pointers.join(params, "properties", key))
                    if member is not None and inner is not None:
                        result.setdefault(member, {}).setdefault(revised.revision, inner)
    return result


def _properties(revised: Revised, pointer: str) -> tuple[str, ...]:
    """The properties the object schema at pointer declares (through `$ref` and `allOf`)."""
    shape = _shape(revised, pointer)
    return shape.keys if shape is not None else ()


def _member(
    entity: ir.Entity | None, key: str, document: Mapping[str, JSON], by_pointer: Mapping[str, ir.Entity]
) -> str | None:
    """The surface model class of property key of entity (hoisted in place, or named by `$ref`)."""
    if entity is None:
        return None
    try:
        node = pointers.resolve(document, pointers.join(entity.pointer, "properties", key))
    except (KeyError, ValueError):
        return None
    name = methods.member_type(entity, key, node, by_pointer)
    found = next((e for e in by_pointer.values() if e.name == name), None) if name else None
    return name if found is not None and found.kind is ir.Kind.MODEL else None


def _shape(revised: Revised, pointer: str) -> Shape | None:
    try:
        node = pointers.resolve(revised.document, pointer)
    except (KeyError, ValueError):
        return None
    node = _through_refs(revised.document, node)
    if not is_object(node):
        return None
    node = schemas.flatten_all_of(node, lambda ref: pointers.resolve(revised.document, ref))
    properties = node.get("properties")
    keys = tuple(sorted(properties)) if is_object(properties) else ()
    required = tuple(sorted(k for k in node.get("required") or () if isinstance(k, str)))
    extra = node.get("additionalProperties", None)
    is_map = not keys and node.get("type") == "object" and extra is not False
    entity = revised.model.by_pointer().get(pointer)
    model = entity.name if entity is not None and entity.kind is ir.Kind.MODEL else None
    explicitly_open = (extra is not None and extra is not False) or is_map or bool(entity and entity.open)
    return Shape(model, keys, required, explicitly_open)


def _through_refs(document: Mapping[str, JSON], node: JSON) -> JSON:
    seen: set[str] = set()
    while is_object(node) and isinstance(node.get("$ref"), str) and node["$ref"] not in seen:
        seen.add(node["$ref"])
        try:
            node = pointers.resolve(document, node["$ref"])
        except (KeyError, ValueError):
            return None
    return node


def methods_across(surface: ir.Revision, merged: Merged, revisions: Sequence[Revised]) -> list[MethodAcross]:
    """Per method (sorted): the revisions that have it and what each of them says of it."""
    own = {m.method: m for m in surface.methods.methods}
    rows: dict[str, dict[str, ir.Method]] = {}
    for revised in revisions:
        for method in revised.model.methods.methods:
            rows.setdefault(method.method, {}).setdefault(revised.revision, method)
    result: list[MethodAcross] = []
    for name in sorted(rows):
        per = rows[name]
        ordered = [r.revision for r in revisions if r.revision in per]
        mine = own.get(name)
        result.append(
            MethodAcross(
                method=name,
                kind=per[ordered[-1]].kind,
                revisions=tuple(ordered),
                senders=tuple((r, per[r].senders) for r in ordered),
                classes=tuple((r, per[r].message, per[r].params, per[r].result) for r in ordered),
                surface=(mine.message, mine.params, mine.result) if mine else ("", None, None),
            )
        )
    return result


def renamed(merged: Merged) -> dict[str, str]:
    """Old definition name -> its surface name, for definitions renamed between revisions."""
    return {
        own: surface
        for revision in merged.revisions
        for own, surface in merged.names[revision].items()
        if own != surface
    }
