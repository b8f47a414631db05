"""Each marked line must be an error under mypy --strict and pyright strict (see tests/test_sep2106_downgrade.py)."""

from __future__ import annotations

from mcp_models import surface
from mcp_models.surface import Change, ChangeKind, DowngradeMode


def misuse(result: surface.CallToolResult, change: Change) -> None:
    changes: list[Change] = []
    dropped: list[str] = []
    surface.send(result, "2025-06-18", downgrade="drop")  # expect-error
    surface.send(result, "2025-06-18", downgrade=True)  # expect-error
    surface.to_revision(result, "2025-06-18", downgrade="Refuse")  # expect-error
    surface.send(result, "2025-06-18", changes=dropped)  # expect-error
    surface.to_revision(result, "2025-06-18", dropped=changes)  # expect-error
    surface.send(result, "2025-06-18", None, None, "refuse")  # expect-error
    mode: DowngradeMode = "text"  # expect-error
    kind: ChangeKind = "removed"  # expect-error
    change.path = "/content/0"  # expect-error
    carrier: str = change.fallback  # expect-error
    Change("dropped", "/x")  # expect-error
    print(mode, kind, carrier)
