"""What an SDK can list without knowing our discriminators: union arms, result classes, versions."""

from __future__ import annotations

import importlib
import json
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from .conftest import REVISIONS, SPEC


def _definitions(revision: str) -> dict[str, Any]:
    document = json.loads((SPEC / revision / "schema.json").read_text(encoding="utf-8"))
    return dict(document.get("$defs") or document.get("definitions") or {})


def _ref_arms(schema: dict[str, Any]) -> list[str] | None:
    """The definitions a union of plain $refs names, in order (None: not such a union)."""
    arms = schema.get("anyOf") or schema.get("oneOf")
    if not isinstance(arms, list) or set(schema) - {"anyOf", "oneOf", "description", "$comment"}:
        return None
    refs = [arm.get("$ref") for arm in arms if isinstance(arm, dict)]
    if len(refs) != len(arms) or not all(isinstance(r, str) for r in refs):
        return None
    return [str(r).rsplit("/", 1)[-1] for r in refs]


@pytest.mark.parametrize("revision", sorted(REVISIONS))
def test_union_arms_of_every_union_of_definitions_are_the_schemas_arms(revision: str) -> None:
    package = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
    definitions = _definitions(revision)

    def schema_leaves(name: str) -> set[str]:
        arms = _ref_arms(definitions[name])
        return {name} if arms is None else set().union(*(schema_leaves(arm) for arm in arms))

    def model_leaves(alias: object) -> set[str]:
        leaves: set[str] = set()
        for arm in package.union_arms(alias):
            is_class = isinstance(arm, type)
            leaves |= {arm.__name__} if is_class else model_leaves(arm)
        return leaves

    checked = 0
    for name, schema in definitions.items():
        if _ref_arms(schema) is None:
            continue
        alias = getattr(package, name)
        assert typing.get_args(alias) == ()  # why union_arms exists: get_args cannot see through the alias
        assert all(isinstance(arm, type) or hasattr(arm, "__value__") for arm in package.union_arms(alias))
        expected = {getattr(package, leaf).__name__ for leaf in schema_leaves(name)}
        assert model_leaves(alias) == expected, name
        checked += 1
    assert checked >= 5, f"{revision}: only {checked} unions of definitions found"


def test_union_arms_of_value_unions_and_refusals() -> None:
    package = importlib.import_module("mcp_models.v2026_07_28")
    id_arms = package.union_arms(package.RequestId)
    assert [typing.get_args(arm)[0] for arm in id_arms] == [str, int]
    with pytest.raises(TypeError, match="not a union alias"):
        package.union_arms(package.CallToolResult)
    with pytest.raises(TypeError, match="not a union"):
        package.union_arms(package.Cursor)


@pytest.mark.parametrize("revision", sorted(REVISIONS))
def test_result_classes_are_tuples_of_model_classes_for_every_request(revision: str) -> None:
    messages = importlib.import_module(f"mcp_models.{REVISIONS[revision]}.messages")
    assert set(messages.RESULT_CLASSES) == set(messages.RESULTS)
    for method, classes in messages.RESULT_CLASSES.items():
        assert isinstance(classes, tuple) and classes, method
        assert all(isinstance(c, type) and issubclass(c, BaseModel) for c in classes), (method, classes)


def test_version_registry_maps_negotiated_versions_to_their_packages() -> None:
    root = importlib.import_module("mcp_models")
    released = [r for r in REVISIONS if r != "draft"]
    assert root.PROTOCOL_VERSIONS == tuple(sorted(released))
    assert root.DRAFT_VERSIONS == ("draft",)
    assert root.LATEST_PROTOCOL_VERSION == max(released)
    latest = importlib.import_module("mcp_models.latest")
    for version, package in REVISIONS.items():
        assert root.revision_package(version) == package
        module = root.revision_module(version)
        assert module is importlib.import_module(f"mcp_models.{package}")
    assert latest.CallToolResult is root.revision_module(root.LATEST_PROTOCOL_VERSION).CallToolResult
    with pytest.raises(root.UnsupportedProtocolVersion, match="'1999-01-01' is not generated here"):
        root.revision_module("1999-01-01")
    assert issubclass(root.UnsupportedProtocolVersion, ValueError)


@pytest.mark.slow
def test_a_vendored_subset_registers_only_its_revisions(tmp_path: Any) -> None:
    from .bad_input_support import cli_env, run

    out = tmp_path / "acme" / "_mcp"
    result = run(
        ["generate", "-q", "-r", "2025-06-18", "-r", "draft", "--out", str(out), "--package", "acme._mcp"],
        env=cli_env(tmp_path / "cache"),
    )
    assert result.returncode == 0, result.stderr
    namespace: dict[str, Any] = {}
    exec(compile((out / "__init__.py").read_text(), "registry", "exec"), namespace)
    assert namespace["PROTOCOL_VERSIONS"] == ("2025-06-18",)
    assert namespace["DRAFT_VERSIONS"] == ("draft",)
    assert namespace["LATEST_PROTOCOL_VERSION"] == "2025-06-18"
