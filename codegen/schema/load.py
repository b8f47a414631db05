"""Schema bytes -> a validated SchemaDoc: JSON parsed within limits, draft-07 `definitions` and
2020-12 `$defs` normalised to `$defs`, every `$ref` local and resolvable."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codegen import safeio
from codegen.schema import pointers, schemas, wellformed
from codegen.errors import CodegenError, Diagnostic, fail
from codegen.limits import DEPTH_CEILING, Limits
from codegen.schema.jsontypes import is_array, is_object, json_type

DEFS = "$defs"
_LEGACY_DEFS = "definitions"
_LEGACY_PREFIX = "#/definitions/"
_DEFS_PREFIX = "#/$defs/"


@dataclass(frozen=True)
class SchemaDoc:
    """A schema ready for analysis. `document` is normalised (definitions under `$defs`)."""

    revision: str
    dialect: str  # "draft-07" | "2020-12"
    document: Mapping[str, Any]

    @property
    def defs(self) -> Mapping[str, Any]:
        defs: Mapping[str, Any] = self.document[DEFS]
        return defs


# The most any input file is read to when no schema limit applies to it (a pinned schema, whose
# sha256 is checked afterwards, an errata or config file): MCP schemas are ~200 KB.
INPUT_CEILING = 64 * 1024 * 1024


def read_input(
    path: Path,
    *,
    revision: str | None = None,
    hint: str | None = None,
    limit: int | None = None,
    root: Path | None = None,
    code: str = "MCG003",
    what: str = "schema",
) -> bytes:
    """The bytes of an input file (a schema, a tools/list result, errata, a config file), or an error
    saying why not: `code` when it cannot be read, is not a regular file (a FIFO, a device, a
    socket) or is a symbolic link leading out of root (default: its own folder); MCG101 when a
    schema (what) holds more than limit bytes (checked before reading, and while reading), `code`
    for any other file."""
    try:
        return safeio.read_input(path, limit if limit is not None else INPUT_CEILING, root)
    except safeio.NotRegular as exc:
        raise fail(
            code, f"cannot read {path}: it is not a regular file, it is {exc.what}", revision=revision,
            hint=hint or "give the path of the file itself; nothing was read",
        ) from exc  # fmt: skip
    except safeio.TooLarge as exc:
        size = f"{exc.size:,} bytes" if exc.size is not None else f"more than {exc.limit:,} bytes"
        schema = limit is not None and what == "schema"
        raise fail(
            "MCG101" if schema else code,
            f"{what} is {size}, over the limit of {exc.limit:,}",
            revision=revision,
            pointer="#" if schema else None,
            hint="raise --max-schema-bytes if this file is trusted" if schema else "is this the right file?",
        ) from exc
    except OSError as exc:
        raise fail(code, f"cannot read {path}: {exc.strerror or exc}", revision=revision, hint=hint) from exc


def parse_json(data: bytes, revision: str, limits: Limits) -> dict[str, Any]:
    """Bytes -> the raw JSON document (a dict), with size checked before parsing."""
    if len(data) > limits.max_schema_bytes:
        raise fail(
            "MCG101",
            f"schema is {len(data):,} bytes, over the limit of {limits.max_schema_bytes:,}",
            revision=revision,
            pointer="#",
            hint="raise --max-schema-bytes if this schema is trusted",
        )
    if not data.strip():
        raise fail("MCG102", "schema file is empty", revision=revision, pointer="#", hint="is the path right?")
    try:
        text = data.decode("utf-8-sig")
        long_integers: list[_LongInteger] = []
        document = strict_loads(text, parse_int=lambda digits: _integer(digits, long_integers))
    except NotJSON as exc:
        raise fail(
            "MCG102", f"schema is not valid JSON: {exc}", revision=revision, pointer="#", hint="standard JSON only (RFC 8259)"
        ) from exc
    except UnicodeDecodeError as exc:
        raise fail(
            "MCG102",
            f"schema is not UTF-8: {exc.reason} at byte {exc.start}",
            revision=revision,
            pointer="#",
            hint="JSON is UTF-8 text; is this a schema file?",
        ) from exc
    except json.JSONDecodeError as exc:
        raise fail(
            "MCG102",
            f"schema is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            revision=revision,
            pointer="#",
            hint="is the file truncated?" if _at_the_end(exc, exc.doc) else "fix the JSON syntax there",
        ) from exc
    except RecursionError as exc:
        raise fail(
            "MCG103",
            f"schema nests deeper than the JSON parser can read (the limit is {limits.max_depth} levels)",
            revision=revision,
            pointer="#",
            hint="MCP schemas nest about 12 levels; this one is broken or hostile",
        ) from exc
    if long_integers:
        _check_numbers(document, revision)
    if not is_object(document):
        raise fail(
            "MCG104",
            f"schema root must be a JSON object, got {json_type(document)}",
            revision=revision,
            pointer="#",
            hint="a schema document is an object holding `$defs` (or `definitions`)",
        )
    return document


def _at_the_end(exc: json.JSONDecodeError, text: str) -> bool:
    """The text ends before the value does: cut off (an unterminated string reports where it began)."""
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")


class NotJSON(ValueError):
    """Text Python's parser accepts but JSON does not (or that parsers read differently)."""


