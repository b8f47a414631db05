"""Output is byte-identical across runs and hash seeds, and equals the committed generated/ tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.output.tree import read_tree

from .conftest import GENERATED, REPO, SPEC


def _generate(out: Path, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "MCP_CODEGEN_SPEC_SOURCE": str(SPEC)}
    subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "--quiet", "--out", str(out)],
        check=True,
        cwd=REPO,
        env=env,
    )
    return read_tree(out)


@pytest.mark.slow
def test_two_hash_seeds_give_identical_bytes(tmp_path: Path) -> None:
    first = _generate(tmp_path / "seed0", "0")
    second = _generate(tmp_path / "seed1", "1")
    assert first == second
    assert first == read_tree(GENERATED / "mcp_models")


@pytest.mark.slow
def test_the_users_black_config_changes_nothing(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.black]\nline-length = 40\nskip-string-normalization = true\n')
    env = {**os.environ, "MCP_CODEGEN_SPEC_SOURCE": str(SPEC), "PYTHONPATH": str(REPO)}
    subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "-q", "-r", "2025-06-18", "--out", str(project / "out")],
        check=True, cwd=project, env=env,
    )  # fmt: skip
    produced = read_tree(project / "out" / "v2025_06_18")
    assert produced == read_tree(GENERATED / "mcp_models" / "v2025_06_18")
