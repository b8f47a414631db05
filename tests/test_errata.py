"""Errata: guarded JSON Patches that fail loudly once upstream changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.schema import errata
from codegen.errors import CodegenError


def _write(folder: Path, revision: str, patch: list[dict[str, object]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"id": "fix-x", "reason": "x is wrong", "upstream": "schema.ts", "patch": patch}
    (folder / f"{revision}.json").write_text(json.dumps({"errata": [entry]}))


def test_erratum_is_applied_to_a_copy(tmp_path: Path) -> None:
    _write(tmp_path, "r1", [{"op": "test", "path": "/a", "value": 1}, {"op": "replace", "path": "/a", "value": 2}])
    document = {"a": 1}
    patched = errata.apply_errata(document, errata.load_errata("r1", tmp_path / "r1.json"), "r1")
    assert patched == {"a": 2}
    assert document == {"a": 1}


def test_erratum_whose_test_fails_asks_to_be_retired(tmp_path: Path) -> None:
    _write(tmp_path, "r1", [{"op": "test", "path": "/a", "value": 1}, {"op": "replace", "path": "/a", "value": 2}])
    with pytest.raises(CodegenError) as caught:
        errata.apply_errata({"a": 3}, errata.load_errata("r1", tmp_path / "r1.json"), "r1")
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "MCG202"
    assert "retire" in (diagnostic.hint or "")
    assert diagnostic.pointer == "#/a"


def test_unguarded_change_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, "r1", [{"op": "replace", "path": "/a", "value": 2}])
    with pytest.raises(CodegenError) as caught:
        errata.load_errata("r1", tmp_path / "r1.json")
    assert "not preceded by a `test`" in caught.value.diagnostics[0].message


def test_add_is_guarded_by_a_test_of_its_parent(tmp_path: Path) -> None:
    _write(tmp_path, "r1", [{"op": "test", "path": "/o", "value": {}}, {"op": "add", "path": "/o/k", "value": 1}])
    patched = errata.apply_errata({"o": {}}, errata.load_errata("r1", tmp_path / "r1.json"), "r1")
    assert patched == {"o": {"k": 1}}


def test_shipped_errata_still_match_the_pinned_schemas(spec_dir: Path) -> None:
    for path in sorted(errata.errata_path("x").parent.glob("*.json")):
        revision = path.stem
        document = json.loads((spec_dir / revision / "schema.json").read_text())
        loaded = errata.load_errata(revision)
        assert loaded, path
        patched = errata.apply_errata(document, loaded, revision)
        assert patched != document
