"""`mcp-codegen diff`: definitions and methods between consecutive revisions."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from codegen import diff
from codegen.cli import app

from .conftest import SPEC

PAIRS = [("2024-11-05", "2025-03-26"), ("2025-03-26", "2025-06-18"), ("2025-06-18", "2025-11-25"), ("2025-11-25", "2026-07-28")]


def _defs(revision: str) -> set[str]:
    document = json.loads((SPEC / revision / "schema.json").read_text())
    return set(document.get("$defs") or document["definitions"])


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_every_added_and_removed_definition_is_reported(old: str, new: str) -> None:
    result = diff.diff(old, new)
    renamed_from = {r["from"] for r in result.definitions_renamed}
    renamed_to = {r["to"] for r in result.definitions_renamed}
    assert set(result.definitions_added) | renamed_to == _defs(new) - _defs(old)
    assert set(result.definitions_removed) | renamed_from == _defs(old) - _defs(new)


def test_known_renames_and_method_changes() -> None:
    assert {"from": "ResourceReference", "to": "ResourceTemplateReference"} in diff.diff("2025-03-26", "2025-06-18").definitions_renamed
    latest = diff.diff("2025-11-25", "2026-07-28")
    assert {"from": "JSONRPCError", "to": "JSONRPCErrorResponse"} in diff.diff("2025-06-18", "2025-11-25").definitions_renamed
    removed = {m["method"] for m in latest.methods_removed}
    added = {m["method"] for m in latest.methods_added}
    assert {"initialize", "ping", "tasks/get", "tasks/cancel"} <= removed
    assert {"server/discover", "subscriptions/listen"} <= added
    changed = {c.name: c for c in latest.definitions_changed}
    assert "structuredContent" in changed["CallToolResult"].properties_retyped
    assert "outputSchema" in changed["Tool"].properties_retyped


def test_cli_json_and_fail_on() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["diff", "2026-07-28", "draft", "--json", "--fail-on", "any"])
    assert result.exit_code == 0 and json.loads(result.output)["definitions_changed"] == []
    changed = runner.invoke(app, ["diff", "2025-11-25", "2026-07-28", "--fail-on", "any"])
    assert changed.exit_code == 1 and "methods added: server/discover" in changed.output
