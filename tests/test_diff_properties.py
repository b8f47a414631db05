"""Invariants of `mcp-codegen diff` on arbitrary small schemas (Hypothesis): it never fails on a
schema the loader accepts, a schema compared with itself reports nothing, and the relation of old
to new is the mirror of new to old."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from codegen.diff import diff_sides
from codegen.diff.relation import Comparer, Node, relation
from codegen.diff.source import Side, side_from_document
from codegen.errors import CodegenError

from . import suite
NAMES = ("Alpha", "Beta", "Gamma")
MIRROR = {"widened": "narrowed", "narrowed": "widened", "changed": "changed", "compatible": "compatible", "equivalent": "equivalent"}

scalars = st.sampled_from([{"type": t} for t in ("string", "integer", "number", "boolean", "null")] + [{}])
values = st.one_of(st.integers(-3, 3), st.sampled_from(["a", "b", "c"]), st.booleans(), st.none())


def _schemas(leaves: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.builds(lambda t, d: {"type": "array", "items": t} if d else {"type": "array"}, leaves, st.booleans()),
        st.builds(
            lambda props, req, extra: {"type": "object", "properties": props, "required": sorted(req & set(props)), **extra},
            st.dictionaries(st.sampled_from(["id", "name", "title", "kind", "_meta"]), leaves, max_size=3),
            st.sets(st.sampled_from(["id", "name", "title", "kind"])),
            st.sampled_from([{}, {"additionalProperties": False}, {"additionalProperties": {}}, {"additionalProperties": {"type": "string"}}]),
        ),
        st.builds(lambda arms: {"anyOf": arms}, st.lists(leaves, min_size=1, max_size=3)),
        st.builds(lambda v: {"enum": sorted(set(v), key=json.dumps)}, st.lists(values, min_size=1, max_size=3)),
        st.builds(lambda v: {"const": v}, values),
        st.builds(lambda s, n: {**s, "maxLength": n} if s.get("type") == "string" else {**s, "minimum": n}, scalars, st.integers(0, 5)),
    )


leaf = st.one_of(scalars, st.sampled_from([{"$ref": f"#/$defs/{n}"} for n in NAMES]))
schema = st.recursive(leaf, _schemas, max_leaves=6)
documents = st.fixed_dictionaries({"$defs": st.fixed_dictionaries({n: schema for n in NAMES})})


def _side(document: dict[str, Any], label: str) -> Side | None:
    try:
        return side_from_document(document, label, "0" * 64)
    except CodegenError:  # refused by the loader or analysis: a one-line error, not the diff's business
        return None


@settings(max_examples=suite.examples(150))
@given(documents, documents)
def test_diff_of_any_two_schemas(old_document: dict[str, Any], new_document: dict[str, Any]) -> None:
    old, new = _side(old_document, "old"), _side(new_document, "new")
    if old is None or new is None:
        return
    report = diff_sides(old, new, python_api=False)
    json.loads(report.as_json())
    assert diff_sides(old, _side(old_document, "again") or old, python_api=False).changes == []
    for change in report.changes:
        assert change.severity in ("breaking", "compatible", "informational")
        assert set(change.breaks) <= {"client", "server"}


@settings(max_examples=suite.examples(300))
@given(schema, schema)
def test_relation_mirrors(a: dict[str, Any], b: dict[str, Any]) -> None:
    side = _side({"$defs": {n: {"type": "string"} for n in NAMES}}, "s")
    assert side is not None
    comparer = Comparer(lambda x, y: x == y)
    forward = relation(comparer, Node(side, a), Node(side, b))
    assert relation(comparer, Node(side, b), Node(side, a)) == MIRROR[forward]
    assert relation(comparer, Node(side, a), Node(side, a)) == "equivalent"
