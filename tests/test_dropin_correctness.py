"""Issue 14's correctness defects: old revisions' envelopes, structural rules that look at a key's
type, `resultType` as the schema means it, any pydantic-config, and --errata with -r."""

from __future__ import annotations

import subprocess
import sys

import importlib
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter, ValidationError
from typer.testing import CliRunner

from codegen.cli import app

from .conftest import REVISIONS, SPEC
OLD = ["2024-11-05", "2025-03-26", "2025-06-18"]


def _package(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}")


def _schema_accepts(revision: str, definition: str, value: Any) -> bool:
    document = json.loads((SPEC / revision / "schema.json").read_text(encoding="utf-8"))
    key = "$defs" if "$defs" in document else "definitions"
    schema = {**document, "$ref": f"#/{key}/{definition}"}
    return jsonschema.validators.validator_for(document)(schema).is_valid(value)


# (an id that is not a string or integer is no breaker: the schema reads such a message as a
# notification holding an extra key; tests/test_second_day.py shows every reader agrees)
ENVELOPE_BREAKERS = [
    {"jsonrpc": "1.0", "id": 5, "method": "ping"},
    {"id": 5, "method": "ping"},
]


@pytest.mark.parametrize("revision", list(REVISIONS))
@pytest.mark.parametrize("message", ENVELOPE_BREAKERS, ids=["jsonrpc-1.0", "no-jsonrpc"])
def test_parse_message_checks_the_envelope_of_every_request(revision: str, message: dict[str, Any]) -> None:
    package = _package(revision)
    assert not _schema_accepts(revision, "JSONRPCMessage", message)
    with pytest.raises(ValidationError):
        package.parse_message(message)
    with pytest.raises(ValidationError):
        package.parse_message(json.dumps(message).encode())  # the fast path agrees


@pytest.mark.parametrize("revision", OLD)
def test_old_revisions_still_read_good_requests_and_notifications(revision: str) -> None:
    package = _package(revision)
    # the wire classes: the schema's definition plus the envelope's jsonrpc and id, as fields
    for raw, id_ in ((b'{"jsonrpc": "2.0", "id": 5, "method": "ping"}', 5), ({"jsonrpc": "2.0", "id": "a", "method": "ping"}, "a")):
        parsed = package.parse_message(raw)
        assert type(parsed) is package.PingRequestMessage and isinstance(parsed, package.PingRequest)
        assert parsed.id == id_ and parsed.jsonrpc == "2.0" and parsed.model_extra == {}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert type(package.parse_message(note)) is package.InitializedNotificationMessage
    with pytest.raises(ValidationError):
        package.parse_message({"jsonrpc": "1.0", "method": "notifications/initialized"})
    with pytest.raises(ValidationError):
        package.parse_message(b'{"method": "notifications/initialized"}')


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_jsonrpc_message_accepts_exactly_what_the_schema_does(revision: str) -> None:
    """A structural rule looks at a key's type, not its mere presence."""
    adapter: TypeAdapter[Any] = TypeAdapter(_package(revision).JSONRPCMessage)
    cases = [
        {"jsonrpc": "2.0", "id": None, "method": "ping"},
        {"jsonrpc": "2.0", "id": True, "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": [1], "result": {}},
    ]
    accepted = 0
    for value in cases:
        expected = _schema_accepts(revision, "JSONRPCMessage", value)
        try:
            adapter.validate_python(value)
            got = True
        except ValidationError:
            got = False
        assert got == expected, (value, expected)
        accepted += got
    assert accepted >= 1


def test_id_null_ping_is_a_notification_where_the_schema_says_so() -> None:
    value = {"jsonrpc": "2.0", "id": None, "method": "ping"}
    accepting = [r for r in REVISIONS if _schema_accepts(r, "JSONRPCMessage", value)]
    assert set(OLD) <= set(accepting)
    for revision in accepting:
        parsed = TypeAdapter(_package(revision).JSONRPCMessage).validate_python(value)
        assert type(parsed).__name__ == "JSONRPCNotification"


@pytest.mark.parametrize("revision", ["2026-07-28", "draft"])
def test_result_type_routes_and_extension_results_are_accepted(revision: str) -> None:
    package = _package(revision)
    waiting = package.parse_result("tools/call", {"resultType": "input_required", "requestState": "s", "content": []})
    assert type(waiting).__name__ == "InputRequiredResult"
    done = package.parse_result("tools/call", {"resultType": "complete", "content": []})
    assert type(done).__name__ == "CallToolResult"
    with pytest.raises(ValidationError):  # "complete" is the method's own result, which needs content
        package.parse_result("tools/call", {"resultType": "complete"})
    task = {"resultType": "task", "task": {"taskId": "t1", "status": "working"}}
    assert _schema_accepts(revision, "CallToolResultResponse", {"jsonrpc": "2.0", "id": 1, "result": task})
    extension = package.parse_result("tools/call", task)
    assert extension.model_dump(mode="json", by_alias=True) == task
    response = package.parse_message({"jsonrpc": "2.0", "id": 1, "result": task}, pending={1: "tools/call"})
    assert response.model_dump(mode="json", by_alias=True)["result"] == task
    assert package.InputRequiredResult.model_validate({"resultType": "task"}).result_type == "task"


def test_the_result_type_erratum_is_retired() -> None:
    root = Path(__file__).resolve().parents[1]
    for name in ("2026-07-28.json", "draft.json"):
        ids = {e["id"] for e in json.loads((root / "spec" / "errata" / name).read_text())["errata"]}
        assert "input-required-result-type-const" not in ids


