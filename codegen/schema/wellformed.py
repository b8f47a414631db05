"""Is a (normalised) schema document something the generator can type exactly? Checked before
analysis, so a malformed or contradictory schema is one clear error with a pointer, never an
engine failure, a crash, a package that cannot be imported, or a model that silently accepts more
than the schema does.

- keyword values have the shapes JSON Schema gives them (`type` names, maps and lists of schemas,
  strings, non-negative integers, finite numbers, patterns pydantic's regex engine compiles);
- no loop of references and in-place keywords (`A = A`, `A = allOf[A]`, `A = anyOf[A, string]`):
  recursion must descend into the value, through a property or an item;
- no schema contradicts itself (`type` against `allOf`, `$ref`, `const`, `enum`): one that admits
  no value is a mistake, and the engine would type it as something that admits values;
- `const` and `enum` values are ones a `Literal` holds (strings, integers, booleans, null).

Every walk is iterative: hostile schemas nest deeply.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from typing import Any

from codegen.schema import patterns, pointers, schemas
from codegen.errors import fail
from codegen.limits import DEPTH_CEILING, INLINE_DEPTH_CEILING, TYPE_DEPTH_CEILING
from codegen.schema.jsontypes import is_array, is_object
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_STRINGS = ("description", "title", "format", "pattern", "$comment", "$anchor", "$dynamicAnchor",
            "$schema", "$id", "contentMediaType", "contentEncoding")  # fmt: skip
_COUNTS = ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
           "minContains", "maxContains")  # fmt: skip
_NUMBERS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_BOOLEANS = ("uniqueItems", "readOnly", "writeOnly", "deprecated")
_UNSUPPORTED = {
    "$recursiveRef": "a 2019-09 keyword; use `$ref` (or `$dynamicRef`, 2020-12)",
    "$recursiveAnchor": "a 2019-09 keyword; use `$anchor` (or `$dynamicAnchor`, 2020-12)",
}
# Keywords whose subschemas become types; under the others (not, if, contains, ...) the engine
# types nothing, so a literal there cannot be loosened.
_TYPED = frozenset({"properties", "patternProperties", "additionalProperties", "items", "prefixItems",
                    "anyOf", "oneOf", "allOf", "$defs", "definitions", "unevaluatedProperties"})  # fmt: skip
_SPEC_HINT = "the value is not valid JSON Schema (see json-schema.org/draft/2020-12/json-schema-validation)"
# Keywords whose subschemas apply to the value itself, not to a part of it.
_IN_PLACE = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"})
_MAX_COUNT = 2**63 - 1  # pydantic stores lengths as 64-bit integers
_MAX_TYPE_DEPTH = 40  # how far type inference follows references before it assumes "any"


def check(document: Mapping[str, Any], revision: str, *, max_chain: int = DEPTH_CEILING) -> None:
    """Raise CodegenError for the first problem, in document order."""
    memo: dict[str, frozenset[str] | None] = {}
    tally = patterns.Tally()
    for pointer, node, typed, keyword, parent in _schema_nodes(document):
        if node is False and typed and not _closes(keyword, parent):
            raise fail(
                "MCG117",
                "the schema `false` admits no value, and the models have no type for that here",
                revision=revision,
                pointer=pointer,
                hint="leave the property or arm out (close an object with `additionalProperties: false`)",
            )
        if is_object(node):
            _check_keywords(node, pointer, revision, tally, is_root=pointer == "#")
            _check_consistent(document, node, pointer, revision, memo)
            if typed:
                _check_literals(node, pointer, revision)
    check_cycles(document, revision, max_chain=max_chain)
    check_type_depth(document, revision)


def check_type_depth(document: Mapping[str, Any], revision: str) -> None:
    """MCG103 when the types nest deeper than the engine or pydantic can recurse (limits.py:
    INLINE_DEPTH_CEILING, TYPE_DEPTH_CEILING), whatever --max-depth allows: a deep schema would
    otherwise end in a RecursionError in the engine, or in a package that cannot be imported.

    Two walks, as the two recurse differently. The engine recurses through the schemas written
    inside one definition (a reference is a name to it): their nesting, `allOf` members not counted
    (they are merged into their parent). pydantic, building the validators at import, recurses
    through types along every reference: a path's weight, a named type (a definition, a class)
    counting 2, any other type 1, a bare `$ref` or `allOf` member 0 (its target is counted), and a
    loop as all of its schemas (pydantic stops where it meets a model it is building)."""
    nodes: dict[str, Any] = {}
    weights: dict[str, int] = {}
    edges: dict[str, list[str]] = {}
    inline = (0, "#")  # the most levels inside one definition, and that definition
    stack: list[tuple[str, Any, str, int, str]] = [
        (p, sub, kw, 1, p) for p, kw, _, sub in schemas.children(document, "#") if _is_schema(sub)
    ]
    while stack:
        pointer, node, keyword, depth, definition = stack.pop()
        nodes[pointer], weights[pointer] = node, _type_weight(pointer, node, keyword)
        if depth > inline[0]:
            inline = (depth, definition)
        if not isinstance(node, dict) or not node:
            edges[pointer] = []
            continue
        below: list[tuple[str, str, Any]] = [
            (p, kw, sub) for p, kw, _, sub in schemas.children(node, pointer) if isinstance(sub, dict | bool)
        ]
        edges[pointer] = [p for p, _, _ in below]
        stack.extend((p, sub, kw, depth + (kw != "allOf"), definition) for p, kw, sub in reversed(below))
    if inline[0] > INLINE_DEPTH_CEILING:
        raise _too_deep(
            f"schemas nest {inline[0]} levels deep inside one definition, over the limit of {INLINE_DEPTH_CEILING}",
            revision,
            inline[1],
        )
    anchors = _anchors(nodes)
    for pointer, node in nodes.items():
        targets = [_target(node.get(key), anchors) for key in ("$ref", "$dynamicRef")] if is_object(node) else []
        edges[pointer] += [t for t in targets if t is not None and t in nodes]
    weight, start = _heaviest_path(edges, weights)
    if weight > TYPE_DEPTH_CEILING:
        raise _too_deep(
            f"types nest {weight} levels deep along their references (a definition or class counts 2), "
            f"over the limit of {TYPE_DEPTH_CEILING}",
            revision,
            start,
        )


def _is_schema(value: Any) -> bool:
    return isinstance(value, dict | bool)


def _type_weight(pointer: str, node: Any, keyword: str) -> int:
    """What a schema adds to pydantic's recursion, in levels of about five Python frames."""
    if keyword == "allOf":
        return 0  # merged into its parent
    if pointer.count("/") == 2 or (is_object(node) and is_object(node.get("properties"))):
        return 2  # a named type: a definition, or an object the models make a class
    if not is_object(node):
        return 1
    if "$ref" in node or "$dynamicRef" in node:
        return 0  # a name for its target, which is counted where it is
    return 1


