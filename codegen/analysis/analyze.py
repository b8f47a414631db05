"""SchemaDoc -> ir.Revision: which names exist, what they are, and how unions are tagged.

Everything here is derived from the schema itself (openness from `additionalProperties`, tags from
required `const` properties); there are no per-revision lists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from codegen.analysis import absence, arms, discriminate, ir, methods, naming, specific
from codegen.schema import pointers, schemas
from codegen.errors import fail
from codegen.schema.load import DEFS, SchemaDoc
from codegen.schema.tsdoc import NONE, Deprecations
from codegen.schema.jsontypes import is_array, is_object
_ARMS = ("anyOf", "oneOf")


@dataclass(frozen=True)
class _Found:
    pointer: str
    owner: str  # pointer of the entity whose name prefixes this one
    suffix: str
    node: Mapping[str, Any]
    standalone: str | None = None  # a name of its own, not owner + suffix (`SamplingMessageContentBlockList`)


def analyze(
    doc: SchemaDoc,
    *,
    package: str,
    sha256: str,
    options: ir.Options | None = None,
    deprecations: Deprecations = NONE,
) -> ir.Revision:
    """deprecations: the spec's `@deprecated` tags placed in doc (tsdoc.place), carried by the
    entities and fields they are on."""
    options = options or ir.Options()
    document = doc.document
    definitions = sorted(doc.defs)
    def_pointers = {name: pointers.join("#", DEFS, name) for name in definitions}

    stems: dict[str, str] = {}
    nodes: dict[str, Mapping[str, Any]] = {}
    hoisted: set[str] = set()
    spec_names = _spec_names(definitions)
    copies = _arms_as_definitions(document, doc.defs, def_pointers)
    same: dict[str, str] = {}  # an arm that would be named -> the entity it is (a copy of a definition)
    for definition in definitions:
        pointer = def_pointers[definition]
        node = doc.defs[definition]
        stems[pointer] = naming.base_name(definition)
        nodes[pointer] = node if isinstance(node, dict) else {}
        for found in _inline_objects(nodes[pointer], pointer, pointer, "", (copies, same), doc.revision):
            stems[found.pointer] = _yielding(found.standalone or stems[found.owner] + found.suffix, spec_names)
            nodes[found.pointer] = found.node
            hoisted.add(found.pointer)
    same |= _shared_lists(nodes, hoisted)
    for pointer in same:
        stems.pop(pointer, None)
        nodes.pop(pointer, None)
        hoisted.discard(pointer)
    _hoist_reference_targets(document, stems, nodes, hoisted, spec_names, doc.revision)
    names = {pointer: naming.class_name(stem) for pointer, stem in stems.items()}
    exports = {pointer: _export_name(pointer, names[pointer], pointer in hoisted, naming.PACKAGE_NAMES) for pointer in names}

    _check_unique(names, doc.revision)
    _check_unique(exports, doc.revision)

    kinds = {pointer: _kind(node) for pointer, node in nodes.items()}
    flattened: schemas.Flattened = {}
    entities: list[ir.Entity] = []
    for pointer in sorted(names):
        node = nodes[pointer]
        kind = _kind(node)
        entity = ir.Entity(
            pointer=pointer,
            name=names[pointer],
            export_name=exports[pointer],
            kind=kind,
            is_definition=pointer not in hoisted,
            closed=node.get("additionalProperties") is False,
        )
        if kind is ir.Kind.MODEL:
            flat = schemas.flatten_all_of(dict(node), lambda ref: _resolve(document, ref), flattened)
            entity = _with_fields(entity, flat, doc.revision, options.field_naming)
            more = flat.get("additionalProperties", node.get("additionalProperties"))
            named = {pointer, entity.export_name, pointer.removeprefix("#")}
            if (more is not None and more is not False) or named & set(options.open_definitions):
                entity = replace(entity, open=True)
        elif kind is ir.Kind.UNION:
            entity = _with_arms(entity, node, document, kinds, frozenset(names), flattened, same)
        elif (
            _only_names(node) in kinds
            and kinds[_only_names(node) or ""] is ir.Kind.MODEL
            and not _reaches(document, _only_names(node) or "", pointer)
        ):
            entity = replace(entity, same_as=_only_names(node))
        entities.append(entity)

    tables = methods.method_tables(doc, tuple(entities))
    if methods.has_message_tables(tables, entities):
        entities = _exported_beside_messages(entities, doc.revision)
    entities = _without_contradicted_absence(entities)
    if deprecations.count:
        entities = [_deprecated(entity, deprecations) for entity in entities]
    return ir.Revision(
        revision=doc.revision,
        package=package,
        sha256=sha256,
        dialect=doc.dialect,
        entities=tuple(entities),
        definitions=tuple(definitions),
        methods=tables,
        options=options,
        same_arms=tuple(sorted(same.items())),
    )


def _exported_beside_messages(entities: list[ir.Entity], revision: str) -> list[ir.Entity]:
    """A package with a messages module exports its API too (`Message`, `parse_message`): a
    definition of such a name is exported under its class name instead (`MessageModel`)."""
    taken = naming.PACKAGE_NAMES | frozenset(naming.MESSAGES_API)
    moved = [
        replace(e, export_name=naming.export_name(e.export_name, e.name, taken)) if e.is_definition else e
        for e in entities
    ]
    _check_unique({e.pointer: e.export_name for e in moved}, revision)
    return moved


def _spec_names(definitions: list[str]) -> frozenset[str]:
    """The names the definitions are generated under: their class names and the names the package
    exports them as."""
    found: set[str] = set()
    for definition in definitions:
        name = naming.class_name(naming.base_name(definition))
        found |= {name, naming.export_name(definition, name, naming.PACKAGE_NAMES)}
    return frozenset(found)


# What a derived name that meets a definition's name gets: it names an inline schema.
_YIELDED = "Inline"


def _yielding(stem: str, spec_names: frozenset[str]) -> str:
    """A stem derived from a path (owner + property, arm, item), moved off the names of the
    definitions: a spec name is the API and keeps its name (the draft's AssistantMessage.content,
    an inline union, becomes AssistantMessageContentInline beside the AssistantMessageContent
    definition). It depends on the definitions alone, never on the order names are made in."""
    while naming.class_name(stem) in spec_names:
        stem += _YIELDED
    return stem


def _hoist_reference_targets(
    document: Mapping[str, Any],
    stems: dict[str, str],
    nodes: dict[str, Mapping[str, Any]],
    hoisted: set[str],
    spec_names: frozenset[str],
    revision: str,
) -> None:
    """A `$ref` to something that is not yet a named entity (a nested `$defs` entry, a property of
    another schema) names it too, from its path, so the engine never invents a name for it."""
    targets = sorted(
        {
            node["$ref"]
            for _, node in schemas.all_subschemas(document)
            if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/") and node["$ref"] not in stems
        },
        key=lambda pointer: (len(pointers.split(pointer)), pointer),
    )
    for target in targets:
        tokens = pointers.split(target)
        for cut in range(len(tokens) - 1, 1, -1):
            owner = pointers.from_tokens(tokens[:cut])
            if owner in stems:
                node = pointers.resolve(document, target)
                stems[target] = _yielding(stems[owner] + _path_suffix(document, tokens, cut, revision), spec_names)
                nodes[target] = node if isinstance(node, dict) else {}
                hoisted.add(target)
                break


def _path_suffix(document: Mapping[str, Any], tokens: list[str], cut: int, revision: str) -> str:
    """The suffix naming the schema at tokens below its owner (the first cut tokens): a member of a
    union, a tuple or an `allOf` by what it is (arms.py), like an inline one."""
    steps = {"items": "Item", "additionalProperties": "Value", "unevaluatedProperties": "Value"}
    suffix: list[str] = []
    index = cut
    while index < len(tokens):
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token in ("properties", "$defs", "definitions", "patternProperties") and following is not None:
            suffix.append(naming.pascal(following) or "Value")
            index += 2
        elif token in ("anyOf", "oneOf", "allOf", "prefixItems") and following is not None and following.isdigit():
            container = pointers.from_tokens(tokens[: index + 1])
            members = pointers.resolve(document, container)
            named = arms.member_names(members) if is_array(members) else []
            position = int(following)
            name = named[position] if position < len(named) else None
            if name is None:
                raise _unnamed(pointers.join(container, following), revision)
            suffix.append(name.text)
            index += 2
        else:
            suffix.append(steps.get(token) or naming.pascal(token) or "Value")
            index += 1
    return "".join(suffix)


def _unnamed(pointer: str, revision: str) -> Exception:
    return fail(
        "MCG301",
        f"{pointer} needs a name, and nothing tells it apart from its siblings: not a tag, a title, a "
        "`$ref`, its JSON type nor a key only it requires or declares",
        revision=revision,
        pointer=pointer,
        hint="give it a `title` (or a distinguishing key) in the schema, or with an erratum",
    )


def _arms_as_definitions(
    document: Mapping[str, Any], defs: Mapping[str, Any], def_pointers: Mapping[str, str]
) -> dict[str, str]:
    """Union arms written out exactly as a definition is (2025-03-26's JSONRPCMessage holds
    JSONRPCBatchRequest's array itself, not a `$ref` to it): each may be that definition, as a
    person would write it (arm pointer -> the definition's pointer; _inline_objects decides). Words about a schema do not count;
    only arrays and objects do (a `string` arm is no `Cursor`)."""
    shapes: dict[str, str] = {}
    for name in sorted(defs):
        if is_object(defs[name]) and _structured(defs[name]):
            shapes.setdefault(_shape(defs[name]), def_pointers[name])
    same: dict[str, str] = {}
    for pointer, node in schemas.all_subschemas(document):
        for key, index, arm in _arms(node):
            target = shapes.get(_shape(arm)) if is_object(arm) and _structured(arm) else None
            if target is not None and not arms.is_reference(arm):
                same[pointers.join(pointer, key, index)] = target
    return same


def _shared_lists(nodes: Mapping[str, Mapping[str, Any]], hoisted: set[str]) -> dict[str, str]:
    """The same array of one `$ref` X hoisted out of several unions is one `XList`: the first
    place (by pointer) keeps it, the others are that one (place -> the first place)."""
    firsts: dict[str, str] = {}
    same: dict[str, str] = {}
    for pointer in sorted(hoisted):
        if _is_arm(pointer) and arms.list_of(nodes[pointer]) is not None:
            first = firsts.setdefault(_shape(nodes[pointer]), pointer)
            if first != pointer:
                same[pointer] = first
    return same


def _is_arm(pointer: str) -> bool:
    tokens = pointers.split(pointer)
    return len(tokens) >= 2 and tokens[-2] in _ARMS and tokens[-1].isdigit()


def _structured(node: Mapping[str, Any]) -> bool:
    return not {"properties", "items", "prefixItems", "allOf", "anyOf", "oneOf"}.isdisjoint(node)


def _shape(node: Mapping[str, Any]) -> str:
    """A schema as it validates: its words (description, title, comment) left out at the top."""
    return json.dumps({k: v for k, v in node.items() if k not in ("description", "title", "$comment")}, sort_keys=True)


def _export_name(pointer: str, class_name: str, hoisted: bool, taken: frozenset[str]) -> str:
    """A definition is exported under its spec name (see naming.export_name), a hoisted object
    under its class name."""
    return class_name if hoisted else naming.export_name(pointers.split(pointer)[1], class_name, taken)


def _reaches(document: Mapping[str, Any], start: str, goal: str) -> bool:
    """Whether the schema at start refers to goal through its `$ref`s, at any depth. A plain alias
    (`EmptyResult = Result`) must come after its model; a model that refers back to the alias is
    written before it, so such an alias stays a type alias (which may name what comes later)."""
    seen: set[str] = set()
    pending = [start]
    while pending:
        pointer = pending.pop()
        if pointer in seen:
            continue
        seen.add(pointer)
        try:
            nodes: list[object] = [pointers.resolve(document, pointer)]
        except KeyError:
            return True  # a reference that names nothing: the type alias is the safe choice
        while nodes:
            value = nodes.pop()
            if isinstance(value, dict):
                members = cast("dict[str, object]", value)
                ref = members.get("$ref")
                if isinstance(ref, str):
                    if ref == goal:
                        return True
                    if ref.startswith("#"):
                        pending.append(ref)
                nodes.extend(members.values())
            elif isinstance(value, list):
                nodes.extend(cast("list[object]", value))
    return False


def _only_names(node: Mapping[str, Any]) -> str | None:
    """The `$ref` of a schema that is nothing but a reference (and words about it), else None."""
    ref = node.get("$ref")
    return ref if isinstance(ref, str) and set(node) <= {"$ref", "description", "title", "$comment"} else None


def _kind(node: Mapping[str, Any]) -> ir.Kind:
    if "properties" in node or "allOf" in node:
        return ir.Kind.MODEL
    if any(isinstance(node.get(key), list) for key in _ARMS):
        return ir.Kind.UNION
    return ir.Kind.ALIAS


def _class_worthy(node: Any) -> bool:
    """An object with properties becomes a class; a union of objects a named (discriminable) alias."""
    if not is_object(node):
        return False
    if "properties" in node or "allOf" in node:
        return True
    return _dispatchable_union(node)


def _dispatchable_union(node: Mapping[str, Any]) -> bool:
    """A union of at least two arms, each an object (by `$ref` or inline) or of one JSON type, some an object."""
    arms = [arm for key in _ARMS for arm in node.get(key) or ()]
    if len(arms) < 2 or not all(isinstance(a, dict) for a in arms):
        return False
    objects = [a for a in arms if "$ref" in a or "properties" in a]
    typed = [a for a in arms if a not in objects and isinstance(a.get("type"), str) and a["type"] != "object"]
    return bool(objects) and len(objects) + len(typed) == len(arms)


def _with_arms(
    entity: ir.Entity,
    node: Mapping[str, Any],
    document: Mapping[str, Any],
    kinds: Mapping[str, ir.Kind],
    named: frozenset[str],
    flattened: schemas.Flattened,
    same: Mapping[str, str],
) -> ir.Entity:
    arms = tuple(_arm_pointer(arm, pointers.join(entity.pointer, key, i), same) for key, i, arm in _arms(node))
    if len(arms) < 2:
        return replace(entity, arms=arms, smart_reason="fewer than two arms")
    tag = _find_tag(document, arms)
    if tag is not None:
        return replace(entity, arms=arms, tag=tag)
    if not all(arm in named for arm in arms):
        return replace(entity, arms=arms, smart_reason="no arm is an object: strict validation tells the JSON types apart")
    if any(kinds.get(arm) is not ir.Kind.MODEL and _alias_reaches(document, arm, entity.pointer, kinds) for arm in arms):
        return replace(entity, arms=arms, smart_reason="an arm is a type alias that refers back to the union")
    untyped = [
        arm
        for arm in arms
        if kinds.get(_model_target(document, arm)) is not ir.Kind.MODEL
        and not isinstance(_resolve(document, arm).get("type"), str)
    ]
    if untyped:
        reason = (
            "arms of several JSON types each, told apart exactly by strict validation: "
            + ", ".join(_arm_label(entity.pointer, arm) for arm in untyped)
        )
        return replace(entity, arms=arms, smart_reason=reason)
    found = discriminate.structural_dispatch(arms, lambda ref: _resolve(document, ref), flattened)
    if isinstance(found, str):
        models = all(kinds.get(_model_target(document, arm)) is ir.Kind.MODEL for arm in arms)
        facts = specific.specificity(arms, lambda ref: _resolve(document, ref), flattened) if models else None
        return replace(entity, arms=arms, smart_reason=found, specific=facts)
    return replace(entity, arms=arms, dispatch=found)


def _alias_reaches(document: Mapping[str, Any], start: str, target: str, kinds: Mapping[str, ir.Kind]) -> bool:
    """Whether the schema at start refers to target through type aliases (not through a model class)."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        pointer = stack.pop()
        if pointer in seen:
            continue
        seen.add(pointer)
        for _, node in schemas.all_subschemas(pointers.resolve(document, pointer), pointer):
            ref = node.get("$ref")
            if not isinstance(ref, str) or not ref.startswith("#"):
                continue
            if ref == target:
                return True
            if kinds.get(ref) is not ir.Kind.MODEL:
                stack.append(ref)
    return False


def _arm_label(union: str, arm: str) -> str:
    return arm[len(union) + 1 :] if arm.startswith(union + "/") else arm.rsplit("/", 1)[-1]


def _model_target(document: Mapping[str, Any], pointer: str) -> str:
    """Follow pure `$ref` aliases from pointer to the pointer of what they name."""
    seen = {pointer}
    node = pointers.resolve(document, pointer)
    while is_object(node) and set(node) <= {"$ref", "description", "title"} and "$ref" in node:
        pointer = node["$ref"]
        if pointer in seen:
            break
        seen.add(pointer)
        node = pointers.resolve(document, pointer)
    return pointer


def _inline_objects(
    node: Mapping[str, Any],
    pointer: str,
    owner: str,
    suffix: str | None,
    copies: tuple[Mapping[str, str], dict[str, str]],
    revision: str,
) -> Iterator[_Found]:
    """Inline schemas below node that become classes of their own, outermost first.

    In a union that gets a discriminator, an arm of another JSON type (a batch array) is named too,
    so that the discriminator can tag it. An arm that would be named and is a copy of a definition
    (copies: (candidates, found)) is not: it is that definition, noted in found. An arm that needs
    no name stays as written (JSONValue's array arm, no alias cycle through JSONArray). suffix is
    None below a member that nothing names (arms.py): an error if reached.
    """
    candidates, found = copies
    dispatchable = _dispatchable_union(node)
    for child_pointer, child, step, keyword in _children(node, pointer):
        child_suffix = None if suffix is None or step is None else suffix + step.text
        typed_arm = dispatchable and keyword in _ARMS and isinstance(child.get("type"), str)
        inside_a_type = keyword in _TYPE_ARGUMENT_KEYWORDS and _constrained_in_place(child)
        if keyword in _HOIST_KEYWORDS and (_class_worthy(child) or typed_arm or inside_a_type):
            if child_pointer in candidates:
                found[child_pointer] = candidates[child_pointer]
                continue
            if child_suffix is None or step is None:
                raise _unnamed(child_pointer, revision)
            standalone = step.text if step.standalone else None
            yield _Found(child_pointer, owner, child_suffix, child, standalone)
            yield from _inline_objects(child, child_pointer, child_pointer, "", copies, revision)
        else:
            yield from _inline_objects(child, child_pointer, owner, child_suffix, copies, revision)


_HOIST_KEYWORDS = frozenset({"properties", "patternProperties", "additionalProperties", "items",
                             "unevaluatedProperties", "prefixItems", "anyOf", "oneOf"})
# Where a subschema is one part of a type (list[...], dict[str, ...], X | Y), not a field of its own.
_TYPE_ARGUMENT_KEYWORDS = _HOIST_KEYWORDS - {"properties"}
# Keywords that bound a value in place (JSON Schema validation: numbers, strings, arrays, objects).
# A property's bounds are its field's constraints; the engine can write them nowhere else in a type
# but on a name of its own (`list[TagsTagsItem]`, TagsTagsItem = Annotated[str, Field(min_length=1)]),
# so a subschema that carries one inside a type is named here, from its path, like an inline object.
_IN_PLACE_CONSTRAINTS = frozenset({
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
    "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
})  # fmt: skip


def _constrained_in_place(node: Mapping[str, Any]) -> bool:
    """Whether a schema bounds its value with a keyword of its own (not through a `$ref` or an arm)."""
    return not _IN_PLACE_CONSTRAINTS.isdisjoint(node)


def _children(
    node: Mapping[str, Any], pointer: str
) -> Iterator[tuple[str, Mapping[str, Any], arms.MemberName | None, str]]:
    """(pointer, subschema, name step, keyword) for each subschema of node."""
    members = {key: arms.member_names(node[key]) for key in (*_ARMS, "prefixItems") if is_array(node.get(key))}
    for child_pointer, keyword, key, sub in schemas.children(node, pointer):
        if not is_object(sub):
            continue
        step: arms.MemberName | None
        if keyword == "properties":
            step = arms.MemberName(naming.pascal(str(key)))
        elif keyword in ("patternProperties", "additionalProperties", "unevaluatedProperties"):
            step = arms.MemberName("Value")
        elif keyword == "items" or (keyword == "prefixItems" and key is None):
            step = arms.MemberName("Item")
        elif keyword in members:
            step = members[keyword][int(key or 0)]
        else:  # allOf members are merged into their owner by the engine; other keywords constrain
            step = arms.MemberName("")
        yield child_pointer, sub, step, keyword


def _arms(node: Mapping[str, Any]) -> Iterator[tuple[str, int, Any]]:
    for key in _ARMS:
        for index, arm in enumerate(node.get(key) or ()):
            yield key, index, arm


def _arm_pointer(arm: Any, own_pointer: str, same: Mapping[str, str]) -> str:
    if is_object(arm) and set(arm) <= {"$ref", "description", "title"} and "$ref" in arm:
        return str(arm["$ref"])
    return same.get(own_pointer, own_pointer)


def _resolve(document: Mapping[str, Any], pointer: str) -> Mapping[str, Any]:
    """The schema a pointer names, past pure `$ref` aliases."""
    node = pointers.resolve(document, _model_target(document, pointer))
    return node if is_object(node) else {}


def _required_consts(schema: Mapping[str, Any]) -> dict[str, str]:
    required = set(schema.get("required") or ())
    consts: dict[str, str] = {}
    for prop, sub in (schema.get("properties") or dict[str, Any]()).items():
        if prop in required and is_object(sub) and isinstance(sub.get("const"), str):
            consts[prop] = sub["const"]
    return consts


def _find_tag(document: Mapping[str, Any], arms: tuple[str, ...]) -> ir.Tag | None:
    """A required string `const` property shared by every arm with pairwise distinct values."""
    if len(arms) < 2:
        return None
    per_arm = [_required_consts(_resolve(document, arm)) for arm in arms]
    candidates = sorted(set[str].intersection(*(set(c) for c in per_arm)))
    for prop in candidates:
        values = [c[prop] for c in per_arm]
        if len(set(values)) == len(values):
            return ir.Tag(prop, tuple(sorted(zip(values, arms, strict=True))))
    return None


def _with_fields(entity: ir.Entity, node: Mapping[str, Any], revision: str, style: str) -> ir.Entity:
    required: set[str] = set(node.get("required") or ())
    schemas_by_wire: Mapping[str, Any] = node.get("properties") or {}
    properties = {wire: wire in required for wire in schemas_by_wire}
    constants = {wire: _single_value(schemas_by_wire[wire]) if properties[wire] else () for wire in properties}
    beside_constants = any(constants.values())
    fields: list[ir.Field] = []
    taken: dict[str, str] = {}
    for wire in sorted(properties):
        python = naming.field_name(wire, style, beside_constants=beside_constants)
        if python in taken:
            raise fail(
                "MCG302",
                f"properties {taken[python]!r} and {wire!r} of {entity.name} both become attribute {python!r}",
                revision=revision,
                pointer=pointers.join(entity.pointer, "properties", wire),
                hint="rename one of them in the schema (or with an erratum)",
            )
        taken[python] = wire
        choices = _string_choices(schemas_by_wire[wire])
        absent = absence.stated(wire, schemas_by_wire[wire]) if properties[wire] and not constants[wire] else None
        fields.append(
            ir.Field(
                wire_name=wire,
                python_name=python,
                required=properties[wire],
                constant=constants[wire],
                choices=choices,
                absent_means=absent,
            )
        )
    return replace(entity, fields=tuple(fields))


def _deprecated(entity: ir.Entity, deprecations: Deprecations) -> ir.Entity:
    """entity with the spec's deprecations on it: its own tag or that of the nearest deprecated
    place it was hoisted out of (an inline object is part of the definition or property it is in),
    its fields' tags, and the tags on keys it has no field for."""
    tokens = pointers.split(entity.pointer)
    message = next(
        (
            text
            for depth in range(len(tokens), 1, -1)
            if (text := deprecations.at.get(pointers.from_tokens(tokens[:depth]))) is not None
        ),
        None,
    )
    fields = tuple(
        replace(f, deprecated=text)
        if (text := deprecations.at.get(pointers.join(entity.pointer, "properties", f.wire_name))) is not None
        else f
        for f in entity.fields
    )
    loose = tuple((key, text) for owner, key, text in deprecations.loose if owner == entity.pointer)
    return replace(entity, deprecated=message, fields=fields, deprecated_keys=loose)


def _without_contradicted_absence(entities: list[ir.Entity]) -> list[ir.Entity]:
    """No stated absence value for a class that a union tells apart by another value of that
    property (InputRequiredResult is `resultType = "input_required"`: building one must not say
    "complete")."""
    pinned: dict[str, dict[str, set[object]]] = {}  # arm pointer -> property -> the values rules pin it to
    for entity in entities:
        for rule in entity.dispatch.rules if entity.dispatch else ():
            for predicate in rule.predicates:
                if predicate.op == "eq" and len(predicate.path) == 1:
                    pinned.setdefault(rule.arm, {}).setdefault(predicate.path[0], set()).update(predicate.values)

    def contradicted(entity: ir.Entity, field: ir.Field) -> bool:
        values = pinned.get(entity.pointer, {}).get(field.wire_name)
        return values is not None and field.absent_means not in values

    kept: list[ir.Entity] = []
    for entity in entities:
        fields = tuple(
            replace(f, absent_means=None) if f.absent_means is not None and contradicted(entity, f) else f
            for f in entity.fields
        )
        kept.append(replace(entity, fields=fields) if fields != entity.fields else entity)
    return kept


def _single_value(node: Any) -> tuple[str | int | bool, ...]:
    """The one value a property schema allows, written in place (`const` or a one-value `enum`)."""
    if not is_object(node):
        return ()
    values = [node["const"]] if "const" in node else node.get("enum")
    if is_array(values) and len(values) == 1 and isinstance(values[0], str | int | bool):
        return (values[0],)
    return ()


def _string_choices(node: Any) -> tuple[str, ...]:
    """The strings a property schema allows (`const` or `enum`), or () when it allows others too."""
    if not is_object(node):
        return ()
    values = [node["const"]] if "const" in node else node.get("enum")
    if is_array(values) and values and all(isinstance(v, str) for v in values):
        return tuple(str(v) for v in values)
    return ()


def _check_unique(names: Mapping[str, str], revision: str) -> None:
    by_name: dict[str, str] = {}
    for pointer in sorted(names):
        name = names[pointer]
        if name in by_name:
            raise fail(
                "MCG301",
                f"{by_name[name]} and {pointer} would both be named {name!r}",
                revision=revision,
                pointer=pointer,
                hint="rename a definition (or add an erratum) so generated names stay distinct",
            )
        by_name[name] = pointer
