"""Tolerant list parsing as type checkers see it: this file must type-check under mypy --strict and
pyright strict (tests/test_tolerant_lists.py). Each list method keeps its result type, wrapped."""

from __future__ import annotations

from typing import assert_type

from mcp_models import (
    draft,
    surface,
    v2024_11_05,
    v2025_03_26,
    v2025_06_18,
    v2025_11_25,
    v2026_07_28,
)
from mcp_models.v2025_11_25 import (
    AnyListResult,
    AnyResult,
    DroppedItem,
    ListMethod,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListRootsResult,
    ListTasksResult,
    ListToolsResult,
    Message,
    Tolerated,
    parse_message,
    parse_result,
)


def each_list_method(raw: bytes) -> None:
    assert_type(parse_result("tools/list", raw, tolerant=True), Tolerated[ListToolsResult])
    assert_type(parse_result("prompts/list", raw, tolerant=True), Tolerated[ListPromptsResult])
    assert_type(parse_result("resources/list", raw, tolerant=True), Tolerated[ListResourcesResult])
    assert_type(parse_result("resources/templates/list", raw, tolerant=True), Tolerated[ListResourceTemplatesResult])
    assert_type(parse_result("roots/list", raw, tolerant=True), Tolerated[ListRootsResult])
    assert_type(parse_result("tasks/list", raw, tolerant=True), Tolerated[ListTasksResult])


def what_a_tolerated_result_holds(raw: str) -> list[str]:
    tolerated = parse_result("tools/list", raw, tolerant=True)
    assert_type(tolerated.value, ListToolsResult)
    assert_type(tolerated.dropped, tuple[DroppedItem, ...])
    for item in tolerated.dropped:
        assert_type(item.index, int)
        assert_type(item.pointer, str)
        assert_type(item.raw, object)
        assert_type(item.reason, str)
    return [tool.name for tool in tolerated.value.tools]


def strict_stays_as_it_was(raw: bytes) -> None:
    assert_type(parse_result("tools/list", raw), ListToolsResult)
    assert_type(parse_result("tools/list", raw, tolerant=False), ListToolsResult)
    assert_type(parse_result("tools/call", raw), v2025_11_25.CallToolResult | v2025_11_25.CreateTaskResult)
    assert_type(parse_message(raw), Message)
    assert_type(parse_message(raw, {1: "tools/list"}, tolerant=False), Message)


def a_method_known_at_run_time(method: ListMethod, raw: bytes) -> AnyListResult:
    tolerated = parse_result(method, raw, tolerant=True)
    assert_type(tolerated, Tolerated[AnyListResult])
    widened: Tolerated[AnyResult] = tolerated  # covariant in its value
    assert widened.dropped == tolerated.dropped
    return tolerated.value


def messages(raw: bytes) -> None:
    tolerated = parse_message(raw, {7: "tools/list"}, tolerant=True)
    assert_type(tolerated, Tolerated[Message])
    assert_type(parse_message(raw, tolerant=True).dropped, tuple[DroppedItem, ...])
    newest = v2026_07_28.parse_message(raw, {7: "tools/list"}, tolerant=True)
    if isinstance(newest.value, v2026_07_28.ListToolsResultResponse):  # the schema's own response class
        assert_type(newest.value.result, v2026_07_28.ListToolsResult)


def every_revision(raw: bytes) -> None:
    assert_type(
        v2024_11_05.parse_result("tools/list", raw, tolerant=True), v2024_11_05.Tolerated[v2024_11_05.ListToolsResult]
    )
    assert_type(
        v2025_03_26.parse_result("roots/list", raw, tolerant=True), v2025_03_26.Tolerated[v2025_03_26.ListRootsResult]
    )
    assert_type(
        v2025_06_18.parse_result("prompts/list", raw, tolerant=True),
        v2025_06_18.Tolerated[v2025_06_18.ListPromptsResult],
    )
    assert_type(
        v2026_07_28.parse_result("resources/list", raw, tolerant=True),
        v2026_07_28.Tolerated[v2026_07_28.ListResourcesResult],
    )
    assert_type(
        draft.parse_result("resources/templates/list", raw, tolerant=True),
        draft.Tolerated[draft.ListResourceTemplatesResult],
    )
    assert_type(
        v2024_11_05.parse_message(raw, {1: "tools/list"}, tolerant=True), v2024_11_05.Tolerated[v2024_11_05.Message]
    )


def the_surface(raw: bytes) -> None:
    tools = surface.parse_result("tools/list", raw, protocol_version="2025-06-18", tolerant=True)
    assert_type(tools, surface.Tolerated[surface.ListToolsResult])
    assert_type(tools.value.tools, list[surface.Tool])
    tasks = surface.parse_result("tasks/list", raw, protocol_version="2025-11-25", tolerant=True)
    assert_type(tasks, surface.Tolerated[surface.ListTasksResult])
    assert_type(surface.parse_result("tools/list", raw, protocol_version="2025-06-18"), surface.AnyResult)
    message = surface.parse_message(raw, protocol_version="2025-06-18", pending={1: "tools/list"}, tolerant=True)
    assert_type(message, surface.Tolerated[surface.Message])
    assert_type(surface.parse_message(raw, protocol_version="2025-06-18"), surface.Message)
