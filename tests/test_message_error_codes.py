"""A server answers bad input with the JSON-RPC code it deserves (issue 35, point 8): text that is
not JSON is a Parse error (-32700, NotJSONError), JSON that is not a message an Invalid Request
(-32600, MessageError itself), told apart by class and by `code`, in every revision package and
the surface, so nothing has to decode the body twice to answer."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

NOT_JSON = [b"{", b"", b"[1,]", b'{"jsonrpc": "2.0", "id": 1, "result": NaN}', b'{"a": 1e400}', b"\xff", "\ud800"]
NOT_A_MESSAGE = [b"[1]", b"1", b'"text"', b'{"x": 1}', b'{"jsonrpc": "2.0", "id": 1}', {"x": 1}]
PACKAGES = ["v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "v2026_07_28", "draft"]


def _refusal(parse: Any, error: type[Exception], raw: object) -> Exception:
    with pytest.raises(error) as caught:
        parse(raw)
    return caught.value


@pytest.mark.parametrize("package", PACKAGES)
def test_not_json_is_a_parse_error_and_json_of_another_shape_an_invalid_request(package: str) -> None:
    module = importlib.import_module(f"mcp_models.{package}")
    for parse in (module.parse_message, module.parse_envelope):
        for raw in NOT_JSON:
            found = _refusal(parse, module.MessageError, raw)
            assert isinstance(found, module.NotJSONError) and found.code == -32700, (raw, found)
        for raw in NOT_A_MESSAGE:
            found = _refusal(parse, module.MessageError, raw)
            assert type(found) is module.MessageError and found.code == -32600, (raw, found)


def test_the_surface_keeps_the_distinction() -> None:
    surface = importlib.import_module("mcp_models.surface")

    def parse(raw: object) -> object:
        return surface.parse_message(raw, protocol_version="2026-07-28")

    for raw in NOT_JSON:
        found = _refusal(parse, surface.MessageError, raw)
        assert isinstance(found, surface.NotJSONError) and found.code == -32700, (raw, found)
    for raw in NOT_A_MESSAGE:
        found = _refusal(parse, surface.MessageError, raw)
        assert type(found) is surface.MessageError and found.code == -32600, (raw, found)
