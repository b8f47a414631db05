"""Case folders for `mcp-codegen diff`: two small schemas in, the expected JSON report out.

Each tests/cases/diff/<case>/ holds old.json and new.json (a small MCP-shaped schema with its
Client*/Server* unions, so that direction is derived as for a real revision), case.json (what the
case is about, options, and `expect`: entries the report must contain, or with "absent" must not,
written by hand) and
expected.json (the whole JSON report). After an intended change, refresh expected.json with
UPDATE_EXPECTED=1 pytest tests/test_diff_cases.py and review the diff; `expect` is never refreshed.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from codegen import diff
CASES = Path(__file__).parent / "cases" / "diff"
UPDATE = os.environ.get("UPDATE_EXPECTED") == "1"
NAMES = sorted(p.name for p in CASES.iterdir() if (p / "case.json").is_file())


@cache
def _report(case: str) -> dict[str, Any]:
    folder = CASES / case
    options = json.loads((folder / "case.json").read_text())["options"]
    report = diff.diff(str(folder / "old.json"), str(folder / "new.json"), descriptions=options.get("descriptions", False))
    data: dict[str, Any] = json.loads(report.as_json())
    return data


def _matches(entry: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(entry.get(key) == value for key, value in wanted.items())


@pytest.mark.parametrize("case", NAMES)
def test_case_report(case: str) -> None:
    folder = CASES / case
    produced = _report(case)
    text = json.dumps(produced, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if UPDATE:
        (folder / "expected.json").write_text(text, encoding="utf-8")
    assert text == (folder / "expected.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", NAMES)
def test_case_shows_what_it_is_about(case: str) -> None:
    """The hand-written expectations of case.json, checked against the report itself."""
    produced = _report(case)
    for wanted in json.loads((CASES / case / "case.json").read_text())["expect"]:
        wanted = dict(wanted)
        section = wanted.pop("section")
        if section == "definitions":
            for key, value in wanted.items():
                assert produced["definitions"][key] == value, (case, key)
            continue
        absent = wanted.pop("absent", False)
        entries = produced[section]
        found = any(_matches(entry, wanted) for entry in entries)
        assert found != absent, (case, "absent" if absent else "missing", wanted, entries)


def test_description_changes_are_hidden_unless_asked_for() -> None:
    hidden = _report("description-only")
    shown = _report("description-shown")
    assert hidden["changes"] == [] and hidden["python_api"] == []
    assert {c["kind"] for c in shown["changes"]} == {"description-changed"}
    assert all(c["severity"] == "informational" for c in shown["changes"])


def test_every_change_kind_and_severity_has_a_case() -> None:
    seen = {(section, c["kind"]) for case in NAMES for section in ("changes", "python_api") for c in _report(case)[section]}
    kinds = {kind for _, kind in seen}
    for kind in (
        "property-added", "property-removed", "property-now-required", "property-now-optional", "property-retyped",
        "type-changed", "constraint-changed", "arm-added", "arm-removed", "enum-value-added", "enum-value-removed",
        "const-changed", "object-opened", "object-closed", "description-changed", "definition-added",
        "definition-removed", "definition-renamed", "class-renamed", "class-removed", "attribute-added",
        "attribute-removed", "attribute-retyped", "attribute-now-required", "attribute-now-optional", "alias-retyped",
    ):  # fmt: skip
        assert kind in kinds, kind
    severities = {c["severity"] for case in NAMES for c in _report(case)["changes"]}
    assert severities == {"breaking", "compatible", "informational"}
