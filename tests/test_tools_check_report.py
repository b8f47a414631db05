"""`mcp-codegen tools --check` says per tool what changed on the server and whether existing client
code breaks (the diff's own rules), the source diff only with --verbose; and the typed call helpers
of a tools package (`<tool>_call(**keywords)`, `.params()`, `.read(result)`).

The reference is the committed generated/everything_tools: the reference server's tools, with the
tools/list it was generated from recorded in its tools.json.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import inspect
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from codegen import api

from . import bad_input_support as support
from .conftest import GENERATED, REPO

REFERENCE = GENERATED / "everything_tools"
SERVER = REPO / ".cache" / "npm" / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
MODELS = "mcp_models.v2025_11_25"  # what the reference server negotiates
# CPU of a whole `tools --check` process: startup, generation, the per-tool comparison (both sides'
# models built for the Python axis) and the source diff: about one reference generation idle
CHECK = support.Bound(5, "generation")
LINE_LIMIT = 300
REGENERATE = "`.venv/bin/mcp-codegen tools --from generated/everything_tools/tools.json --out generated/everything_tools --models mcp_models.v2025_11_25`"

# The server changed: get-sum takes a new required argument, echo is gone, get-forecast is new.
THREE_LINES = [
    'tool "echo": removed (breaking: existing calls fail)',
    'tool "get-sum": input schema changed (breaking: existing calls fail): GetSumInput.c: property added (required)',
    'tool "get-forecast": added (compatible)',
]


def _recorded() -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads((REFERENCE / "tools.json").read_text(encoding="utf-8"))["tools"]
    return tools


def _changed() -> list[dict[str, Any]]:
    tools = {tool["name"]: copy.deepcopy(tool) for tool in _recorded()}
    added = tools["get-sum"]["inputSchema"]
    added["properties"]["c"] = {"type": "number", "description": "Third number"}
    added["required"] = [*added["required"], "c"]
    del tools["echo"]
    tools["get-forecast"] = {
        "name": "get-forecast",
        "inputSchema": {"type": "object", "properties": {"days": {"type": "integer", "minimum": 1}}, "required": ["days"]},
        "outputSchema": {
            "type": "object",
            "properties": {"celsius": {"type": "array", "items": {"type": "number"}}},
            "required": ["celsius"],
        },
    }
    return list(tools.values())


def _env(tmp_path: Path) -> dict[str, str]:
    return {**support.cli_env(tmp_path / "cache"), "PYTHONPATH": str(GENERATED)}


def _write_list(path: Path, tools: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


def _assert_bounded_lines(text: str) -> None:
    for line in text.splitlines():
        assert len(line) <= LINE_LIMIT and line.isprintable(), line


@pytest.mark.slow
def test_check_against_the_live_reference_server_is_up_to_date(tmp_path: Path) -> None:
    assert SERVER.is_file(), "scripts/setup.sh installs @modelcontextprotocol/server-everything"
    server = shlex.join(["node", str(SERVER), "stdio"])
    checked = support.run(
        ["tools", "--server", server, "--out", str(REFERENCE), "--models", MODELS, "--check"], env=_env(tmp_path)
    )
    assert checked.returncode == 0, f"{checked.stdout}{checked.stderr}\nregenerate with {REGENERATE} (or --server)"
    assert checked.stdout == f"{REFERENCE}: up to date\n" and checked.stderr == ""
    support.assert_within(checked.cpu_seconds, CHECK, what="tools --check")


def test_a_changed_tools_list_is_said_per_tool_first_and_the_source_diff_only_with_verbose(tmp_path: Path) -> None:
    listing = _write_list(tmp_path / "changed.json", _changed())
    args = ["tools", "--from", str(listing), "--out", str(REFERENCE), "--models", MODELS, "--check"]
    checked = support.run(args, env=_env(tmp_path))
    assert checked.returncode == 1, checked.stderr
    lines = checked.stdout.splitlines()
    assert lines[:3] == THREE_LINES
    assert lines[3:] == ["3 tools changed: 2 breaking, 1 compatible", "the generated source differs in 4 files; --verbose shows the diff"]
    assert not any(line.startswith(("--- ", "+++ ", "@@")) for line in lines)  # no source diff
    drift = checked.stderr.splitlines()
    assert len(drift) == 1 and len(drift[0]) <= LINE_LIMIT and drift[0].startswith(f"drift: {REFERENCE} differs")
    assert "run `mcp-codegen tools --from " in drift[0] and f" --models {MODELS}`" in drift[0]
    support.assert_within(checked.cpu_seconds, CHECK, what="tools --check")

    verbose = support.run([*args, "--verbose"], env=_env(tmp_path))
    assert verbose.returncode == 1
    shown = verbose.stdout.splitlines()
    first_diff = next(i for i, line in enumerate(shown) if line.startswith("--- "))
    tool_lines = [line for line in shown[:first_diff] if line.startswith("tool ")]
    assert tool_lines == THREE_LINES and shown[0] == THREE_LINES[0]
    assert "  breaking      wire   GetSumInput.c: property added (required)" in shown[:first_diff]
    assert "+    GetForecastInput," in shown[first_diff:] and "-    EchoInput," in shown[first_diff:]
    _assert_bounded_lines(checked.stdout + checked.stderr)


def test_the_drift_line_names_the_command_that_regenerates_the_package(tmp_path: Path) -> None:
    shutil.copytree(REFERENCE, tmp_path / "everything_tools", ignore=shutil.ignore_patterns("__pycache__"))
    _write_list(tmp_path / "changed.json", _changed())
    args = ["--from", "changed.json", "--out", "everything_tools", "--models", MODELS]
    env = _env(tmp_path)
    stale = support.run(["tools", *args, "--check"], env=env, cwd=tmp_path)
    assert stale.returncode == 1
    named = re.search(r"run `([^`]+)` to regenerate it$", stale.stderr.strip())
    assert named is not None, stale.stderr
    command = shlex.split(named.group(1))
    assert command == ["mcp-codegen", "tools", *args]  # this run's flags, less --check
    assert support.run(command[1:], env=env, cwd=tmp_path).returncode == 0
    again = support.run(["tools", *args, "--check"], env=env, cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == "everything_tools: up to date\n", again.stdout + again.stderr


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


# (tool before, the same tool after, its line): one per rule of codegen/diff/tools.py
_INTEGER = {"type": "integer"}
RULES: list[tuple[dict[str, Any], dict[str, Any] | None, str]] = [
    (
        {"name": "opt-added", "inputSchema": _object({"a": {"type": "string"}})},
        {"name": "opt-added", "inputSchema": _object({"a": {"type": "string"}, "b": {"type": "string"}})},
        'tool "opt-added": input schema changed (compatible): OptAddedInput.b: property added (optional)',
    ),
    (
        {"name": "enum-cut", "inputSchema": _object({"u": {"enum": ["c", "f", "k"]}}, ("u",))},
        {"name": "enum-cut", "inputSchema": _object({"u": {"enum": ["c", "f"]}}, ("u",))},
        'tool "enum-cut": input schema changed (breaking: existing calls fail): EnumCutInput.u: values removed: "k"',
    ),
    (
        {"name": "widened", "inputSchema": _object({"n": _INTEGER}, ("n",))},
        {"name": "widened", "inputSchema": _object({"n": {"type": "number"}}, ("n",))},
        'tool "widened": input schema changed (compatible): WidenedInput.n: type integer → number (widened)',
    ),
    (
        {"name": "now-optional", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER}, ("x",))},
        {"name": "now-optional", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER})},
        'tool "now-optional": output schema changed (breaking: existing readers fail): NowOptionalOutput.x: required → optional',
    ),
    (  # compatible on the wire (an open object), but the attribute a reader reads is gone
        {"name": "attr-gone", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER, "y": _INTEGER})},
        {"name": "attr-gone", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER})},
        (
            'tool "attr-gone": output schema changed (breaking: existing readers fail): AttrGoneOutput.y: attribute removed; '
            "AttrGoneOutput.y: property removed (was optional)"
        ),
    ),
    (
        {"name": "tightened", "inputSchema": _object({}), "outputSchema": _object({"x": {"type": "number"}}, ("x",))},
        {"name": "tightened", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER}, ("x",))},
        'tool "tightened": output schema changed (compatible): TightenedOutput.x: type number → integer (narrowed)',
    ),
    (
        {"name": "out-gone", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER})},
        {"name": "out-gone", "inputSchema": _object({})},
        'tool "out-gone": output schema removed (breaking: existing readers fail)',
    ),
    (
        {"name": "out-new", "inputSchema": _object({})},
        {"name": "out-new", "inputSchema": _object({}), "outputSchema": _object({"x": _INTEGER})},
        'tool "out-new": output schema added (compatible): OutNewOutput: class added',
    ),
    (
        {"name": "described", "inputSchema": _object({"n": {**_INTEGER, "description": "before"}})},
        {"name": "described", "inputSchema": _object({"n": {**_INTEGER, "description": "after"}})},
        'tool "described": input schema changed (compatible): DescribedInput.n: description changed',
    ),
    (  # unchanged itself, but a new tool named alike takes its class names: its users' code breaks
        {"name": "get-count", "inputSchema": _object({"n": _INTEGER}), "outputSchema": _INTEGER},
        None,
        (
            'tool "get-count": classes renamed (breaking: existing calls and readers fail): '
            "GetCountVariantAInput: renamed from GetCountInput; GetCountVariantAOutput: renamed from GetCountOutput"
        ),
    ),
]


def test_each_rule_gives_its_verdict_from_the_clients_side(tmp_path: Path) -> None:
    before = [rule[0] for rule in RULES]
    after = [rule[1] or rule[0] for rule in RULES] + [{"name": "GetCount", "inputSchema": _object({})}]
    listing = _write_list(tmp_path / "before.json", before)
    api.generate_tools(out=tmp_path / "rules_tools", tools_file=listing, models_package=MODELS)
    result = api.generate_tools(
        out=tmp_path / "rules_tools", tools_file=_write_list(tmp_path / "after.json", after), models_package=MODELS, check=True
    )
    assert result.tools is not None
    lines = result.tools.lines()
    expected = [line for _, _, line in RULES] + ['tool "GetCount": added (compatible)']
    assert sorted(lines[:-1]) == sorted(expected)
    breaking = [line for line in expected if "(breaking" in line]
    assert lines[: len(breaking)] == sorted(breaking)  # breaking first, then by name
    assert lines[-1] == f"{len(expected)} tools changed: {len(breaking)} breaking, {len(expected) - len(breaking)} compatible"
    as_json = json.loads(json.dumps(result.as_json()))["tools"]
    assert {c["tool"]: c["breaks"] for c in as_json["changes"]}["get-count"] == ["calls", "readers"]


def test_names_from_the_server_cannot_forge_lines_or_code(tmp_path: Path) -> None:
    marker = tmp_path / "RAN"
    forged = 'x": removed (breaking)\n\x1b[2Jtool "y": added (compatible)\u202e'
    code = f'z""" + str(__import__("os").system("touch {marker}")) + """'  # would end a docstring
    long = "L" * 10_000
    before = [{"name": name, "inputSchema": _object({})} for name in (forged, code, long)]
    listing = _write_list(tmp_path / "before.json", before)
    out = tmp_path / "hostile_tools"
    api.generate_tools(out=out, tools_file=listing, models_package=MODELS)
    with _imported(tmp_path, "hostile_tools") as package:
        for export in package.__all__:  # every helper run: its docstring is where the name would break out
            helper = getattr(package, export)
            if export.endswith("_params"):
                helper(getattr(package, inspect.signature(helper).parameters["arguments"].annotation)())
            elif export.endswith("_call"):
                helper()
    assert not marker.exists()  # the docstrings held the name as text

    after = [{"name": name, "inputSchema": _object({"q": {"type": "string"}}, ("q",))} for name in (forged, code)]
    result = api.generate_tools(out=out, tools_file=_write_list(tmp_path / "after.json", after), models_package=MODELS, check=True)
    assert result.tools is not None
    lines = result.tools.lines()
    assert len(lines) == 4 and all(len(line) <= LINE_LIMIT and line.isprintable() for line in lines)
    assert lines[0] == 'tool "' + "L" * 79 + '…": removed (breaking: existing calls fail)'
    assert lines[1].startswith('tool "x\\": removed (breaking)\\n\\u001b[2Jtool \\"y\\": added (compatible)\\u202e": input schema')


@pytest.mark.parametrize("damage", ["missing", "link", "garbage"])
def test_a_package_without_a_readable_record_still_drifts_and_says_why(tmp_path: Path, damage: str) -> None:
    out = tmp_path / "old_tools"
    shutil.copytree(REFERENCE, out, ignore=shutil.ignore_patterns("__pycache__"))
    record = out / "tools.json"
    record.unlink()
    if damage == "link":
        record.symlink_to(REFERENCE / "tools.json")
    elif damage == "garbage":
        record.write_text('{"tools": 3}')
    result = api.generate_tools(out=out, tools_file=_write_list(tmp_path / "changed.json", _changed()), models_package=MODELS, check=True)
    assert result.drift and result.tools is not None and not result.tools.changes
    (line,) = result.tools.lines()
    reason = {
        "missing": "the package has no tools.json (generated by an older mcp-codegen)",
        "link": "its tools.json is not a regular file, it is a symbolic link",
        "garbage": "its tools.json is not a tools list this run can read: no `tools` list found",
    }[damage]
    assert line.startswith(f"tools: changes per tool unknown: {reason}"), line


def test_a_call_is_built_by_keyword_and_its_output_read_typed() -> None:
    import everything_tools as tools
    from mcp_models.v2025_11_25 import CallToolRequest, CallToolResult

    call = tools.get_sum_call(a=2, b=3.5)
    assert call.arguments == tools.GetSumInput(a=2, b=3.5)
    request = CallToolRequest(id=7, params=call.params())
    assert json.loads(request.model_dump_json()) == {
        "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get-sum", "arguments": {"a": 2, "b": 3.5}}
    }  # fmt: skip
    message = tools.get_annotated_message_call(message_type="error", include_image=False).params()
    assert message.arguments == {"messageType": "error", "includeImage": False}  # wire names, keywords by attribute
    with pytest.raises(ValidationError):
        tools.get_sum_call(a="2", b=3)  # type: ignore[arg-type]  # strict, as the class is
    weather = tools.get_structured_content_call(location="Chicago")
    answer = {"content": [], "structuredContent": {"temperature": 21.5, "conditions": "Sunny", "humidity": 40}}
    read = weather.read(CallToolResult.model_validate(answer))
    assert isinstance(read, tools.GetStructuredContentOutput) and read.conditions == "Sunny"
    assert not hasattr(call, "read")


def test_a_revision_that_requires_meta_takes_it_through_params(tmp_path: Path) -> None:
    from mcp_models.v2026_07_28 import ClientCapabilities, RequestMetaObject

    listing = _write_list(tmp_path / "tools.json", _recorded())
    api.generate_tools(out=tmp_path / "newer_tools", tools_file=listing, models_package="mcp_models.v2026_07_28")
    with _imported(tmp_path, "newer_tools") as tools:
        call = tools.get_sum_call(a=1, b=2)
        with pytest.raises(ValidationError, match="_meta"):
            call.params()  # 2026-07-28: every request says its protocol version and capabilities
        meta = RequestMetaObject(
            io_modelcontextprotocol_protocol_version="2026-07-28", io_modelcontextprotocol_client_capabilities=ClientCapabilities()
        )
        assert call.params(meta=meta).model_dump(mode="json")["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"


@contextmanager
def _imported(root: Path, name: str) -> Iterator[Any]:
    """The package `name` under root, imported for the block."""
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(root))


@pytest.mark.slow
def test_the_typed_helpers_call_the_live_server() -> None:
    import everything_tools as tools
    from mcp_models.v2025_11_25 import CallToolResult

    weather = tools.get_structured_content_call(location="Chicago")
    raw = asyncio.run(_call_live(weather.params().model_dump(mode="json", by_alias=True)))
    read = weather.read(CallToolResult.model_validate(raw))
    assert isinstance(read.temperature, int | float) and isinstance(read.conditions, str)
    summed = asyncio.run(_call_live(tools.get_sum_call(a=2, b=3).params().model_dump(mode="json")))
    assert "5" in json.dumps(summed["content"])


async def _call_live(params: dict[str, Any]) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    server = StdioServerParameters(command="node", args=[str(SERVER), "stdio"])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        called = await session.call_tool(params["name"], params.get("arguments"))
    dumped: dict[str, Any] = called.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


# Each marked line must fail under both checkers; no other line may.
TYPED_OK = """\
from typing_extensions import assert_type

