"""`mcp-codegen tools`: typed modules for a server's tools, from a tools/list file or a live server."""

from __future__ import annotations

import asyncio
import importlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen import api
from codegen.errors import CodegenError
from codegen.checks.outputschema import check_output

from . import cpu_bound
from .conftest import GENERATED, REPO, SPEC

SERVER = REPO / ".cache" / "npm" / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
EXAMPLE_TOOLS = SPEC / "2026-07-28" / "examples" / "Tool"
REFUSAL_TIMES = 12  # CPU of the work alone, in reference tasks (tests/cpu_bound.py); ~1.5 idle, 5 seen loaded


def _tools_list() -> dict[str, Any]:
    tools = [json.loads(p.read_text()) for p in sorted(EXAMPLE_TOOLS.glob("*.json"))]
    names = [t["name"] for t in tools]
    tools = [t for i, t in enumerate(tools) if t["name"] not in names[:i]]  # the examples reuse names
    tools += [
        {"name": "get-count", "inputSchema": {"type": "object"}, "outputSchema": {"type": "integer"}},
        {"name": "get_count", "inputSchema": {"type": "object"}},  # collides with get-count once PascalCased
        {
            "name": "pick",
            "inputSchema": {
                "type": "object",
                "$defs": {"choice": {"type": "string", "enum": ["a", "b"]}},
                "properties": {"choice": {"$ref": "#/$defs/choice"}, "again": {"$ref": "#again"}},
                "allOf": [{"$anchor": "again", "type": "object"}],
            },
            "outputSchema": {
                "anyOf": [
                    {"type": "object", "properties": {"kind": {"const": "one"}, "n": {"type": "integer"}}, "required": ["kind"]},
                    {"type": "object", "properties": {"kind": {"const": "two"}, "s": {"type": "string"}}, "required": ["kind"]},
                ]
            },
        },
    ]
    return {"tools": tools}


@pytest.fixture(scope="module")
def tools_package(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("tools")
    listing = root / "tools.json"
    listing.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": _tools_list()}))
    api.generate_tools(out=root / "example_tools", tools_file=listing)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("example_tools")
    finally:
        sys.path.remove(str(root))


def test_each_tool_gets_input_and_output_types(tools_package: Any) -> None:
    assert set(tools_package.INPUTS) == {t["name"] for t in _tools_list()["tools"]}
    assert {"GetCountInput", "GetCountVariantAInput", "PickInput", "PickOutput", "ListUsersOutput"} <= set(
        tools_package.__all__
    )
    assert set(tools_package.OUTPUTS) == {t["name"] for t in _tools_list()["tools"] if "outputSchema" in t}


def test_outputs_narrow_to_typed_values(tools_package: Any) -> None:
    from mcp_models.v2026_07_28 import CallToolResult

    def result(value: object) -> CallToolResult:
        return CallToolResult.model_validate({"resultType": "complete", "content": [], "structuredContent": value})

    users = tools_package.list_users_output(result([{"id": "1", "name": "A", "email": "a@x"}]))
    assert users[0].email == "a@x"
    assert tools_package.output("get-count", result(3)) == 3
    one = tools_package.pick_output(result({"kind": "one", "n": 2}))
    assert type(one).__name__ == "PickOutputOne" and one.n == 2
    arguments = tools_package.PickInput.model_validate({"choice": "a"})
    assert arguments.model_dump(mode="json") == {"choice": "a"}


def _type_check(package_root: Path, package: str, user_code: str) -> None:
    user = package_root / "use_tools.py"
    user.write_text(user_code)
    env_paths = f"{GENERATED}:{package_root}"
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(package_root / package), str(user)],
        capture_output=True, text=True, cwd=package_root, env={"MYPYPATH": env_paths, "PATH": ""}, check=False,
    )  # fmt: skip
    assert mypy.returncode == 0, mypy.stdout
    config = package_root / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "extraPaths": [str(GENERATED), str(package_root)]}))
    pyright = subprocess.run(
        [str(Path(sys.executable).parent / "pyright"), "-p", str(config), str(package_root / package), str(user)],
        capture_output=True, text=True, cwd=package_root, check=False,
    )  # fmt: skip
    assert pyright.returncode == 0, pyright.stdout


@pytest.mark.slow
def test_generated_tools_module_type_checks(tools_package: Any) -> None:
    root = Path(tools_package.__file__).parents[1]
    _type_check(
        root,
        "example_tools",
        "from typing_extensions import assert_type\n"
        "from mcp_models.v2026_07_28 import CallToolResult\n"
        "from example_tools import ListUsersOutput, PickInput, PickOutput, list_users_output, output\n\n"
        "def use(result: CallToolResult) -> None:\n"
        "    assert_type(list_users_output(result), ListUsersOutput)\n"
        "    assert_type(output('pick', result), PickOutput)\n"
        "    assert_type(output('get-count', result), int)\n\n"
        "def arguments() -> dict[str, object]:\n"  # a tool's arguments, built by keyword
        "    return PickInput(choice='a').model_dump(mode='json')\n",
    )


