"""Every revision's schema merged into one: the schema the surface package is generated from.

One definition per name that exists in any revision (a renamed definition under its newest name),
carrying every property any revision defines. A property's schema is the widest of its schemas
across the revisions (their `anyOf` where they differ; inline objects and array items merged the
same way), and it is required only where every revision that has the definition requires it.
Descriptions say in which revisions a definition and a property exist.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from typing_extensions import TypeIs

from codegen.diff.relation import essential
from codegen.diff.renames import find_renames, similarity
from codegen.schema import pointers
from codegen.schema.jsontypes import JSON, JSONObject, is_array, is_object

DEFS_REF = "#/$defs/"
_UNIONS = ("anyOf", "oneOf")
SIMILAR = 0.75  # share of an older inline object's properties a newer union's arm must have


@dataclass(frozen=True)
class Merged:
    document: JSONObject  # the surface schema (2020-12, `$defs`)
    revisions: tuple[str, ...]  # oldest first
    # per revision: its definition name -> the surface's name (renamed definitions differ)
    names: Mapping[str, Mapping[str, str]]
    # surface definition name -> the revisions that have it (oldest first)
    presence: Mapping[str, tuple[str, ...]]
    # per revision: surface definition name -> its pointer in that revision's own document (its
    # definition, or where an older revision wrote it inline)
    origins: Mapping[str, Mapping[str, str]]


def merge(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> Merged:
    """documents: (revision, normalised schema with `$defs`), oldest first."""
    revisions = tuple(revision for revision, _ in documents)
    names = _surface_names(documents)
    renamed: list[tuple[str, dict[str, JSON]]] = []
    for revision, document in documents:
        rename = names[revision]
        renamed.append((revision, {rename[n]: _renamed_refs(schema, rename) for n, schema in document["$defs"].items()}))
    hoisted = _hoist(renamed)
    by_name: dict[str, list[tuple[str, JSON]]] = {}
    for revision, defs in renamed:
        for name, schema in defs.items():
            by_name.setdefault(name, []).append((revision, schema))
    order = _definition_order(renamed)
    defs = {name: _definition(by_name[name], revisions) for name in order}
    defs = {name: _named_inline(schema, name, defs) for name, schema in defs.items()}
    shapes = {json.dumps(essential(schema), sort_keys=True): name for name, schema in defs.items() if _is_plain_object(schema)}
    defs = {name: _arms_named(schema, shapes) for name, schema in defs.items()}
    defs = {name: _absorbed(schema, defs) for name, schema in defs.items()}
    newest = dict(documents[-1][1])
    newest["$defs"] = defs
    presence = {name: tuple(revision for revision, _ in by_name[name]) for name in order}
    origins = {revision: _origins(names[revision], hoisted[revision]) for revision in revisions}
    _add_equal_origins(origins, renamed, by_name, names)
    return Merged(newest, revisions, names, presence, origins)


def _add_equal_origins(
    origins: dict[str, dict[str, str]],
    renamed: Sequence[tuple[str, Mapping[str, JSON]]],
    by_name: Mapping[str, list[tuple[str, JSON]]],
    names: Mapping[str, Mapping[str, str]],
) -> None:
    """A definition a revision lacks by name but has under another name with exactly its shape is
    that revision's place for it: 2025-06-18's `JSONRPCResponse` object is what 2025-11-25 calls
    `JSONRPCResultResponse` (while it reuses the old name for the union of result and error)."""
    for revision, defs in renamed:
        native = {surface: own for own, surface in names[revision].items()}
        shapes: dict[str, str] = {}
        for name, schema in defs.items():
            if name in native and _is_plain_object(schema):
                shapes.setdefault(json.dumps(essential(schema), sort_keys=True), native[name])
        for name, versions in by_name.items():
            if name in origins[revision] or not _is_plain_object(versions[0][1]):
                continue
            own = shapes.get(json.dumps(essential(versions[0][1]), sort_keys=True))
            if own is not None:
                origins[revision][name] = DEFS_REF + pointers.escape(own)


def _origins(names: Mapping[str, str], hoisted: Mapping[str, str]) -> dict[str, str]:
    """Surface definition -> its pointer in the revision's own document. A definition hoisted out
    of another hoisted one (NotificationMetaObject out of NotificationParams, itself inline in
    2024-11-05's notifications) is found through its owner's place."""
    result = {surface: DEFS_REF + pointers.escape(own) for own, surface in names.items()}
    pending = dict(hoisted)
    while pending:
        placed = False
        for name, where in list(pending.items()):
            owner, _, rest = where[len(DEFS_REF) :].partition("/")
            if owner in result:
                result.setdefault(name, result[owner] + "/" + rest)
                del pending[name]
                placed = True
        if not placed:
            break  # an owner with no place in this revision: its hoisted parts have none either
    return result


def _surface_names(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, dict[str, str]]:
    """Per revision, each definition's name on the surface: its name in the newest revision it
    reaches through renames between consecutive revisions."""
    names: dict[str, dict[str, str]] = {}
    later: dict[str, str] = {}  # a name in the next revision -> its surface name
    for index in range(len(documents) - 1, -1, -1):
        revision, document = documents[index]
        defs: Mapping[str, Any] = document["$defs"]
        renamed: dict[str, str] = {}
        if index + 1 < len(documents):
            renamed = find_renames(defs, documents[index + 1][1]["$defs"])
        names[revision] = {name: later.get(renamed.get(name, name), renamed.get(name, name)) for name in defs}
        later = names[revision]
    return names


def _closest_object(ref: str, inline: JSON, defs: Mapping[str, JSON]) -> str:
    """ref itself when it names an object; for a union of objects (ElicitRequestParams: form or
    URL mode), the arm most like the inline object an older revision had there."""
    schema = defs.get(ref[len(DEFS_REF) :])
    if not _is_union(schema):
        return ref
    arms = [arm for arm in (_ref_of(a) for a in _arms(schema)) if arm is not None]
    scored = [(_coverage(inline, defs.get(arm[len(DEFS_REF) :])), arm) for arm in arms]
    best = max(scored, default=((0.0, 0.0), ref))
    return best[1] if best[0][0] >= SIMILAR else ref


def _coverage(old: JSON, new: JSON) -> tuple[float, float]:
    """How much of old's properties new has (then renames.similarity, to break ties)."""
    old_keys = set(old.get("properties") or {}) if is_object(old) else set[str]()
    new_keys = set(new.get("properties") or {}) if is_object(new) else set[str]()
    return (len(old_keys & new_keys) / len(old_keys) if old_keys else 0.0, similarity(old, new))


def _definition_order(renamed: Sequence[tuple[str, Mapping[str, JSON]]]) -> list[str]:
    """The newest revision's definitions in its order, then those only older revisions have."""
    order: list[str] = []
    for _, defs in reversed(renamed):
        order.extend(name for name in defs if name not in order)
    return order


def _hoist(renamed: list[tuple[str, dict[str, JSON]]]) -> dict[str, dict[str, str]]:
    """Where a newer revision names an object a definition (`CallToolRequestParams`) that an older
    one writes inline under the same property, the older one gets that definition too (in place):
    the surface then has one class for both, present in both revisions. Returns, per revision, where
    each definition it was given stood inline (a pointer with surface names)."""
    origins: dict[str, dict[str, str]] = {revision: {} for revision, _ in renamed}
    for index in range(len(renamed) - 2, -1, -1):
        revision, defs = renamed[index]
        newer = renamed[index + 1][1]
        queue = [name for name in defs if name in newer]
        while queue:
            name = queue.pop(0)
            before = set(defs)
            defs[name] = _hoisted(defs[name], newer[name], defs, newer, DEFS_REF + name, origins[revision])
            queue.extend(added for added in defs if added not in before and added in newer)
    return origins


def _hoisted(
    old: JSON, new: JSON, old_defs: dict[str, JSON], new_defs: Mapping[str, JSON], where: str, origins: dict[str, str]
) -> JSON:
    if not (_is_plain_object(old) and is_object(new) and is_object(new.get("properties"))):
        return old
    properties: JSONObject = dict(old.get("properties") or {})
    for key, prop in properties.items():
        here = f"{where}/properties/{pointers.escape(key)}"
        target = _ref_of(new["properties"].get(key))
        if target is not None and _is_plain_object(prop):
            target = _closest_object(target, prop, new_defs)
            name = target[len(DEFS_REF) :]
            hoisted_already = name in old_defs and essential(old_defs[name]) == essential(prop)
            if (name not in old_defs or hoisted_already) and _is_plain_object(new_defs.get(name)):
                old_defs[name] = old_defs.get(name, prop)
                origins.setdefault(name, here)
                properties[key] = {"$ref": target, **{k: prop[k] for k in ("description",) if k in prop}}
        elif is_object(new["properties"].get(key)):
            properties[key] = _hoisted(prop, new["properties"][key], old_defs, new_defs, here, origins)
    return {**old, "properties": properties}


def _renamed_refs(node: JSON, rename: Mapping[str, str]) -> JSON:
    if is_array(node):
        return [_renamed_refs(item, rename) for item in node]
    if not is_object(node):
        return node
    result: JSONObject = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and value.startswith(DEFS_REF):
            head, _, rest = value[len(DEFS_REF) :].partition("/")
            result[key] = DEFS_REF + rename.get(head, head) + (f"/{rest}" if rest else "")
        elif key in ("const", "enum", "default", "examples"):
            result[key] = value
        else:
            result[key] = _renamed_refs(value, rename)
    return result


def _definition(versions: list[tuple[str, JSON]], revisions: tuple[str, ...]) -> JSON:
    merged = _widest(versions)
    have = [revision for revision, _ in versions]
    if is_object(merged) and have != list(revisions):
        merged = {**merged, "description": _with_revisions(merged.get("description"), "This definition", have)}
    return merged


def _widest(versions: list[tuple[str, JSON]]) -> JSON:
    """The schema that accepts what any of the versions accepts (newest's annotations)."""
    newest = versions[-1][1]
    distinct = _distinct([schema for _, schema in versions])
    if len(distinct) == 1:
        return newest
    schemas = [schema for _, schema in versions]
    if all(_is_plain_object(s) for s in schemas):
        return _object(versions)
    if all(_is_array_of_items(s) for s in schemas):
        items = _widest([(revision, schema["items"]) for revision, schema in versions])
        return {**newest, "items": items}
    if all(_is_union(s) for s in schemas):
        keyword = next(k for k in _UNIONS if k in newest)
        arms: list[JSON] = []
        for schema in reversed(schemas):
            arms.extend(schema[next(k for k in _UNIONS if k in schema)])
        return {**newest, keyword: _distinct(arms)}
    if all(_is_enum(s) for s in schemas) and len({json.dumps(s.get("type")) for s in schemas}) == 1:
        values: list[JSON] = []
        for schema in reversed(schemas):
            values.extend(v for v in schema["enum"] if v not in values)
        return {**newest, "enum": values}
    arms = []
    annotations: JSONObject = {k: newest[k] for k in ("description", "title") if is_object(newest) and k in newest}
    for schema in reversed(distinct):
        arms.extend(_arms_of(schema))
    if any(essential(arm) in ({}, True) for arm in arms):  # one of them accepts anything
        return annotations
    return {**annotations, "anyOf": _distinct(arms)}


def _object(versions: list[tuple[str, JSON]]) -> JSONObject:
    newest: JSONObject = versions[-1][1]
    have = [revision for revision, _ in versions]
    properties: dict[str, list[tuple[str, JSON]]] = {}
    for revision, schema in reversed(versions):
        for name, prop in _properties(schema).items():
            properties.setdefault(name, []).insert(0, (revision, prop))
    merged_props: JSONObject = {}
    for name, found in properties.items():
        where = [revision for revision, _ in found]
        # a revision without the property that types every other key (additionalProperties given)
        # lets it hold what that schema allows: 2026-07-28's outputSchema takes any `type`
        otherwise: list[tuple[str, JSON]] = [
            (revision, schema["additionalProperties"] if is_object(schema["additionalProperties"]) else {})
            for revision, schema in versions
            if revision not in where and schema.get("additionalProperties", False) is not False
        ]
        prop = _widest(sorted(found + otherwise, key=lambda pair: have.index(pair[0])))
        if otherwise and is_object(prop) and is_object(found[-1][1]):
            prop = {**prop, **{k: found[-1][1][k] for k in ("description", "title") if k in found[-1][1]}}
        if where != have and is_object(prop):
            prop = {**prop, "description": _with_revisions(prop.get("description"), "This property", where)}
        merged_props[name] = prop
    required = [
        name
        for name in properties
        if all(name in (schema.get("required") or ()) for _, schema in versions)
    ]
    result: JSONObject = {k: v for k, v in newest.items() if k not in ("properties", "required", "additionalProperties")}
    result["properties"] = merged_props
    if required:
        result["required"] = required
    extras = _distinct([schema.get("additionalProperties", True) for _, schema in versions])
    if len(extras) == 1 and extras[0] is not True:
        result["additionalProperties"] = newest.get("additionalProperties", extras[0])
    return result


def _arms_named(schema: JSON, shapes: Mapping[str, str]) -> JSON:
    """A union arm written inline that is exactly a definition becomes a reference to it: an older
    revision's `JSONRPCResponse` object is a newer one's `JSONRPCResultResponse`."""
    if not (is_object(schema) and _is_union(schema)):
        return schema
    keyword = next(k for k in _UNIONS if k in schema)
    arms = [
        {"$ref": DEFS_REF + shapes[key]} if _is_plain_object(arm) and (key := json.dumps(essential(arm), sort_keys=True)) in shapes else arm
        for arm in schema[keyword]
    ]
    return {**schema, keyword: _distinct(arms)}


def _named_inline(schema: JSON, owner: str, defs: Mapping[str, JSON]) -> JSON:
    """A merged inline object under a property whose class name (owner + property) is already a
    definition's, and which that definition covers, becomes a reference to it: older revisions
    wrote inline what newer ones named (`Notification.params` -> `NotificationParams`)."""
    if not (_is_plain_object(schema) and is_object(schema.get("properties"))):
        return schema
    properties: JSONObject = dict(schema["properties"])
    for key, prop in properties.items():
        name = owner + key.strip("_")[:1].upper() + key.strip("_")[1:]
        if name != owner and _is_plain_object(prop) and _is_plain_object(defs.get(name)):
            if _coverage(prop, defs[name])[0] >= SIMILAR or not prop.get("properties"):
                properties[key] = {"$ref": DEFS_REF + name, **{k: prop[k] for k in ("description",) if k in prop}}
    return {**schema, "properties": properties}


def _absorbed(node: JSON, defs: Mapping[str, JSON]) -> JSON:
    """node with every union arm dropped that another arm's union definition already holds: older
    revisions list content blocks inline where newer ones name their union (`ContentBlock`)."""
    if is_array(node):
        return [_absorbed(item, defs) for item in node]
    if not is_object(node):
        return node
    result: JSONObject = {}
    for key, value in node.items():
        if key in _UNIONS and is_array(value):
            direct = {ref for ref in map(_ref_of, value) if ref is not None}
            covered: set[str] = set()
            spelled_out: set[str] = set()  # union arms whose members all stand beside them
            for ref in direct:
                members = _union_members(ref, defs, set())
                if members and members <= direct | {m for m in members if _is_union(defs.get(m[len(DEFS_REF) :]))}:
                    spelled_out.add(ref)
                else:
                    covered |= members
            kept = [arm for arm in value if _ref_of(arm) not in covered | spelled_out]
            result[key] = [_absorbed(arm, defs) for arm in kept]
        elif key in ("properties", "$defs", "patternProperties") and is_object(value):
            result[key] = {name: _absorbed(sub, defs) for name, sub in value.items()}
        elif key in ("const", "enum", "default", "examples"):
            result[key] = value
        else:
            result[key] = _absorbed(value, defs)
    if set(result) - {"description", "title"} == {"anyOf"} and len(result["anyOf"]) == 1:
        only = result["anyOf"][0]
        return {**only, **{k: result[k] for k in ("description", "title") if k in result}} if is_object(only) else only
    return result


def _union_members(ref: str, defs: Mapping[str, JSON], seen: set[str]) -> set[str]:
    """The refs a union definition's arms name, transitively (not the definition itself)."""
    name = ref[len(DEFS_REF) :] if ref.startswith(DEFS_REF) else ""
    schema = defs.get(name)
    if name in seen or not _is_union(schema):
        return set()
    seen.add(name)
    members: set[str] = set()
    for arm in _arms(schema):
        if (inner := _ref_of(arm)) is not None:
            members.add(inner)
            members |= _union_members(inner, defs, seen)
    return members


def _ref_of(schema: JSON) -> str | None:
    if is_object(schema) and isinstance(schema.get("$ref"), str) and len(set(schema) - {"description", "title"}) == 1:
        ref: str = schema["$ref"]
        return ref
    return None


def _with_revisions(description: object, what: str, revisions: list[str]) -> str:
    note = f"{what} exists in revision{'s' if len(revisions) > 1 else ''} {', '.join(revisions)}."
    return f"{description}\n\n{note}" if isinstance(description, str) and description else note


def _distinct(schemas: list[JSON]) -> list[JSON]:
    """The schemas that differ in shape (annotations ignored), first occurrence kept."""
    seen: set[str] = set()
    result: list[JSON] = []
    for schema in schemas:
        key = json.dumps(essential(schema), sort_keys=True)
        if key not in seen:
            seen.add(key)
            result.append(schema)
    return result


def _arms(union: JSONObject) -> list[JSON]:
    """The arms of a union schema (its one anyOf or oneOf)."""
    arms: list[JSON] = union[next(k for k in _UNIONS if k in union)]
    return arms


def _properties(schema: JSON) -> JSONObject:
    properties = schema.get("properties") if is_object(schema) else None
    return properties if is_object(properties) else {}


def _arms_of(schema: JSON) -> list[JSON]:
    if is_object(schema) and set(schema) - {"description", "title"} == {"anyOf"}:
        arms: list[JSON] = schema["anyOf"]
        return arms
    return [schema]


def _is_plain_object(schema: object) -> TypeIs[JSONObject]:
    return (
        is_object(schema)
        and (schema.get("type") == "object" or ("type" not in schema and is_object(schema.get("properties"))))
        and not any(k in schema for k in ("$ref", "allOf", *_UNIONS))
    )


def _is_array_of_items(schema: object) -> TypeIs[JSONObject]:
    return is_object(schema) and schema.get("type") == "array" and is_object(schema.get("items"))


def _is_union(schema: object) -> TypeIs[JSONObject]:
    return is_object(schema) and sum(k in schema for k in _UNIONS) == 1 and "type" not in schema and "properties" not in schema


def _is_enum(schema: object) -> TypeIs[JSONObject]:
    return is_object(schema) and is_array(schema.get("enum"))
