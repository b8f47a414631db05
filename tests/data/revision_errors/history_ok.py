"""Must type-check under mypy --strict and pyright strict (tests/test_revision_errors.py)."""

from __future__ import annotations

from pydantic import TypeAdapter, ValidationError

from mcp_models import surface
from mcp_models.v2024_11_05 import ClientRequest, parse_message, parse_result
from mcp_models.v2024_11_05.history import Explanation, explain, explain_message, explain_result, foreign_keys


def read(raw: bytes) -> str | None:
    try:
        message = parse_message(raw, {1: "tools/call"})
    except ValidationError as error:
        found: Explanation | None = explain_message(error, raw, {1: "tools/call"})
        return None if found is None else str(found)
    kept: list[Explanation] = foreign_keys(message)
    return kept[0].defined_in[0] if kept else None


def result(raw: str) -> str:
    try:
        parse_result("tools/call", raw)
    except ValidationError as error:
        found = explain_result(error, "tools/call")
        if found is not None:
            return found.line("the peer speaks 2025-06-18") + found.span + found.path + found.subject
    return ""


def request(data: dict[str, object]) -> tuple[str, ...]:
    try:
        TypeAdapter(ClientRequest).validate_python(data)
    except ValidationError as error:
        found = explain(error, ClientRequest)
        return () if found is None else found.defined_in
    return ()


def session(raw: bytes) -> tuple[str, ...]:
    try:
        surface.parse_message(raw, protocol_version="2024-11-05")
    except surface.RevisionError as error:
        return error.defined_in
    return ()
