"""The text fast paths of parse_message / parse_envelope decide exactly as the general path does.

The fast paths guess a class from the raw bytes (substrings, the first `"id"`, the first `"code"`)
and keep a guess only when it provably matches the exact rule. Hypothesis writes messages that try
to fool them: keys written with escapes, nested `id` / `code` / `method` keys before the top-level
ones, odd ids, fixed and unknown error codes, random key order. Bytes (fast paths) and the decoded
dict (general path only) must give the same class and the same dump, or the same kind of error.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from . import suite
from .conftest import REVISIONS, SPEC

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.text(max_size=6))
IDS = st.one_of(st.integers(-(10**25), 10**25), st.text(max_size=8), st.sampled_from(['r"1', "a\\b", "é"]))


def _package(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}.messages")


@st.composite
def _json_text(draw: st.DrawFn, value: object) -> str:
    """`value` as JSON text, each object's keys in a drawn order, some written with escapes."""
    if isinstance(value, dict):
        items = list(value.items())
        order = draw(st.permutations(range(len(items))))
        parts = []
        for index in order:
            key, item = items[index]
            escaped = draw(st.booleans())
            key_text = '"' + "".join(f"\\u{ord(c):04x}" for c in key) + '"' if escaped else json.dumps(key)
            parts.append(f"{key_text}:{draw(_json_text(item))}")
        return "{" + ",".join(parts) + "}"
    if isinstance(value, list):
        return "[" + ",".join(draw(_json_text(item)) for item in value) + "]"
    return json.dumps(value)


def _codes(package: ModuleType) -> list[int]:
    """Error codes with a class of their own, and some without."""
    return sorted(package.ERROR_RESPONSES) + [-32600, -32601, 7]


@st.composite
def _decoys(draw: st.DrawFn, package: ModuleType) -> dict[str, Any]:
    """A nested object holding keys the fast paths look for."""
    keys = draw(st.sets(st.sampled_from(["id", "code", "method", "result", "error", "x"]), max_size=4))
    values = st.one_of(IDS, JSON_SCALARS, st.sampled_from(_codes(package)))
    return {key: draw(values) for key in sorted(keys)}


@st.composite
def _message(draw: st.DrawFn, package: ModuleType) -> tuple[dict[str, Any], dict[str | int, str]]:
    methods = sorted(package.REQUESTS) + sorted(package.NOTIFICATIONS) + ["no/such/method"]
    kind = draw(st.sampled_from(["request", "notification", "response", "error", "odd"]))
    message: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "2.0", "1.0"]))}
    if kind in ("request", "notification", "odd"):
        message["method"] = draw(st.sampled_from(methods))
        params = draw(_decoys(package))
        if draw(st.booleans()):
            params["_meta"] = {}
        message["params"] = params
    if kind in ("request", "response", "error") or (kind == "odd" and draw(st.booleans())):
        message["id"] = draw(IDS)
    if kind == "response" or (kind == "odd" and draw(st.booleans())):
        result = draw(_decoys(package))
        result.update(draw(st.sampled_from([{}, {"resultType": "complete"}, {"resultType": "input_required"}])))
        message["result"] = result
    if kind == "error" or (kind == "odd" and draw(st.booleans())):
        error: dict[str, Any] = {"message": "m"}
        if draw(st.booleans()):
            error["data"] = draw(_decoys(package))
        error["code"] = draw(st.one_of(st.sampled_from(_codes(package)), JSON_SCALARS))
        message["error"] = error
    return message, draw(_pending_for(package, message))


