"""The same guarantees for `mcp-codegen tools` on hostile tools/list input, and for validation at
run time: `codegen.outputschema.check_output` and the generated narrowing helpers.

Each tools case runs the CLI into a folder holding a previously generated tools package, asserts
exit 2, one line (code, `tools/list`, a pointer into the input, a hint), at most 2 s of CPU and
500 MB, and the folder byte-identical afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen import api
from codegen.errors import CodegenError
from codegen.checks.outputschema import check_output

from . import bad_input_support as support
from . import cpu_bound

OBJECT = {"type": "object"}
# CPU seconds of the work alone (tests/cpu_bound.py), about 3x what it takes on an idle machine:
# Bounds in reference tasks (tests/cpu_bound.py: ~0.15-0.25 s each):
CHECK_OUTPUT_TIMES = 20  # the slowest case (a 100,001-item uniqueness check) takes ~5 idle
REFUSAL_TIMES = 10  # refusing a hostile schema: nothing to ~1.5 idle
NARROW_TIMES = 10  # a million items, ~1.5 idle


def _listing(*tools: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": list(tools)}})


def _tool(input_schema: Any, **extra: Any) -> dict[str, Any]:
    return {"name": "evil", "inputSchema": input_schema, **extra}


def _deep(levels: int) -> str:
    schema = '{"type": "object", "properties": {"x": ' * levels + "{}" + "}}" * levels
    return '{"tools": [{"name": "deep", "inputSchema": ' + schema + "}]}"


TOOLS_CASES: dict[str, tuple[Callable[[], str], str, str]] = {
    # case: (listing text, error code, pointer: exact, or a prefix ending in "/")
    "empty_file": (lambda: "", "MCG102", "#"),
    "invalid_json": (lambda: '{"tools": [}', "MCG102", "#"),
    "nan_in_a_schema": (
        lambda: '{"tools": [{"name": "a", "inputSchema": {"type": "number", "maximum": NaN}}]}',
        "MCG102",
        "#",
    ),
    "repeated_key": (lambda: '{"tools": [], "tools": [{"name": "a"}]}', "MCG102", "#"),
    "tools_not_a_list": (lambda: json.dumps({"tools": {"evil": OBJECT}}), "MCG701", "#"),
    "no_tools": (lambda: _listing(), "MCG701", "#/tools"),
    "an_error_response": (
        lambda: json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}}),
        "MCG701",
        "#",
    ),
    "tool_not_an_object": (lambda: _listing("evil"), "MCG702", "#/tools/0"),
    "tool_without_a_name": (lambda: _listing({"inputSchema": OBJECT}), "MCG702", "#/tools/0"),
    "tool_name_not_a_string": (lambda: _listing({"name": ["evil"], "inputSchema": OBJECT}), "MCG702", "#/tools/0"),
    "duplicate_tool_names": (lambda: _listing(_tool(OBJECT), _tool(OBJECT)), "MCG702", "#/tools/1"),
    "no_input_schema": (lambda: _listing({"name": "evil"}), "MCG702", "#/tools/0"),
    "output_schema_not_a_schema": (lambda: _listing(_tool(OBJECT, outputSchema="object")), "MCG702", "#/tools/0"),
    "remote_ref_http": (
        lambda: _listing(
            _tool({"type": "object", "properties": {"a": {"$ref": "http://169.254.169.254/latest/meta-data"}}})
        ),
        "MCG111",
        "#/tools/0/inputSchema/properties/a/$ref",
    ),
    "remote_ref_file": (
        lambda: _listing(_tool(OBJECT), _tool(OBJECT, name="b", outputSchema={"$ref": "file:///etc/shadow"})),
        "MCG111",
        "#/tools/1/outputSchema/$ref",
    ),
    "relative_ref_leaves_document": (
        lambda: _listing(_tool({"type": "object", "properties": {"a": {"$ref": "../schemas/a.json"}}})),
        "MCG111",
        "#/tools/0/inputSchema/properties/a/$ref",
    ),
    "remote_dynamic_ref": (
        lambda: _listing(_tool({"type": "object", "properties": {"a": {"$dynamicRef": "https://evil.example/m#x"}}})),
        "MCG111",
        "#/tools/0/inputSchema/properties/a/$dynamicRef",
    ),
    "nesting_10000_levels": (lambda: _deep(10_000), "MCG103", "#"),
    "nesting_100_levels": (lambda: _deep(100), "MCG103", "#/tools/0/inputSchema/"),
    "anyof_100000_arms": (
        lambda: _listing(_tool({"type": "object", "anyOf": [OBJECT] * 100_000})),
        "MCG109",
        "#/tools/0/inputSchema/anyOf/",
    ),
    "tools_50000": (
        lambda: _listing(*({"name": f"t{i}", "inputSchema": OBJECT} for i in range(50_000))),
        "MCG109",
        "#/tools/",
    ),
    "description_10_mb": (lambda: _listing(_tool(OBJECT, description="x" * (10 << 20))), "MCG101", "#"),
    "reference_loop": (
        lambda: _listing(
            _tool(
                {
                    "type": "object",
                    "$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, OBJECT]}},
                    "properties": {"p": {"$ref": "#/$defs/a"}},
                }
            )
        ),
        "MCG114",
        "#/tools/0/inputSchema/$defs/a",
    ),
    "pattern_needing_backtracking": (
        lambda: _listing(_tool({"type": "object", "properties": {"p": {"type": "string", "pattern": "^(\\w+)\\1$"}}})),
        "MCG116",
        "#/tools/0/inputSchema/properties/p/pattern",
    ),
}


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a tools package generated before (the target of every failing run)."""
    root = tmp_path_factory.mktemp("tools-previous")
    listing = root / "tools.json"
    listing.write_text(
        _listing({"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}}})
    )
    out = root / "server_tools"
    api.generate_tools(out=out, tools_file=listing)
    return out


@pytest.mark.parametrize("case", sorted(TOOLS_CASES))
def test_hostile_tools_list_is_one_clear_error(case: str, tmp_path: Path, previous: Path) -> None:
    make, code, pointer = TOOLS_CASES[case]
    listing = tmp_path / "tools.json"
    listing.write_text(make(), encoding="utf-8")
    before = support.tree_digest(previous)
    result = support.run(
        ["tools", "--from", str(listing), "--out", str(previous)], env=support.cli_env(tmp_path / "cache")
    )
    support.assert_one_line_error(result, code, revision="tools/list", pointer=pointer)
    support.assert_bounded(result)
    assert support.tree_digest(previous) == before and support.leftovers(previous) == []
    support.record(f"tools: {case}", result)


def test_tools_limits_from_flags_and_config(tmp_path: Path, previous: Path) -> None:
    listing = tmp_path / "tools.json"
    listing.write_text(
        _listing(
            {
                "name": "a",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "object", "properties": {"y": OBJECT}}}},
            }
        )
    )
    env = support.cli_env(tmp_path / "cache")
    before = support.tree_digest(previous)
    flag = support.run(["tools", "--from", str(listing), "--out", str(previous), "--max-depth", "6"], env=env)
    support.assert_one_line_error(flag, "MCG103", revision="tools/list", pointer="#/tools/0/inputSchema/properties/x/")
    support.record("tools: limit from flag", flag)
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-codegen]\nmax-subschemas = 3\n")
    config = support.run(["tools", "--from", str(listing), "--out", str(previous)], env=env, cwd=tmp_path)
    support.assert_one_line_error(config, "MCG109", revision="tools/list", pointer="#/tools/0/")
    support.record("tools: limit from config", config)
    assert support.tree_digest(previous) == before
    wins = support.run(
        ["tools", "--from", str(listing), "--out", str(tmp_path / "ok"), "--max-subschemas", "10"],
        env=env,
        cwd=tmp_path,
    )
    assert wins.returncode == 0, wins.stderr  # the flag beats the config file


