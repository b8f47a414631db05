"""Fit for an SDK's toolchain: ruff-clean output, the `formatter` setting, absolute links."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from codegen.output.tree import read_tree

from . import bad_input_support as support
from . import suite
from .conftest import GENERATED, REPO

RUFF = Path(sys.executable).parent / "ruff"
# black's settings for the default output (codegen/emit/format.py); ruff's own defaults otherwise
BESIDE_BLACK = ("--isolated", "--line-length", "100", "--target-version", "py311")


def _ruff(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(RUFF), *args, "--no-cache"], cwd=cwd, capture_output=True, text=True, check=False)


def _generate(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "out"
    result = support.run(
        ["generate", "-q", "-r", "2025-11-25", "-r", "2026-07-28", "--out", str(out), *args],
        env=support.cli_env(tmp_path / "cache"),
    )
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def ruff_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two revisions formatted by ruff, generated once per run (read only: tests copy what they change)."""
    return suite.shared_tree(tmp_path_factory, "ruff-formatted", [], lambda root: _generate(root, "--formatter", "ruff")) / "out"


@pytest.mark.slow
def test_ruff_formatted_output_is_clean_under_ruffs_defaults(ruff_output: Path) -> None:
    checked = _ruff("check", "--isolated", ".", cwd=ruff_output)
    assert checked.returncode == 0, checked.stdout[-3000:]
    formatted = _ruff("format", "--check", "--isolated", ".", cwd=ruff_output)
    assert formatted.returncode == 0, formatted.stdout[-3000:]
    # and it is not black's output: ruff's default line length (88) shapes it
    models = (ruff_output / "v2026_07_28" / "models.py").read_text(encoding="utf-8")
    assert models != (GENERATED / "mcp_models" / "v2026_07_28" / "models.py").read_text(encoding="utf-8")


@pytest.mark.slow
def test_ruff_formatted_output_type_checks_and_round_trips(ruff_output: Path) -> None:
    package = ruff_output / "v2026_07_28"
    for command in (
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(package)],
        [str(Path(sys.executable).parent / "pyright"), str(package)],
    ):
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (command[-2:], done.stdout[-3000:])
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package / "tests")],
        cwd=ruff_output.parent,
        capture_output=True,
        text=True,
        check=False,
        env={**support.cli_env(ruff_output.parent / "c"), "PYTHONPATH": str(ruff_output.parent)},
    )
    assert tests.returncode == 0 and " passed" in tests.stdout, tests.stdout[-2000:]


@pytest.mark.slow
def test_ruff_formatter_is_deterministic(ruff_output: Path, tmp_path: Path) -> None:
    again = _generate(tmp_path, "--formatter", "ruff")
    assert read_tree(again) == read_tree(ruff_output)  # the files, not the bytecode other tests' imports left


def test_default_output_is_ruff_clean_and_free_of_duplicate_imports() -> None:
    root = GENERATED / "mcp_models"
    checked = _ruff("check", *BESIDE_BLACK, ".", cwd=root)
    assert checked.returncode == 0, checked.stdout[-3000:]
    for path in sorted(root.rglob("*.py")):
        imported: Counter[str] = Counter()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom):
                imported.update(f"{node.module}.{alias.asname or alias.name}" for alias in node.names)
        twice = [name for name, count in imported.items() if count > 1]
        assert not twice, (path, twice)


def test_a_bad_formatter_is_a_one_line_error(tmp_path: Path) -> None:
    result = support.run(
        ["generate", "-r", "2025-11-25", "--out", str(tmp_path / "out"), "--formatter", "yapf"],
        env=support.cli_env(tmp_path / "cache"),
    )
    line = support.assert_one_line_error(result, "MCG010")
    assert "--formatter" in line and "black" in line and "ruff" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_absolute_links_only_when_asked(tmp_path: Path) -> None:
    relative = "](/specification/2025-11-25/"
    shipped = (GENERATED / "mcp_models" / "v2025_11_25" / "models.py").read_text(encoding="utf-8")
    assert relative in shipped  # off by default: descriptions as the spec wrote them
    out = tmp_path / "out"
    result = support.run(
        ["generate", "-q", "-r", "2025-11-25", "--out", str(out), "--absolute-links"],
        env=support.cli_env(tmp_path / "cache"),
    )
    assert result.returncode == 0, result.stderr
    models = (out / "v2025_11_25" / "models.py").read_text(encoding="utf-8")
    assert relative not in models
    assert models.count("](https://modelcontextprotocol.io/specification/2025-11-25/") == shipped.count(relative)


def test_links_rewrite_only_site_root_targets_in_text() -> None:
    from codegen.schema import links

    document = {
        "description": "See [a](/specification/x#y), [b](https://example.com/z), [c](//cdn/x), [d](rel/x)",
        "properties": {"description": {"type": "string", "const": "[e](/specification/q)"}},
        "default": {"description": "[f](/specification/q)"},
    }
    rewritten = links.absolute(document)
    assert rewritten["description"] == (
        "See [a](https://modelcontextprotocol.io/specification/x#y), [b](https://example.com/z), [c](//cdn/x), [d](rel/x)"
    )
    # a property that happens to be named `description` and a value (`const`) are data, not text
    assert rewritten["properties"] == document["properties"]
    assert rewritten["default"] == document["default"]