@pytest.mark.parametrize(
    ("schema", "code"),
    [
        ({"type": "object", "properties": {"a": {"$ref": "https://evil.example/a.json"}}}, "MCG111"),
        ({"type": "object", "properties": {"a": {"$ref": "file:///etc/passwd"}}}, "MCG111"),
        ({"type": "object", "properties": {"a": {"$ref": "../other.json#/x"}}}, "MCG111"),
        ("deep", "MCG103"),
        ({"type": "object", "anyOf": [{"type": "object"}] * 100_000}, "MCG109"),
    ],
)
def test_hostile_tool_schemas_are_refused_fast(tmp_path: Path, schema: Any, code: str) -> None:
    listing = tmp_path / "tools.json"
    if schema == "deep":  # 10,000 levels: written as text, as no JSON library nests that deep
        text = '{"type": "object", "properties": {"x": ' * 10_000 + "{}" + "}}" * 10_000
        listing.write_text('{"tools": [{"name": "evil", "inputSchema": ' + text + "}]}")
        schema = {"type": "object", "properties": {"x": {}}}
        for _ in range(100):
            schema = {"type": "object", "properties": {"x": schema}}
    else:
        listing.write_text(json.dumps({"tools": [{"name": "evil", "inputSchema": schema}]}))
    def refused(attempt: Callable[[], object]) -> Callable[[], str]:
        def outcome() -> str:
            try:
                attempt()
            except CodegenError as exc:
                return exc.diagnostics[0].code
            return "accepted"

        return outcome

    generated = cpu_bound.measure(refused(lambda: api.generate_tools(out=tmp_path / "out", tools_file=listing)))
    assert generated.value == code, generated.raised
    cpu_bound.assert_within(generated, REFUSAL_TIMES, what="generate_tools")
    assert not (tmp_path / "out").exists()

    checked = cpu_bound.measure(refused(lambda: check_output(schema, {"x": 1})))
    assert checked.value.startswith("MCG"), (checked.value, checked.raised)
    cpu_bound.assert_within(checked, REFUSAL_TIMES, what="check_output")


def test_output_schema_validation_with_local_refs() -> None:
    schema = {
        "type": "object",
        "$defs": {"n": {"type": "integer"}},
        "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"$ref": "#s"}},
        "allOf": [{"$anchor": "s", "type": "object"}],
    }
    assert check_output(schema, {"a": 1}) == []
    assert [p.path for p in check_output(schema, {"a": "1"})] == ["/a"]
    assert check_output({"type": "array", "items": {"type": "string"}}, ["a", 1])[0].path == "/1"


@pytest.mark.slow
def test_live_server_everything(tmp_path: Path) -> None:
    assert SERVER.is_file(), "scripts/setup.sh installs @modelcontextprotocol/server-everything"
    command = ["node", str(SERVER), "stdio"]
    result = api.generate_tools(out=tmp_path / "everything_tools", server=command)
    assert "get-structured-content" in (result.fileset.files["__init__.py"])
    # the same server's tools/list saved to a file gives the very same package
    from codegen.tools import package as tools

    listed, version = tools.list_from_server(command)
    listing = tmp_path / "everything.json"
    listing.write_text(json.dumps({"tools": listed}))
    from_file = api.generate_tools(
        out=tmp_path / "from_file", tools_file=listing, models_package=f"mcp_models.v{version.replace('-', '_')}"
    )
    assert from_file.fileset.files == result.fileset.files
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module("everything_tools")
        from mcp_models.v2025_11_25 import CallToolResult  # the revision the server negotiates

        raw = asyncio.run(_call(command, "get-structured-content", {"location": "Chicago"}))
        weather = package.get_structured_content_output(CallToolResult.model_validate(raw))
        assert isinstance(weather.temperature, int | float) and isinstance(weather.conditions, str)
        summed = asyncio.run(_call(command, "get-sum", {"a": 2, "b": 3}))
        assert CallToolResult.model_validate(summed).content
    finally:
        sys.path.remove(str(tmp_path))
    _type_check(
        tmp_path,
        "everything_tools",
        "from typing_extensions import assert_type\n"
        "from mcp_models.v2025_11_25 import CallToolResult\n"
        "from everything_tools import GetStructuredContentOutput, get_structured_content_output\n\n"
        "def use(result: CallToolResult) -> None:\n"
        "    assert_type(get_structured_content_output(result), GetStructuredContentOutput)\n",
    )


async def _call(command: list[str], tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async with stdio_client(StdioServerParameters(command=command[0], args=command[1:])) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            called = await session.call_tool(tool, arguments)
    dumped: dict[str, Any] = called.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def test_tool_names_cannot_inject_code(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    evil = f"a\" + str(__import__('os').system('touch {marker}')) + \""
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": [
        {"name": evil, "inputSchema": {"type": "object"}, "outputSchema": {"type": "integer"}},
        {"name": "ends-with-backslash\\", "inputSchema": {"type": "object"}},
    ]}))  # fmt: skip
    api.generate_tools(out=tmp_path / "evil_tools", tools_file=listing)
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module("evil_tools")
    finally:
        sys.path.remove(str(tmp_path))
    assert not marker.exists()
    assert set(package.INPUTS) == {evil, "ends-with-backslash\\"}
    duplicate = tmp_path / "dup.json"
    duplicate.write_text(json.dumps({"tools": [{"name": "x", "inputSchema": {"type": "object"}}] * 2}))
    with pytest.raises(CodegenError) as caught:
        api.generate_tools(out=tmp_path / "dup_tools", tools_file=duplicate)
    assert caught.value.diagnostics[0].code == "MCG702"
