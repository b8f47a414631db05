"""SEP-2106: structuredContent per revision, narrowing helpers, and their static typing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from mcp_models import v2025_11_25, v2026_07_28
from mcp_models.v2026_07_28 import narrowing

from .conftest import SPEC
from .typing_checkers import TYPING, expected_errors, mypy_errors, pyright_errors

EXAMPLES = SPEC / "2026-07-28" / "examples"


class User(BaseModel):
    id: str
    name: str
    email: str


class Weather(BaseModel):
    temperature: float
    conditions: str
    humidity: int


def _result(name: str) -> v2026_07_28.CallToolResult:
    return v2026_07_28.CallToolResult.model_validate_json((EXAMPLES / "CallToolResult" / name).read_bytes())


@pytest.mark.parametrize("value", [[1, "a"], "text", 3, 2.5, True, None, {"k": [None]}])
def test_any_json_structured_content_round_trips_in_2026(value: object) -> None:
    data = {"resultType": "complete", "content": [], "structuredContent": value}
    for package in (v2026_07_28,):
        parsed = package.CallToolResult.model_validate(data)
        assert json.dumps(parsed.model_dump(mode="json"), sort_keys=True) == json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("value", [[1, "a"], "text", 3, True, None])
def test_non_object_structured_content_is_rejected_by_2025_11_25(value: object) -> None:
    with pytest.raises(ValidationError):
        v2025_11_25.CallToolResult.model_validate({"content": [], "structuredContent": value})
    assert v2025_11_25.CallToolResult.model_validate({"content": [], "structuredContent": {"a": 1}})


def test_array_example_round_trips_in_2026_and_draft_and_fails_in_2025_11_25() -> None:
    raw = (EXAMPLES / "CallToolResult" / "result-with-array-structured-content.json").read_bytes()
    from mcp_models import draft

    for package in (v2026_07_28, draft):
        parsed = package.CallToolResult.model_validate_json(raw)
        assert parsed.model_dump(mode="json") == json.loads(raw)
    with pytest.raises(ValidationError):
        v2025_11_25.CallToolResult.model_validate_json(raw)


def test_input_schema_keeps_any_2020_12_keyword() -> None:
    schema = {
        "type": "object",
        "$defs": {"id": {"type": "string"}},
        "oneOf": [{"properties": {"id": {"$ref": "#/$defs/id"}}, "required": ["id"]}],
        "if": {"required": ["a"]},
        "then": {"properties": {"b": {"const": 1}}},
        "else": {"not": {"required": ["b"]}},
        "allOf": [{"minProperties": 1}],
        "$anchor": "root",
    }
    tool = v2026_07_28.Tool.model_validate({"name": "t", "inputSchema": schema, "outputSchema": {"type": "array"}})
    assert tool.model_dump(mode="json") == {"name": "t", "inputSchema": schema, "outputSchema": {"type": "array"}}


def test_narrow_to_models_lists_and_primitives() -> None:
    users = narrowing.narrow(_result("result-with-array-structured-content.json"), list[User])
    assert [u.name for u in users] == ["Alice", "Bob"]
    weather = narrowing.narrow(_result("result-with-structured-content.json"), Weather)
    assert weather.humidity == 65 and weather.temperature == 22.5
    number = v2026_07_28.CallToolResult.model_validate({"resultType": "complete", "content": [], "structuredContent": 7})
    assert narrowing.narrow(number, int) == 7
    assert narrowing.narrow(number, TypeAdapter(int | str)) == 7
    with pytest.raises(narrowing.NarrowingError, match="structuredContent"):
        narrowing.narrow(number, str)  # strict: 7 is not a string


def test_narrow_falls_back_to_json_text_for_older_clients() -> None:
    result = v2026_07_28.CallToolResult.model_validate(
        {"resultType": "complete", "content": [{"type": "text", "text": '{"temperature": 1, "conditions": "c", "humidity": 2}'}]}
    )
    structured = narrowing.narrow_result(result, Weather)
    assert structured.source == "text" and structured.value.conditions == "c"
    plain = _result("result-with-unstructured-text.json")
    with pytest.raises(narrowing.NarrowingError, match="not JSON"):
        narrowing.narrow(plain, Weather)


def test_error_results_are_never_narrowed_silently() -> None:
    failed = _result("invalid-tool-input-error.json")
    with pytest.raises(narrowing.ToolReportedError):
        narrowing.narrow(failed, dict)
    assert isinstance(narrowing.NarrowingError("x", failed), ValueError)


@pytest.mark.parametrize(
    ("predicate", "accepted", "rejected"),
    [
        (narrowing.is_json_object, [{}, {"a": 1}], [[], "a", None]),
        (narrowing.is_json_array, [[], [1]], [{}, "a"]),
        (narrowing.is_json_string, ["", "a"], [1, None]),
        (narrowing.is_json_number, [1, 2.5], [True, "1"]),
        (narrowing.is_json_integer, [1], [1.5, False]),
        (narrowing.is_json_boolean, [True, False], [0, "true"]),
        (narrowing.is_json_null, [None], [0, ""]),
    ],
)
def test_json_shape_predicates(predicate: Any, accepted: list[object], rejected: list[object]) -> None:
    assert all(predicate(v) for v in accepted)
    assert not any(predicate(v) for v in rejected)


@pytest.mark.parametrize("checker", [mypy_errors, pyright_errors], ids=["mypy", "pyright"])
def test_correct_use_type_checks(checker: Any) -> None:
    assert checker(TYPING / "narrowing_ok.py") == set()


@pytest.mark.parametrize("checker", [mypy_errors, pyright_errors], ids=["mypy", "pyright"])
def test_misuse_fails_to_type_check(checker: Any) -> None:
    path = TYPING / "narrowing_misuse.py"
    expected = expected_errors(path)
    assert expected and checker(path) == expected


def test_narrow_reads_json_types_into_richer_python_types() -> None:
    import datetime
    import enum

    class Color(enum.Enum):
        RED = "red"

    class Reading(BaseModel):
        at: datetime.datetime
        color: Color
        pair: tuple[int, int]

    value = {"at": "2024-01-01T00:00:00Z", "color": "red", "pair": [1, 2]}
    result = v2026_07_28.CallToolResult.model_validate({"resultType": "complete", "content": [], "structuredContent": value})
    reading = narrowing.narrow(result, Reading)
    assert reading.color is Color.RED and reading.pair == (1, 2) and reading.at.year == 2024
    nan = v2026_07_28.CallToolResult.model_validate({"resultType": "complete", "content": [{"type": "text", "text": "NaN"}]})
    with pytest.raises(narrowing.NarrowingError):
        narrowing.narrow(nan, float)


def test_subclass_instances_pass_structural_unions() -> None:
    class MyText(v2026_07_28.TextContent):
        pass

    message = v2026_07_28.SamplingMessage(role="user", content=MyText(type="text", text="x"))
    assert type(message.content) is MyText