# -- check_output: validation of structured content at run time ----------------------------------


def _deep_value(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


RECURSIVE = {"$defs": {"L": {"type": ["array", "integer"], "items": {"$ref": "#/$defs/L"}}}, "$ref": "#/$defs/L"}


def _exponential(levels: int) -> dict[str, Any]:
    """2**levels paths to one leaf: a validator that tries every arm takes forever."""
    arms = {f"A{i}": {"anyOf": [{"$ref": f"#/$defs/A{i + 1}"}, {"$ref": f"#/$defs/A{i + 1}"}]} for i in range(levels)}
    return {"$defs": {**arms, f"A{levels}": {"type": "string"}}, "$ref": "#/$defs/A0"}


EXPONENTIAL = _exponential(30)  # 2**30 paths, 61 references deep: within the nesting limit

RUNTIME_PROBLEMS = {
    # case: (schema, value, a phrase of the first problem)
    "catastrophic_backtracking_pattern": ({"type": "string", "pattern": "^(a+)+$"}, "a" * 5000 + "!", "does not match"),
    "backtracking_pattern_property": (
        {"type": "object", "patternProperties": {"^(a|aa)+$": {"type": "integer"}}, "additionalProperties": False},
        {"a" * 5000 + "!": 1},
        "Additional properties are not allowed",
    ),
    "exponential_composition": (EXPONENTIAL, 5, "validation stopped after"),
    "a_million_items": (
        {"type": "array", "items": {"type": "integer", "minimum": 0}},
        list(range(1_000_000)),
        "validation stopped after",
    ),
    "value_nested_10000_levels": (RECURSIVE, _deep_value(10_000), "nests more than 128 levels"),
    "duplicate_among_100000_objects": (
        {"type": "array", "uniqueItems": True},
        [{"k": i} for i in range(100_000)] + [{"k": 7}],
        "non-unique",
    ),
}


@pytest.mark.parametrize("case", sorted(RUNTIME_PROBLEMS))
def test_check_output_is_bounded_on_hostile_input(case: str) -> None:
    schema, value, phrase = RUNTIME_PROBLEMS[case]
    # the budget (wall time) must stop only the cases that need stopping: the others are bounded
    # by how they are checked, and a loaded machine must not turn their finding into a time-out
    budget = 1.0 if phrase.startswith("validation stopped") else 60.0
    measured = cpu_bound.measure(lambda: [p.message for p in check_output(schema, value, budget_seconds=budget)[:2]])
    assert measured.raised is None, measured.raised
    cpu_bound.assert_within(measured, CHECK_OUTPUT_TIMES, what=case)
    problems = measured.value
    assert problems and phrase in problems[0], problems


def test_check_output_budget_does_not_cut_honest_work_short() -> None:
    assert check_output(RECURSIVE, _deep_value(100)) == []
    assert check_output({"type": "array", "uniqueItems": True}, [1, True, "1", [1], {"a": 1}]) == []
    assert [p.message for p in check_output({"type": "array", "uniqueItems": True}, [1, 1.0])] == [
        "[1, 1.0] has non-unique elements"
    ]
    assert check_output({"type": "string", "pattern": "b"}, "abc") == []  # a search, not a full match


@pytest.mark.parametrize(
    ("schema", "code"),
    [
        ({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}, "MCG114"),
        ({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "string"}]}}, "$ref": "#/$defs/a"}, "MCG114"),
        ({"type": "string", "pattern": "^(?=x)"}, "MCG713"),
        ({"type": "object", "patternProperties": {"^a": {}}, "unevaluatedProperties": False}, "MCG713"),
        ({"$dynamicRef": "https://evil.example/x"}, "MCG111"),
        ({"properties": {"a": {"$ref": "http://127.0.0.1:9/x"}}}, "MCG111"),
        ({"properties": {"a": {"type": 5}}}, "MCG711"),
        (_exponential(40), "MCG103"),  # references chained deeper than the nesting limit
    ],
)
def test_check_output_refuses_hostile_schemas(schema: dict[str, Any], code: str) -> None:
    def refused() -> tuple[str, str | None]:
        try:
            check_output(schema, "x")
        except CodegenError as exc:
            return exc.diagnostics[0].code, exc.diagnostics[0].hint
        return "accepted", None

    measured = cpu_bound.measure(refused)
    cpu_bound.assert_within(measured, REFUSAL_TIMES, what="the refusal")
    assert measured.raised is None, measured.raised
    found, hint = measured.value
    assert found == code
    assert hint