def strict_loads(text: str, *, parse_int: Callable[[str], Any] | None = None) -> Any:
    """JSON text as RFC 8259 reads it: NaN, Infinity and a repeated key are NotJSON, as is (unless
    parse_int decides otherwise) an integer too long for Python to read. Python's recursive parser
    raises RecursionError on text nested past its recursion limit."""
    return json.loads(
        text, object_pairs_hook=_unique_keys, parse_constant=_no_constant, parse_int=parse_int or _short_integer
    )


def _short_integer(digits: str) -> int:
    if len(digits) - digits.startswith("-") > MAX_DIGITS:
        raise NotJSON(f"an integer of {len(digits) - digits.startswith('-'):,} digits, over the limit of {MAX_DIGITS:,}")
    return int(digits)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated key is read as the first occurrence by some parsers and the last by others: a
    # schema could then mean one thing to a validator and another to the generator.
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise NotJSON(f"the key {repeated!r} appears twice in one object")
    return document


def _no_constant(name: str) -> Any:
    raise NotJSON(f"{name} is not a JSON number")


MAX_DIGITS = 4_300  # Python's own limit for turning digits into an int (sys.get_int_max_str_digits)


@dataclass(frozen=True)
class _LongInteger:
    """An integer literal too long to read, kept as text until its place is reported."""

    digits: int


def _integer(text: str, long_integers: list[_LongInteger]) -> int | _LongInteger:
    digits = len(text) - text.startswith("-")
    if digits <= MAX_DIGITS:
        return int(text)
    long_integers.append(_LongInteger(digits))
    return long_integers[-1]


def _check_numbers(document: Any, revision: str) -> None:
    """MCG122 where the document holds an integer longer than MAX_DIGITS digits (found after
    parsing, so that the error can say where)."""
    for pointer, value in walk(document):
        if isinstance(value, _LongInteger):
            raise fail(
                "MCG122",
                f"an integer of {value.digits:,} digits, over the limit of {MAX_DIGITS:,}",
                revision=revision,
                pointer=pointer,
                hint="no schema bound or value needs that many digits; is the file corrupt or hostile?",
            )


def to_schema_doc(
    document: dict[str, Any], revision: str, limits: Limits, *, classes: frozenset[str] = frozenset()
) -> SchemaDoc:
    """Check limits and references, and normalise definitions to `$defs`. classes: definitions
    (pointers) that stay classes when they declare no properties (a tool without parameters)."""
    check_limits(document, revision, limits)
    has_legacy = isinstance(document.get(_LEGACY_DEFS), dict)
    has_defs = isinstance(document.get(DEFS), dict)
    if has_legacy and has_defs:
        raise fail(
            "MCG105",
            "schema has both `definitions` and `$defs`",
            revision=revision,
            pointer="#",
            hint="keep one of them",
        )
    if not has_legacy and not has_defs:
        raise fail(
            "MCG106",
            "schema has no definitions (neither `$defs` nor `definitions` is an object)",
            revision=revision,
            pointer="#",
            hint="one type is generated per definition under `$defs` (2020-12) or `definitions` (draft-07)",
        )
    if has_legacy:
        normalised = {k: v for k, v in document.items() if k != _LEGACY_DEFS}
        normalised[DEFS] = _rewrite_legacy_refs(document[_LEGACY_DEFS])
        dialect = "draft-07"
    else:
        normalised = dict(document)
        dialect = "2020-12"
    defs = normalised[DEFS]
    if not defs:
        raise fail(
            "MCG106",
            "schema has no definitions (`$defs` is empty)",
            revision=revision,
            pointer="#",
            hint="one type is generated per definition; there is nothing to generate",
        )
    for name, schema in defs.items():
        if not isinstance(schema, dict | bool):
            raise fail(
                "MCG108",
                f"definition {name!r} is {json_type(schema)}, not a schema",
                revision=revision,
                pointer=pointers.join("#", DEFS, name),
                hint="a definition is a JSON Schema: an object (or true/false)",
            )
    normalised = _open_objects_as_maps(_canonical_refs(_json_schema_only(normalised)), classes)
    _check_refs(normalised, revision)
    wellformed.check(normalised, revision, max_chain=limits.max_depth)
    return SchemaDoc(revision=revision, dialect=dialect, document=normalised)