def _generate(tmp_path: Path, *args: str, config: str = "") -> Any:
    tmp_path.mkdir(parents=True, exist_ok=True)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(config, encoding="utf-8")
    out = tmp_path / "out" / "pkg"
    return CliRunner().invoke(
        app, ["generate", "--config", str(pyproject), "--out", str(out), "--package", "pkg", "--no-cache", *args]
    ), out


@pytest.mark.slow
def test_lenient_inbound_turns_strict_off_where_pydantic_config_may_not(tmp_path: Path) -> None:
    """`strict` belongs to `inbound`: `pydantic-config = { strict = false }` is refused (it would
    override what the models rely on silently), `inbound = "lenient"` says it."""
    refused, _ = _generate(tmp_path / "refused", "-r", "2025-11-25", config="[tool.mcp-codegen]\npydantic-config = { strict = false }\n")
    assert refused.exit_code == 2 and "pydantic-config.strict" in refused.output and 'inbound = \"lenient\"' in refused.output
    result, out = _generate(tmp_path, "-r", "2025-11-25", config='[tool.mcp-codegen]\ninbound = "lenient"\n')
    assert result.exit_code == 0, result.output
    base = (out / "v2025_11_25" / "_base.py").read_text(encoding="utf-8")
    compile(base, "_base.py", "exec")
    assert base.count("strict=") == 1 and "strict=False" in base
    # and building keeps it: a tuple for a list is taken (the default, strict, refuses it)
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from pkg.v2025_11_25 import ListRootsResult, Root\n"
        "print(ListRootsResult(roots=(Root(uri='file:///a'),)).model_dump_json())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(out.parent)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == '{"roots":[{"uri":"file:///a"}]}', done.stderr[-2000:]


@pytest.mark.parametrize(
    ("entry", "word"),
    [("extra = 'forbid'", "extra"), ("validate_by_name = true", "validate_by_name"), ("nonsense = 1", "nonsense")],
)
def test_pydantic_config_the_generator_owns_is_refused_in_one_line(tmp_path: Path, entry: str, word: str) -> None:
    result, out = _generate(tmp_path, "-r", "2025-11-25", config=f"[tool.mcp-codegen]\npydantic-config = {{ {entry} }}\n")
    assert result.exit_code == 2
    assert word in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.slow
def test_pydantic_config_that_breaks_the_import_is_refused_before_writing(tmp_path: Path) -> None:
    result, out = _generate(tmp_path, "-r", "2025-11-25", config="[tool.mcp-codegen]\npydantic-config = { ser_json_timedelta = \"nope\" }\n")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not out.exists()


ERRATUM = {
    "errata": [
        {
            "id": "user-implementation-title",
            "reason": "test",
            "upstream": "test",
            "patch": [
                {"op": "test", "path": "/$defs/Implementation/properties/name/type", "value": "string"},
                {"op": "add", "path": "/$defs/Implementation/properties/name/maxLength", "value": 3},
            ],
        }
    ]
}


@pytest.mark.slow
def test_errata_flag_applies_with_a_revision(tmp_path: Path) -> None:
    errata_file = tmp_path / "mine.json"
    errata_file.write_text(json.dumps(ERRATUM), encoding="utf-8")
    result, out = _generate(tmp_path, "-r", "2025-11-25", "--errata", str(errata_file))
    assert result.exit_code == 0, result.output
    models = (out / "v2025_11_25" / "models.py").read_text(encoding="utf-8")
    assert "max_length=3" in models


@pytest.mark.slow
def test_errata_flag_with_schema_keeps_the_built_in_errata(tmp_path: Path) -> None:
    errata_file = tmp_path / "mine.json"
    errata_file.write_text(json.dumps(ERRATUM), encoding="utf-8")
    schema = tmp_path / "2026-07-28" / "schema.json"
    schema.parent.mkdir()
    shutil.copy(SPEC / "2026-07-28" / "schema.json", schema)
    out = tmp_path / "pkg"
    result = CliRunner().invoke(app, ["generate", "--schema", str(schema), "--out", str(out), "--errata", str(errata_file)])
    assert result.exit_code == 0, result.output
    models = (out / "models.py").read_text(encoding="utf-8")
    assert "max_length=3" in models  # the user's erratum
    json_value = models.split("\nJSONValue = ", 1)[1].split("\n\n", 1)[0]
    assert "StrictFloat" in json_value and "Optional" in json_value  # built-in json-value-number-null


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_result_classes_list_each_methods_result_classes(revision: str) -> None:
    """RESULT_CLASSES: per request method, a tuple of classes (what RESULTS types as one union)."""
    messages = _package(revision).messages
    assert messages.RESULT_CLASSES.keys() == messages.RESULTS.keys()
    for method, classes in messages.RESULT_CLASSES.items():
        assert classes and all(isinstance(c, type) and issubclass(c, messages.ResultResponse.__mro__[1]) for c in classes)
        result = messages.RESULTS[method]
        if isinstance(result, type):
            assert classes == (result,)
    if revision in ("2026-07-28", "draft"):
        names = {c.__name__ for c in messages.RESULT_CLASSES["tools/call"]}
        assert names == {"CallToolResult", "InputRequiredResult"}
    if revision == "2025-11-25":
        names = {c.__name__ for c in messages.RESULT_CLASSES["tools/call"]}
        assert names == {"CallToolResult", "CreateTaskResult"}
