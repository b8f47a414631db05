"""`mcp-codegen diff` on the real revisions: definitions, renames, methods, direction and the
2025-11-25 -> 2026-07-28 changes the issue names; the command line (formats, --fail-on, errors)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from codegen import diff
from codegen.diff import pyapi, render
from codegen.diff.direction import directions
from codegen.diff.relation import EQUIVALENT, Comparer, Node, relation
from codegen.diff.source import load_side
from codegen.cli import app

from .conftest import GENERATED, REVISIONS, SPEC

PAIRS = [("2024-11-05", "2025-03-26"), ("2025-03-26", "2025-06-18"), ("2025-06-18", "2025-11-25"), ("2025-11-25", "2026-07-28")]
runner = CliRunner()


def _defs(revision: str) -> set[str]:
    """Definition names read straight from the schema file, without the loader."""
    document = json.loads((SPEC / revision / "schema.json").read_text())
    return set(document.get("$defs") or document["definitions"])


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["diff", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _change(report: dict[str, Any], section: str, subject: str, path: list[str], kind: str | None = None) -> dict[str, Any]:
    found = [c for c in report[section] if c["subject"] == subject and c["path"] == path and kind in (None, c["kind"])]
    assert len(found) == 1, (subject, path, found)
    return found[0]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_every_added_and_removed_definition_is_in_the_json(old: str, new: str) -> None:
    report = _json(old, new, "--no-python-api")
    added, removed = _defs(new) - _defs(old), _defs(old) - _defs(new)
    renamed = report["definitions"]["renamed"]
    assert set(report["definitions"]["added"]) | {r["to"] for r in renamed} == added
    assert set(report["definitions"]["removed"]) | {r["from"] for r in renamed} == removed
    listed = {c["subject"] for c in report["changes"] if c["kind"] in ("definition-added", "definition-renamed")}
    assert listed == added
    gone = {c["subject"] for c in report["changes"] if c["kind"] == "definition-removed"} | {r["from"] for r in renamed}
    assert gone == removed


def test_renames_are_reported_as_renames() -> None:
    first = _json("2025-03-26", "2025-06-18", "--no-python-api")["definitions"]
    second = _json("2025-06-18", "2025-11-25", "--no-python-api")["definitions"]
    assert {"from": "ResourceReference", "to": "ResourceTemplateReference"} in first["renamed"]
    assert {"from": "JSONRPCError", "to": "JSONRPCErrorResponse"} in second["renamed"]
    assert "ResourceTemplateReference" not in first["added"] and "ResourceReference" not in first["removed"]
    assert "JSONRPCErrorResponse" not in second["added"] and "JSONRPCError" not in second["removed"]


@pytest.fixture(scope="module")
def latest() -> dict[str, Any]:
    return _json("2025-11-25", "2026-07-28")


def test_latest_methods(latest: dict[str, Any]) -> None:
    methods = {m["method"]: m for m in latest["methods"]}
    removed = {"initialize", "ping", "tasks/get", "tasks/cancel", "tasks/list", "tasks/result"}
    assert removed <= set(latest["summary"]["methods"]["removed"])
    assert {"server/discover", "subscriptions/listen"} <= set(latest["summary"]["methods"]["added"])
    assert methods["initialize"]["severity"] == "breaking" and methods["initialize"]["breaks"] == ["client"]
    assert methods["ping"]["breaks"] == ["client", "server"]
    assert methods["server/discover"]["severity"] == "compatible" and methods["server/discover"]["new_senders"] == ["client"]
    assert "may now be answered with InputRequiredResult" in methods["tools/call"]["notes"]
    assert "client" in methods["tools/call"]["breaks"]
    moved = "no longer a JSON-RPC message of its own: carried inside other messages"
    assert moved in methods["elicitation/create"]["notes"] and methods["elicitation/create"]["new_senders"] == ["server"]


def test_latest_structured_content_and_output_schema(latest: dict[str, Any]) -> None:
    structured = _change(latest, "changes", "CallToolResult", ["structuredContent"])
    assert structured["relation"] == "widened" and (structured["old"], structured["new"]) == ("object", "any JSON value")
    assert structured["severity"] == "breaking" and structured["breaks"] == ["client"]
    assert structured["senders"] == ["server"] and "tools/call" in structured["methods"]
    output_schema = _change(latest, "changes", "Tool", ["outputSchema"])
    assert output_schema["kind"] == "property-retyped" and output_schema["relation"] == "widened"  # loosened
    assert output_schema["breaks"] == ["client"]
    assert "type: property removed (was required)" in output_schema["details"]
    python = _change(latest, "python_api", "CallToolResult", ["structured_content"])
    assert (python["old"], python["new"], python["relation"], python["breaks"]) == ("dict[str, Any]", "Any", "widened", ["client"])


def test_latest_capabilities_and_counts(latest: dict[str, Any]) -> None:
    capabilities = {(c["side"], c["capability"], c["status"]) for c in latest["capabilities"]}
    assert {("client", "tasks", "removed"), ("server", "tasks", "removed"), ("client", "extensions", "added")} <= capabilities
    wire = latest["summary"]["wire"]
    assert wire["breaking"] == sum(1 for c in latest["changes"] if c["severity"] == "breaking") > 0
    assert wire["breaking_for"]["client"] == sum(1 for c in latest["changes"] if "client" in c["breaks"])
    assert all(c["breaks"] == [] for c in latest["changes"] if c["severity"] != "breaking")


def test_json_is_stable_and_sorted() -> None:
    first = runner.invoke(app, ["diff", "2025-06-18", "2025-11-25", "--format", "json"]).stdout
    second = runner.invoke(app, ["diff", "2025-06-18", "2025-11-25", "--format", "json"]).stdout
    assert first == second
    data = json.loads(first)
    assert data["format"] == "mcp-codegen-diff/1"
    keys = [(c["axis"], c["subject"], c["path"], c["kind"], c["summary"]) for c in data["changes"]]
    assert keys == sorted(keys)
    assert list(data) == sorted(data)


def test_envelope_written_out_is_no_wire_change() -> None:
    """2025-11-25 writes `jsonrpc`/`id` into every message that 2025-06-18 left to JSONRPCRequest:
    nothing changes on the wire, but the generated classes gain required attributes."""
    report = _json("2025-06-18", "2025-11-25")
    assert not [c for c in report["changes"] if c["subject"] == "CallToolRequest" and c["path"] in (["id"], ["jsonrpc"])]
    assert _change(report, "python_api", "CallToolRequest", ["id"])["kind"] == "attribute-added"


def test_direction_is_derived_from_the_schema() -> None:
    old, new = directions(load_side("2025-11-25")), directions(load_side("2026-07-28"))
    assert old.sides("CallToolResult") == new.sides("CallToolResult") == {"server"}
    assert old.sides("ElicitRequest") == new.sides("ElicitRequest") == {"server"}  # 2026: inside InputRequiredResult
    assert old.sides("ElicitResult") == new.sides("ElicitResult") == {"client"}  # 2026: inside inputResponses
    assert new.sides("InputRequiredResult") == {"server"} and old.sides("LoggingLevel") == {"client", "server"}
    assert old.methods["elicitation/create"].wire and not new.methods["elicitation/create"].wire
    assert new.methods["tools/call"].results == {"CallToolResult", "InputRequiredResult"}
    assert not old.sides("Request")  # an abstract base: on no wire


def test_recursive_json_value_is_any_json_value() -> None:
    comparer = Comparer(lambda a, b: a == b)
    value, anything = {"$ref": "#/$defs/JSONValue"}, {}
    pinned = load_side("2026-07-28")  # the erratum adds number and null to JSONValue
    assert relation(comparer, Node(pinned, anything), Node(pinned, value)) == EQUIVALENT
    assert relation(comparer, Node(pinned, anything), Node(pinned, {"$ref": "#/$defs/JSONObject"})) == "narrowed"
    by_path = load_side(str(SPEC / "2026-07-28" / "schema.json"))  # a pinned revision's bytes: that revision
    assert by_path.label == "2026-07-28" and relation(comparer, Node(by_path, anything), Node(by_path, value)) == EQUIVALENT


def test_a_schema_path_that_is_no_pin_gets_no_builtin_errata(tmp_path: Path) -> None:
    comparer = Comparer(lambda a, b: a == b)
    document = json.loads((SPEC / "2026-07-28" / "schema.json").read_text(encoding="utf-8"))
    document["$comment"] = "a copy of 2026-07-28, edited"
    copy = tmp_path / "edited" / "schema.json"
    copy.parent.mkdir()
    copy.write_text(json.dumps(document), encoding="utf-8")
    raw = load_side(str(copy))
    assert raw.label == "edited"
    assert relation(comparer, Node(raw, {}), Node(raw, {"$ref": "#/$defs/JSONValue"})) == "narrowed"


def test_python_api_reads_what_generate_ships() -> None:
    """The classes, attributes and annotations compared are those of the committed package."""
    for revision in ("2025-11-25", "2026-07-28"):
        shipped = (GENERATED / "mcp_models" / REVISIONS[revision] / "models.py").read_text()
        assert pyapi.module_api(load_side(revision)) == pyapi.read_module(shipped)


def test_identical_revisions_report_nothing() -> None:
    result = runner.invoke(app, ["diff", "2026-07-28", "draft", "--format", "json", "--fail-on", "any"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["changes"] == data["python_api"] == data["methods"] == []


def test_fail_on(tmp_path: Path) -> None:
    assert runner.invoke(app, ["diff", "2025-11-25", "2026-07-28", "--fail-on", "breaking", "--no-python-api"]).exit_code == 1
    assert runner.invoke(app, ["diff", "2025-11-25", "2026-07-28", "--no-python-api"]).exit_code == 0
    cases = Path(__file__).parent / "cases" / "diff"
    compatible = [str(cases / "property-added-optional" / n) for n in ("old.json", "new.json")]
    assert runner.invoke(app, ["diff", *compatible, "--fail-on", "breaking"]).exit_code == 0
    assert runner.invoke(app, ["diff", *compatible, "--fail-on", "any"]).exit_code == 1


def test_formats(tmp_path: Path) -> None:
    args = ["diff", "2025-11-25", "2026-07-28"]
    text = runner.invoke(app, args).stdout
    assert text.startswith("MCP schema diff: 2025-11-25 → 2026-07-28\n") and "\x1b[" not in text
    assert "CallToolResult  (sent by server)" in text and "structuredContent: object → any JSON value (widened) breaks client" in text
    markdown = runner.invoke(app, [*args, "--format", "markdown"]).stdout
    assert markdown.startswith("# MCP 2025-11-25 → 2026-07-28\n")
    assert "## Methods" in markdown and "| `initialize` (request) | removed, breaking | client |" in markdown
    for line in markdown.splitlines():  # every table row keeps its column count: pipes in cells are escaped
        if line.startswith("| `") and "Where" not in line:
            assert len(re.findall(r"(?<!\\)\|", line)) in (5, 6), line
    out = tmp_path / "report.html"
    assert runner.invoke(app, [*args, "--format", "html", "--out", str(out)]).stdout == ""
    html = out.read_text()
    assert html.startswith("<!doctype html>") and 'id="summary"' in html
    assert html.index('id="summary"') < html.index('id="methods"') < html.index('id="wire"') < html.index('id="python"')
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # self-contained: nothing fetched
    colored = render.render(diff.diff("2025-11-25", "2026-07-28", python_api=False), "text", color=True)
    assert "\x1b[" in colored and re.sub(r"\x1b\[[0-9;]*m", "", colored) == render.render(
        diff.diff("2025-11-25", "2026-07-28", python_api=False), "text"
    )


def test_html_escapes_schema_text(tmp_path: Path) -> None:
    old = {"$defs": {"Thing": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    new = {"$defs": {"Thing": {"type": "object", "properties": {"a": {"type": "string"}, "<script>x</script>": {"type": "string"}}}}}
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    html = render.render(diff.diff(str(tmp_path / "old.json"), str(tmp_path / "new.json")), "html")
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["2025-11-25", "2026-07-28", "--format", "pdf"], "MCG012"),
        (["2025-11-25", "2026-07-28", "--fail-on", "sometimes"], "MCG012"),
        (["1999-01-01", "2026-07-28"], "MCG002"),
        (["missing/schema.json", "2026-07-28"], "MCG003"),
    ],
)
def test_bad_arguments_are_one_line_errors(args: list[str], code: str) -> None:
    result = runner.invoke(app, ["diff", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error[{code}]") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_bad_schema_file_is_a_one_line_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"$defs": {"A": ')
    result = runner.invoke(app, ["diff", str(broken), "2026-07-28"])
    assert result.exit_code == 2 and result.stderr.startswith("error[MCG102]") and result.stderr.count("\n") == 1
    unwritable = runner.invoke(app, ["diff", "2026-07-28", "draft", "--out", str(tmp_path / "no" / "such" / "dir.txt")])
    assert unwritable.exit_code == 2 and unwritable.stderr.startswith("error[MCG601]")
