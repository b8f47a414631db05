"""Hardening, round two (issue 15, schema side): inputs whose cost follows their shape rather than
their size, costly regular expressions, `format`, text no package can hold, numbers no JSON carries,
and values of settings that would reach generated source.

Each CLI case runs `mcp-codegen` as a real process (tests/bad_input_support.py) and asserts its exit
code, one line on stderr for an error, CPU time and peak memory of the process (never wall time),
and the output folder hashed before and after.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.schema import budget, patterns
from codegen.errors import CodegenError
from codegen.checks.outputschema import check_output

from . import bad_input_support as support

LEAF = {"type": "object", "properties": {"x": {"type": "string"}}}


def _ref(i: int) -> dict[str, str]:
    return {"$ref": f"#/$defs/A{i}"}


def _chain(levels: int, make: Callable[[int], Any], leaf: Any = LEAF) -> dict[str, Any]:
    """A_i = make(i) (referring to A_{i+1}) for every level, and a leaf."""
    return {"$defs": {**{f"A{i}": make(i) for i in range(levels)}, f"A{levels}": leaf}}


def _wide_chain(levels: int, width: int) -> dict[str, Any]:
    """Each level extends the next (allOf) and adds `width` properties: the merged sizes add up to
    levels**2 * width / 2 from levels * width nodes."""
    return _chain(
        levels,
        lambda i: {"allOf": [_ref(i + 1)], "properties": {f"p{i}_{j}": {"type": "string"} for j in range(width)}},
        {"type": "object"},
    )


N = 30  # levels: 2**30 paths through each diamond, about 2 KB of schema
# Shapes whose paths multiply through shared parts: each is generated in linear time (memoised),
# exit 0. name -> schema
DIAMONDS: dict[str, dict[str, Any]] = {
    "diamond_allof": _chain(N, lambda i: {"allOf": [_ref(i + 1), _ref(i + 1)]}),
    "diamond_anyof": _chain(N, lambda i: {"anyOf": [_ref(i + 1), _ref(i + 1)]}),
    "diamond_oneof_of_allof": _chain(20, lambda i: {"oneOf": [_ref(i + 1), {"allOf": [_ref(i + 1)]}]}),
    "diamond_properties": _chain(N, lambda i: {"type": "object", "properties": {"a": _ref(i + 1), "b": _ref(i + 1)}}),
    "diamond_items_and_arms": _chain(
        N, lambda i: {"type": "array", "items": {"anyOf": [_ref(i + 1), {"type": "array", "items": _ref(i + 1)}]}}
    ),
    "diamond_allof_with_property": _chain(
        N, lambda i: {"allOf": [_ref(i + 1), {"properties": {"p": _ref(i + 1)}}, _ref(i + 1)]}
    ),
    "diamond_allof_in_a_property": _chain(
        N, lambda i: {"type": "object", "properties": {"a": {"allOf": [_ref(i + 1), _ref(i + 1)]}}}
    ),
    "diamond_pattern_properties": _chain(
        N, lambda i: {"type": "object", "patternProperties": {"^a": _ref(i + 1), "^b": _ref(i + 1)}}
    ),
}


def _changed_leaf(schema: dict[str, Any]) -> dict[str, Any]:
    defs = dict(schema["$defs"])
    last = max(defs, key=lambda k: int(k[1:]))
    defs[last] = {"type": "object", "properties": {"x": {"type": "integer"}}}
    return {"$defs": defs}


def _as_tools(schema: dict[str, Any]) -> dict[str, Any]:
    return {"tools": [{"name": "t", "inputSchema": {"type": "object", **schema, "properties": {"v": _ref(0)}}}]}


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    return tmp_path


def _write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _wide_chain_in_properties() -> dict[str, Any]:
    return {"$defs": {"H": {"type": "object", "properties": {"h": _ref(0)}}, **_wide_chain(30, 300)["$defs"]}}


def _bounded(result: support.Run) -> None:
    support.assert_bounded(result, support.REFUSAL if result.returncode == 2 else support.GENERATION)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(DIAMONDS))
def test_shared_parts_cost_their_size_in_generate_tools_and_diff(case: str, scratch: Path) -> None:
    schema = DIAMONDS[case]
    env = support.cli_env(scratch / "cache")
    old = _write(scratch / case / "schema.json", schema)
    new = _write(scratch / "new" / "schema.json", _changed_leaf(schema))
    listing = _write(scratch / "tools.json", _as_tools(schema))
    runs = {
        "generate": support.run(["generate", "--schema", str(old), "--out", str(scratch / "pkg")], env=env),
        "tools": support.run(["tools", "--from", str(listing), "--out", str(scratch / "tools_pkg")], env=env),
        "diff": support.run(["diff", str(old), str(new), "--no-python-api"], env=env),
    }
    for command, result in runs.items():
        # tools may refuse the nested names (MCG301): an error, but one clear line and bounded
        ok = result.returncode == 0 or (command == "diff" and result.returncode == 1)
        assert ok or (result.returncode == 2 and len(result.lines) == 1 and result.code), (command, result.stderr[-500:])
        assert "Traceback" not in result.stderr
        _bounded(result)
        support.record(f"schema: {case} ({command})", result, "2**levels paths, linear work")
    assert runs["generate"].returncode == 0, runs["generate"].stderr


# -- cases refused: exit 2, one line, bounded, the output tree untouched -------------------------

P190 = "\\w{190}N"
REFUSED: dict[str, tuple[Callable[[], Any], str, str]] = {
    # name: (schema, error code, pointer; a prefix when it ends in "/")
    # 9,000 properties: the member count refuses them first (MCG123); past it, the work budget of
    # merging the chain (MCG119: test_a_wide_allof_chain_past_max_members_meets_the_work_budget)
    "allof_chain_of_wide_levels": (lambda: _wide_chain(30, 300), "MCG123", "#/$defs/"),
    "allof_chain_of_wide_levels_in_properties": (lambda: _wide_chain_in_properties(), "MCG123", "#/$defs/"),
    "pattern_w190": (lambda: {"$defs": {"A": {"type": "string", "pattern": P190}}}, "MCG120", "#/$defs/A/pattern"),
    "pattern_400_costly": (
        lambda: {"$defs": {f"A{i}": {"type": "string", "pattern": "\\w{50}" + str(i)} for i in range(400)}},
        "MCG120",
        "#/$defs/A22/pattern",
    ),
    "pattern_in_pattern_properties": (
        lambda: {"$defs": {"A": {"type": "object", "patternProperties": {"\\pL{150}": {"type": "string"}}}}},
        "MCG120",
        "#/$defs/A/patternProperties/",
    ),
    "pattern_in_property_names": (
        lambda: {"$defs": {"A": {"type": "object", "propertyNames": {"pattern": "(\\w{20}){20}"}}}},
        "MCG120",
        "#/$defs/A/propertyNames/pattern",
    ),
    "pattern_repetition_overflow": (
        lambda: {"$defs": {"A": {"type": "string", "pattern": "a{99999999999}"}}},
        "MCG120",
        "#/$defs/A/pattern",
    ),
    "pattern_nested_groups": (
        lambda: {"$defs": {"A": {"type": "string", "pattern": "(" * 300 + "a" + ")" * 300}}},
        "MCG120",
        "#/$defs/A/pattern",
    ),
    "pattern_10000_characters": (
        lambda: {"$defs": {"A": {"type": "string", "pattern": "a" * 10_000}}},
        "MCG120",
        "#/$defs/A/pattern",
    ),
    "surrogate_property_name": (
        lambda: '{"$defs": {"A": {"type": "object", "properties": {"\\udc00": {"type": "string"}}}}}',
        "MCG121",
        "#/$defs/A/properties",
    ),
    "surrogate_method_const": (
        lambda: '{"$defs": {"PingRequest": {"type": "object", "required": ["method"], '
        '"properties": {"method": {"type": "string", "const": "pi\\ud800ng"}}}}}',
        "MCG121",
        "#/$defs/PingRequest/properties/method/const",
    ),
    "surrogate_description": (
        lambda: '{"$defs": {"A": {"type": "string", "description": "broken \\ud83d"}}}',
        "MCG121",
        "#/$defs/A/description",
    ),
    "surrogate_title": (
        lambda: '{"$defs": {"A": {"type": "string", "title": "\\udfff"}}}',
        "MCG121",
        "#/$defs/A/title",
    ),
    "surrogate_enum_value": (
        lambda: '{"$defs": {"A": {"type": "string", "enum": ["ok", "\\ud800"]}}}',
        "MCG121",
        "#/$defs/A/enum/1",
    ),
    "surrogate_definition_name": (
        lambda: '{"$defs": {"\\ud800A": {"type": "string"}}}',
        "MCG121",
        "#/$defs",
    ),
    "integer_of_5000_digits": (
        lambda: '{"$defs": {"A": {"type": "integer", "maximum": ' + "9" * 5000 + "}}}",
        "MCG122",
        "#/$defs/A/maximum",
    ),
    "integer_of_5000_digits_in_const": (
        lambda: '{"$defs": {"A": {"const": -' + "1" * 5000 + "}}}",
        "MCG122",
        "#/$defs/A/const",
    ),
    "huge_float_bound": (lambda: '{"$defs": {"A": {"type": "number", "maximum": 1e400}}}', "MCG116", "#/$defs/A/maximum"),
    "nan_in_const": (lambda: '{"$defs": {"A": {"const": NaN}}}', "MCG102", "#"),
    "infinity_in_default": (lambda: '{"$defs": {"A": {"type": "number", "default": -Infinity}}}', "MCG102", "#"),
    "percent_encoded_ref_decoded_then_dangling": (
        lambda: {"$defs": {"A%20B": {"type": "string"}, "H": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A%20B"}}}}},
        "MCG112",
        "#/$defs/H/properties/x/$ref",
    ),
    "percent_encoded_slash_ref": (
        lambda: {"$defs": {"a": {"type": "string"}, "H": {"type": "object", "properties": {"x": {"$ref": "#/$defs%2Fa%2Fb"}}}}},
        "MCG112",
        "#/$defs/H/properties/x/$ref",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_hostile_schema_is_one_line_within_bounds(case: str, scratch: Path) -> None:
    make, code, pointer = REFUSED[case]
    document = make()
    schema = scratch / case / "schema.json"
    schema.parent.mkdir(parents=True)
    schema.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    # The output folder does not exist yet and the user's own file sits beside it: a refused schema
    # creates nothing and touches nothing. (A folder of the user's files as --out is refused before
    # the schema is read: MCG603, tests/test_hardening_output.py.)
    home = scratch / "home"
    home.mkdir()
    (home / "kept.py").write_text("# a file the user wrote\n")
    out = home / "out"
    before = support.tree_digest(home)
    result = support.run(["generate", "--schema", str(schema), "--out", str(out)], env=support.cli_env(scratch / "c"))
    line = support.assert_one_line_error(result, code, revision=case, pointer=pointer)
    assert line.isascii() or "\\u" not in line
    _bounded(result)
    assert not out.exists() and support.tree_digest(home) == before and support.leftovers(home) == []
    support.record(f"schema: {case}", result)


TOOLS_REFUSED: dict[str, tuple[Any, str, str]] = {
    "tools_pattern_400_costly": (
        {"tools": [{"name": f"t{i}", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "pattern": P190[:-1] + str(i)}}}} for i in range(400)]},
        "MCG120",
        "#/tools/",
    ),
    "tools_wide_allof_chain": (_as_tools(_wide_chain(30, 300)), "MCG123", "#/tools/0/inputSchema/"),
    "tools_surrogate_tool_name": ('{"tools": [{"name": "\\udc00", "inputSchema": {"type": "object"}}]}', "MCG121", "#/tools/0/name"),
}


@pytest.mark.parametrize("case", sorted(TOOLS_REFUSED))
def test_hostile_tools_list_is_one_line_within_bounds(case: str, scratch: Path) -> None:
    document, code, pointer = TOOLS_REFUSED[case]
    listing = scratch / "tools.json"
    listing.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    out = scratch / "out"
    result = support.run(["tools", "--from", str(listing), "--out", str(out)], env=support.cli_env(scratch / "c"))
    support.assert_one_line_error(result, code, revision="tools/list", pointer=pointer)
    _bounded(result)
    assert not out.exists()
    support.record(f"schema: {case}", result)


def test_diff_of_a_wide_allof_chain_is_refused_within_bounds(scratch: Path) -> None:
    old = _write(scratch / "old" / "schema.json", _wide_chain(30, 300))
    new = _write(scratch / "new" / "schema.json", _changed_leaf(_wide_chain(30, 300)))
    result = support.run(["diff", str(old), str(new)], env=support.cli_env(scratch / "c"))
    support.assert_one_line_error(result, "MCG123", pointer="#/$defs/")  # its models would pass max-members
    _bounded(result)
    support.record("schema: diff of a wide allOf chain", result)
    wire = support.run(["diff", str(old), str(new), "--no-python-api"], env=support.cli_env(scratch / "c"))
    support.assert_one_line_error(wire, "MCG119", pointer="#/$defs/")  # the wire alone: the work budget
    _bounded(wire)
    support.record("schema: diff --no-python-api of a wide allOf chain", wire)


@pytest.mark.parametrize("case", ["allof_chain_of_wide_levels", "allof_chain_of_wide_levels_in_properties"])
def test_a_wide_allof_chain_past_max_members_meets_the_work_budget(case: str, scratch: Path) -> None:
    """With the member count raised, merging the chain is what stops: MCG119, within bounds."""
    make, _, pointer = REFUSED[case]
    schema = _write(scratch / case / "schema.json", make())
    out = scratch / "out"
    args = ["generate", "--schema", str(schema), "--out", str(out), "--max-members", "100000"]
    result = support.run(args, env=support.cli_env(scratch / "c"))
    support.assert_one_line_error(result, "MCG119", revision=case, pointer=pointer)
    _bounded(result)
    assert not out.exists()
    listing = _write(scratch / "tools.json", _as_tools(make()))
    tools = support.run(
        ["tools", "--from", str(listing), "--out", str(out), "--max-members", "100000"], env=support.cli_env(scratch / "c")
    )
    support.assert_one_line_error(tools, "MCG119", revision="tools/list", pointer="#/tools/0/inputSchema/")
    _bounded(tools)


# -- values that reach generated source ----------------------------------------------------------

CONFIGS = {
    "config_key_payload": '[tool.mcp-codegen]\npydantic-config = { "frozen=True, x=__import__(\\"os\\").system(\\"touch PWNED\\")) #" = 1 }\n',
    "config_value_datetime": "[tool.mcp-codegen]\npydantic-config = { title = 1979-05-27T07:32:00Z }\n",
    "config_key_set_by_generator": '[tool.mcp-codegen]\npydantic-config = { extra = "forbid" }\n',
    "config_base_class_keyword": '[tool.mcp-codegen]\nbase-class = "class.Base"\n',
}


@pytest.mark.parametrize("case", sorted(CONFIGS))
def test_settings_reach_generated_source_only_validated(case: str, scratch: Path) -> None:
    (scratch / "pyproject.toml").write_text(CONFIGS[case])
    schema = _write(scratch / "s" / "schema.json", {"$defs": {"A": LEAF}})
    out = scratch / "out"
    result = support.run(["generate", "--schema", str(schema), "--out", str(out)], env=support.cli_env(scratch / "c"), cwd=scratch)
    support.assert_one_line_error(result, "MCG010")
    assert not out.exists() and not (scratch / "PWNED").exists()
    support.record(f"schema: {case}", result)


def test_tools_models_flag_is_an_import_path(scratch: Path) -> None:
    listing = _write(scratch / "tools.json", {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]})
    payload = 'os; __import__("os").system("touch PWNED") #'
    result = support.run(
        ["tools", "--from", str(listing), "--out", str(scratch / "out"), "--models", payload],
        env=support.cli_env(scratch / "c"),
        cwd=scratch,
    )
    support.assert_one_line_error(result, "MCG010")
    assert not (scratch / "out").exists() and not (scratch / "PWNED").exists()
    support.record("schema: tools --models payload", result)


def test_tool_helpers_are_distinct_after_case_folding(scratch: Path) -> None:
    from codegen import api
    listing = _write(
        scratch / "tools.json",
        {"tools": [{"name": n, "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {n: {"type": "integer"}}}} for n in ("HTTPServer", "HttpServer", "httpServer")]},
    )
    result = api.generate_tools(out=scratch / "srv", tools_file=listing)
    init = result.fileset.files["__init__.py"]
    helpers = sorted(line.split("(")[0][4:] for line in init.splitlines() if line.startswith("def ") and "_output(" in line)
    assert len(helpers) == 3 and len({h.casefold() for h in helpers}) == 3, helpers


# -- formats stay plain strings ------------------------------------------------------------------


def test_every_format_is_a_plain_string(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from codegen import generate_schema
    properties = {
        "email": {"type": ["string", "null"], "format": "email"},
        "uri_arm": {"anyOf": [{"type": "string", "format": "uri"}, {"type": "integer"}]},
        "paths": {"type": "array", "items": {"type": ["string"], "format": "path"}},
        "ip": {"type": ["null", "string"], "format": "ipv4"},
        "decimal": {"type": ["number", "null"], "format": "decimal"},
        "uuid": {"oneOf": [{"type": "null"}, {"type": "string", "format": "uuid"}]},
        "when": {"type": ["string", "null"], "format": "date-time"},
        "map": {"type": "object", "additionalProperties": {"type": ["string", "null"], "format": "hostname"}},
    }
    schema = _write(scratch / "fmt" / "schema.json", {"$defs": {"Formats": {"type": "object", "properties": properties}}})
    generate_schema(schema, out=scratch / "pkg" / "fmt_pkg")
    source = (scratch / "pkg" / "fmt_pkg" / "models.py").read_text()
    for foreign in ("EmailStr", "AnyUrl", "Path", "IPv4Address", "Decimal", "UUID", "AwareDatetime", "datetime"):
        assert foreign not in source, foreign
    monkeypatch.syspath_prepend(str(scratch / "pkg"))
    models = importlib.import_module("fmt_pkg")
    value = {"email": "not an email", "uri_arm": "HTTP://Example.COM", "paths": ["x"], "ip": "999.1.1.1",
             "decimal": 1.5, "uuid": "nope", "when": "yesterday", "map": {"h": "-bad-"}}  # fmt: skip
    assert models.Formats.model_validate(value).model_dump(mode="json") == value


# -- the budget: real schemas use a small part of it -----------------------------------------------


@pytest.mark.slow
def test_mcp_revisions_use_a_tenth_of_the_work_budget() -> None:
    from codegen.emit import pipeline
    from codegen.schema import spec
    from codegen.limits import DEFAULT_LIMITS

    used = []
    original = budget.scope

    def spy(nodes: int, revision: str | None) -> Any:
        scope = original(nodes, revision)
        entered = scope.__enter__()
        used.append(entered)
        return _Closing(scope)

    class _Closing:
        def __init__(self, scope: Any) -> None:
            self.scope = scope

        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: Any) -> None:
            self.scope.__exit__(*exc)

    source = spec.resolve_source(None)
    pytest.MonkeyPatch().setattr(budget, "scope", spy)
    try:
        for pin in spec.select(None):
            data = spec.fetch(pin, source).data
            pipeline.build_revision(pin.revision, pin.package, data, pin.sha256, limits=DEFAULT_LIMITS)
    finally:
        budget.scope = original
    assert len(used) == len(spec.select(None))
    for spent in used:
        assert 0 < spent.spent <= spent.limit / 10, (spent.revision, spent.spent, spent.limit)


# -- regex cost: the estimate, and check_output --------------------------------------------------


def test_pattern_cost_estimate_orders_patterns_as_the_engine_does() -> None:
    cheap = ["^[a-z0-9_-]+$", "^\\d{4}-\\d{2}-\\d{2}$", "[A-Z]{1,10}", "^(a+)+$", "\\p{Greek}+"]
    costly = [P190, "\\w{1000}", "(\\w{50}){50}", "\\pL{300}", "a{99999999999}", "(?i)\\w{190}"]
    for pattern in cheap:
        assert isinstance(patterns.cost(pattern), int) and patterns.cost(pattern) <= patterns.MAX_PATTERN_COST, pattern
    for pattern in costly:
        estimate = patterns.cost(pattern)
        assert isinstance(estimate, str) or estimate > patterns.MAX_PATTERN_COST, pattern


def _cpu(function: Callable[[], Any]) -> tuple[float, Any]:
    started = time.process_time()
    value = function()
    return time.process_time() - started, value


def test_check_output_refuses_costly_patterns_before_compiling() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string", "pattern": P190 + str(i)} for i in range(120)}}
    started = time.process_time()
    with pytest.raises(CodegenError) as caught:
        check_output(schema, {}, budget_seconds=1.0)
    # refused from the patterns' syntax, before compiling any: 120 compiles would take 12-24 s of CPU
    assert time.process_time() - started < 4.0
    assert caught.value.diagnostics[0].code == "MCG713"
    with pytest.raises(CodegenError) as overflow:
        check_output({"pattern": "a{99999999999}"}, "x")
    assert overflow.value.diagnostics[0].code == "MCG713"


def test_check_output_budget_holds_inside_pattern_properties() -> None:
    schema = {
        "type": "object",
        "patternProperties": {f"^k{i}x": {"type": "integer"} for i in range(1500)},
        "additionalProperties": False,
    }
    value = {f"key{i}": i for i in range(40_000)}
    cpu, problems = _cpu(lambda: check_output(schema, value, budget_seconds=0.5))
    # stopped when the budget ran out, or before a match that would not fit in what is left of it
    assert problems and problems[0].message.startswith("validation stopped") and "0.5s" in problems[0].message
    # the budget is wall time; CPU can only be less, plus the checks before validation starts
    assert cpu < 0.5 + 3.0, cpu


def test_check_output_numbers_are_exact_and_json() -> None:
    assert check_output({"type": "number", "multipleOf": 0.1}, 10**400) == []
    assert check_output({"type": "number", "multipleOf": 0.1}, 0.3) == []
    assert [p.message for p in check_output({"type": "number", "multipleOf": 0.1}, 0.35)] == ["0.35 is not a multiple of 0.1"]
    for bad in (math.nan, math.inf, -math.inf):
        problems = check_output({"type": "number"}, bad)
        assert problems and "not a JSON number" in problems[0].message
    nested = check_output({"type": "object"}, {"a": [1, {"b": math.nan}]})
    assert nested and nested[0].path == "/a/1/b"
    # a lone surrogate in the value is reported as a mismatch, not raised (it cannot be encoded for
    # the regex engine the pattern was checked with)
    assert [p.path for p in check_output({"type": "string", "pattern": "a"}, "\ud800a")] == ["/"]


def test_one_ref_rule_for_models_and_check_output(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from codegen import generate_schema
    document = {
        "$defs": {
            "A B": {"type": "string"},
            "a/b": {"type": "integer"},
            "c~d": {"type": "boolean"},
            "Holder": {
                "type": "object",
                "properties": {"x": {"$ref": "#/$defs/A%20B"}, "y": {"$ref": "#/$defs/a~1b"}, "z": {"$ref": "#/$defs/c%7E0d"}},
            },
        }
    }
    good, bad = {"x": "s", "y": 1, "z": True}, {"x": 1, "y": "s", "z": 1}
    assert check_output({**document, "$ref": "#/$defs/Holder"}, good) == []
    assert [p.path for p in check_output({**document, "$ref": "#/$defs/Holder"}, bad)] == ["/x", "/y", "/z"]
    renamed = {"$defs": {"Space Name": document["$defs"]["A B"], **{k: v for k, v in document["$defs"].items() if k != "A B"}}}
    renamed["$defs"]["Holder"]["properties"]["x"] = {"$ref": "#/$defs/Space%20Name"}
    schema = _write(scratch / "refs" / "schema.json", renamed)
    generate_schema(schema, out=scratch / "pkg" / "refs_pkg")
    monkeypatch.syspath_prepend(str(scratch / "pkg"))
    models = importlib.import_module("refs_pkg")
    assert models.Holder.model_validate(good).model_dump(mode="json") == good
    with pytest.raises(ValueError):
        models.Holder.model_validate({"x": 1})


# -- non-finite numbers in the generated models and narrowing -------------------------------------


def test_generated_models_refuse_nan_and_infinity() -> None:
    from pydantic import ValidationError

    from mcp_models.v2026_07_28 import CallToolResult, ProgressNotification, parse_message, parse_result
    from mcp_models.v2026_07_28.messages import MessageError
    from mcp_models.v2026_07_28.narrowing import NarrowingError, narrow

    progress = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":%s}}'
    for word in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(ValidationError):
            ProgressNotification.model_validate_json(progress % word)
        with pytest.raises(MessageError):
            parse_message(progress % word)
        with pytest.raises(MessageError):
            parse_result("tools/call", '{"resultType":"complete","content":[],"structuredContent":{"a":%s}}' % word)
    for number in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValidationError):
            ProgressNotification.model_validate(
                {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": number}}
            )
        result = CallToolResult.model_validate({"resultType": "complete", "content": [], "structuredContent": {"a": [number]}})
        with pytest.raises(NarrowingError):
            narrow(result, dict[str, list[float]])
    text = CallToolResult.model_validate({"resultType": "complete", "content": [{"type": "text", "text": "[1, NaN]"}]})
    with pytest.raises(NarrowingError):
        narrow(text, list[float])
    assert parse_message(progress % "1.5").params.progress == 1.5  # type: ignore[union-attr]
    words = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"NaN or Infinity"}}'
    assert parse_message(words).params.data == "NaN or Infinity"  # type: ignore[union-attr]


def test_smoke_import_refuses_a_package_that_fails_on_first_use() -> None:
    from codegen.emit import smoke
    smoke.check({"__init__.py": "__all__ = []\n"})
    broken = {
        "__init__.py": "from .models import *\nfrom .models import __all__\n",
        "models.py": "from pydantic import BaseModel, Field\n__all__ = ['A']\n\n"
        "class A(BaseModel):\n    a: str = Field(pattern='(?=x)')\n",
    }
    with pytest.raises(CodegenError) as caught:
        smoke.check(broken, revision="r")
    assert caught.value.diagnostics[0].code == "MCG404"
    with pytest.raises(CodegenError):
        smoke.check({"__init__.py": "raise RuntimeError('at import')\n"})
    import sys

    assert not [m for m in sys.modules if m.startswith("_mcp_codegen_smoke_")]


def test_a_tools_package_is_import_checked_even_where_its_spec_models_are_not_importable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tools` imports its spec models (acme._mcp.v2026_07_28 here) that the generator's process cannot
    import: a stand-in for them lets the import check run the tools package all the same, so a package
    that fails at import is MCG404 with nothing written, and one that works is written."""
    import sys

    from codegen import api
    from codegen.emit import smoke
    from codegen.tools import package as tools_package

    listing = tmp_path / "tools.json"
    listing.write_text(
        json.dumps({"tools": [{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}]}),
        encoding="utf-8",
    )
    written = api.generate_tools(tools_file=listing, out=tmp_path / "ok", models_package="acme_nowhere._mcp.v2026_07_28")
    assert written.written is not None and (tmp_path / "ok" / "__init__.py").is_file()
    assert not [m for m in sys.modules if m.split(".")[0] in ("acme_nowhere", "_mcp_codegen_smoke_0")]

    real = tools_package.generate_tools_package

    def broken(*args: Any, **kwargs: Any) -> dict[str, str]:
        files = dict(real(*args, **kwargs))
        files["__init__.py"] += "\nOUTPUTS['t'].validate_python({'x': 1}, strict='yes')  # fails at import\n"
        return files

    monkeypatch.setattr(tools_package, "generate_tools_package", broken)
    with pytest.raises(CodegenError) as caught:
        api.generate_tools(tools_file=listing, out=tmp_path / "bad", models_package="acme_nowhere._mcp.v2026_07_28")
    assert caught.value.diagnostics[0].code == "MCG404"
    assert not (tmp_path / "bad").exists()
    assert "CallToolResult" in smoke.models_standin("a.b")["a/b/__init__.py"]
