"""The shared runtime (codegen/runtime/): written once per output root as `_runtime/`, byte for byte
the repository's modules behind the header; one class across revisions; and its modules unit-tested
directly, as the rest of codegen/ is."""

from __future__ import annotations

import importlib
from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from codegen.emit import pipeline
from codegen.emit.runtime import FOLDER
from codegen.emit.stamp import header
from codegen.resources import runtime_dir
from codegen.runtime import elicitation, narrowing, reading, tolerant

from .conftest import GENERATED

shared_forms: Any = importlib.import_module(f"mcp_models.{FOLDER}.forms")  # the output root's copy

REVISIONS = ("v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "v2026_07_28", "draft")
WITH_FORMS = ("v2025_06_18", "v2025_11_25", "v2026_07_28", "draft", "surface")


def test_the_written_runtime_is_the_repository_modules_behind_the_header() -> None:
    """With the default settings, formatting changes nothing: the repository's modules are black's
    own formatting at the default line length and a fixed point of ruff's safe fixes."""
    written = pipeline.runtime_files()
    modules = sorted(runtime_dir().glob("*.py"))
    assert sorted(written) == [f"{FOLDER}/{path.name}" for path in modules]
    for path in modules:
        assert written[f"{FOLDER}/{path.name}"] == f"{header()}\n{path.read_text(encoding='utf-8')}", path.name


def test_the_output_root_holds_the_runtime_once() -> None:
    root = GENERATED / "mcp_models"
    held = {f"{FOLDER}/{p.name}": p.read_text(encoding="utf-8") for p in (root / FOLDER).glob("*.py")}
    assert held == pipeline.runtime_files()
    for package in REVISIONS:  # no revision package carries a copy of its own
        assert not {"_tolerant.py", "_jsonc.py"} & {p.name for p in (root / package).iterdir()}


@pytest.mark.parametrize("name", ["MessageError", "NotJSONError", "Tolerated", "DroppedItem"])
def test_message_classes_are_one_class_across_revisions(name: str) -> None:
    found = {getattr(importlib.import_module(f"mcp_models.{p}.messages"), name) for p in (*REVISIONS, "surface")}
    module = "reading" if "Error" in name else "tolerant"
    assert found == {getattr(importlib.import_module(f"mcp_models.{FOLDER}.{module}"), name)}


def test_a_message_error_of_one_revision_is_caught_as_another_s() -> None:
    newest = importlib.import_module("mcp_models.v2026_07_28")
    older = importlib.import_module("mcp_models.v2025_11_25")
    with pytest.raises(older.MessageError) as caught:
        newest.parse_message(b"[1]")
    assert caught.value.code == -32600
    with pytest.raises(older.NotJSONError):
        newest.parse_message(b"{")


@pytest.mark.parametrize("name", ["Titles", "Format", "FormError", "AnswerError"])
def test_form_markers_and_errors_are_one_class_across_revisions(name: str) -> None:
    found = {getattr(importlib.import_module(f"mcp_models.{p}.forms"), name) for p in WITH_FORMS}
    assert found == {getattr(shared_forms, name)}


class Size(Enum):
    SMALL = "s"
    LARGE = "l"


class Order(BaseModel):
    """A form declared once, with the runtime's markers, for every revision."""

    size: Annotated[Size, shared_forms.Titles({Size.SMALL: "Small", Size.LARGE: "Large"})] = Field(title="Size")
    email: Annotated[str, shared_forms.Format("email")]
    notes: Literal["none", "some"] | None = None


@pytest.mark.parametrize("package", WITH_FORMS)
def test_one_form_serves_every_revision_s_elicit_request(package: str) -> None:
    module: Any = importlib.import_module(f"mcp_models.{package}.forms")
    if package in ("v2025_06_18", "v2025_11_25"):  # sent alone: a JSON-RPC request with its id
        request = module.elicit_request(Order, "Your order?", id=1)
    else:  # 2026-07-28 on (and the surface): inside an InputRequiredResult, without an id
        request = module.elicit_request(Order, "Your order?")
    wire = request.model_dump(mode="json")
    schema = wire["params"]["requestedSchema"]
    assert schema["required"] == ["size", "email"]
    assert schema["properties"]["email"]["format"] == "email"
    size = schema["properties"]["size"]
    titles = size.get("enumNames") or [option["title"] for option in size["oneOf"]]
    assert titles == ["Small", "Large"]


def test_reading_refuses_what_is_no_json_rpc_message() -> None:
    assert reading.load(b'{"a": 1}') == {"a": 1}
    with pytest.raises(reading.NotJSONError, match="no UTF-8 form"):
        reading.utf8("\ud800")
    with pytest.raises(reading.MessageError, match="a JSON object"):
        reading.json_object(b"[]")
    for text in (b'{"x": NaN}', b'{"x": 1e999}', '{"x": -Infinity}'):
        with pytest.raises(reading.NotJSONError):
            reading.json_numbers_only(text)
    reading.json_numbers_only(b'{"id": "123e4567", "x": 1.5e3}')  # a hint at most, no refusal
    assert reading.holds_non_finite({"a": [1.0, float("inf")]})
    assert reading.load_any_depth(b"[" * 3000 + b"]" * 3000)[1]  # deeper than pydantic-core reads


def test_tolerant_reasons_point_into_the_item() -> None:
    class Tool(BaseModel):
        name: str
        sizes: list[int]

    item = {"name": "t", "sizes": [1, "two"]}
    with pytest.raises(ValidationError) as failed:
        Tool.model_validate(item)
    assert tolerant.reason(failed.value, item).startswith("/sizes/1: ")
    assert tolerant.token("a/b~c") == "a~1b~0c"
    dropped = tolerant.DroppedItem(3, "/tools/3", item, "why")
    item["name"] = "changed"
    assert dropped.raw == {"name": "t", "sizes": [1, "two"]} and str(dropped) == "/tools/3 dropped: why"


def test_narrowing_reads_structured_content_then_text() -> None:
    from pydantic_core import MISSING

    assert narrowing.structured("r", False, {"a": 1}, [], dict[str, int]) == ({"a": 1}, "structuredContent")
    assert narrowing.structured("r", False, MISSING, [(0, "nope"), (1, "[1, 2]")], list[int]) == ([1, 2], "text")
    with pytest.raises(narrowing.ToolReportedError) as reported:
        narrowing.structured("the result", True, {"a": 1}, [], dict[str, int])
    assert reported.value.result == "the result"
    with pytest.raises(narrowing.NarrowingError, match=r"content\[0\]: text is not JSON"):
        narrowing.structured("r", False, MISSING, [(0, "nope")], list[int])
    assert narrowing.is_json_number(1.5) and not narrowing.is_json_number(True)


def test_check_answer_reads_each_field_with_the_revision_s_reader() -> None:
    models: Any = importlib.import_module("mcp_models.v2026_07_28.models")
    read = TypeAdapter(models.PrimitiveSchemaDefinition).validate_python  # as the revision's elicitation.py reads
    schema = {
        "properties": {"n": {"type": "integer", "minimum": 1}, "c": {"type": "string", "enum": ["a", "b"]}},
        "required": ["n"],
    }
    problems = elicitation.check_answer(schema, {"c": "z", "x": 1}, read)
    assert [(p.field, p.message) for p in problems] == [
        ("n", "is required"),
        ("c", "must be one of 'a', 'b'"),
        ("x", "is not a field of the form"),
    ]
