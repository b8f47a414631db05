"""Inside a real team's project (issue 35): one revision vendored into a monorepo package, configured
only in that package's pyproject.toml, with the team's own ruff (line length 100, E/W/I/UP/F),
mypy --strict and pyright strict over the team's own code, a partner's tools, and a CI gate on
the draft. The project is the unit of truth: every promise is checked there, run from the project
folder and from the monorepo root with --config.

The project is built once per run (suite.shared_tree) and copied by the tests that write to it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import bad_input_support as support
from . import suite
from .conftest import GENERATED

BIN = Path(sys.executable).parent
PROJECT = Path("packages") / "acme-platform"  # the package's folder in the monorepo
PYPROJECT = """\
[project]
name = "acme-platform"
version = "0.1.0"

[tool.ruff]
line-length = 100
src = ["src"]

[tool.ruff.lint]
select = ["E", "W", "I", "UP", "F"]

[tool.mypy]
strict = true
mypy_path = "src"
files = ["src/acme_platform/server.py", "src/acme_platform/client.py", "src/acme_platform/partner_calls.py"]

[tool.pyright]
typeCheckingMode = "strict"
include = ["src/acme_platform/server.py", "src/acme_platform/client.py", "src/acme_platform/partner_calls.py"]
extraPaths = ["src"]

[tool.mcp-codegen]
revisions = ["2026-07-28"]
out = "src/acme_platform/mcp"
package = "acme_platform.mcp"
{extra}
[tool.mcp-codegen.tools.partner]
from = "partner-tools.json"
out = "src/acme_platform/partner"
models = "acme_platform.mcp.v2026_07_28"
"""

SERVER = '''\
"""A small server built only on the vendored models."""

from pydantic_core import MISSING

from acme_platform.mcp.v2026_07_28 import (
    CallToolRequest,
    CallToolResult,
    CallToolResultResponse,
    ListToolsResult,
    TextContent,
    Tool,
    ToolInputSchema,
    parse_message,
)


def tools() -> ListToolsResult:
    # a schema with properties is read, as the schema types it: open, any keys
    schema = ToolInputSchema.model_validate(
        {"type": "object", "properties": {"days": {"type": "integer"}}, "required": ["days"]}
    )
    forecast = Tool(name="forecast", input_schema=schema, description="The weather, by hour.")
    return ListToolsResult(tools=[forecast], cache_scope="public", result_type="complete", ttl_ms=0)


def answer(raw: bytes) -> bytes:
    message = parse_message(raw)
    if not isinstance(message, CallToolRequest):
        raise ValueError("only tools/call is served here")
    arguments = message.params.arguments  # absent is MISSING
    days = arguments.get("days", 1) if arguments is not MISSING else 1
    result = CallToolResult(
        content=[TextContent(text=f"sunny for {days} days")],
        structured_content=[{"hour": 9, "celsius": 14.5}],
        result_type="complete",
    )
    return CallToolResultResponse(id=message.id, result=result).model_dump_json().encode()


def error_code(raw: bytes) -> int | None:
    """The JSON-RPC code to answer a body with: the error says it (-32700 not JSON, -32600 JSON
    but no message), the body is decoded once."""
    from acme_platform.mcp.v2026_07_28 import MessageError

    try:
        parse_message(raw)
    except MessageError as exc:
        return exc.code
    return None
'''

CLIENT = '''\
"""A client module: builds requests with the `meta` 2026-07-28 requires, reads what comes back."""

from pydantic import BaseModel

from acme_platform.mcp.v2026_07_28 import (
    CallToolRequest,
    CallToolRequestParams,
    CallToolResult,
    CallToolResultResponse,
    ClientCapabilities,
    JSONRPCErrorResponse,
    RequestMetaObject,
    parse_message,
    parse_result,
)
from acme_platform.mcp.v2026_07_28.narrowing import narrow


class Hour(BaseModel):
    hour: int
    celsius: float


def request(request_id: int, days: int) -> CallToolRequest:
    meta = RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=ClientCapabilities(),
    )
    params = CallToolRequestParams(name="forecast", arguments={"days": days}, meta=meta)
    return CallToolRequest(id=request_id, params=params)


def outcome(raw: bytes, request_id: int) -> str:
    message = parse_message(raw, pending={request_id: "tools/call"})
    if isinstance(message, CallToolResultResponse):
        return type(message.result).__name__
    if isinstance(message, JSONRPCErrorResponse):
        return message.error.message
    return "not a response to the call"


def hours(body: bytes) -> list[Hour]:
    result = parse_result("tools/call", body)
    if isinstance(result, CallToolResult):
        return narrow(result, list[Hour])
    return []
'''

PARTNER_CALLS = '''\
"""Typed calls of the partner's tools: 2026-07-28 requires `meta` on every request, and
`.params(...)` takes it typed."""

from acme_platform.mcp.v2026_07_28 import (
    CallToolRequest,
    ClientCapabilities,
    RequestMetaObject,
)
from acme_platform.partner import get_sum_call

META = RequestMetaObject(
    io_modelcontextprotocol_protocol_version="2026-07-28",
    io_modelcontextprotocol_client_capabilities=ClientCapabilities(),
)


def add(a: float, b: float) -> str:
    return get_sum_call(a=a, b=b).name


def add_request(request_id: int, a: float, b: float) -> CallToolRequest:
    return CallToolRequest(id=request_id, params=get_sum_call(a=a, b=b).params(meta=META))
'''


def _env(folder: Path) -> dict[str, str]:
    return support.cli_env(folder / ".mcg-cache")


def _write_project(root: Path, extra: str = "") -> Path:
    """The monorepo root's package folder, with the team's files (not the generated ones)."""
    project = root / PROJECT
    (project / "src" / "acme_platform").mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT.format(extra=extra), encoding="utf-8")
    package = project / "src" / "acme_platform"
    (package / "__init__.py").write_text('"""Acme\'s platform."""\n', encoding="utf-8")
    (package / "server.py").write_text(SERVER, encoding="utf-8")
    (package / "client.py").write_text(CLIENT, encoding="utf-8")
    (package / "partner_calls.py").write_text(PARTNER_CALLS, encoding="utf-8")
    shutil.copy(GENERATED / "everything_tools" / "tools.json", project / "partner-tools.json")
    return project