# -- the generated narrowing helpers -------------------------------------------------------------


def _result(structured: Any) -> Any:
    from mcp_models.v2026_07_28 import CallToolResult

    return CallToolResult.model_validate({"resultType": "complete", "content": [], "structuredContent": structured})


@pytest.mark.parametrize(
    ("value", "target"),
    [
        ([*range(999_000), *["x"] * 1000], list[int]),
        ({str(i): i for i in range(200_000)}, list[int]),
        (["x" * 1_000_000] * 10, list[int]),
        ([1] * 1000, list[str]),
        (_deep_value(200), list[int]),
    ],
    ids=[
        "a_million_items_a_thousand_wrong",
        "a_wide_object",
        "ten_megabytes_of_text",
        "a_thousand_wrong_items",
        "nested_200_levels",
    ],
)
def test_narrow_fails_fast_and_cleanly_on_hostile_content(value: Any, target: Any) -> None:
    result = _result(value)
    measured = cpu_bound.measure(lambda: _narrowing_outcome(result, target))
    assert measured.raised is None, measured.raised
    assert measured.value == "NarrowingError"
    cpu_bound.assert_within(measured, NARROW_TIMES, what="narrow")


def _narrowing_outcome(result: Any, target: Any) -> str:
    """The class of the error narrow() raised, or "narrowed"."""
    from mcp_models.v2026_07_28.narrowing import NarrowingError, narrow

    try:
        narrow(result, target)
    except NarrowingError as exc:
        return type(exc).__name__
    return "narrowed"


