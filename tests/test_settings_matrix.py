"""Every documented setting is a first-class path (issue 26): for each setting of
docs/configuration.md, alone and in the README's SDK combination, a project generates, imports,
passes its own generated tests, narrows, builds forms and messages by keyword, and type-checks
under mypy --strict and pyright strict (the package and code using it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from . import bad_input_support as support
from .conftest import REPO

VENV_BIN = Path(sys.executable).parent
REVISIONS = '["2025-11-25", "2026-07-28"]'
ERRATA = {
    "errata": [
        {
            "id": "project-tool-description",
            "reason": "a project's own erratum: Tool's name is a non-empty string (every revision generated has it)",
            "upstream": "this project",
            "patch": [
                {"op": "test", "path": "/$defs/Tool/properties/name/type", "value": "string"},
                {"op": "add", "path": "/$defs/Tool/properties/name/minLength", "value": 1},
            ],
        }
    ]
}

MATRIX: dict[str, str] = {
    "defaults": "",
    "field_naming_wire": 'field-naming = "wire"\n',
    "extra_keys_ignore": 'extra-keys = "ignore"\n',
    "extra_keys_sieve": 'extra-keys = "sieve"\nopen-definitions = ["RequestMetaObject", "#/$defs/Tool/properties/inputSchema"]\n',
    "inbound_lenient": 'inbound = "lenient"\n',
    "formatter_ruff": 'formatter = "ruff"\n',
    "pydantic_config": "pydantic-config = { frozen = true, str_max_length = 100000 }\n",
    "errata": 'errata = ["errata.json"]\n',
    "readme_sdk_wire": (
        'formatter = "ruff"\nextra-keys = "sieve"\nopen-definitions = ["RequestMetaObject"]\n'
        'inbound = "lenient"\nerrata = ["errata.json"]\nfield-naming = "wire"\n'
    ),
}


def _readme_sdk_settings() -> str:
    """The README's "Replacing an SDK's generator" configuration as written (its revisions, 2025-06-18
    among them, its errata and pins files), but `out` and `package`, which the test names."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Replacing an SDK's generator", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    kept = [line for line in block.splitlines()[1:] if not line.startswith(("out ", "package "))]
    return "\n".join(kept) + "\n"


README_SDK = "readme_sdk"
MATRIX[README_SDK] = _readme_sdk_settings()

USAGE = """\
import json

from pydantic import BaseModel, Field

from {package}.v2026_07_28 import (
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientCapabilities, RequestMetaObject,
    TextContent, parse_message, parse_result,
)
from {package}.v2026_07_28.forms import requested_schema
from {package}.v2026_07_28.narrowing import narrow
from {package}.v2025_11_25.forms import Accepted, elicit_request, read_answer
from {package}.v2025_11_25 import ElicitResult


class Point(BaseModel):
    x: int


class Signup(BaseModel):
    name: str = Field(min_length=1, max_length=20)


meta = RequestMetaObject({protocol_version}="2026-07-28", {client_capabilities}=ClientCapabilities())
request = CallToolRequest(id=1, params=CallToolRequestParams(name="t", arguments={{"a": 1}}, meta=meta))
wire = json.loads(request.model_dump_json())
assert wire["method"] == "tools/call" and wire["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
assert type(parse_message(request.model_dump_json())) is CallToolRequest

result = parse_result("tools/call", '{{"resultType": "complete", "content": [], "structuredContent": {{"x": 3}}}}')
assert isinstance(result, CallToolResult)
assert narrow(result, Point).x == 3
built = CallToolResult(content=[TextContent(text="hi")], {is_error}=False, {result_type}="complete")
assert json.loads(built.model_dump_json()) == {{"content": [{{"text": "hi", "type": "text"}}], "isError": False, "resultType": "complete"}}

schema = json.loads(requested_schema(Signup).model_dump_json())
assert schema == {{"properties": {{"name": {{"maxLength": 20, "minLength": 1, "type": "string"}}}}, "required": ["name"], "type": "object"}}, schema
asked = json.loads(elicit_request(Signup, "Who?", id=4).model_dump_json())
assert asked["params"]["requestedSchema"] == schema and asked["id"] == 4
answer = read_answer(Signup, ElicitResult(action="accept", content={{"name": "Ada"}}))
assert isinstance(answer, Accepted) and answer.value.name == "Ada"
print("usage ok")
"""

WIRE_NAMES = {
    "protocol_version": "io_modelcontextprotocol_protocol_version",
    "client_capabilities": "io_modelcontextprotocol_client_capabilities",
    "is_error": "is_error",
    "result_type": "result_type",
}


def _usage(package: str, wire: bool) -> str:
    names = dict(WIRE_NAMES)
    if wire:
        # wire names that are not identifiers (`io.modelcontextprotocol/…`) keep the escaped name
        names |= {"is_error": "isError", "result_type": "resultType"}
    return USAGE.format(package=package, **names)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(MATRIX))
def test_a_documented_setting_yields_a_package_that_works_and_type_checks(case: str, tmp_path: Path) -> None:
    package = f"pkg_{case}"
    project = tmp_path / "project"
    project.mkdir()
    (project / "errata.json").write_text(json.dumps(ERRATA))
    (project / "mcp-errata.json").write_text(json.dumps(ERRATA))  # the README's name for it
    (project / "mcp-spec").mkdir()
    (project / "mcp-spec" / "pins.toml").write_text("# no pins of our own yet\n")  # the README's pins file
    revisions = "" if case == README_SDK else f"revisions = {REVISIONS}\n"
    (project / "pyproject.toml").write_text(
        f'[tool.mcp-codegen]\n{revisions}out = "{package}"\npackage = "{package}"\nsurface = false\n'
        f"{MATRIX[case]}\n"
        f'[tool.pyright]\ntypeCheckingMode = "strict"\npythonVersion = "3.11"\nvenvPath = "{REPO}"\nvenv = ".venv"\n',
        encoding="utf-8",
    )
    made = support.run(["generate", "-q"], env=support.cli_env(tmp_path / "cache"), cwd=project)
    assert made.returncode == 0, made.stderr
    if "errata" in MATRIX[case]:  # the project's `/$defs/...` erratum reached every revision built
        for built in (project / package).glob("v*/models.py"):
            assert "min_length=1" in built.read_text(encoding="utf-8").split("class Tool(", 1)[1][:3000], built
    wire = "field-naming" in MATRIX[case]
    (project / "usage.py").write_text(_usage(package, wire), encoding="utf-8")

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)

    used = run(sys.executable, "usage.py")
    assert used.returncode == 0 and "usage ok" in used.stdout, used.stderr[-3000:]
    tests = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", package)
    assert tests.returncode == 0 and " passed" in tests.stdout, tests.stdout[-3000:]
    mypy = run(sys.executable, "-m", "mypy", "--strict", "--no-incremental", package, "usage.py")
    assert mypy.returncode == 0, mypy.stdout[-3000:]
    pyright = run(str(VENV_BIN / "pyright"), package, "usage.py")
    assert pyright.returncode == 0, pyright.stdout[-3000:]


def test_the_matrix_covers_every_setting_that_shapes_the_output() -> None:
    """A new setting in docs/configuration.md that changes generated code must join the matrix."""
    documented = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    shaping = ["field-naming", "extra-keys", "open-definitions", "inbound", "formatter", "pydantic-config", "errata"]
    for key in shaping:
        assert f"`{key}`" in documented
        assert any(key in settings for settings in MATRIX.values()), key