def _too_deep(message: str, revision: str, pointer: str) -> Exception:
    return fail(
        "MCG103",
        message,
        revision=revision,
        pointer=pointer,
        hint="no setting goes deeper: the generator and pydantic recurse through nested types; nest fewer levels",
    )


def check_cycles(document: Mapping[str, Any], revision: str, *, max_chain: int = DEPTH_CEILING) -> None:
    """Refuse a loop of references and in-place keywords (`allOf`, `anyOf`, `oneOf`, `not`, ...):
    a validator following it meets the same value again without consuming any of it. Even with a
    way out (`A = anyOf[A, string]`) pydantic recurses until the stack runs out, and in JSON mode
    that crashes the process."""
    nodes = {pointer: node for pointer, node, *_ in _schema_nodes(document)}
    anchors = _anchors(nodes)
    edges: dict[str, list[str]] = {}
    for pointer, node in nodes.items():
        if is_object(node):
            found = [_target(node.get(key), anchors) for key in ("$ref", "$dynamicRef")]
            found += [p for p, kw, _, _ in schemas.children(node, pointer) if kw in _IN_PLACE]
            edges[pointer] = [p for p in dict.fromkeys(found) if p in nodes]
    loop = _find_loop(edges)
    if loop:
        raise fail(
            "MCG114",
            "references loop back to the same value without descending into it: " + " -> ".join(loop),
            revision=revision,
            pointer=loop[0],
            hint="recursion must pass through a property or an array item",
        )
    longest, start = _longest_chain(edges)
    if longest > min(max_chain, DEPTH_CEILING):
        raise fail(
            "MCG103",
            f"references followed in place (`$ref`, `allOf`, `anyOf`, ...) chain {longest} levels deep, "
            f"over the nesting limit of {min(max_chain, DEPTH_CEILING)}",
            revision=revision,
            pointer=start,
            hint=(
                "raise --max-depth if this schema is trusted" if max_chain < DEPTH_CEILING else "no setting goes deeper"
            ),
        )