def test_narrow_of_deeply_nested_json_text_is_a_narrowing_error() -> None:
    from mcp_models.v2026_07_28 import CallToolResult
    from mcp_models.v2026_07_28.narrowing import NarrowingError, narrow

    text = "[" * 100_000 + "]" * 100_000
    result = CallToolResult.model_validate({"resultType": "complete", "content": [{"type": "text", "text": text}]})
    with pytest.raises(NarrowingError):
        narrow(result, list[Any])


def test_narrow_of_content_nested_10000_levels_is_a_narrowing_error() -> None:
    from mcp_models.v2026_07_28.narrowing import NarrowingError, narrow

    with pytest.raises(NarrowingError):
        narrow(_result(_deep_value(10_000)), list[int])


def test_narrow_of_a_million_wrong_items_is_fast() -> None:
    result = _result(list(range(1_000_000)))
    measured = cpu_bound.measure(lambda: _narrowing_outcome(result, list[str]))
    assert measured.raised is None, measured.raised
    assert measured.value == "NarrowingError"
    cpu_bound.assert_within(measured, NARROW_TIMES, what="narrow")


@pytest.mark.parametrize(
    ("listed", "code"),
    [
        ([{"name": "a", "inputSchema": OBJECT}, {"name": "a", "inputSchema": OBJECT}], "MCG702"),
        (
            [{"name": "a", "inputSchema": {"type": "object", "properties": {"p": {"$ref": "http://127.0.0.1:9/"}}}}],
            "MCG111",
        ),
        ([{"name": "a", "inputSchema": {"type": "object", "anyOf": [OBJECT] * 60_000}}], "MCG109"),
        ([], "MCG701"),
    ],
)
def test_tools_from_a_live_server_get_the_same_checks(
    listed: list[dict[str, Any]], code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's own tools/list (no file to read) is checked like a file's."""
    from codegen.tools import package as server_tools

    monkeypatch.setattr(server_tools, "list_from_server", lambda command, **_: (listed, "2026-07-28"))
    with pytest.raises(CodegenError) as caught:
        api.generate_tools(out=tmp_path / "out", server=["hostile-server"])
    assert caught.value.diagnostics[0].code == code
    assert not (tmp_path / "out").exists()
