"""The command line: exit codes (0 ok, 1 drift, 2 error), one-line errors, no tracebacks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from codegen import __version__
from codegen.cli import app
from codegen.output.tree import read_tree

from .conftest import REPO, SPEC

CASES = Path(__file__).parent / "cases"
runner = CliRunner()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MCP_CODEGEN_SPEC_SOURCE": str(SPEC)}
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args], capture_output=True, text=True, cwd=REPO, env=env, check=False
    )


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_generate_then_check_then_drift(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    schema = str(CASES / "unions" / "schema.json")
    first = runner.invoke(app, ["generate", "--schema", schema, "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert "written" in first.output
    again = runner.invoke(app, ["generate", "--schema", schema, "--out", str(out)])
    assert again.exit_code == 0 and "unchanged" in again.output
    check = runner.invoke(app, ["check", "--schema", schema, "--out", str(out)])
    assert check.exit_code == 0, check.output

    models = out / "models.py"
    models.write_text(models.read_text().replace("class TextBlock", "class TextBlockEdited"))
    drift = runner.invoke(app, ["generate", "--check", "--schema", schema, "--out", str(out)])
    assert drift.exit_code == 1
    assert "-class TextBlockEdited" in drift.stdout and "+class TextBlock(" in drift.stdout


@pytest.mark.slow
def test_check_of_the_pinned_revisions_in_a_copy(tmp_path: Path) -> None:
    out = tmp_path / "mcp_models"
    shutil.copytree(REPO / "generated" / "mcp_models", out, ignore=shutil.ignore_patterns("__pycache__"))
    assert _cli("check", "--out", str(out)).returncode == 0
    (out / "v2025_06_18" / "stale.py").write_text("# not generated\n")
    result = _cli("check", "--out", str(out))
    assert result.returncode == 1
    assert "stale.py" in result.stdout


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["generate", "-r", "1999-01-01"], "MCG002"),
        (["generate", "--spec-source", "/nonexistent/mirror", "-r", "draft"], "MCG003"),
        (["generate", "--schema", "/nonexistent/schema.json", "--out", "/tmp/x"], "MCG003"),
        (["generate", "--schema", str(CASES / "unions" / "schema.json")], "MCG008"),
    ],
)
def test_errors_are_one_line_with_exit_2(args: list[str], code: str) -> None:
    result = _cli(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error[{code}]")
    assert "Traceback" not in result.stderr


def test_bad_schema_leaves_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    assert _cli("generate", "--schema", str(CASES / "unions" / "schema.json"), "--out", str(out)).returncode == 0
    before = read_tree(out)
    broken = tmp_path / "schema.json"
    broken.write_text('{"$defs": {"A": {"$ref": "#/$defs/Missing"}}}')
    result = _cli("generate", "--schema", str(broken), "--out", str(out))
    assert result.returncode == 2
    assert "error[MCG112]" in result.stderr and "#/$defs/A/$ref" in result.stderr
    assert read_tree(out) == before


def test_debug_shows_the_traceback() -> None:
    result = _cli("generate", "-r", "1999-01-01", "--debug")
    assert result.returncode != 0
    assert "Traceback" in result.stderr


@pytest.mark.parametrize(
    "command",
    [[], ["generate"], ["check"], ["examples"], ["tools"], ["init"], ["spec"], ["spec", "list"], ["spec", "pull"],
     ["spec", "verify"], ["spec", "bump"], ["impact"]],
    ids=lambda c: " ".join(c) or "main",
)  # fmt: skip
def test_every_command_has_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_json_outputs_parse(tmp_path: Path) -> None:
    import json

    schema = str(CASES / "unions" / "schema.json")
    out = str(tmp_path / "pkg")
    generated = json.loads(runner.invoke(app, ["generate", "--json", "--schema", schema, "--out", out]).output)
    assert generated["out"] == out and generated["written"] and generated["revisions"][0]["definitions"] == 5
    checked = json.loads(runner.invoke(app, ["check", "--json", "--schema", schema, "--out", out]).output)
    assert checked["in_sync"] is True and checked["diff"] == ""
    pins = json.loads(runner.invoke(app, ["spec", "list", "--json"]).output)
    assert [p["revision"] for p in pins][-1] == "draft" and all(len(p["sha256"]) == 64 for p in pins)


@pytest.mark.slow
def test_a_run_that_would_change_nothing_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    from codegen import api
    from codegen.output import workers

    monkeypatch.setenv("MCP_CODEGEN_CACHE", str(tmp_path / "cache"))
    built: list[str] = []  # the work done, counted: revisions generated (not wall time, which load stretches)
    build_all = workers.build_all

    def counting(jobs: list[workers.Job], **kwargs: Any) -> Any:
        built.extend(job.revision for job in jobs)
        return build_all(jobs, **kwargs)

    monkeypatch.setattr(workers, "build_all", counting)
    out = tmp_path / "mcp_models"
    first = api.generate(["2025-06-18"], out=out)
    assert not first.cached and first.written is not None and first.written.touched
    assert built == ["2025-06-18"]
    again = api.generate(["2025-06-18"], out=out)
    assert again.cached and again.written is not None and not again.written.touched
    assert built == ["2025-06-18"]  # nothing generated the second time
    checked = api.generate(["2025-06-18"], out=out, check=True)  # check never takes the shortcut
    assert not checked.cached and checked.in_sync and built == ["2025-06-18"] * 2
    (out / "v2025_06_18" / "_base.py").write_text("# edited\n")  # the output changed: no shortcut
    drift = api.generate(["2025-06-18"], out=out, check=True)
    assert not drift.cached and drift.drift
    assert api.generate(["2025-06-18"], out=out, use_cache=False).written is not None
