"""[tool.mcp-codegen] settings, command-line flags, `init`, and vendoring into another package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen import config
from codegen.errors import CodegenError

from .conftest import REPO, SPEC


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MCP_CODEGEN_SPEC_SOURCE": str(SPEC), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def test_init_writes_a_starter_section_once(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "acme"\n')
    assert _cli(tmp_path, "init").returncode == 0
    assert "[tool.mcp-codegen]" in pyproject.read_text() and pyproject.read_text().startswith("[project]")
    assert config.load(pyproject) == config.Settings()  # every key is commented out
    again = _cli(tmp_path, "init")
    assert again.returncode == 0 and "already set up" in again.stdout and again.stderr == ""


def test_unknown_keys_and_bad_values_are_one_line_errors(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.mcp-codegen]\nrevisons = ["draft"]\n')
    with pytest.raises(CodegenError) as caught:
        config.load(pyproject)
    assert "revisons: unknown key" in caught.value.diagnostics[0].message
    result = _cli(tmp_path, "generate")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "revisons" in result.stderr
    pyproject.write_text('[tool.mcp-codegen]\nextra-keys = "drop"\n')
    assert "extra-keys" in _cli(tmp_path, "generate").stderr
    pyproject.write_text("[tool.mcp-codegen]\n")
    flag = _cli(tmp_path, "generate", "--field-naming", "camel")
    assert flag.returncode == 2 and flag.stderr.startswith("error[MCG010]") and "--field-naming" in flag.stderr


@pytest.mark.slow
def test_vendored_package_works_from_its_new_home(tmp_path: Path) -> None:
    (tmp_path / "src" / "acme").mkdir(parents=True)
    (tmp_path / "src" / "acme" / "__init__.py").write_text("")
    (tmp_path / "src" / "acme" / "base.py").write_text(
        "from pydantic import BaseModel\n\nclass AcmeBase(BaseModel):\n    def acme(self) -> str:\n        return 'acme'\n"
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcp-codegen]\nrevisions = ["2025-11-25", "2026-07-28"]\nout = "src/acme/_mcp"\npackage = "acme._mcp"\n'
        'base-class = "acme.base.AcmeBase"\npydantic-config = { frozen = true }\n'
    )
    assert _cli(tmp_path, "generate", "-q").returncode == 0
    vendored = tmp_path / "src" / "acme" / "_mcp"
    assert sorted(p.name for p in vendored.iterdir()) == [
        "__init__.py", "_runtime", "latest.py", "py.typed", "surface", "v2025_11_25", "v2026_07_28"
    ]
    assert not [p for p in vendored.rglob("*.py") if "mcp_models" in p.read_text()]
    code = (
        "from acme._mcp.latest import Tool, parse_message\n"
        "from acme._mcp import v2025_11_25\n"
        "tool = Tool.model_validate({'name': 't', 'inputSchema': {'type': 'object'}})\n"
        "assert tool.acme() == 'acme'\n"
        "try:\n    tool.name = 'x'\nexcept Exception:\n    pass\nelse:\n    raise SystemExit('not frozen')\n"
        "assert type(parse_message(b'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}')).__name__ == 'JSONRPCRequest'\n"
        "assert v2025_11_25.PingRequest\n"
        "from acme._mcp import surface\n"  # the surface of a vendored pair: the same base and config
        "raw = b'{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[],\"resultType\":\"complete\"}}'\n"
        "got = surface.parse_message(raw, protocol_version='2025-11-25', pending={1: 'tools/call'})\n"
        "assert got.acme() == 'acme' and got.result.acme() == 'acme'\n"
        "assert surface.send(got, '2025-11-25') == raw.decode()\n"
        "print('ok')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path / "src", check=False)
    assert run.stdout.strip() == "ok", run.stderr
    assert _cli(tmp_path, "check", "-q").returncode == 0


def test_wire_field_names_and_dropping_unknown_keys(tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"$defs": {"A": {"type": "object", "properties": {"mimeType": {"type": "string"}, "_meta": {}}}}}')
    out = tmp_path / "wire_pkg"
    args = ("generate", "-q", "--schema", str(schema), "--out", str(out), "--field-naming", "wire", "--extra-keys", "ignore")
    assert _cli(tmp_path, *args).returncode == 0
    code = (
        "from wire_pkg import A\n"
        "a = A.model_validate({'mimeType': 'x', '_meta': 1, 'other': 2})\n"
        "assert a.mimeType == 'x' and a.meta == 1\n"
        "assert a.model_dump(mode='json') == {'mimeType': 'x', '_meta': 1}\n"
        "print('ok')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.stdout.strip() == "ok", run.stderr


def test_the_readme_sdk_configuration_is_valid_settings(tmp_path: Path) -> None:
    """The `[tool.mcp-codegen]` section README shows for replacing an SDK's generator loads as is."""
    from codegen import config

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Replacing an SDK's generator", 1)[1]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "pyproject.toml").write_text(block, encoding="utf-8")
    settings = config.load(tmp_path / "pyproject.toml")
    assert settings.extra_keys == "sieve" and settings.inbound == "lenient" and settings.formatter == "ruff"
    # a new project has no pins file until `spec bump` writes it: the line waits, commented
    assert settings.package == "sdk._types" and settings.pins is None
    (tmp_path / "pyproject.toml").write_text(block.replace("# pins = ", "pins = "), encoding="utf-8")
    assert config.load(tmp_path / "pyproject.toml").pins == "mcp-spec/pins.toml"