from mcp_models.v2025_11_25 import CallToolRequest, CallToolRequestParams, CallToolResult
from changed_tools import (
    FindResourceInput, FindResourceInputWithId, GetForecastInput, GetForecastOutput, GetStructuredContentInput,
    GetStructuredContentOutput, GetSumInput, ToolCall, ToolCallWithOutput,
    find_resource_call, get_forecast_call, get_structured_content_call, get_sum_call,
)


def calls(result: CallToolResult) -> None:
    total = get_sum_call(a=1, b=2.5, c=3)
    assert_type(total, ToolCall[GetSumInput])
    assert_type(total.arguments, GetSumInput)
    assert_type(total.params(), CallToolRequestParams)
    CallToolRequest(id=7, params=total.params())
    forecast = get_forecast_call(days=3)
    assert_type(forecast, ToolCallWithOutput[GetForecastInput, GetForecastOutput])
    assert_type(forecast.read(result), GetForecastOutput)
    weather = get_structured_content_call(location="Chicago")
    assert_type(weather.read(result), GetStructuredContentOutput)
    assert_type(weather.arguments, GetStructuredContentInput)
    found = find_resource_call(FindResourceInputWithId(id="r1"))
    assert_type(found, ToolCall[FindResourceInput])
"""
TYPED_MISUSE = """\
from mcp_models.v2025_11_25 import CallToolResult
from changed_tools import GetForecastOutput, find_resource_call, get_forecast_call, get_structured_content_call, get_sum_call


