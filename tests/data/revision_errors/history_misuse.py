"""Each marked line must be an error under mypy --strict and pyright strict (tests/test_revision_errors.py)."""

from __future__ import annotations

from pydantic import ValidationError

from mcp_models import surface
from mcp_models.v2024_11_05 import parse_message
from mcp_models.v2024_11_05.history import explain, explain_message, explain_result, foreign_keys


def misuse(error: ValidationError, raw: bytes) -> None:
    explain(error)  # expect-error
    explain_message(raw, error)  # expect-error
    found = explain_result(error, "tools/call")
    print(found.path)  # expect-error
    kept: list[str] = foreign_keys(parse_message(raw))  # expect-error
    explain_result(error, 3)  # expect-error
    revisions: int = surface.RevisionError("m", revision="x").defined_in  # expect-error
    print(kept, revisions)