# The keywords of JSON Schema 2020-12 (core, applicator, unevaluated, validation, meta-data, format,
# content) and draft-07's own. Any other key is an annotation to a validator and is dropped: the
# engine reads some (`x-python-import`, `x-python-type`, `customTypePath`, `customBasePath`,
# `x-is-base-class`, OpenAPI's `discriminator` and `nullable`, ...) as orders for the code it
# writes, and a schema must not be able to choose what the generated package imports.
JSON_SCHEMA_KEYWORDS = frozenset({
    "$schema", "$id", "$anchor", "$dynamicAnchor", "$ref", "$dynamicRef", "$defs", "$comment", "$vocabulary",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
    "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "type", "enum", "const", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems",
    "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "title", "description", "default", "deprecated", "readOnly", "writeOnly",
    "examples", "format", "contentEncoding", "contentMediaType", "contentSchema",
    "definitions", "additionalItems", "dependencies", "$recursiveRef", "$recursiveAnchor",
})  # fmt: skip


def _json_schema_only(document: dict[str, Any]) -> dict[str, Any]:
    """document without keys JSON Schema does not define (copied only when there are some)."""
    if all(k in JSON_SCHEMA_KEYWORDS for _, node in schemas.all_subschemas(document) for k in node):
        return document
    cleaned: dict[str, Any] = copy.deepcopy(document)
    for _, node in schemas.all_subschemas(cleaned):
        for key in [k for k in node if k not in JSON_SCHEMA_KEYWORDS]:
            del node[key]
    return cleaned


def _declares_nothing(node: dict[str, Any]) -> bool:
    return node.get("properties") == {} and node.get("additionalProperties") is not False and not node.get("required")


def _open_objects_as_maps(document: dict[str, Any], classes: frozenset[str] = frozenset()) -> dict[str, Any]:
    """document without `properties: {}` on open objects (copied only when there are some), but
    at the pointers in classes.

    The same schema, but it reads as what it is, a map of any keys: the models type it
    `dict[str, Any]` (a plain dict builds it) instead of an empty class.
    """
    if not any(_declares_nothing(node) and p not in classes for p, node in schemas.all_subschemas(document)):
        return document
    cleaned: dict[str, Any] = copy.deepcopy(document)
    for pointer, node in schemas.all_subschemas(cleaned):
        if _declares_nothing(node) and pointer not in classes:
            del node["properties"]
    return cleaned


def _canonical_refs(document: dict[str, Any]) -> dict[str, Any]:
    """document with every local `$ref`/`$dynamicRef` spelled as the pointer it names (percent-decoded,
    pointers.canonical), so that later stages compare and resolve references as plain pointers."""

    def changed(node: dict[str, Any]) -> list[str]:
        return [
            k
            for k in ("$ref", "$dynamicRef")
            if isinstance(node.get(k), str) and pointers.canonical(node[k]) != node[k]
        ]

    if not any(changed(node) for _, node in schemas.all_subschemas(document)):
        return document
    copied: dict[str, Any] = copy.deepcopy(document)
    for _, node in schemas.all_subschemas(copied):
        for key in changed(node):
            node[key] = pointers.canonical(node[key])
    return copied


def check_limits(document: dict[str, Any], revision: str, limits: Limits) -> None:
    """The limits a document is held to before anything copies, patches or walks it recursively:
    definitions, nesting and objects (cheap and iterative: run it first)."""
    for key in (DEFS, _LEGACY_DEFS):  # first, as the most telling of the limits
        if isinstance(document.get(key), dict) and len(document[key]) > limits.max_definitions:
            raise fail(
                "MCG107",
                f"schema has {len(document[key]):,} definitions, over the limit of {limits.max_definitions:,}",
                revision=revision,
                pointer=pointers.join("#", key),
                hint="raise --max-definitions if this schema is trusted",
            )
    _check_shape(document, revision, limits)


def check_bounded(document: dict[str, Any], revision: str, limits: Limits) -> None:
    """The checks of any schema from outside: bounded nesting and size, every `$ref` local and resolvable."""
    check_shape(document, revision, limits)
    _check_refs(document, revision, generated=False)


