"""The pre-commit hook (.pre-commit-hooks.yaml) catches drift in a scratch repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, SPEC


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.slow
def test_hook_passes_on_fresh_models_and_fails_on_drift(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    _git(scratch, "init", "-q")
    _git(scratch, "config", "user.email", "ci@example.invalid")
    _git(scratch, "config", "user.name", "ci")
    (scratch / "pyproject.toml").write_text(
        f'[tool.mcp-codegen]\nrevisions = ["2025-06-18"]\nout = "models"\nspec-source = "{SPEC}"\n'
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    subprocess.run([sys.executable, "-m", "codegen", "generate", "-q"], cwd=scratch, env=env, check=True)
    _git(scratch, "add", "-A")
    _git(scratch, "commit", "-q", "-m", "models")
    hook = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "mcp-codegen-check", "--all-files"]

    clean = subprocess.run(hook, cwd=scratch, env=env, capture_output=True, text=True, check=False)
    assert clean.returncode == 0, clean.stdout[-2000:]
    assert "Passed" in clean.stdout

    models = scratch / "models" / "v2025_06_18" / "models.py"
    models.write_text(models.read_text() + "\n# edited by hand\n")
    drifted = subprocess.run(hook, cwd=scratch, env=env, capture_output=True, text=True, check=False)
    assert drifted.returncode == 1, drifted.stdout[-2000:]
    assert "Failed" in drifted.stdout and "edited by hand" in drifted.stdout