def _schema_nodes(document: Mapping[str, Any]) -> Iterator[tuple[str, Any, bool, str, Mapping[str, Any]]]:
    """(pointer, schema, typed, keyword, parent) for the root and every subschema (booleans included)."""
    stack: list[tuple[str, Any, bool, str, Mapping[str, Any]]] = [("#", document, True, "", {})]
    while stack:
        pointer, node, typed, keyword, parent = stack.pop()
        yield pointer, node, typed, keyword, parent
        children = [(p, sub, typed and kw in _TYPED, kw, node) for p, kw, _, sub in schemas.children(node, pointer)]
        stack.extend(c for c in reversed(children) if isinstance(c[1], dict | bool))


def _closes(keyword: str, parent: Mapping[str, Any]) -> bool:
    """`false` where it closes an object or a tuple: the models say that with `extra="forbid"`."""
    if keyword in ("additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems"):
        return True
    return keyword == "items" and ("prefixItems" in parent or isinstance(parent.get("items"), list))


def _check_keywords(node: dict[str, Any], pointer: str, revision: str, tally: patterns.Tally, *, is_root: bool) -> None:
    def bad(keyword: str, expected: str, at: str | None = None) -> Exception:
        return fail(
            "MCG116",
            f"`{keyword}` must be {expected}, got {_describe(node[keyword])}",
            revision=revision,
            pointer=at or pointers.join(pointer, keyword),
            hint=_SPEC_HINT,
        )

    for keyword, why in _UNSUPPORTED.items():
        if keyword in node:
            raise fail(
                "MCG115",
                f"`{keyword}` is not supported: {why}",
                revision=revision,
                pointer=pointers.join(pointer, keyword),
                hint="rewrite it with `$ref`",
            )
    if "$id" in node and not is_root:
        raise fail(
            "MCG115",
            "a `$id` below the root is not supported: it would re-root the references beneath it",
            revision=revision,
            pointer=pointers.join(pointer, "$id"),
            hint="remove it; references are resolved within this one document",
        )
    if "type" in node:
        kind = node["type"]
        names = kind if is_array(kind) else [kind]
        if not names or not all(isinstance(n, str) and n in TYPES for n in names) or len(set(names)) != len(names):
            raise bad("type", "one of " + ", ".join(sorted(TYPES)) + " or a non-empty list of distinct ones")
    for keyword in schemas.MAP_KEYWORDS:
        value = node.get(keyword)
        if keyword in node and not is_object(value):
            raise bad(keyword, "an object whose values are schemas")
        for key, sub in (value or {}).items():
            if not isinstance(sub, dict | bool):
                raise _not_a_schema(sub, pointers.join(pointer, keyword, key), revision)
    for keyword in schemas.SINGLE_KEYWORDS:
        value = node.get(keyword)
        if keyword == "items" and is_array(value):  # draft-07 tuple form
            for index, sub in enumerate(value):
                if not isinstance(sub, dict | bool):
                    raise _not_a_schema(sub, pointers.join(pointer, keyword, index), revision)
        elif keyword in node and not isinstance(value, dict | bool):
            raise bad(keyword, "a schema (an object or a boolean)")
    for keyword in schemas.LIST_KEYWORDS:
        value = node.get(keyword)
        if keyword in node and not (is_array(value) and value):
            raise bad(keyword, "a non-empty array of schemas")
        for index, sub in enumerate(value or ()):
            if not isinstance(sub, dict | bool):
                raise _not_a_schema(sub, pointers.join(pointer, keyword, index), revision)
    if "required" in node and not (
        is_array(node["required"]) and all(isinstance(r, str) for r in node["required"])
    ):
        raise bad("required", "an array of property names")
    if "enum" in node and not isinstance(node["enum"], list):
        raise bad("enum", "an array")
    for keyword in _STRINGS:
        if keyword in node and not isinstance(node[keyword], str):
            raise bad(keyword, "a string")
    for keyword in _COUNTS:
        value = node.get(keyword)
        if keyword in node and not (
            isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_COUNT
        ):
            raise bad(keyword, f"an integer from 0 to {_MAX_COUNT}")
    for keyword in _NUMBERS:
        if keyword in node and not _is_number(node[keyword]):
            raise bad(keyword, "a number")
    if "multipleOf" in node and not node["multipleOf"] > 0:
        raise bad("multipleOf", "a number above 0")
    for keyword in _BOOLEANS:
        if keyword in node and not isinstance(node[keyword], bool):
            raise bad(keyword, "true or false")
    if isinstance(node.get("pattern"), str):
        _check_pattern(node["pattern"], pointers.join(pointer, "pattern"), revision, tally)
    for key in node.get("patternProperties", {}):
        _check_pattern(key, pointers.join(pointer, "patternProperties", key), revision, tally)


