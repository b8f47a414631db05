"""`mcp-codegen examples` and the round-trip tests generated into each revision package."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codegen.checks import examples
from codegen.cli import app

from .conftest import DOCS, GENERATED, REPO, SPEC


def test_every_schema_valid_example_round_trips_losslessly() -> None:
    reports = examples.report(GENERATED / "mcp_models", None, str(SPEC), str(DOCS))
    by_source = {(r.revision, r.source): r for r in reports}
    assert {("2026-07-28", "examples"), ("draft", "examples"), ("2025-11-25", "002_3946d478c99d3a7d.txt")} <= set(
        by_source
    )
    for report in reports:
        assert report.found > 0
        assert report.accepted == report.schema_valid, report.model_rejected
        assert report.lossless == report.schema_valid, report.lossy
    for revision in ("2026-07-28", "draft"):
        tree = by_source[(revision, "examples")]
        assert tree.found == 129 and tree.schema_valid == 128
        assert tree.schema_rejected == []  # since the resultType erratum is retired: see `contradicted`
        assert [r["origin"] for r in tree.contradicted] == [
            "examples/ReadResourceResultResponse/read-resource-result-response.json"
        ]
    assert by_source[("2025-11-25", "002_3946d478c99d3a7d.txt")].routed >= 30


def test_examples_command_prints_json() -> None:
    result = CliRunner().invoke(app, ["examples", "--json", "-r", "draft"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [(r["revision"], r["source"]) for r in report] == [("draft", "examples")]
    assert report[0]["lossless"] == report[0]["schema_valid"] == 128


@pytest.mark.slow
def test_generated_tests_fail_when_a_model_is_broken(tmp_path: Path) -> None:
    broken = tmp_path / "mcp_models"
    shutil.copytree(GENERATED / "mcp_models", broken, ignore=shutil.ignore_patterns("__pycache__"))
    base = broken / "v2026_07_28" / "_base.py"
    base.write_text(base.read_text().replace('extra="allow"', 'extra="ignore"'))  # unknown keys now dropped
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(broken / "v2026_07_28" / "tests")],
        capture_output=True, text=True, cwd=tmp_path, check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )  # fmt: skip
    assert run.returncode == 1, run.stdout[-2000:]
    assert " failed" in run.stdout
    intact = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(GENERATED / "mcp_models" / "v2026_07_28" / "tests")],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    assert intact.returncode == 0, intact.stdout[-2000:]
