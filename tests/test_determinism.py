"""Output is byte-identical across runs and hash seeds, and equals the committed generated/ tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from codegen.output import read_tree

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


def test_two_hash_seeds_give_identical_bytes(tmp_path: Path) -> None:
    first = _generate(tmp_path / "seed0", "0")
    second = _generate(tmp_path / "seed1", "1")
    assert first == second
    assert first == read_tree(GENERATED / "mcp_models")
