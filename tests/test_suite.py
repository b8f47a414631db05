"""The suite's own promises: a developer's shell does not steer it, shared trees are built once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from . import suite
from .conftest import REPO


def test_no_variable_of_the_tool_reaches_a_test_but_its_private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    leaked = sorted(k for k in os.environ if k.startswith(("MCP_CODEGEN_", "RUFF_")) and k != "MCP_CODEGEN_CACHE")
    assert leaked == []
    cache = Path(os.environ["MCP_CODEGEN_CACHE"])
    assert suite.run_root(tmp_path_factory) in cache.parents  # this run's temporary folder, not ~/.cache
    assert "PYTHONPATH" not in os.environ and "PYTHONHASHSEED" not in os.environ


@pytest.mark.slow
def test_a_leaked_environment_changes_no_outcome(tmp_path: Path) -> None:
    """Tests that read the spec data, the tool's cache and the command's output, run with a shell
    that exports everything that once broke a submission: all pass, and the header names what the
    suite cleared."""
    hostile = {
        "MCP_CODEGEN_SPEC_SOURCE": str(tmp_path / "no-such-mirror"),
        "MCP_CODEGEN_DOCS_SOURCE": str(tmp_path / "no-such-pages"),
        "MCP_CODEGEN_CACHE": "/proc/no-such-cache",
        "RUFF_LINE_LENGTH": "20",
        "NO_COLOR": "1",
        "COLUMNS": "20",
        "PYTHONHASHSEED": "7",
        "PYTHONPATH": str(tmp_path / "shadow"),
    }
    (tmp_path / "shadow" / "codegen").mkdir(parents=True)
    (tmp_path / "shadow" / "codegen" / "__init__.py").write_text("raise ImportError('the shadow package was imported')\n")
    chosen = [
        "tests/test_spec_data.py::test_a_projects_pins_errata_and_disabled_erratum_all_take_effect",
        "tests/test_spec_data.py::test_generate_reads_the_shipped_schemas_with_no_source_and_no_network",
        "tests/test_cli.py::test_errors_are_one_line_with_exit_2",
        "tests/test_cli.py::test_generate_then_check_then_drift",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *chosen],
        cwd=REPO,
        env={**os.environ, **hostile},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "cleared from the environment: " in done.stdout
    for name in hostile:
        assert name in done.stdout.split("cleared from the environment: ", 1)[1].splitlines()[0]


def test_a_shared_tree_is_built_once_and_a_failed_build_is_not_kept(tmp_path_factory: pytest.TempPathFactory) -> None:
    calls: list[Path] = []

    def build(folder: Path) -> None:
        calls.append(folder)
        (folder / "made").write_text(str(len(calls)))

    params = {"test": tmp_path_factory.mktemp("unique").name}  # a key no other test uses
    first = suite.shared_tree(tmp_path_factory, "probe", params, build)
    second = suite.shared_tree(tmp_path_factory, "probe", params, build)
    assert first == second and len(calls) == 1 and (first / "made").read_text() == "1"
    assert suite.shared_tree(tmp_path_factory, "probe", {**params, "other": 1}, build) != first and len(calls) == 2

    def broken(folder: Path) -> None:
        (folder / "half").write_text("x")
        raise RuntimeError("build failed")

    with pytest.raises(RuntimeError):
        suite.shared_tree(tmp_path_factory, "broken", params, broken)
    rebuilt = suite.shared_tree(tmp_path_factory, "broken", params, build)
    assert sorted(p.name for p in rebuilt.iterdir()) == ["made"]


def test_long_multiplies_the_examples_only_when_asked() -> None:
    assert suite.examples(150) == (150 * suite.LONG_FACTOR if suite.LONG else 150)
