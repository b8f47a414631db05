"""What other pinned revisions define at each place of a revision that it does not (issue 25).

A message refused at the negotiated revision is often one another revision allows: a content
`type`, a `method`, an enum value or a key that came later (or went away). Each revision package's
`history.py` names those in its error lines; this module derives its tables from every pinned
schema, with the surface's merge saying which places are the same across revisions (renamed
definitions, objects an older revision wrote inline):

- keys: per object place of the revision (a definition, or an object written inline in one), the
  keys other revisions declare there that it does not, each with the revisions that declare it;
- values: per property of such a place (and per union or enum definition), the `const`/`enum`
  values and union tags (a required `const` of an arm: `type`, `method`) other revisions allow
  there that it does not.

Nothing here reads another stage's output but the schemas: the tables are data for render.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence

from codegen.analysis import ir
from codegen.schema import pointers, schemas
from codegen.schema.jsontypes import JSON, is_array, is_object
from codegen.surface.merge import Merged, merge

_UNIONS = ("anyOf", "oneOf")
_MAX_HOPS = 64  # `$ref` hops followed at one place (a loop of references ends there)
_MAX_DEPTH = 8  # nesting followed when collecting a place's values (arrays, maps, union arms)

Value = tuple[str, str]  # (discriminator: "" for the value itself, JSON text of the value)


def elsewhere(documents: Sequence[tuple[str, Mapping[str, JSON]]]) -> dict[str, ir.Elsewhere]:
    """Per revision of documents (each normalised, `$defs`, errata applied; oldest first): what the
    others define at its places that it does not."""
    merged = merge(documents)
    revisions = tuple(revision for revision, _ in documents)
    by_revision = dict(documents)
    seen = _Seen()
    return {revision: _of(revision, merged, by_revision, revisions, seen) for revision in revisions}


class _Seen:
    """What the walk of one `elsewhere` call found, by the place it looked at: every revision asks
    about the same places of the others. Each entry keeps its inputs alive, so an object's id is
    not reused while it serves as a key."""

    def __init__(self) -> None:
        self.places: dict[tuple[str, str, tuple[str, ...]], JSON | None] = {}
        self.members: dict[tuple[str, int, str], tuple[JSON, list[JSON]]] = {}
        self.values: dict[tuple[str, int], tuple[JSON, set[Value]]] = {}

    def place(self, merged: Merged, documents: Mapping[str, Mapping[str, JSON]], revision: str, pointer: str, other: str) -> JSON | None:
        tokens = pointers.split(pointer)
        surface_name = merged.names[revision].get(tokens[1], tokens[1])
        origin = merged.origins[other].get(surface_name)
        if origin is None:
            return None
        key = (other, origin, tuple(tokens[2:]))
        if key not in self.places:
            self.places[key] = _follow(documents[other], pointers.split(origin) + tokens[2:])
        return self.places[key]

    def members_of(self, other: str, document: Mapping[str, JSON], place: JSON, key: str) -> list[JSON]:
        entry = self.members.get((other, id(place), key))
        if entry is None or entry[0] is not place:
            entry = self.members[(other, id(place), key)] = (place, _members(document, place, key))
        return entry[1]

    def values_of(self, other: str, document: Mapping[str, JSON], schema: JSON) -> set[Value]:
        entry = self.values.get((other, id(schema)))
        if entry is None or entry[0] is not schema:
            entry = self.values[(other, id(schema))] = (schema, _values(document, schema, 0))
        return entry[1]


def _of(
    revision: str,
    merged: Merged,
    documents: Mapping[str, Mapping[str, JSON]],
    revisions: tuple[str, ...],
    seen: _Seen,
) -> ir.Elsewhere:
    own = documents[revision]
    keys: dict[str, dict[str, tuple[str, ...]]] = {}
    values: dict[tuple[str, str], dict[Value, tuple[str, ...]]] = {}
    for pointer, node in _places(own):
        places = {other: seen.place(merged, documents, revision, pointer, other) for other in revisions}
        if is_object(node.get("properties")):
            foreign = _foreign_keys(own, node, places, documents, revisions)
            if foreign:
                keys[pointer] = foreign
            for key in node["properties"]:
                inside = {
                    other: seen.members_of(other, documents[other], place, key)
                    for other, place in places.items()
                    if place is not None
                }
                found = _foreign_values(revision, inside, documents, seen)
                if found:
                    values[(pointer, key)] = found
        elif pointer.count("/") == 2:  # a definition that is a union or an enum: values at the place itself
            found = _foreign_values(revision, {o: [p] for o, p in places.items() if p is not None}, documents, seen)
            if found:
                values[(pointer, "")] = found
    return ir.Elsewhere(revisions, keys, values)


def _places(document: Mapping[str, JSON]) -> Iterator[tuple[str, dict[str, JSON]]]:
    """Every definition, and every object written inline below one through properties, array items
    and map values (not through union arms or `allOf`, whose places no other revision shares)."""
    stack: list[tuple[str, JSON]] = [
        (pointers.join("#", "$defs", name), schema) for name, schema in reversed(list(document["$defs"].items()))
    ]
    while stack:
        pointer, node = stack.pop()
        if not is_object(node):
            continue
        yield pointer, node
        for child, keyword, _, sub in reversed(list(schemas.children(node, pointer))):
            if keyword in ("properties", "items", "additionalProperties"):
                stack.append((child, sub))


def _follow(document: Mapping[str, JSON], tokens: Sequence[str]) -> JSON | None:
    """The schema at tokens, following `$ref` and merging `allOf` at every step."""
    node: JSON = document
    for token in tokens:
        node = _deref(document, node)
        if not is_object(node) or token not in node:
            return None
        node = node[token]
    return _deref(document, node)


def _deref(document: Mapping[str, JSON], node: JSON) -> JSON:
    for _ in range(_MAX_HOPS):
        if not (is_object(node) and isinstance(node.get("$ref"), str)):
            break
        try:
            node = pointers.resolve(document, pointers.canonical(node["$ref"]))
        except (KeyError, ValueError):
            return None
    if is_object(node) and is_array(node.get("allOf")):
        node = schemas.flatten_all_of(node, lambda ref: pointers.resolve(document, pointers.canonical(ref)))
    return node


def _members(document: Mapping[str, JSON], place: JSON, key: str) -> list[JSON]:
    """The schemas of property key at a place (of each arm, where the place is a union: one
    revision's single object is another's union, as 2026-07-28's ClientNotification)."""
    return [_deref(document, arm["properties"][key]) for arm in _objects(document, place) if key in arm["properties"]]


def _objects(document: Mapping[str, JSON], place: JSON) -> list[dict[str, JSON]]:
    """The object schemas a place is: itself, or the arms of a union of objects."""
    if not is_object(place):
        return []
    if is_object(place.get("properties")):
        return [place]
    arms = [arm for keyword in _UNIONS for arm in (place.get(keyword) or ())]
    return [a for a in (_deref(document, arm) for arm in arms) if is_object(a) and is_object(a.get("properties"))]


def _keys(document: Mapping[str, JSON], place: JSON | None) -> set[str]:
    return {key for arm in _objects(document, place) for key in arm["properties"]}


def _foreign_keys(
    own: Mapping[str, JSON],
    node: dict[str, JSON],
    places: Mapping[str, JSON | None],
    documents: Mapping[str, Mapping[str, JSON]],
    revisions: tuple[str, ...],
) -> dict[str, tuple[str, ...]]:
    mine = _keys(own, node)
    declared = {other: _keys(documents[other], place) for other, place in places.items()}
    foreign = sorted({key for keys in declared.values() for key in keys} - mine)
    return {key: tuple(r for r in revisions if key in declared[r]) for key in foreign}


def _foreign_values(
    revision: str, places: Mapping[str, Sequence[JSON]], documents: Mapping[str, Mapping[str, JSON]], seen: _Seen
) -> dict[Value, tuple[str, ...]]:
    """Values other revisions allow at a place (the schemas each has there) that revision does not."""
    allowed = {
        other: {v for schema in found for v in seen.values_of(other, documents[other], schema)}
        for other, found in places.items()
    }
    mine = allowed.get(revision, set())
    foreign = sorted({value for values in allowed.values() for value in values} - mine)
    return {value: tuple(r for r in allowed if value in allowed[r]) for value in foreign}


def _values(document: Mapping[str, JSON], node: JSON, depth: int) -> set[Value]:
    """The `const`/`enum` values a schema allows, through arrays, maps and unions; for a union of
    objects, each arm's required `const` properties (its tag) as (property, value)."""
    node = _deref(document, node)
    if depth > _MAX_DEPTH or not is_object(node):
        return set()
    found: set[Value] = set()
    if "const" in node:
        found.add(("", json.dumps(node["const"])))
    if is_array(node.get("enum")):
        found.update(("", json.dumps(value)) for value in node["enum"])
    if is_object(node.get("items")):
        found |= _values(document, node["items"], depth + 1)
    extra = node.get("additionalProperties")
    if is_object(extra) and not is_object(node.get("properties")):
        found |= _values(document, extra, depth + 1)
    tags: set[Value] = set()
    for arm in (arm for keyword in _UNIONS for arm in (node.get(keyword) or ())):
        resolved = _deref(document, arm)
        if is_object(resolved) and is_object(resolved.get("properties")):
            tags |= _tags(document, resolved)
        else:
            found |= _values(document, resolved, depth + 1)
    # a tag tells arms apart: a key every arm pins to one value (`jsonrpc`) is none
    told = {key for key, _ in tags if len({value for k, value in tags if k == key}) > 1}
    return found | {(key, value) for key, value in tags if key in told}


def _tags(document: Mapping[str, JSON], arm: dict[str, JSON]) -> set[Value]:
    """An object arm's required `const` properties, as (key, JSON text of the value)."""
    required = arm.get("required") or ()
    tags: set[Value] = set()
    for key, prop in arm["properties"].items():
        prop = _deref(document, prop)
        if key in required and is_object(prop) and "const" in prop:
            tags.add((key, json.dumps(prop["const"])))
    return tags