def _not_a_schema(value: Any, pointer: str, revision: str) -> Exception:
    return fail(
        "MCG116",
        f"a schema must be an object or a boolean, got {_describe(value)}",
        revision=revision,
        pointer=pointer,
        hint=_SPEC_HINT,
    )


def _check_pattern(pattern: str, pointer: str, revision: str, tally: patterns.Tally) -> None:
    costly = tally.add(pattern)
    if costly is not None:
        raise fail(
            "MCG120",
            f"pattern {_describe(pattern)} is refused: {costly}",
            revision=revision,
            pointer=pointer,
            hint="every pattern is compiled when the package is imported; check this many in your own code"
            if tally.count > patterns.MAX_PATTERNS
            else "counted repetitions of classes (`\\w{190}`, `.{2000}`) compile and match slowly; "
            "bound lengths with maxLength, or check it in your own code",
        )
    problem = pattern_problem(pattern)
    if problem is not None:
        raise fail(
            "MCG116",
            f"pattern {pattern!r} cannot be compiled by pydantic's regular expression engine: {problem}",
            revision=revision,
            pointer=pointer,
            hint="the models check patterns with a linear-time engine: no look-around, no backreferences",
        )


@functools.lru_cache(maxsize=1024)
def pattern_problem(pattern: str) -> str | None:
    from pydantic_core import SchemaError, SchemaValidator, core_schema

    try:
        SchemaValidator(core_schema.str_schema(pattern=pattern))
    except SchemaError as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return lines[-1] if lines else "invalid"
    return None


def _check_consistent(
    document: Mapping[str, Any],
    node: dict[str, Any],
    pointer: str,
    revision: str,
    memo: dict[str, frozenset[str] | None],
) -> None:
    """A schema whose own constraints leave no value valid."""
    own = _own_types(node)
    for keyword in ("const", "enum"):
        values = [node["const"]] if keyword == "const" and "const" in node else node.get(keyword, [])
        if keyword == "enum" and "enum" in node and not values:
            raise fail(
                "MCG117",
                "`enum` is empty: no value is valid",
                revision=revision,
                pointer=pointers.join(pointer, "enum"),
                hint="give `enum` at least one value, or remove the schema",
            )
        for index, value in enumerate(values):
            if own is not None and not (_types_of_value(value) & own):
                where = pointers.join(pointer, keyword) if keyword == "const" else pointers.join(pointer, "enum", index)
                raise fail(
                    "MCG117",
                    f"{_describe(value)} is not of type {_type_text(node['type'])}: the schema never accepts it",
                    revision=revision,
                    pointer=where,
                    hint="make `type` and the value agree",
                )
    if "allOf" in node or "$ref" in node:
        if _types_of(document, pointer, node, memo) == frozenset():
            raise fail(
                "MCG117",
                "the types this schema allows and those of its `$ref`/`allOf` parts have nothing in common: "
                "no value is valid",
                revision=revision,
                pointer=pointer,
                hint="make the types agree; alternatives belong in `anyOf`",
            )


