"""Tolerant list parsing used wrongly: each marked line must fail under mypy --strict and pyright
strict, and no other line (tests/test_tolerant_lists.py)."""

from __future__ import annotations

from mcp_models import surface, v2024_11_05, v2025_11_25, v2026_07_28
from mcp_models.v2025_11_25 import (
    ListPromptsResult,
    ListToolsResult,
    Message,
    Tolerated,
    parse_message,
    parse_result,
)


def not_a_list_method(raw: bytes) -> None:
    parse_result("tools/call", raw, tolerant=True)  # expect-error
    parse_result("initialize", raw, tolerant=True)  # expect-error
    v2026_07_28.parse_result("tasks/list", raw, tolerant=True)  # expect-error
    v2024_11_05.parse_result("tasks/list", raw, tolerant=True)  # expect-error


def the_list_is_on_value(raw: bytes) -> None:
    tools = parse_result("tools/list", raw, tolerant=True).tools  # expect-error
    assert tools
    listed: ListToolsResult = parse_result("tools/list", raw, tolerant=True)  # expect-error
    assert listed


def another_method_s_result(raw: bytes) -> None:
    prompts: Tolerated[ListPromptsResult] = parse_result("tools/list", raw, tolerant=True)  # expect-error
    assert prompts


def another_revision_s_classes(raw: bytes) -> None:
    tools: Tolerated[ListToolsResult] = v2024_11_05.parse_result("tools/list", raw, tolerant=True)  # expect-error
    assert tools


def a_method_only_known_at_run_time(raw: bytes, method: str) -> None:
    parse_result(method, raw, tolerant=True)  # expect-error  (a ListMethod is)


def a_dropped_item_is_read_only(raw: bytes) -> None:
    for item in parse_result("tools/list", raw, tolerant=True).dropped:
        item.index = 0  # expect-error
        item.raw.get("name")  # expect-error


def a_tolerated_message(raw: bytes) -> None:
    message: Message = parse_message(raw, {1: "tools/list"}, tolerant=True)  # expect-error
    assert message
    result = parse_message(raw, {1: "tools/list"}, tolerant=True).result  # expect-error
    assert result


def the_surface(raw: bytes) -> None:
    surface.parse_result("tools/call", raw, protocol_version="2025-06-18", tolerant=True)  # expect-error
    read = surface.parse_result("tools/list", raw, protocol_version="2025-06-18", tolerant=True)
    tools: surface.ListToolsResult = read  # expect-error
    exact: Tolerated[ListToolsResult] = read  # expect-error  (the surface's classes, not 2025-11-25's)
    assert tools and exact
    result = surface.parse_message(raw, protocol_version="2025-06-18", tolerant=True).value.result  # expect-error
    assert result
    v2025_11_25.parse_result("tools/list", raw, protocol_version="2025-11-25", tolerant=True)  # expect-error