# Minimal valid messages of the revisions before 2026-07-28 (which have no example folders).
_CLASSIC = [
    ({"jsonrpc": "2.0", "id": 1, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}, None),
    ({"jsonrpc": "2.0", "method": "notifications/initialized"}, None),
    ({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}}, None),
    ({"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}, "tools/list"),
    ({"jsonrpc": "2.0", "id": 1, "result": {}}, "ping"),
]


def _valid_messages(revision: str, package: ModuleType) -> list[tuple[dict[str, Any], str | None]]:
    """Messages the revision accepts, each with the method its response answers (or None)."""
    by_response = {cls.__name__: method for method, cls in package.RESPONSES.items()}
    found: list[tuple[dict[str, Any], str | None]] = []
    for path in sorted((SPEC / revision / "examples").rglob("*.json")):
        data = json.loads(path.read_bytes())
        if isinstance(data, dict) and data.get("jsonrpc") == "2.0":
            found.append((data, by_response.get(path.parent.name)))
    found += [(m, answers) for m, answers in _CLASSIC if m.get("method", "ping") in package.SENDERS]
    return found


@st.composite
def _variant(draw: st.DrawFn, package: ModuleType, valid: list[tuple[dict[str, Any], str | None]]) -> tuple[dict[str, Any], dict[str | int, str]]:
    """A valid message, perhaps with decoy keys nested inside, another id, or a stray top-level key."""
    by_kind: dict[str, list[tuple[dict[str, Any], str | None]]] = {}
    for sample in valid:
        kind = next((k for k in ("method", "result", "error") if k in sample[0]), "other")
        by_kind.setdefault(kind, []).append(sample)
    message, answers = draw(st.sampled_from(by_kind[draw(st.sampled_from(sorted(by_kind)))]))
    message = json.loads(json.dumps(message))
    for member in ("params", "result"):
        if isinstance(message.get(member), dict) and draw(st.booleans()):
            message[member].update(draw(_decoys(package)))
    if isinstance(message.get("error"), dict) and draw(st.booleans()):
        message["error"]["data"] = draw(_decoys(package))
    if "id" in message and draw(st.booleans()):
        message["id"] = draw(IDS)
    stray = draw(st.sampled_from(["id", "method", "result", "error", ""]))
    if stray and stray not in message:
        message[stray] = draw(st.one_of(IDS, JSON_SCALARS, _decoys(package)))
    pending = draw(_pending_for(package, message, answers))
    if answers is not None and isinstance(message.get("id"), str | int) and draw(st.booleans()):
        pending[message["id"]] = answers
    return message, pending


def _ids_within(value: object) -> list[str | int]:
    """Every `id` value anywhere in a message, nested ones included."""
    if isinstance(value, dict):
        found = [value["id"]] if isinstance(value.get("id"), str | int) else []
        return found + [i for item in value.values() for i in _ids_within(item)]
    if isinstance(value, list):
        return [i for item in value for i in _ids_within(item)]
    return []


@st.composite
def _pending_for(
    draw: st.DrawFn, package: ModuleType, message: dict[str, Any], answers: str | None = None
) -> dict[str | int, str]:
    """Pending requests for some of the ids in the message (nested decoys too): the method the
    message answers, or another."""
    methods = st.sampled_from(sorted(package.RESPONSES) or ["ping"])
    if answers is not None:
        methods = st.one_of(st.just(answers), methods)
    return {i: draw(methods) for i in _ids_within(message) if draw(st.integers(0, 2)) == 0}


def _outcome(parse: Any, *args: Any) -> tuple[str, object]:
    try:
        parsed = parse(*args)
    except ValidationError:
        return ("ValidationError", None)
    except ValueError as exc:  # MessageError
        return (type(exc).__name__, None)
    return (type(parsed).__name__, parsed.model_dump(mode="json"))


@pytest.mark.slow
@pytest.mark.parametrize("revision", list(REVISIONS))
def test_fast_paths_agree_with_the_general_path(revision: str) -> None:
    package = _package(revision)
    valid = _valid_messages(revision, package)
    checked: list[str] = []

    @settings(max_examples=suite.examples(300))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        message, pending = data.draw(st.one_of(*[_variant(package, valid)] * 3, _message(package)))
        text = data.draw(_json_text(message))
        decoded = json.loads(text)
        exact = _outcome(package.parse_message, decoded, pending)
        assert _outcome(package.parse_message, text.encode(), pending) == exact, text
        assert _outcome(package.parse_message, text, pending) == exact, text
        assert _outcome(package.parse_envelope, text.encode()) == _outcome(package.parse_envelope, decoded), text
        checked.append(exact[0])

    check()
    # the drawn messages reached typed classes, not only errors and envelopes
    typed = set(checked) - {"ValidationError", "MessageError", "JSONRPCRequest", "JSONRPCNotification"}
    assert len(typed) >= (12 if (SPEC / revision / "examples").is_dir() else 4), sorted(typed)