def check_shape(document: dict[str, Any], revision: str, limits: Limits) -> None:
    """Nesting depth and number of objects within limits (cheap: run it before anything else)."""
    _check_shape(document, revision, limits)


def walk(node: Any, pointer: str = "#") -> Iterator[tuple[str, Any]]:
    """Every (pointer, value) below node, iteratively (hostile schemas can nest deeply)."""
    stack: list[tuple[str, Any]] = [(pointer, node)]
    while stack:
        here, value = stack.pop()
        yield here, value
        if is_object(value):
            for key in reversed(list(value)):
                stack.append((pointers.join(here, key), value[key]))
        elif is_array(value):
            for index in range(len(value) - 1, -1, -1):
                stack.append((pointers.join(here, index), value[index]))


def _check_shape(document: dict[str, Any], revision: str, limits: Limits) -> None:
    limit = min(limits.max_depth, DEPTH_CEILING)
    nodes = 0
    stack: list[tuple[Any, int, str]] = [(document, 1, "#")]
    while stack:
        value, depth, pointer = stack.pop()
        if depth > limit:
            raise fail(
                "MCG103",
                f"schema nests {depth} levels deep, over the limit of {limit}",
                revision=revision,
                pointer=pointer,
                hint="raise --max-depth if this schema is trusted"
                if limit < DEPTH_CEILING
                else "no setting goes deeper: the generator's stages recurse through the schema",
            )
        if is_object(value):
            nodes += 1
            for key, child in value.items():
                _check_text(key, pointer, revision, key=True)
                if isinstance(child, str) and not child.isascii():
                    _check_text(child, pointers.join(pointer, key), revision)
            if nodes > limits.max_subschemas:
                raise fail(
                    "MCG109",
                    f"schema has more than {limits.max_subschemas:,} objects",
                    revision=revision,
                    pointer=pointer,
                    hint="raise --max-subschemas if this schema is trusted",
                )
            for key, child in reversed(value.items()):  # reversed: the first problem in document order
                if is_object(child) or is_array(child):
                    stack.append((child, depth + 1, pointers.join(pointer, key)))
        elif is_array(value):
            for index in range(len(value) - 1, -1, -1):
                if isinstance(value[index], dict | list):
                    stack.append((value[index], depth + 1, pointers.join(pointer, index)))
                elif isinstance(value[index], str) and not value[index].isascii():
                    _check_text(value[index], pointers.join(pointer, index), revision)


def check_members(
    document: Mapping[str, Any],
    revision: str,
    limits: Limits,
    *,
    definitions: Iterable[tuple[str, Any]] | None = None,
) -> None:
    """MCG123 once the schema declares more than max_members members of the models, counted in
    document order: the node where the count passes the limit is named. Run before the engine is
    given the schema: the engine, black and pydantic each spend time on every member (about a
    millisecond in all), so the cost of generating follows this count; objects alone
    (max_subschemas) do not bound it, as `true` is a whole property in five bytes.

    definitions: (pointer, schema) of each schema that becomes a definition, where document is no
    schema of its own (a tools/list: each tool's inputSchema and outputSchema). The walk is lazy,
    so refusing costs the members counted up to the limit, not the document's size."""
    roots = definitions if definitions is not None else (("#", document),)
    total = 0
    for root_pointer, root in roots:
        for pointer, node in schemas.schema_nodes(root, root_pointer):
            total += schemas.members_declared(node, pointer, definition=pointer == root_pointer if definitions else None)
            if total > limits.max_members:
                raise fail(
                    "MCG123",
                    f"schema declares more than {limits.max_members:,} members (each schema and enum value counts 1, "
                    "a definition or class 2)",
                    revision=revision,
                    pointer=pointer,
                    hint="each costs about a millisecond to generate; raise --max-members if this schema is trusted",
                )


