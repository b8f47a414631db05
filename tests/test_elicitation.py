"""SEP-1330 helpers (enum options, answer checks) and the seeds' spec pages routed by method."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest

from codegen.runtime import jsonc
import mcp_models.v2025_06_18.elicitation as legacy_elicitation
from mcp_models import v2025_11_25, v2026_07_28
from mcp_models.v2026_07_28 import elicitation

from .conftest import DOCS

SEEDS = DOCS


@pytest.mark.parametrize(
    ("schema", "values", "titles", "multiple"),
    [
        ({"type": "string", "enum": ["r", "g"]}, ("r", "g"), ("r", "g"), False),
        ({"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]}, ("r", "g"), ("Red", "Green"), False),
        ({"type": "string", "oneOf": [{"const": "r", "title": "Red"}]}, ("r",), ("Red",), False),
        ({"type": "array", "items": {"type": "string", "enum": ["r", "g"]}}, ("r", "g"), ("r", "g"), True),
        ({"type": "array", "items": {"anyOf": [{"const": "g", "title": "Green"}]}}, ("g",), ("Green",), True),
    ],
)
def test_enum_choice_of_every_variant(schema: dict[str, Any], values: tuple[str, ...], titles: tuple[str, ...], multiple: bool) -> None:
    choice = elicitation.enum_choice(schema)
    assert choice is not None
    assert choice.values == values
    assert tuple(o.title for o in choice.options) == titles
    assert choice.multiple is multiple


def test_non_enum_fields_have_no_choice() -> None:
    assert elicitation.enum_choice({"type": "string", "minLength": 2}) is None
    assert elicitation.enum_choice({"type": "boolean"}) is None


def test_legacy_enum_names_in_2025_06_18() -> None:
    choice = legacy_elicitation.enum_choice({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]})
    assert choice is not None and [o.title for o in choice.options] == ["A", "B"]


FORM = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 5},
        "age": {"type": "integer", "minimum": 0},
        "ok": {"type": "boolean"},
        "color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["a", "b", "c"]}},
    },
    "required": ["name", "tags"],
}


def test_a_fitting_answer_has_no_problems() -> None:
    form = v2026_07_28.ElicitRequestFormParams.model_validate({"message": "m", "requestedSchema": FORM})
    answer = {"name": "Ann", "age": 3, "ok": True, "color": "g", "tags": ["a", "c"]}
    assert elicitation.check_answer(form.requested_schema, answer) == []
    assert elicitation.check_answer(FORM, answer) == []


def test_answer_problems_are_named_per_field() -> None:
    answer = {"name": "A", "age": -1, "ok": "yes", "color": "blue", "tags": ["a", "b", "z", "a"], "extra": 1}
    problems = {(p.field, p.message) for p in elicitation.check_answer(FORM, answer)}
    assert ("name", "must be at least 2 characters") in problems
    assert ("age", "must be at least 0") in problems
    assert ("ok", "must be true or false") in problems
    assert ("color", "must be one of 'r', 'g'") in problems
    assert ("tags", "'z' is not one of 'a', 'b', 'c'") in problems
    assert ("tags", "must not repeat a value") in problems
    assert ("tags", "must have at most 2 selections") in problems
    assert ("extra", "is not a field of the form") in problems
    assert elicitation.check_answer(FORM, {"name": "Ann"}) == [elicitation.AnswerProblem("tags", "is required")]
    assert ("tags", "must have at least 1 selections") in {
        (p.field, p.message) for p in elicitation.check_answer(FORM, {"name": "Ann", "tags": []})
    }


def _json_blocks(page: str) -> list[Any]:
    values: list[Any] = []
    for block in re.findall(r"```jsonc?[^\n]*\n(.*?)```", page, re.S):
        values.extend(jsonc.loads_all(block))
    return values


def test_seed_page_messages_route_to_their_classes() -> None:
    page = (SEEDS / "002_3946d478c99d3a7d.txt").read_text()
    package = v2025_11_25
    pending: dict[Any, str] = {}
    routed = 0
    for value in _json_blocks(page):
        if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
            continue
        parsed = package.parse_message(value)
        if "method" in value:
            expected = (package.messages.REQUESTS if "id" in value else package.messages.NOTIFICATIONS)[value["method"]]
            assert type(parsed) is expected
            if "id" in value:
                pending[value["id"]] = value["method"]
        elif "result" in value:
            result = package.parse_result(pending[value["id"]], value["result"])
            expected_result = package.messages.RESULTS[pending[value["id"]]]
            if not isinstance(expected_result, type):  # task-augmentable: the method's own result is the first arm
                expected_result = get_args(get_args(get_args(expected_result)[0])[0])[0]
            assert type(result) is expected_result
            assert result.model_dump(mode="json", by_alias=True, exclude_unset=True) == value["result"]
        else:
            assert type(parsed).__name__.endswith("Error") or type(parsed) is package.JSONRPCErrorResponse
        routed += 1
    assert routed >= 20  # the roots, sampling and elicitation pages hold 21 JSON-RPC messages