def _check_literals(node: dict[str, Any], pointer: str, revision: str) -> None:
    values = node.get("enum")
    if is_array(values):
        for flag in (True, False):
            if flag in [v for v in values if isinstance(v, bool)] and int(flag) in [v for v in values if _is_int(v)]:
                raise fail(
                    "MCG118",
                    f"`enum` holds both {int(flag)} and {str(flag).lower()}: one Literal cannot keep them apart "
                    f"(Python compares them equal)",
                    revision=revision,
                    pointer=pointers.join(pointer, "enum"),
                    hint="split the enum into an `anyOf` of a boolean and an integer schema",
                )
    for keyword in ("const", "enum"):
        values = [node["const"]] if keyword == "const" and "const" in node else node.get(keyword, [])
        for index, value in enumerate(values):
            if value is None or isinstance(value, str | bool | int):
                continue
            where = pointers.join(pointer, keyword) if keyword == "const" else pointers.join(pointer, "enum", index)
            raise fail(
                "MCG118",
                f"`{keyword}` {'value ' if keyword == 'enum' else ''}{_describe(value)} cannot be typed exactly: a Literal holds only strings, "
                "integers, booleans and null, and the engine would accept any value of its type",
                revision=revision,
                pointer=where,
                hint="state it with other keywords (a number by `minimum` = `maximum`, an object by its properties)",
            )


# -- types a schema allows: None means unconstrained; "number" is stored as its two parts ----------


def _expand(names: Any) -> frozenset[str] | None:
    if isinstance(names, str):
        names = [names]
    if not is_array(names) or not all(isinstance(n, str) and n in TYPES for n in names):
        return None  # malformed (a node not checked yet): reported where it is, not here
    out: set[str] = set()
    for name in names:
        out |= {"integer", "fraction"} if name == "number" else {name}
    return frozenset(out)


def _own_types(node: Mapping[str, Any]) -> frozenset[str] | None:
    return _expand(node["type"]) if "type" in node else None


