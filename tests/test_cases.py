"""Case folders: a small schema in, the expected package files out.

Each tests/cases/<case>/ holds schema.json (and optionally errata.json, and options.json: ir.Options
fields such as the extra-keys mode) and expected/, the exact files
`mcp-codegen generate --schema` must produce. After an intended change, refresh them with
UPDATE_EXPECTED=1 pytest tests/test_cases.py and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen import generate_schema
from codegen.analysis import ir
from codegen.emit.pipeline import runtime_files
from codegen.emit.runtime import FOLDER as RUNTIME_FOLDER
from codegen.output.tree import read_tree

CASES = Path(__file__).parent / "cases"
UPDATE = os.environ.get("UPDATE_EXPECTED") == "1"


def _generate(case: Path, out: Path) -> dict[str, bytes]:
    errata = case / "errata.json"
    settings = case / "options.json"
    options = ir.Options(**json.loads(settings.read_text(encoding="utf-8"))) if settings.exists() else None
    generate_schema(
        case / "schema.json", out=out, name=case.name, errata_file=errata if errata.exists() else None, options=options
    )
    return _own(read_tree(out), options)


def _own(tree: dict[str, bytes], options: ir.Options | None = None) -> dict[str, bytes]:
    """A case's files but the shared runtime, which is the repository's (checked here, not copied
    into every case folder)."""
    shared = runtime_files(options)
    held = {rel: data.decode() for rel, data in tree.items() if rel.startswith(RUNTIME_FOLDER + "/")}
    assert held == shared
    return {rel: data for rel, data in tree.items() if rel not in held}


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if (p / "schema.json").exists()))
def test_case_folder(case: str, tmp_path: Path) -> None:
    folder = CASES / case
    produced = _generate(folder, tmp_path / case)
    expected_dir = folder / "expected"
    if UPDATE:
        for rel, data in produced.items():
            (expected_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / rel).write_bytes(data)
    expected = read_tree(expected_dir)
    assert sorted(produced) == sorted(expected)
    for rel in produced:
        assert produced[rel].decode() == expected[rel].decode(), rel


def test_a_derived_name_yields_to_a_definition_under_every_hash_seed(tmp_path: Path) -> None:
    """Which name yields, and to what, depends on the schema alone: two processes with other hash
    seeds (set and dict orders) write the same bytes, the case folder's expected files."""
    case = CASES / "derived_name_yields"

    def generate(seed: str) -> dict[str, bytes]:
        out = tmp_path / seed / case.name  # the package is labelled by its folder, as the case's
        env = {**os.environ, "PYTHONHASHSEED": seed}
        command = [sys.executable, "-m", "codegen", "generate", "--quiet", "--schema", str(case / "schema.json")]
        subprocess.run([*command, "--out", str(out)], check=True, env=env, capture_output=True)
        return _own(read_tree(out))

    first, second = generate("1"), generate("2")
    assert first == second
    assert first == read_tree(case / "expected")


def test_draft07_definitions_and_2020_12_defs_give_the_same_models(tmp_path: Path) -> None:
    def body(case: str) -> list[str]:
        files = _generate(CASES / case, tmp_path / case)
        # the header comments name the case and its sha256; everything after them must be the same
        lines = files["models.py"].decode().splitlines()
        return lines[next(i for i, line in enumerate(lines) if not line.startswith("#")) :]

    assert body("dialect_draft07") == body("dialect_2020_12")


def test_openness_follows_additional_properties(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from pydantic import ValidationError

    _generate(CASES / "openness", tmp_path / "openness_pkg")
    monkeypatch.syspath_prepend(str(tmp_path))
    models = importlib.import_module("openness_pkg")

    open_data = {"name": "n", "extra": {"kept": [1, 2.5]}}
    assert models.Open.model_validate(open_data).model_dump(mode="json") == open_data
    assert models.OpenExplicit.model_validate(open_data).model_dump(mode="json") == open_data
    with pytest.raises(ValidationError):
        models.Closed.model_validate(open_data)
    assert models.Closed.model_validate({"name": "n"}).model_dump(mode="json") == {"name": "n"}
    typed = {"name": "n", "other": "string extra"}
    assert models.TypedExtras.model_validate(typed).model_dump(mode="json") == typed
    with pytest.raises(ValidationError):
        models.TypedExtras.model_validate({"name": "n", "other": 5})
    nullable = {"maybe": None, "count": 7}
    dumped = models.Nullable.model_validate(nullable).model_dump(mode="json")
    assert dumped == nullable and type(dumped["count"]) is int
