"""Issue 14's modes: the outbound sieve (extra-keys = "sieve", open-definitions) and lenient inbound
(inbound = "lenient"), on the case folders and on real revisions; strict and lossless stay default."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import ValidationError

from codegen import generate_schema
from codegen.analysis import ir

from .conftest import REVISIONS

CASES = Path(__file__).parent / "cases"
REPO = Path(__file__).resolve().parents[1]


def _case(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    options = ir.Options(**json.loads((CASES / name / "options.json").read_text(encoding="utf-8")))
    package = f"{name}_case_pkg"
    generate_schema(CASES / name / "schema.json", out=tmp_path / package, name=name, options=options)
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module(package)


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


def test_sieve_case_keeps_keys_only_where_the_schema_or_the_settings_allow_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = _case("sieve", tmp_path, monkeypatch)
    assert _dump(m.Open.model_validate({"name": "a", "x": 1})) == {"name": "a"}  # not defined: dropped
    assert _dump(m.OpenExplicit.model_validate({"name": "a", "x": 1})) == {"name": "a", "x": 1}  # true
    assert _dump(m.TypedExtras.model_validate({"x": "s"})) == {"x": "s"}  # a schema
    with pytest.raises(ValidationError):
        m.TypedExtras.model_validate({"x": 1})
    assert _dump(m.KeptOpen.model_validate({"x": 1})) == {"x": 1}  # open-definitions, by name
    holder = m.Holder.model_validate({"schema": {"type": "object", "$defs": {}}, "meta": {"v/k": 1}, "x": 1})
    assert _dump(holder) == {"schema": {"type": "object", "$defs": {}}, "meta": {"v/k": 1}}  # by pointer
    with pytest.raises(ValidationError):
        m.Closed.model_validate({"x": 1})


def test_lenient_case_reads_sloppy_input_that_strict_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = _case("lenient", tmp_path, monkeypatch)
    item = m.Item.model_validate({"name": "a", "count": 2.0, "ratio": "1.5", "flag": 1, "meta": None, "maybe": None})
    assert (item.count, item.ratio, item.flag, item.maybe) == (2, 1.5, True, None)
    assert _dump(item) == {"name": "a", "count": 2, "ratio": 1.5, "flag": True, "maybe": None}  # meta: absent
    assert m.Item.model_validate_json(b'{"name": "a", "count": true}').count == 1
    with pytest.raises(ValidationError):
        m.Item.model_validate({"name": None})  # a required property's null is still wrong
    with pytest.raises(ValidationError):
        m.Item.model_validate({"name": "a", "count": 1.5})  # not a whole number


def _generated(tmp_path_factory: pytest.TempPathFactory, name: str, settings: str) -> Path:
    root = tmp_path_factory.mktemp(name)
    (root / "pyproject.toml").write_text(
        f'[tool.mcp-codegen]\nrevisions = ["2025-06-18", "2026-07-28"]\nout = "out/{name}"\npackage = "{name}"\n{settings}',
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "-q", "--no-cache"], cwd=root, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    return root / "out"


@pytest.fixture(scope="module")
def sieve(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, ModuleType]:
    out = _generated(
        tmp_path_factory,
        "sieve_pkg",
        'extra-keys = "sieve"\nopen-definitions = ["#/$defs/Tool/properties/inputSchema", "RequestMetaObject"]\n',
    )
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("sieve_pkg.v2025_06_18"), importlib.import_module("sieve_pkg.v2026_07_28")
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="module")
def lenient(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, ModuleType]:
    out = _generated(tmp_path_factory, "lenient_pkg", 'inbound = "lenient"\n')
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("lenient_pkg.v2025_06_18"), importlib.import_module("lenient_pkg.v2026_07_28")
    finally:
        sys.path.remove(str(out))


TOOL_SCHEMA = {"type": "object", "$defs": {"p": {"type": "string"}}, "title": "Args", "additionalProperties": False}


def test_sieve_keeps_what_the_schema_leaves_open(sieve: tuple[ModuleType, ModuleType]) -> None:
    old, new = sieve
    # Tool.inputSchema: open by configuration at 2025-06-18, by `additionalProperties: {}` at 2026-07-28
    for package, extra in ((old, {}), (new, {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"})):
        listed = package.parse_result("tools/list", {**extra, "tools": [{"name": "t", "inputSchema": TOOL_SCHEMA}]})
        assert _dump(listed)["tools"][0]["inputSchema"] == TOOL_SCHEMA
    # result _meta vendor keys (a map) and experimental capabilities
    result = old.parse_result("tools/call", {"content": [], "_meta": {"com.example/trace": "t1"}})
    assert _dump(result)["_meta"] == {"com.example/trace": "t1"}
    caps = old.ClientCapabilities.model_validate({"experimental": {"com.example/x": {"on": True}}})
    assert _dump(caps) == {"experimental": {"com.example/x": {"on": True}}}
    # request _meta vendor keys: a map at 2025-06-18 (where the method's params declare _meta), a
    # class at 2026-07-28 that the schema does not leave open: kept by open-definitions, by name
    roots = old.parse_message({"jsonrpc": "2.0", "id": 1, "method": "roots/list", "params": {"_meta": {"com.example/a": 1}}})
    assert _dump(roots)["params"] == {"_meta": {"com.example/a": 1}}
    meta = {"io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    call = {"name": "t", "arguments": {}, "_meta": {**meta, "com.example/a": 1}}
    request = new.parse_message({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
    assert _dump(request)["params"] == call


def test_sieve_drops_keys_a_revision_does_not_define(sieve: tuple[ModuleType, ModuleType]) -> None:
    old, new = sieve
    result_2026 = {"resultType": "complete", "content": [{"type": "text", "text": "hi"}]}
    assert "resultType" in _dump(new.parse_result("tools/call", result_2026))
    assert _dump(old.parse_result("tools/call", result_2026)) == {"content": [{"type": "text", "text": "hi"}]}
    tool = old.Tool.model_validate({"name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "x"}})
    assert "execution" not in _dump(tool)


def test_lossless_stays_the_default_and_keeps_everything() -> None:
    old = importlib.import_module(f"mcp_models.{REVISIONS['2025-06-18']}")
    value = {"resultType": "complete", "content": []}
    assert _dump(old.parse_result("tools/call", value)) == value


@pytest.mark.parametrize(
    ("revision", "method", "result"),
    [
        ("2025-06-18", "tools/call", {"content": [], "_meta": None}),
        ("2026-07-28", "tools/call", {"resultType": "complete", "content": [], "_meta": None}),
        ("2026-07-28", "resources/read", {"resultType": "complete", "contents": [], "ttlMs": True, "cacheScope": "public"}),
        ("2025-06-18", "resources/list", {"resources": [{"name": "a", "uri": "u", "size": 1.0}]}),
    ],
)
def test_lenient_accepts_what_strict_refuses(
    lenient: tuple[ModuleType, ModuleType], revision: str, method: str, result: dict[str, Any]
) -> None:
    strict = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
    with pytest.raises(ValidationError):
        strict.parse_result(method, result)
    package = lenient[0] if revision == "2025-06-18" else lenient[1]
    parsed = _dump(package.parse_result(method, result))
    assert "_meta" not in parsed
    if "ttlMs" in result:
        assert parsed["ttlMs"] == 1


def test_lenient_still_refuses_what_no_reading_makes_valid(lenient: tuple[ModuleType, ModuleType]) -> None:
    old, new = lenient
    with pytest.raises(ValidationError):
        new.parse_result("resources/read", {"resultType": "complete", "contents": [], "ttlMs": "soon", "cacheScope": "x"})
    with pytest.raises(ValidationError):
        old.parse_message({"jsonrpc": "1.0", "id": 1, "method": "ping"})


def test_the_settings_are_documented_in_the_starter() -> None:
    from codegen.config import STARTER

    for key in ("extra-keys", "open-definitions", "inbound", "errata", "disable-errata"):
        assert f"# {key} = " in STARTER