def _check_text(text: str, pointer: str, revision: str, *, key: bool = False) -> None:
    """MCG121 for a string no UTF-8 text can hold: a lone surrogate (JSON can write one as an escape,
    "\\udc00"), which would end as a package that cannot be written, imported or used."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        what = "a key of this object" if key else "this string"
        raise fail(
            "MCG121",
            f"{what} holds a lone surrogate (U+{ord(text[exc.start]):04X}), which is not Unicode text: "
            f"'{text[:60]}'",  # the error line escapes the surrogate
            revision=revision,
            pointer=pointer,
            hint="JSON text is Unicode; a surrogate escape must be one of a pair",
        ) from None


def uses_legacy_definitions(document: Mapping[str, Any]) -> bool:
    """Whether a schema (as read, before to_schema_doc) holds its definitions under draft-07's
    `definitions`, which the stages read as `$defs`."""
    return isinstance(document.get(_LEGACY_DEFS), dict) and DEFS not in document


def as_written(exc: CodegenError, legacy: bool) -> CodegenError:
    """exc with its pointers spelled as the file spells them. A draft-07 schema (legacy) is read
    with its `definitions` under `$defs` and its references rewritten to match; such a file has no
    `$defs`, so every `#/$defs/` an error says (its pointer, a reference it quotes, its hint) is a
    `#/definitions/` of the file."""
    if not legacy:
        return exc
    return CodegenError(*(_diagnostic_as_written(d) for d in exc.diagnostics))


def _diagnostic_as_written(diagnostic: Diagnostic) -> Diagnostic:
    def spelled(text: str | None) -> str | None:
        return text.replace(_DEFS_PREFIX, _LEGACY_PREFIX) if text is not None else None

    return replace(
        diagnostic,
        message=spelled(diagnostic.message) or "",
        pointer=spelled(diagnostic.pointer),
        hint=spelled(diagnostic.hint),
    )


def _rewrite_legacy_refs(node: Any) -> Any:
    """A copy of node with '#/definitions/...' references pointing at '#/$defs/...'."""
    if is_object(node):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(_LEGACY_PREFIX):
                out[key] = _DEFS_PREFIX + value[len(_LEGACY_PREFIX) :]
            else:
                out[key] = _rewrite_legacy_refs(value)
        return out
    if is_array(node):
        return [_rewrite_legacy_refs(item) for item in node]
    return node


def _check_refs(document: dict[str, Any], revision: str, *, generated: bool = True) -> None:
    """Every reference local and pointing at a schema (for generation: one below `$defs`, as only
    those become types). Only schema positions are read: a property named `$ref` or a `const`
    holding one is data, not a reference."""
    nodes: dict[str, Any] = {}
    stack: list[tuple[str, Any]] = [("#", document)]
    while stack:
        pointer, node = stack.pop()
        nodes[pointer] = node
        stack.extend(
            (p, sub) for p, _, _, sub in schemas.children(node, pointer) if is_object(sub) or isinstance(sub, bool)
        )
    anchors = {
        key: {"#" + n[key] for n in nodes.values() if is_object(n) and isinstance(n.get(key), str)}
        for key in ("$anchor", "$dynamicAnchor")
    }
    for pointer in sorted(nodes):
        node = nodes[pointer]
        if isinstance(node, dict):
            for keyword in ("$ref", "$dynamicRef"):
                if keyword in node:
                    where = pointers.join(pointer, keyword)
                    _check_ref(node[keyword], keyword, where, nodes, anchors, revision, generated)


def _check_ref(
    ref: Any,
    keyword: str,
    where: str,
    nodes: dict[str, Any],
    anchors: dict[str, set[str]],
    revision: str,
    generated: bool,
) -> None:
    if not isinstance(ref, str):
        raise fail(
            "MCG110",
            f"`{keyword}` must be a string, got {json_type(ref)}",
            revision=revision,
            pointer=where,
            hint='a reference is a string such as "#/$defs/Name"',
        )
    if not ref.startswith("#"):
        raise fail(
            "MCG111",
            f"`{keyword}` {ref!r} leaves the document; only local references are followed",
            revision=revision,
            pointer=where,
            hint="remote and file references are never fetched; inline the target under `$defs`",
        )
    if not (ref.startswith("#/") or ref == "#"):  # a plain-name fragment: an anchor
        known = anchors["$anchor"] | (anchors["$dynamicAnchor"] if keyword == "$dynamicRef" else set[str]())
        if ref not in known:
            raise fail(
                "MCG112",
                f"dangling `{keyword}` {ref!r} (no such anchor)",
                revision=revision,
                pointer=where,
                hint="no subschema declares that anchor",
            )
        return
    target = pointers.canonical(ref)
    try:
        pointers.resolve(nodes["#"], target)
    except (KeyError, ValueError):
        raise fail(
            "MCG112",
            f"dangling `{keyword}` {ref!r}",
            revision=revision,
            pointer=where,
            hint="the target does not exist in this document",
        ) from None
    if target not in nodes or (generated and not target.startswith(f"#/{DEFS}/")):
        raise fail(
            "MCG113",
            f"`{keyword}` {ref!r} does not point at a schema" + (" below `$defs`" if generated else ""),
            revision=revision,
            pointer=where,
            hint="point at a definition (or a subschema of one); the root, keyword maps and data are not types",
        )
