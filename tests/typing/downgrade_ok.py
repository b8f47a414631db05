"""Must type-check cleanly under mypy --strict and pyright strict (see tests/test_sep2106_downgrade.py)."""

from __future__ import annotations

from pydantic import BaseModel
from typing_extensions import assert_type

from mcp_models import surface
from mcp_models.surface import Change, ChangeKind, DowngradeMode


def send_down(result: surface.CallToolResult, tools: surface.ListToolsResult, mode: DowngradeMode) -> list[str]:
    changes: list[Change] = []
    dropped: list[str] = []
    wire = surface.send(result, "2025-06-18", dropped=dropped, changes=changes)
    assert_type(wire, str)
    refused = surface.send(result, "2025-11-25", downgrade="refuse")
    exact = surface.to_revision(tools, "2025-03-26", changes=changes, downgrade=mode)
    assert_type(exact, BaseModel)
    both: DowngradeMode = "fallback"
    surface.to_revision(result, "2024-11-05", downgrade=both)
    for change in changes:
        assert_type(change.kind, ChangeKind)
        if change.kind == "downgraded" and change.fallback is not None:
            carrier: str = change.fallback
            dropped.append(carrier)
        where: str = change.path
        why: str = change.reason
        dropped.append(where + why)
    try:
        surface.send(result, "2025-06-18", downgrade="refuse")
    except surface.RevisionError as error:
        dropped.append(error.path)
    made = Change("added", "/content/1", "a TextContent", None)
    return [wire, refused, made.path, *dropped]