def _types_of_value(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset({"null"})
    if isinstance(value, bool):
        return frozenset({"boolean"})
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return frozenset({"integer"})
    if isinstance(value, float):
        return frozenset({"fraction"})
    if isinstance(value, str):
        return frozenset({"string"})
    return frozenset({"array" if isinstance(value, list) else "object"})


def _types_of(
    document: Mapping[str, Any], pointer: str, node: Any, memo: dict[str, frozenset[str] | None], depth: int = 0
) -> frozenset[str] | None:
    """The JSON types node can accept (None: any), through `$ref`, `allOf`, `anyOf`/`oneOf`.

    A loop or a long chain is cut by answering None: an over-approximation, so never a false alarm.
    """
    if node is False:
        return frozenset()
    if not is_object(node) or depth > _MAX_TYPE_DEPTH:
        return None
    if pointer in memo:
        return memo[pointer]
    memo[pointer] = None  # while in progress: a loop back here sees "any"
    allowed = _own_types(node)

    def meet(other: frozenset[str] | None) -> None:
        nonlocal allowed
        if other is not None:
            allowed = other if allowed is None else allowed & other

    if "const" in node:
        meet(_types_of_value(node["const"]))
    if isinstance(node.get("enum"), list):
        meet(frozenset[str]().union(*(_types_of_value(v) for v in node["enum"])))
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        try:
            target = pointers.resolve(document, ref)
        except (KeyError, ValueError):
            target = None
        meet(_types_of(document, ref, target, memo, depth + 1))
    for index, member in enumerate(_list(node, "allOf")):
        meet(_types_of(document, pointers.join(pointer, "allOf", index), member, memo, depth + 1))
    for keyword in ("anyOf", "oneOf"):
        arms = _list(node, keyword)
        if arms:
            kinds = [
                _types_of(document, pointers.join(pointer, keyword, i), a, memo, depth + 1) for i, a in enumerate(arms)
            ]
            meet(
                None if any(k is None for k in kinds) else frozenset[str]().union(*(k for k in kinds if k is not None))
            )
    memo[pointer] = allowed
    return allowed


# -- reference loops ------------------------------------------------------------------------------


def _anchors(nodes: Mapping[str, Any]) -> dict[str, str]:
    found: dict[str, str] = {}
    for pointer, node in nodes.items():
        if is_object(node):
            for key in ("$anchor", "$dynamicAnchor"):
                if isinstance(node.get(key), str):
                    found.setdefault("#" + node[key], pointer)
    return found


def _target(ref: Any, anchors: Mapping[str, str]) -> str | None:
    if not isinstance(ref, str):
        return None
    return anchors.get(ref, pointers.canonical(ref)) if ref.startswith("#") else None


def _find_loop(edges: Mapping[str, list[str]]) -> list[str]:
    """A cycle of the graph (from its smallest member, which is repeated at the end), or []."""
    done: set[str] = set()
    for root in sorted(edges):
        if root in done:
            continue
        path: list[str] = [root]
        on_path = {root}
        pending = [iter(edges[root])]
        while pending:
            following = next(pending[-1], None)
            if following is None:
                finished = path.pop()
                done.add(finished)
                on_path.discard(finished)
                pending.pop()
                continue
            if following in on_path:
                loop = path[path.index(following) :]
                first = loop.index(min(loop))
                return [*loop[first:], *loop[:first], min(loop)]
            if following not in done:
                path.append(following)
                on_path.add(following)
                pending.append(iter(edges.get(following, ())))
    return []


def _longest_chain(edges: Mapping[str, list[str]]) -> tuple[int, str]:
    """The most edges on one path of the (loop-free) graph, and where that path starts."""
    length: dict[str, int] = {}
    for root in sorted(edges):
        stack = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node in length:
                continue
            following = edges.get(node, [])
            if expanded:
                length[node] = 1 + max((length[f] for f in following), default=-1)
            else:
                stack.append((node, True))
                stack.extend((f, False) for f in following if f not in length)
    if not length:
        return 0, "#"
    start = min(length, key=lambda p: (-length[p], p))
    return length[start], start


def _heaviest_path(edges: Mapping[str, list[str]], weights: Mapping[str, int]) -> tuple[int, str]:
    """The most weight on one path of the graph, a strongly connected part (a loop) weighing all
    of its nodes, and where that path starts (the smallest pointer of its first part).

    Tarjan's algorithm, iterative: it closes each part after every part reachable from it, so
    the weight below a part is known when the part closes."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    heaviest: dict[str, int] = {}  # node -> weight of the heaviest path from its part
    best = (0, "#")
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, following = work[-1]
            child = next(following, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = _pop_part(stack, on_stack, node)
                inside = set(part)
                below = max((heaviest[c] for p in part for c in edges[p] if c not in inside), default=0)
                found = (sum(weights[p] for p in part) + below, min(part))
                for p in part:
                    heaviest[p] = found[0]
                if found[0] > best[0] or (found[0] == best[0] and found[1] < best[1]):
                    best = found
    return best


def _pop_part(stack: list[str], on_stack: set[str], head: str) -> list[str]:
    part: list[str] = []
    while True:
        node = stack.pop()
        on_stack.discard(node)
        part.append(node)
        if node == head:
            return part


# -- small helpers -------------------------------------------------------------------------------


def _list(node: Mapping[str, Any], keyword: str) -> list[Any]:
    value = node.get(keyword)
    return value if is_array(value) else []


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value == value and abs(value) != float("inf")
    )


def _type_text(kind: Any) -> str:
    return " or ".join(kind) if is_array(kind) else str(kind)


def _describe(value: Any) -> str:
    """A value as compact JSON, shortened."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 40 else text[:37] + "..."