def wrong_keywords() -> None:
    get_sum_call(a=1, b=2, c=3, d=4)  # expect-error
    get_forecast_call(day=3)  # expect-error
    find_resource_call(id="r1")  # expect-error


def wrong_types() -> None:
    get_sum_call(a="1", b=2, c=3)  # expect-error
    get_structured_content_call(location="Paris")  # expect-error


def reading_the_wrong_tool(result: CallToolResult) -> GetForecastOutput:
    get_sum_call(a=1, b=2, c=3).read(result)  # expect-error
    return get_structured_content_call(location="Chicago").read(result)  # expect-error
"""


@pytest.fixture(scope="module")
def changed_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The changed tools (two with an outputSchema) and a tool whose input is a composition."""
    root = tmp_path_factory.mktemp("typed")
    composition = {
        "name": "find-resource",
        "inputSchema": {
            "type": "object",
            "oneOf": [_object({"id": {"type": "string"}}, ("id",)), _object({"name": {"type": "string"}}, ("name",))],
        },
    }
    listing = _write_list(root / "changed.json", [*_changed(), composition])
    api.generate_tools(out=root / "changed_tools", tools_file=listing, models_package=MODELS)
    return root


@pytest.mark.slow
def test_the_call_helpers_type_check_and_their_misuse_fails_under_both_checkers(changed_package: Path) -> None:
    _assert_typing(changed_package, "changed_tools", TYPED_OK, TYPED_MISUSE)


