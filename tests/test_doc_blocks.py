"""Every ```python block of README.md and docs/*.md runs as written, its JSON claims hold, and the
blocks type-check under mypy --strict and pyright strict: the docs cannot drift from the code.

A block is self-contained (its imports and inputs are in it). A line's trailing comment that is
JSON text (`# {"action":"decline"}`, `# [1, 2]`) is a claim: the expression on that line (for a
`print(...)`, what it prints) must give exactly that text, where `…` in the claim stands for
anything. Other comments are prose.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, cast

import pytest

from .conftest import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
CLAIM = re.compile(r"#\s*([\[{].*)$")


def _blocks() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append((f"{path.relative_to(REPO)}:{line}", match.group(1)))
    return found


BLOCKS = _blocks()


def test_the_docs_have_python_blocks_to_check() -> None:
    assert len(BLOCKS) >= 10 and any(where.startswith("README.md") for where, _ in BLOCKS)


def _claim(line: str) -> str | None:
    """The JSON claim at the end of a source line, if it has one (outside strings)."""
    tokens = list(_comments(line))
    if not tokens:
        return None
    found = CLAIM.match(tokens[-1])
    return found.group(1).strip() if found else None


def _comments(line: str) -> list[str]:
    import tokenize

    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(line).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []


def _matches(claim: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in claim.split("…"))
    return re.fullmatch(pattern, actual, re.S) is not None


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_a_doc_block_runs_and_its_claims_hold(where: str, code: str) -> None:
    module = types.ModuleType(f"doc_block_{abs(hash(where))}")
    sys.modules[module.__name__] = module  # pydantic resolves a form's annotations through its module
    namespace: dict[str, Any] = module.__dict__
    lines = code.splitlines()
    for node in ast.parse(code).body:
        claim = _claim(lines[(node.end_lineno or node.lineno) - 1])
        assigned = isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        if claim is None or not isinstance(node, ast.Expr | ast.Assign) or (isinstance(node, ast.Assign) and not assigned):
            exec(compile(ast.Module([node], []), where, "exec", dont_inherit=True), namespace)  # noqa: S102 - the docs' own code
            continue
        if isinstance(node, ast.Assign):  # `name = value  # claim`: the claim is about the value
            exec(compile(ast.Module([node], []), where, "exec", dont_inherit=True), namespace)  # noqa: S102
            name = ast.Name(cast(ast.Name, node.targets[0]).id, ast.Load())
            node = ast.copy_location(ast.Expr(ast.copy_location(name, node)), node)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            value = eval(compile(ast.Expression(node.value), where, "eval", dont_inherit=True), namespace)  # noqa: S307
        is_print = isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id == "print"
        if is_print or isinstance(value, str):
            actual = printed.getvalue().rstrip("\n") if is_print else value
            assert _matches(claim, actual), f"{where}, line {node.lineno}: claims {claim}\n  gives {actual}"
        else:  # a JSON value (a dump in mode="json"): equal as data
            assert "…" not in claim and json.loads(claim) == value, f"{where}, line {node.lineno}: claims {claim}\n  gives {value!r}"
    del sys.modules[module.__name__]


@pytest.mark.slow
def test_every_block_type_checks_under_both_checkers() -> None:
    """The blocks as files inside the project (so its strict settings apply), checked at once."""
    folder = REPO / "build" / "doc-blocks"
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.py"):
        stale.unlink()
    files = []
    for index, (where, code) in enumerate(BLOCKS):
        path = folder / f"block_{index:02d}.py"
        path.write_text(f"# {where}\n{code}", encoding="utf-8")
        files.append(str(path))
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *files],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert mypy.returncode == 0, mypy.stdout[-4000:]
    pyright = subprocess.run(
        [str(Path(sys.executable).parent / "pyright"), *files], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert pyright.returncode == 0, pyright.stdout[-4000:]
