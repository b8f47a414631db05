"""Building messages by keyword (issue 13): what type checkers accept and refuse, and the wire JSON built models give.

- tests/typing/building_ok.py builds, in every revision, messages of each kind by keyword with no constant
  spelled out; it must type-check cleanly, and each model must dump to the wire JSON written beside it.
- tests/typing/building_misuse.py: each line marked expect-error must fail under both checkers, and no other.
- The bad cases of the issue, at run time: attribute-name keywords land in their fields, a field given
  under both names is refused, snake_case keys read from JSON stay unknown keys, and input still needs
  every constant (a message without `jsonrpc` is invalid) although building fills it in.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_core import MISSING

from .typing import building_ok
from .typing_checkers import TYPING, expected_errors, mypy_errors, pyright_errors

CHECKERS = [mypy_errors, pyright_errors]
BUILDERS: dict[str, Callable[[], building_ok.Pairs]] = {
    "v2024_11_05": building_ok.build_2024_11_05,
    "v2025_03_26": building_ok.build_2025_03_26,
    "v2025_06_18": building_ok.build_2025_06_18,
    "v2025_11_25": building_ok.build_2025_11_25,
    "v2026_07_28": building_ok.build_2026_07_28,
    "draft": building_ok.build_draft,
}
PACKAGES = list(BUILDERS)


def _revision(package: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{package}")


# -- static typing ----------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_building_by_keyword_type_checks(checker: Callable[[Path], set[int]]) -> None:
    assert checker(TYPING / "building_ok.py") == set()


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_building_misuse_fails_on_exactly_the_marked_lines(checker: Callable[[Path], set[int]]) -> None:
    path = TYPING / "building_misuse.py"
    expected = expected_errors(path)
    assert len(expected) >= 10
    assert checker(path) == expected


def test_typing_files_carry_no_suppression() -> None:
    for name in ("building_ok.py", "building_misuse.py"):
        text = (TYPING / name).read_text()
        assert "type: ignore" not in text and "pyright: ignore" not in text, name


# -- the built models on the wire -------------------------------------------------------------------------


@pytest.mark.parametrize("package", PACKAGES)
def test_built_models_dump_the_wire_json_written_by_hand(package: str) -> None:
    for model, wire in BUILDERS[package]():
        assert model.model_dump(mode="json") == wire, type(model).__name__
        assert json.loads(model.model_dump_json()) == wire, type(model).__name__


@pytest.mark.parametrize("package", PACKAGES)
def test_built_models_read_back_from_their_json_give_the_same_dump(package: str) -> None:
    for model, wire in BUILDERS[package]():
        again = type(model).model_validate_json(model.model_dump_json())
        assert again.model_dump(mode="json") == wire, type(model).__name__


def _nested_models(value: Any) -> Iterator[BaseModel]:
    children: Iterable[Any] = ()
    if isinstance(value, BaseModel):
        yield value
        children = [vars(value)[name] for name in type(value).model_fields]  # as stored: no deprecation warning
    elif isinstance(value, list | tuple):
        children = cast("Iterable[Any]", value)
    elif isinstance(value, dict):
        children = cast("dict[str, Any]", value).values()
    for child in children:
        yield from _nested_models(child)


# Every class among these that a revision defines must be built (directly or nested) by its builder.
KINDS = (
    "TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource", "ToolUseContent",
    "ToolResultContent", "TextResourceContents", "BlobResourceContents",
    "UntitledSingleSelectEnumSchema", "TitledSingleSelectEnumSchema", "UntitledMultiSelectEnumSchema",
    "TitledMultiSelectEnumSchema", "LegacyTitledEnumSchema", "EnumSchema", "StringSchema", "NumberSchema",
    "BooleanSchema", "ElicitRequest", "ProgressNotification", "CallToolRequest", "CallToolResult", "Tool",
    "ResultResponse", "JSONRPCError", "JSONRPCErrorResponse", "URLElicitationRequiredError",
    "UnsupportedProtocolVersionError", "RequestMetaObject", "InputRequiredResult",
    "CallToolRequestMessage", "ProgressNotificationMessage",
)  # fmt: skip


@pytest.mark.parametrize("package", PACKAGES)
def test_each_kind_of_message_is_built_in_every_revision(package: str) -> None:
    revision = _revision(package)
    pairs = BUILDERS[package]()
    built = {type(model).__name__ for top, _ in pairs for model in _nested_models(top)}
    defined = {name for name in KINDS if isinstance(getattr(revision, name, None), type)}
    assert defined - built == set()
    # A request whose params carry `_meta`, a notification, an error response and a result response.
    wires = [wire for _, wire in pairs]
    requests = [w for w in wires if "method" in w and not w["method"].startswith("notifications/")]
    assert any("_meta" in w.get("params", {}) for w in requests)
    assert any(w.get("method", "").startswith("notifications/") for w in wires)
    assert any("error" in w and w.get("jsonrpc") == "2.0" for w in wires)
    assert any("result" in w and w.get("jsonrpc") == "2.0" for w in wires)
    # What is sent on its own is a whole JSON-RPC message: a request the revision sends (its class in
    # REQUESTS) dumps `jsonrpc` and `id`, a notification `jsonrpc` and no `id`; each kind is built.
    messages = revision.messages
    sent_requests = [w for m, w in pairs if type(m) in set(messages.REQUESTS.values())]
    sent_notifications = [w for m, w in pairs if type(m) in set(messages.NOTIFICATIONS.values())]
    assert sent_requests and sent_notifications
    assert all(w["jsonrpc"] == "2.0" and isinstance(w["id"], str | int) for w in sent_requests)
    assert all(w["jsonrpc"] == "2.0" and "id" not in w for w in sent_notifications)


@pytest.mark.parametrize("package", PACKAGES)
def test_typed_result_response_reads_its_result_as_the_given_class(package: str) -> None:
    revision = _revision(package)
    result: dict[str, Any] = {"content": [{"type": "text", "text": "x"}], "isError": True}
    if package in ("v2026_07_28", "draft"):
        result["resultType"] = "complete"
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})
    response = revision.ResultResponse[revision.CallToolResult].model_validate_json(raw)
    assert type(response.result) is revision.CallToolResult and response.result.is_error is True
    assert response.model_dump(mode="json") == json.loads(raw)


# -- the bad cases, at run time -------------------------------------------------------------------


def _call_tool_result(package: str, **keywords: Any) -> Any:
    revision = _revision(package)
    if package in ("v2026_07_28", "draft"):
        keywords.setdefault("result_type", "complete")
    return revision.CallToolResult(content=[revision.TextContent(text="x")], **keywords)


@pytest.mark.parametrize("package", PACKAGES)
def test_attribute_name_keywords_land_in_their_fields_and_dump_by_wire_name(package: str) -> None:
    result = _call_tool_result(package, is_error=True)
    dumped = result.model_dump(mode="json")
    assert dumped["isError"] is True and "is_error" not in dumped
    assert result.is_error is True and result.model_extra == {}
    assert json.loads(result.model_dump_json())["isError"] is True
    # A wire-name keyword lands in the same field at run time (type checkers only offer the attribute name).
    assert _call_tool_result(package, **{"isError": False}).is_error is False


@pytest.mark.parametrize("package", PACKAGES)
def test_a_field_given_under_both_names_is_a_type_error(package: str) -> None:
    with pytest.raises(TypeError, match="is_error"):
        _call_tool_result(package, is_error=True, **{"isError": False})


def test_namespaced_meta_keys_are_built_by_attribute_name_and_refused_twice() -> None:
    revision = _revision("v2026_07_28")
    meta = revision.RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=revision.ClientCapabilities(),
    )
    assert meta.model_dump(mode="json") == {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    with pytest.raises(TypeError, match="io_modelcontextprotocol_protocol_version"):
        revision.RequestMetaObject(
            io_modelcontextprotocol_protocol_version="2026-07-28",
            io_modelcontextprotocol_client_capabilities=revision.ClientCapabilities(),
            **{"io.modelcontextprotocol/protocolVersion": "2025-11-25"},
        )


@pytest.mark.parametrize("package", ["v2025_06_18", "v2025_11_25", "v2026_07_28", "draft"])
def test_snake_case_keys_read_from_json_stay_unknown_keys(package: str) -> None:
    revision = _revision(package)
    raw: dict[str, Any] = {"content": [], "structured_content": {"a": 1}, "is_error": True}
    if package in ("v2026_07_28", "draft"):
        raw["resultType"] = "complete"
    for parsed in (
        revision.CallToolResult.model_validate_json(json.dumps(raw)),
        revision.CallToolResult.model_validate(raw),
    ):
        assert parsed.structured_content is MISSING and parsed.is_error is MISSING
        assert parsed.model_extra == {"structured_content": {"a": 1}, "is_error": True}
        assert parsed.model_dump(mode="json") == raw


@pytest.mark.parametrize("package", ["v2025_11_25", "v2026_07_28", "draft"])
def test_input_without_jsonrpc_is_rejected_although_building_fills_it_in(package: str) -> None:
    revision = _revision(package)
    built = revision.ToolListChangedNotification()
    assert built.model_dump(mode="json") == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    raw = '{"method": "notifications/tools/list_changed"}'
    with pytest.raises(ValidationError, match="jsonrpc"):
        revision.ToolListChangedNotification.model_validate_json(raw)
    with pytest.raises(ValueError):
        revision.parse_message(raw)
    assert revision.parse_message(built.model_dump_json()).model_dump(mode="json") == built.model_dump(mode="json")


@pytest.mark.parametrize("package", PACKAGES)
def test_input_without_a_constant_type_is_rejected_although_building_fills_it_in(package: str) -> None:
    revision = _revision(package)
    assert revision.TextContent(text="x").model_dump(mode="json") == {"type": "text", "text": "x"}
    with pytest.raises(ValidationError, match="type"):
        revision.TextContent.model_validate_json('{"text": "x"}')
    with pytest.raises(ValidationError):
        revision.TextContent(type="image", text="x")