# 2026-07-28 requires `_meta` on every request: `.params()` without it is a type error, not only a
# ValidationError when it runs (issue 35, point 7); keywords the revision does not have are too.
META_OK = """\
from typing_extensions import assert_type

from mcp_models.v2026_07_28 import ClientCapabilities, CallToolRequest, CallToolRequestParams, RequestMetaObject
from newer_tools import GetSumInput, get_sum_call, get_sum_params

META = RequestMetaObject(
    io_modelcontextprotocol_protocol_version="2026-07-28",
    io_modelcontextprotocol_client_capabilities=ClientCapabilities(),
)


def calls() -> None:
    assert_type(get_sum_call(a=1, b=2).params(meta=META), CallToolRequestParams)
    CallToolRequest(id=7, params=get_sum_call(a=2, b=3).params(meta=META, request_state="s1"))
    get_sum_params(GetSumInput(a=1, b=2), meta=META)
"""
META_MISUSE = """\
from mcp_models.v2026_07_28 import ClientCapabilities, RequestMetaObject
from newer_tools import GetSumInput, get_sum_call, get_sum_params

META = RequestMetaObject(
    io_modelcontextprotocol_protocol_version="2026-07-28",
    io_modelcontextprotocol_client_capabilities=ClientCapabilities(),
)


def calls() -> None:
    get_sum_call(a=1, b=2).params()  # expect-error
    get_sum_call(a=1, b=2).params(meta={"progressToken": 1})  # expect-error
    get_sum_call(a=1, b=2).params(meta=META, task={"ttl": 5})  # expect-error
    get_sum_params(GetSumInput(a=1, b=2))  # expect-error
"""


