"""The committed generated/ packages: complete, well named, and lossless on the spec's own examples."""

from __future__ import annotations

import ast
import importlib
import functools
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter, ValidationError

from codegen.schema import errata
from .conftest import GENERATED, REVISIONS, SPEC


def _definitions(revision: str) -> list[str]:
    document = json.loads((SPEC / revision / "schema.json").read_text())
    return sorted(document.get("$defs") or document["definitions"])


def _examples(revision: str) -> list[Path]:
    root = SPEC / revision / "examples"
    return sorted(root.rglob("*.json")) if root.is_dir() else []


def canonical(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and true from 1 but ignores key order (JSON objects are unordered)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_every_definition_is_importable_under_its_spec_name(revision: str) -> None:
    package = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
    definitions = _definitions(revision)
    importable = [name for name in definitions if hasattr(package, name)]
    assert importable == definitions
    for name in definitions:
        TypeAdapter(getattr(package, name))
    assert set(definitions) <= set(package.__all__)


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_no_generated_name_ends_in_a_digit(revision: str) -> None:
    source = (GENERATED / "mcp_models" / REVISIONS[revision] / "models.py").read_text()
    names = [
        node.name if isinstance(node, ast.ClassDef) else node.targets[0].id  # type: ignore[attr-defined]
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef) or (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name))
    ]
    assert names
    assert [n for n in names if n[-1].isdigit()] == []


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_generated_code_depends_only_on_pydantic_and_typing(revision: str) -> None:
    allowed = {"typing_extensions", "pydantic", "pydantic_core", *sys.stdlib_module_names}
    for path in (GENERATED / "mcp_models" / REVISIONS[revision]).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert (node.module or "").split(".")[0] in allowed, (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in allowed for a in node.names), path.name


EXAMPLES = [
    pytest.param(revision, path, id=f"{revision}/{path.parent.name}/{path.name}")
    for revision in REVISIONS
    for path in _examples(revision)
]


def test_the_spec_examples_are_all_there() -> None:
    assert sum(1 for p in EXAMPLES if p.values[0] == "2026-07-28") == 129
    assert sum(1 for p in EXAMPLES if p.values[0] == "draft") == 129


@functools.cache
def _schema_validator(revision: str, definition: str) -> jsonschema.protocols.Validator:
    document = json.loads((SPEC / revision / "schema.json").read_text())
    document = errata.apply_errata(document, errata.load_errata(revision), revision)
    defs = "$defs" if "$defs" in document else "definitions"
    cls = jsonschema.validators.validator_for(document)
    return cls({**document, "$ref": f"#/{defs}/{definition}"})  # type: ignore[no-any-return]


def _contradictions(revision: str) -> dict[str, errata.Contradiction]:
    return {c.example: c for c in errata.load_contradictions(revision)}


@pytest.mark.parametrize(("revision", "path"), EXAMPLES)
def test_spec_example_round_trips_losslessly(revision: str, path: Path) -> None:
    package = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
    adapter: TypeAdapter[Any] = TypeAdapter(getattr(package, path.parent.name))
    original = json.loads(path.read_text())
    first_error = jsonschema.exceptions.best_match(_schema_validator(revision, path.parent.name).iter_errors(original))
    known = _contradictions(revision).get(f"{path.parent.name}/{path.name}")
    if first_error is not None or known is not None:
        assert known is not None, f"undocumented: the schema rejects {path.name}: {first_error and first_error.message}"
        if known.decision == "schema":
            # a contradiction between the example and its schema: the models agree with the schema
            assert first_error is not None, f"{path.name} is listed as rejected by its schema but the schema accepts it"
        else:
            # "result-type": the schema accepts it only through an arm whose open resultType the models
            # route by its documented meaning ("complete" is the method's own result), which it fails
            assert known.decision == "result-type", known.decision
            assert first_error is None, f"{path.name}: the schema rejects it: {first_error and first_error.message}"
            assert original.get("result", {}).get("resultType") == "complete"
        with pytest.raises(ValidationError):
            adapter.validate_python(original)
        return
    parsed = adapter.validate_json(path.read_bytes())
    assert canonical(adapter.dump_python(parsed, mode="json", by_alias=True, exclude_unset=True)) == canonical(original)
    # absent optional fields are MISSING and never dumped, so a plain dump is lossless too
    assert canonical(adapter.dump_python(parsed, mode="json")) == canonical(original)
    python_parsed = adapter.validate_python(original)
    assert canonical(adapter.dump_python(python_parsed, mode="json", by_alias=True, exclude_unset=True)) == canonical(
        original
    )
