"""A union's arms (a tuple's items, an `allOf`'s parts) are named by what they are, never by where
they stand (`…VariantF`, `…ItemB`, `…Item1`): over every pinned revision, the surface, and the
case-folder schemas, and as rules (codegen/analysis/arms.py)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from codegen.analysis import arms, ir
from codegen.emit import pipeline
from codegen.errors import CodegenError
from codegen.limits import DEFAULT_LIMITS
from codegen.schema import spec
from codegen.surface.merge import merge

from .conftest import REVISIONS

CASES = Path(__file__).parent / "cases"
# A member letter (`VariantA`, `ItemAB`, `PartC`) ends where the next word or the name does; a
# number anywhere after such a word is a position too.
POSITIONAL = re.compile(r"(Variant|Item|Part)([A-Z]{1,3}(?![a-z])|\d)")


@cache
def _analysed(revision: str) -> pipeline.Analysed:
    pin = next(p for p in spec.select(None) if p.revision == revision)
    data = spec.fetch(pin, spec.resolve_source(None)).data
    return pipeline.analyse(pin.revision, pin.package, data, pin.sha256, limits=DEFAULT_LIMITS)


def _positional(model: ir.Revision) -> list[str]:
    return sorted(e.name for e in model.entities if POSITIONAL.search(e.name) or POSITIONAL.search(e.export_name))


def test_the_pattern_sees_positions_and_only_them() -> None:
    seen = ["JSONRPCMessageVariantE", "JSONRPCMessageVariantEItem", "ListRootsRequestParamsVariantA", "TupleItemB",
            "ShapePartA", "PairItem1", "LooseVariantAB"]  # fmt: skip
    unseen = ["SamplingMessageContentBlockList", "RequestItemsItem", "ToolInputSchemaItemList", "VariantAnnotation",
              "PartialResult", "ItemKind"]  # fmt: skip
    assert [name for name in seen if not POSITIONAL.search(name)] == []
    assert [name for name in unseen if POSITIONAL.search(name)] == []


@pytest.mark.parametrize("revision", sorted(REVISIONS))
def test_no_revision_names_a_member_by_its_position(revision: str) -> None:
    assert _positional(_analysed(revision).model) == []


def test_the_surface_names_no_member_by_its_position() -> None:
    documents = [(revision, _analysed(revision).doc.document) for revision in sorted(REVISIONS, key=_oldest_first)]
    merged = merge(documents)
    data = json.dumps(merged.document).encode()
    surface = pipeline.analyse("surface", "surface", data, "0", limits=DEFAULT_LIMITS, use_errata=False).model
    assert _positional(surface) == []
    names = {e.name for e in surface.entities}
    assert {"ListRootsRequestParamsObject", "SamplingMessageContentBlockList"} <= names


def _oldest_first(revision: str) -> str:
    return "9999" if revision == "draft" else revision


def _case_schemas() -> list[Path]:
    folders = sorted(p / "schema.json" for p in CASES.iterdir() if (p / "schema.json").is_file())
    pairs = sorted(p for p in (CASES / "diff").glob("*/*.json") if p.name in ("old.json", "new.json"))
    return folders + pairs


@pytest.mark.parametrize("schema", _case_schemas(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_case_schema_names_a_member_by_its_position(schema: Path) -> None:
    errata = schema.parent / "errata.json"
    options_file = schema.parent / "options.json"
    options = ir.Options(**json.loads(options_file.read_text())) if options_file.exists() else None
    done = pipeline.analyse(
        "case", "case", schema.read_bytes(), "0", limits=DEFAULT_LIMITS,
        errata_file=errata if errata.exists() else None, use_errata=errata.exists(), options=options,
    )  # fmt: skip
    assert _positional(done.model) == []


def test_an_arm_written_out_as_a_definition_is_that_definition() -> None:
    """2025-03-26's JSONRPCMessage holds the batch arrays themselves, not `$ref`s to the
    JSONRPCBatchRequest and JSONRPCBatchResponse it also defines: they are those definitions."""
    model = _analysed("2025-03-26").model
    message = model.by_pointer()["#/$defs/JSONRPCMessage"]
    assert {"#/$defs/JSONRPCBatchRequest", "#/$defs/JSONRPCBatchResponse"} <= set(message.arms)
    assert not [e.pointer for e in model.entities if e.pointer.startswith("#/$defs/JSONRPCMessage/")]


def test_one_array_of_a_reference_is_one_list_in_every_union_holding_it() -> None:
    """CreateMessageResult.content and SamplingMessage.content both hold an array of
    SamplingMessageContentBlock: one `SamplingMessageContentBlockList`, the arm of both."""
    model = _analysed("2025-11-25").model
    by_pointer = model.by_pointer()
    lists = [e for e in model.entities if e.name == "SamplingMessageContentBlockList"]
    assert len(lists) == 1
    for owner in ("#/$defs/CreateMessageResult/properties/content", "#/$defs/SamplingMessage/properties/content"):
        union = next(e for e in model.entities if e.pointer == owner)
        assert lists[0].pointer in union.arms, owner
        assert "SamplingMessageContentBlockList" in {by_pointer[arm].name for arm in union.arms}


def _names(*members: dict[str, Any]) -> list[str | None]:
    return [None if n is None else n.text for n in arms.member_names(list(members))]


def _object(required: tuple[str, ...] = (), **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


@pytest.mark.parametrize(
    ("members", "names"),
    [
        # a `$ref` is what it names
        (({"$ref": "#/$defs/TextContent"}, {"$ref": "#/$defs/Other", "description": "words"}), [None, None]),
        # a tag, then a title
        ((_object(("type",), type={"const": "tool_use"}), {"title": "Plain text", "type": "string"}), ["ToolUse", "PlainText"]),
        # an array of one `$ref`: a name of its own
        (({"$ref": "#/$defs/A"}, {"type": "array", "items": {"$ref": "#/$defs/Block"}}), [None, "BlockList"]),
        # a `$ref` with more to it: named after what it refers to
        (({"$ref": "#/$defs/Block", "minLength": 1}, {"type": "null"}), ["Block", "Null"]),
        # JSON types
        (({"type": "string"}, {"type": "integer"}, {"type": "boolean"}, {"type": "number"}), ["String", "Integer", "Boolean", "Number"]),
        (({"type": "array", "items": {"type": "string"}}, _object(a={})), ["List", "Object"]),
        (({"type": ["number", "null"]}, {"enum": ["a", "b"]}, {"type": "boolean"}), ["NumberOrNull", "Choice", "Boolean"]),
        # two objects: a key only one requires, then a key only one declares
        ((_object(("id",), id={}), _object(("name",), name={})), ["WithId", "WithName"]),
        ((_object(size={}), _object(colour={})), ["WithSize", "WithColour"]),
        # a tag two arms share tells neither apart: the next rule does
        ((_object(("kind", "a"), kind={"const": "x"}, a={}), _object(("kind", "b"), kind={"const": "x"}, b={})), ["WithA", "WithB"]),
        # nothing tells these apart
        (({"type": "string", "minLength": 1}, {"type": "string", "maxLength": 9}), [None, None]),
    ],
)  # fmt: skip
def test_member_name_rules(members: tuple[dict[str, Any], ...], names: list[str | None]) -> None:
    assert _names(*members) == names


def test_arms_nothing_tells_apart_are_refused_not_numbered(tmp_path: Path) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "Pair": {
                "type": "object",
                "properties": {"tags": {"type": "array", "items": {"anyOf": [
                    {"type": "string", "minLength": 1}, {"type": "string", "maxLength": 9},
                ]}}},
            }
        },
    }  # fmt: skip
    with pytest.raises(CodegenError) as caught:
        pipeline.analyse("case", "case", json.dumps(schema).encode(), "0", limits=DEFAULT_LIMITS, use_errata=False)
    assert caught.value.diagnostics[0].code == "MCG301"
    assert caught.value.diagnostics[0].pointer == "#/$defs/Pair/properties/tags/items/anyOf/0"