@pytest.mark.slow
def test_params_take_the_revisions_keywords_typed_under_both_checkers(tmp_path: Path) -> None:
    listing = _write_list(tmp_path / "tools.json", _recorded())
    api.generate_tools(out=tmp_path / "newer_tools", tools_file=listing, models_package="mcp_models.v2026_07_28")
    _assert_typing(tmp_path, "newer_tools", META_OK, META_MISUSE)


def _assert_typing(root: Path, package: str, must_pass: str, misuse: str) -> None:
    """must_pass has no error under mypy --strict and pyright strict; in misuse, exactly the lines
    marked `# expect-error` have one, under both."""
    ok, wrong = root / "typed_ok.py", root / "typed_misuse.py"
    ok.write_text(must_pass)
    wrong.write_text(misuse)
    expected = {n for n, line in enumerate(misuse.splitlines(), 1) if "# expect-error" in line}
    files = [str(root / package), str(ok), str(wrong)]
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *files],
        capture_output=True, text=True, cwd=root, check=False,
        env={**os.environ, "MYPYPATH": f"{GENERATED}{os.pathsep}{root}"},
    )  # fmt: skip
    modules = len(list((root / package).rglob("*.py")))
    checked = re.search(r"\(checked (\d+) source files\)", mypy.stdout)
    assert checked is not None and int(checked.group(1)) == modules + 2, mypy.stdout
    assert _lines(mypy.stdout, r"typed_ok\.py:(\d+): error") == set(), mypy.stdout
    assert _lines(mypy.stdout, r"typed_misuse\.py:(\d+): error") == expected, mypy.stdout
    config = root / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "extraPaths": [str(GENERATED), str(root)]}))
    pyright = subprocess.run(
        [str(Path(sys.executable).parent / "pyright"), "-p", str(config), "--outputjson", *files],
        capture_output=True, text=True, cwd=root, check=False,
    )  # fmt: skip
    report = json.loads(pyright.stdout)
    errors: dict[str, set[int]] = {}
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            errors.setdefault(Path(diagnostic["file"]).name, set()).add(diagnostic["range"]["start"]["line"] + 1)
    assert report["summary"]["filesAnalyzed"] >= 3
    assert errors.get("typed_ok.py", set()) == set() and errors.get("__init__.py", set()) == set(), errors
    assert errors.get("typed_misuse.py") == expected, errors


def _lines(output: str, pattern: str) -> set[int]:
    return {int(found.group(1)) for found in re.finditer(pattern, output)}
