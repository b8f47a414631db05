"""ir.Revision + SchemaDoc -> the JSON Schema document handed to datamodel-code-generator.

The engine names a class after its `$defs` key, so every entity is given its own `$defs` entry
under its assigned name; the rest shapes the schema so the engine's output is lossless:
- `number` becomes `integer | number`, so a JSON integer stays an int (50 never turns into 50.0),
  and a bounded number our `JSONNumber` (the engine's `x-python-type`), so its bounds stay exact;
- a union whose arms share a `const` tag carries an OpenAPI-style `discriminator`;
- a property whose attribute name is not its wire name is renamed to the attribute name, so the
  engine writes a plain field (`has_more: StrictBool | MISSING = MISSING`); the class's wire names
  come from its config (`wire_names`, see templates/dcg/pydantic_v2/BaseModel.jinja2): an alias in
  each field's `Annotated[..., Field(alias=...)]` cost a sixth of the models module's import.
"""

from __future__ import annotations

import copy
import textwrap
from collections import Counter
from fractions import Fraction
import json
from typing import Any

from codegen.analysis import ir
from codegen.analysis.naming import NUMBER
from codegen.emit.dcg import BASE_MODULE
from codegen.schema import pointers, schemas
from codegen.schema.load import DEFS, SchemaDoc
from codegen.schema.jsontypes import is_array, is_object
_REF_ONLY = frozenset({"$ref"})
# The keywords that bound a number (JSON Schema validation).
_NUMBER_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
# Keywords that say nothing about which keys an object has (nor compose it with other schemas).
_ANNOTATIONS_AND_TYPE = frozenset(
    {"type", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"}
)


def lower(doc: SchemaDoc, revision: ir.Revision) -> dict[str, Any]:
    document: dict[str, Any] = copy.deepcopy(dict(doc.document))
    entities = revision.by_pointer()
    renames = {e.pointer: pointers.join("#", DEFS, e.name) for e in revision.entities}

    # An arm that is another entity becomes a reference to it (retargeted below), before anything moves.
    for pointer, target in revision.same_arms:
        tokens = pointers.split(pointer)
        arms = pointers.resolve(document, pointers.from_tokens(tokens[:-1]))
        arms[int(tokens[-1])] = _reference(target, arms[int(tokens[-1])])

    # Hoist inline objects, deepest first so the path to each is still intact when it moves.
    moved: dict[str, Any] = {}
    for pointer in sorted((p for p, e in entities.items() if not e.is_definition), key=_depth, reverse=True):
        tokens = pointers.split(pointer)
        parent = pointers.resolve(document, pointers.from_tokens(tokens[:-1]))
        key: Any = int(tokens[-1]) if is_array(parent) else tokens[-1]  # an array index or an object key
        node = parent[key]
        moved[entities[pointer].name] = node
        parent[key] = _reference(renames[pointer], node)

    old_defs = document.pop(DEFS)
    new_defs: dict[str, Any] = {}
    for entity in revision.entities:
        if entity.is_definition:
            new_defs[entity.name] = old_defs[entity.definition_name]
        else:
            new_defs[entity.name] = moved[entity.name]
    document[DEFS] = {name: new_defs[name] for name in sorted(new_defs)}

    _retarget_refs(document, renames)
    defs = document[DEFS]
    flattened: schemas.Flattened = {}
    for name in defs:
        if isinstance(defs[name], dict) and "allOf" in defs[name]:
            defs[name] = schemas.flatten_all_of(defs[name], lambda ref: pointers.resolve(document, ref), flattened)
    _break_alias_cycles(defs, {e.name for e in revision.entities if e.kind is not ir.Kind.MODEL})
    for entity in revision.entities:
        if entity.kind is ir.Kind.MODEL:
            _properties_by_attribute_name(defs[entity.name], entity)
    for entity in revision.entities:
        if entity.tag is not None:
            _add_discriminator(document[DEFS][entity.name], entity.tag, renames, entities)
    _widen_numbers(document)
    _formats_as_annotations(document)
    _drop_redundant_any_extras(document)
    _bare_objects_as_maps(document)
    _defaults_as_documentation(document)
    _deprecations_as_documentation(document[DEFS], revision)
    _wrap_descriptions(document, revision.options.width - _DOCSTRING_INDENT)
    return document


_DOCSTRING_INDENT = 4  # a class's and a field's docstring lines are indented once
_FENCE = "```"


def _wrap_descriptions(document: dict[str, Any], width: int) -> None:
    """Every description, the docstrings the engine writes, with its lines wrapped to width: a
    project's line length holds for them as for the code (E501). A line is broken between words
    only; a list item's continuation lines align under its text, fenced code is left as written,
    and a word longer than the width (a URL) stays whole on its own line."""
    for _, node in schemas.all_subschemas(document):
        text = node.get("description")
        if isinstance(text, str) and any(len(line) > width for line in text.split("\n")):
            node["description"] = wrapped(text, width)


def wrapped(text: str, width: int) -> str:
    """text with each line over width broken between words (see _wrap_descriptions)."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith(_FENCE):
            fenced = not fenced
        if fenced or len(line) <= width or line.lstrip().startswith(_FENCE):
            out.append(line)
            continue
        body = line.lstrip()
        lead = line[: len(line) - len(body)]
        marker = _list_marker(body)
        out.extend(
            textwrap.wrap(
                body,
                width,
                initial_indent=lead,
                subsequent_indent=lead + " " * len(marker),
                break_long_words=False,
                break_on_hyphens=False,
            )
            or [line]
        )
    return "\n".join(out)


def _list_marker(body: str) -> str:
    """The marker a Markdown list item starts with ("- ", "* ", "1. "), or ""."""
    head, _, rest = body.partition(" ")
    if rest and (head in ("-", "*", "+") or (head[:-1].isdigit() and head[-1:] in (".", ")"))):
        return head + " "
    return ""


def _depth(pointer: str) -> int:
    return len(pointers.split(pointer))


def _reference(target: str, node: Any) -> dict[str, Any]:
    ref: dict[str, Any] = {"$ref": target}
    if is_object(node) and isinstance(node.get("description"), str):
        ref["description"] = node["description"]
    return ref


def _retarget_refs(document: dict[str, Any], renames: dict[str, str]) -> None:
    for _, node in schemas.all_subschemas(document):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref in renames:
            node["$ref"] = renames[ref]


def _properties_by_attribute_name(node: Any, entity: ir.Entity) -> None:
    """A model's properties (and its `required`) keyed by attribute name, in the schema's order."""
    renamed = {wire: python for python, wire in entity.wire_names.items()}
    if not renamed or not is_object(node):
        return
    properties: object = node.get("properties")
    declared: set[str] = set()
    if is_object(properties):
        declared = set(properties)
        node["properties"] = {renamed.get(key, key): value for key, value in properties.items()}
    required: object = node.get("required")
    if is_array(required):
        # a required key that is no property stays as it is (the engine makes no field of it),
        # unless it is now the attribute name of a renamed property: then it would require that one
        taken = {python for wire, python in renamed.items() if wire in declared}
        node["required"] = [
            renamed.get(key, key) if key in declared else key
            for key in required
            if not (isinstance(key, str) and key not in declared and key in taken)
        ]


def _add_discriminator(
    node: dict[str, Any], tag: ir.Tag, renames: dict[str, str], by_pointer: dict[str, ir.Entity]
) -> None:
    # the arms' property, under the attribute name their classes give it (the wire name, for the
    # tags the spec uses: `type`, `method`)
    named = {f.wire_name: f.python_name for _, arm in tag.values if arm in by_pointer for f in by_pointer[arm].fields}
    node["discriminator"] = {
        "propertyName": named.get(tag.property, tag.property),
        "mapping": {value: renames.get(arm, arm) for value, arm in tag.values},
    }


def _widen_numbers(document: dict[str, Any]) -> None:
    """`type: number` -> `type: [integer, number]` (an equivalent schema the engine maps to `int | float`).

    A bounded number (and a nullable one) is typed JSONNumber instead (`_base`: int | float), by the
    engine's own `x-python-type`: the engine writes the bounds of a float-typed field as floats
    (`exclusiveMaximum: 100000000000000000000000000001` as `lt=1e+29`, `multipleOf: 3` as 3.0, which
    Python's `%` then applies to an int in floating point), and those of any other type as written.
    pydantic checks bounds on a union in Python, where an int and a float compare exactly."""
    for _, node in schemas.all_subschemas(document):
        kind = node.get("type")
        types = set(kind) if is_array(kind) else {kind}
        if "number" in types and types <= {"number", "integer", "null"} and not _NUMBER_BOUNDS.isdisjoint(node):
            node["type"] = "number"
            node["x-python-type"] = f"{BASE_MODULE}.{NUMBER}"
            if "null" in types:
                node["nullable"] = True
            for keyword in _NUMBER_BOUNDS & node.keys():
                node[keyword] = _as_written(node[keyword])
        elif kind == "number":
            node["type"] = ["integer", "number"]
        elif is_array(kind) and "number" in kind and "integer" not in kind:
            node["type"] = [t for t in kind if t != "number"] + ["integer", "number"]


def _as_written(bound: Any) -> Any:
    """A whole number the JSON text spelt with a fraction or exponent (`1e30`, `3.0`) as the int it
    wrote, not the float's binary value (1e30 is 1000000000000000019884624838656 as a float)."""
    if isinstance(bound, float) and bound.is_integer():
        return int(Fraction(repr(bound)))
    return bound


def _formats_as_annotations(document: dict[str, Any]) -> None:
    """`format` is an annotation in JSON Schema 2020-12: a string with `format: email` is any string.
    The engine would type it (`EmailStr`, `AnyUrl`, `Path`, `UUID`, `Decimal`, ...), which imports
    optional packages, rewrites values (`HTTP://A.COM` -> `http://a.com/`) and rejects others; so it
    never sees `format`, wherever it is (type lists, union arms, items, map values)."""
    for _, node in schemas.all_subschemas(document):
        if isinstance(node.get("format"), str):
            del node["format"]


def _drop_redundant_any_extras(document: dict[str, Any]) -> None:
    """`additionalProperties: {}`/`true` beside `properties` is the default (every model keeps unknown keys)."""
    for _, node in schemas.all_subschemas(document):
        if "properties" in node and node.get("additionalProperties") in ({}, True):
            del node["additionalProperties"]


def _bare_objects_as_maps(document: dict[str, Any]) -> None:
    """A bare `type: object` (no keyword about its keys) is a map of any keys: spelled out, the
    engine types it `dict[str, Any]` (a plain dict builds it) rather than an empty class."""
    for _, node in schemas.all_subschemas(document):
        if node.get("type") == "object" and node.keys() <= _ANNOTATIONS_AND_TYPE:
            node["additionalProperties"] = {}


def _break_alias_cycles(defs: dict[str, Any], alias_names: set[str]) -> None:
    """Make mutually recursive type aliases (JSONValue <-> JSONObject) self-recursive.

    Type checkers accept a type alias that refers to itself, not a ring of aliases. In each ring,
    the member the others point at most keeps its name and gets the others inlined into it.
    """
    prefix = f"#/{DEFS}/"

    def alias_refs(name: str) -> set[str]:
        return {
            ref[len(prefix) :]
            for _, node in schemas.all_subschemas(defs[name], prefix + pointers.escape(name))
            if isinstance(ref := node.get("$ref"), str) and ref.startswith(prefix) and ref[len(prefix) :] in alias_names
        }

    edges = {name: alias_refs(name) for name in sorted(alias_names)}
    references = Counter(
        ref
        for name, schema in defs.items()
        for _, node in schemas.all_subschemas(schema, prefix + pointers.escape(name))
        if isinstance(ref := node.get("$ref"), str)
    )
    uses = {name: references[prefix + name] for name in alias_names}
    for ring in _strongly_connected(edges):
        if len(ring) < 2:
            continue
        # Inlining terminates only if the others form no ring without the keeper: try keepers in order.
        for keeper in sorted(ring, key=lambda n: (n not in edges[n], -uses[n], n)):
            inlined = _inline_ring(keeper, defs, {prefix + n for n in ring if n != keeper}, prefix)
            if inlined is not None:
                defs[keeper] = inlined
                break


def _inline_ring(keeper: str, defs: dict[str, Any], others: set[str], prefix: str) -> dict[str, Any] | None:
    """A copy of the keeper's schema with the others' references inlined, or None if that never ends."""
    schema: dict[str, Any] = copy.deepcopy(defs[keeper])
    for _ in range(len(others) + 1):
        sites = [node for _, node in schemas.all_subschemas(schema, prefix + pointers.escape(keeper)) if node.get("$ref") in others]
        if not sites:
            return schema
        for node in sites:
            target = copy.deepcopy(defs[node.pop("$ref")[len(prefix) :]])
            node.update({k: v for k, v in target.items() if k not in node})
    return None


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; rings come out sorted for determinism."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    rings: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in edges:
                    continue
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(edges[succ]))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                ring: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    ring.append(member)
                    if member == node:
                        break
                rings.append(sorted(ring))
    return sorted(rings)


def _deprecations_as_documentation(defs: dict[str, Any], revision: ir.Revision) -> None:
    """The spec's `@deprecated` text, in the docstring of what it is on: a class or alias, a field,
    and, for a key the schema declares no property for, the class it belongs to."""
    for entity in revision.entities:
        node = defs.get(entity.name)
        if not is_object(node):
            continue
        if entity.deprecated is not None:
            _add_note(node, _deprecation_note(entity.deprecated))
        for key, text in entity.deprecated_keys:
            _add_note(node, f"Deprecated key `{key}`: {text}")
        properties: object = node.get("properties")
        for field in entity.fields:
            if field.deprecated is not None and is_object(properties) and is_object(target := properties.get(field.python_name)):
                _add_note(target, _deprecation_note(field.deprecated))


def _deprecation_note(text: str) -> str:
    """The docstring paragraph of a deprecation: the spec's text, said to be one."""
    return text if text.lower().startswith("deprecated") else f"Deprecated: {text}"


def _add_note(node: dict[str, Any], note: str) -> None:
    description = node.get("description")
    node["description"] = f"{description}\n\n{note}" if isinstance(description, str) and description else note


def _defaults_as_documentation(document: dict[str, Any]) -> None:
    """`default` says what a receiver assumes when a key is absent; it is not data. As a Python
    default it would be dumped for an absent key (a lossy round trip) and make the engine admit
    null, so it moves into the description."""
    for _, node in schemas.all_subschemas(document):
        if "default" not in node:
            continue
        default = node.pop("default")
        note = f"Default: {json.dumps(default, sort_keys=True)}."
        description = node.get("description")
        node["description"] = f"{description}\n\n{note}" if isinstance(description, str) and description else note