def _vendor(root: Path) -> None:
    """Generate from the monorepo root, naming the package's pyproject with --config."""
    config = str(PROJECT / "pyproject.toml")
    made = support.run(["generate", "-q", "--config", config], env=_env(root), cwd=root)
    assert made.returncode == 0, made.stderr
    tools = support.run(["tools", "-q", "--config", config], env=_env(root), cwd=root)  # its configured entries
    assert tools.returncode == 0, tools.stderr


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def build(folder: Path) -> None:
        _write_project(folder)
        _vendor(folder)

    return suite.shared_tree(tmp_path_factory, "team-project", [], build)


@pytest.fixture
def ours(monorepo: Path, tmp_path: Path) -> Path:
    """A copy of the monorepo to write into."""
    copy = tmp_path / "monorepo"
    shutil.copytree(monorepo, copy, ignore=shutil.ignore_patterns(".mcg-cache"))
    return copy


def _tool(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One of the team's tools (ruff, mypy, pyright) run in the project folder, with its config."""
    return subprocess.run([str(BIN / args[0]), *args[1:]], cwd=project, capture_output=True, text=True, check=False)


def test_out_is_relative_to_the_pyproject_that_declares_it(monorepo: Path) -> None:
    vendored = monorepo / PROJECT / "src" / "acme_platform" / "mcp"
    assert (vendored / "v2026_07_28" / "models.py").is_file()
    assert sorted(p.name for p in monorepo.iterdir()) == [".mcg-cache", "packages"]  # nothing stray at the root
    for cwd, config in ((monorepo, str(PROJECT / "pyproject.toml")), (monorepo / PROJECT, "pyproject.toml")):
        checked = support.run(["check", "--config", config], env=_env(monorepo), cwd=cwd)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_projects_ruff_finds_nothing_and_changes_nothing(ours: Path) -> None:
    project = ours / PROJECT
    lint = _tool(project, "ruff", "check", "--output-format", "concise", ".")
    assert lint.returncode == 0, lint.stdout[-3000:]
    formatted = _tool(project, "ruff", "format", "--check", ".")
    assert formatted.returncode == 0, formatted.stdout[-3000:]
    before = support.tree_digest(project / "src")
    fixed = _tool(project, "ruff", "check", "--fix", ".")
    assert fixed.returncode == 0 and support.tree_digest(project / "src") == before  # a fixed point
    config = str(PROJECT / "pyproject.toml")
    assert support.run(["check", "--config", config], env=_env(ours), cwd=ours).returncode == 0
    partner = support.run(["tools", "--config", config, "--check"], env=_env(ours), cwd=ours)
    assert partner.returncode == 0, partner.stdout + partner.stderr


@pytest.mark.parametrize("formatter", ["black", "ruff"])
def test_no_line_passes_the_projects_line_length_under_either_formatter(formatter: str, tmp_path: Path) -> None:
    """The figures of issue 35: E501 hits at line-length 100 and files `ruff format --check`
    would change, over the whole generated output (models, runtime, tests, the partner's tools)."""
    project = _write_project(tmp_path, extra=f'formatter = "{formatter}"\n')
    _vendor(tmp_path)
    long_lines = _tool(project, "ruff", "check", "--select", "E501", "--output-format", "concise", ".")
    assert long_lines.returncode == 0, long_lines.stdout[-2000:]
    assert _tool(project, "ruff", "format", "--check", ".").returncode == 0


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_the_teams_own_code_type_checks_strictly(checker: str, monorepo: Path) -> None:
    """Building requests with `meta`, reading results with parse_result and narrow, isinstance on
    responses, typed partner calls: 0 errors under the project's own strict configuration."""
    project = monorepo / PROJECT
    done = _tool(project, checker) if checker == "mypy" else _tool(project, "pyright")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
    said = done.stdout
    assert ("Success: no issues found in 3 source files" in said) if checker == "mypy" else ("0 errors" in said), said


def test_the_teams_server_and_client_work_on_the_wire(monorepo: Path) -> None:
    probe = (
        "from acme_platform import client, server\n"
        "raw = client.request(7, days=3).model_dump_json().encode()\n"
        "reply = server.answer(raw)\n"
        "print(client.outcome(reply, 7))\n"
        "import json\n"
        "print(client.hours(json.dumps(json.loads(reply)['result']).encode())[0].celsius)\n"
        "print(server.tools().model_dump_json(exclude_none=True)[:40])\n"
        "print(server.error_code(b'{\"jsonrpc\": '), server.error_code(b'[]'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=monorepo / PROJECT / "src", capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[:2] == ["CallToolResult", "14.5"] and lines[3] == "-32700 -32600", lines


def test_check_stays_green_after_the_package_was_imported(ours: Path) -> None:
    """The team's tests import the package: Python writes __pycache__ from the checked sources."""
    src = ours / PROJECT / "src"
    env = {"PATH": "/usr/bin:/bin"}
    subprocess.run(
        [sys.executable, "-c", "import acme_platform.mcp.v2026_07_28, acme_platform.partner"], cwd=src, env=env, check=True
    )
    assert any((src / "acme_platform" / "mcp").rglob("*.pyc"))
    checked = support.run(["check", "--config", str(PROJECT / "pyproject.toml")], env=_env(ours), cwd=ours)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr


def test_diff_follows_the_projects_pins_and_gates_one_side(ours: Path) -> None:
    """After `spec bump draft` (a draft where ListToolsResult.etag is required), `diff` reads the
    project's pinned draft: the gate fails, the report lists exactly that change, the same by label
    and by path; the server's gate fails, the client's does not."""
    project = ours / PROJECT
    pyproject = project / "pyproject.toml"
    settings = pyproject.read_text(encoding="utf-8").replace("\n[tool.mcp-codegen.tools.", 'pins = "mcp-spec/pins.toml"\n\n[tool.mcp-codegen.tools.', 1)
    pyproject.write_text(settings, encoding="utf-8")
    mirror = ours / "mirror" / "draft"
    mirror.mkdir(parents=True)
    draft = json.loads((suite.SPEC / "draft" / "schema.json").read_text(encoding="utf-8"))
    listed = draft["$defs"]["ListToolsResult"]
    listed["properties"]["etag"] = {"type": "string", "description": "An opaque version of the list."}
    listed["required"] = sorted([*listed["required"], "etag"])
    (mirror / "schema.json").write_text(json.dumps(draft, indent=2), encoding="utf-8")
    config = str(PROJECT / "pyproject.toml")
    env = _env(ours)
    bumped = support.run(
        ["spec", "bump", "draft", "--commit", "0" * 40, "--spec-source", str(ours / "mirror"), "--config", config],
        env=env,
        cwd=ours,
    )
    assert bumped.returncode == 0, bumped.stderr
    by_label = support.run(["diff", "2026-07-28", "draft", "--fail-on", "breaking", "--config", config, "--json"], env=env, cwd=ours)
    assert by_label.returncode == 1, by_label.stderr
    report = json.loads(by_label.stdout)
    wire = [(c["subject"], c["path"], c["severity"]) for c in report["changes"]]
    assert wire == [("ListToolsResult", ["etag"], "breaking")], wire
    assert [(c["subject"], c["path"]) for c in report["python_api"]] == [("ListToolsResult", ["etag"])]
    pinned_file = str(PROJECT / "mcp-spec" / "draft" / "schema.json")
    by_path = support.run(["diff", "2026-07-28", pinned_file, "--fail-on", "breaking", "--config", config, "--json"], env=env, cwd=ours)
    assert by_path.returncode == 1 and json.loads(by_path.stdout) == report
    server = support.run(["diff", "2026-07-28", "draft", "--fail-on", "breaking-server", "--config", config], env=env, cwd=ours)
    client = support.run(["diff", "2026-07-28", "draft", "--fail-on", "breaking-client", "--config", config], env=env, cwd=ours)
    assert (server.returncode, client.returncode) == (1, 0), (server.stderr, client.stderr)
    # from the project folder, its own pyproject.toml: the same
    here = support.run(["diff", "2026-07-28", "draft", "--fail-on", "breaking", "--json"], env=env, cwd=project)
    assert here.returncode == 1 and json.loads(here.stdout) == report


def test_tools_run_bare_and_check_reports_a_new_description(ours: Path) -> None:
    """The partner's entry in [tool.mcp-codegen.tools]: `tools` and `tools --check` need no flags,
    from the project folder or from the root with --config; a tool whose description alone changed
    (the prompt the model reads) is drift, said per tool."""
    project = ours / PROJECT
    env = _env(ours)
    assert support.run(["tools", "--check"], env=env, cwd=project).returncode == 0
    listing = project / "partner-tools.json"
    tools = json.loads(listing.read_text(encoding="utf-8"))
    echo = next(tool for tool in tools["tools"] if tool["name"] == "echo")
    echo["description"] = "Echoes the message back, shouting"
    listing.write_text(json.dumps(tools), encoding="utf-8")
    for cwd, flags in ((project, []), (ours, ["--config", str(PROJECT / "pyproject.toml")])):
        checked = support.run(["tools", "partner", "--check", *flags], env=env, cwd=cwd)
        assert checked.returncode == 1, checked.stdout + checked.stderr
        first = checked.stdout.splitlines()[0]
        assert first == 'tool "echo": description changed (compatible): description now "Echoes the message back, shouting"', first
        assert "`mcp-codegen tools partner" in checked.stderr
    unknown = support.run(["tools", "partners"], env=env, cwd=project)
    assert unknown.returncode == 2 and "no tools entry named 'partners'" in unknown.stderr and "partner" in unknown.stderr
    assert support.run(["tools", "-q"], env=env, cwd=project).returncode == 0
    assert support.run(["tools", "--check"], env=env, cwd=project).returncode == 0


def test_a_project_pinned_draft_keeps_its_round_trip_tests(ours: Path) -> None:
    """`spec bump draft` from a mirror keeps the examples of the pinned commit beside its schema;
    the draft generated from the project's pin has its round-trip tests, reading those examples,
    and they pass."""
    project = ours / PROJECT
    pyproject = project / "pyproject.toml"
    settings = pyproject.read_text(encoding="utf-8").replace("\n[tool.mcp-codegen.tools.", 'pins = "mcp-spec/pins.toml"\n\n[tool.mcp-codegen.tools.', 1)
    pyproject.write_text(settings, encoding="utf-8")
    mirror = ours / "mirror" / "draft"
    shutil.copytree(suite.SPEC / "draft" / "examples", mirror / "examples")
    shutil.copy(suite.SPEC / "draft" / "schema.json", mirror / "schema.json")
    shipped = sorted(p.relative_to(mirror) for p in (mirror / "examples").glob("*/*.json"))
    env = _env(ours)
    config = str(PROJECT / "pyproject.toml")
    bumped = support.run(
        ["spec", "bump", "draft", "--commit", "1" * 40, "--spec-source", str(ours / "mirror"), "--config", config],
        env=env,
        cwd=ours,
    )
    assert bumped.returncode == 0, bumped.stderr
    assert f"examples: {len(shipped)} kept beside it" in bumped.stdout, bumped.stdout
    pinned = project / "mcp-spec" / "draft"
    assert sorted(p.relative_to(pinned) for p in (pinned / "examples").glob("*/*.json")) == shipped
    assert "examples = true" in (project / "mcp-spec" / "pins.toml").read_text(encoding="utf-8")
    made = support.run(["generate", "-q", "--config", config, "-r", "draft", "--out", "scratch/acme_platform/mcp"], env=env, cwd=ours)
    assert made.returncode == 0, made.stderr
    draft = ours / "scratch" / "acme_platform" / "mcp" / "draft"
    assert (draft / "tests" / "test_spec_examples.py").is_file()
    # the tests read the pinned examples (not the shipped data), wherever they run from
    probe = "from acme_platform.mcp.draft import _examples\nprint(_examples.sources()[0].resolve())\n"
    where = subprocess.run(
        [sys.executable, "-c", probe], cwd=ours / "scratch", capture_output=True, text=True, check=False,
        env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert where.returncode == 0, where.stderr[-2000:]
    assert Path(where.stdout.strip()) == (project / "mcp-spec").resolve()
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", str(draft / "tests")],
        cwd=ours / "scratch", capture_output=True, text=True, check=False, env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout[-3000:]
    passed = int(tests.stdout.strip().splitlines()[-1].split(" passed")[0].split()[-1])
    assert passed >= len(shipped), tests.stdout[-500:]
