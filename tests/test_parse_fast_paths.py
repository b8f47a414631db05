"""The reading fast paths of issue 23 decide exactly as the exact rules do.

- Every spec example of every revision reads the same from bytes (the fast paths: the class of the
  `method` the text names, the pending request's response class, the error code's class, each
  validating the bytes in one pass) as from the decoded object (the general path: the exact rules).
- The text pre-scan that keeps NaN, Infinity and numbers a double cannot hold out of the readers
  is only ever a hint: on drawn JSON text it says "maybe" whenever the exact reading finds such a
  number, whatever the exponent's spelling (`1e400`, `1E+0400`, `-2e308`) or what surrounds it.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from pydantic_core import from_json

from . import suite
from .conftest import REVISIONS, SPEC


def _messages(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}.messages")


def _examples(revision: str) -> list[tuple[Path, bytes]]:
    folder = SPEC / revision / "examples"
    found = [(path, path.read_bytes()) for path in sorted(folder.rglob("*.json"))] if folder.is_dir() else []
    return [(path, raw) for path, raw in found if isinstance(json.loads(raw), dict) and b'"jsonrpc"' in raw]


def _outcome(parse: Any, *args: Any) -> tuple[str, object]:
    try:
        parsed = parse(*args)
    except ValidationError as exc:
        return ("ValidationError", sorted({error["type"] for error in exc.errors()}))
    except ValueError as exc:  # MessageError
        return (type(exc).__name__, None)
    return (type(parsed).__name__, parsed.model_dump(mode="json"))


def _pending(package: ModuleType, path: Path, message: dict[str, Any]) -> dict[str | int, str] | None:
    """The pending request a response example answers: the method whose response class its folder names."""
    by_response = {cls.__name__: method for method, cls in package.RESPONSES.items()}
    method = by_response.get(path.parent.name)
    request_id = message.get("id")
    return {request_id: method} if method is not None and isinstance(request_id, str | int) else None


@pytest.mark.parametrize("revision", [r for r in REVISIONS if (SPEC / r / "examples").is_dir()])
def test_every_example_reads_the_same_from_bytes_and_from_the_decoded_object(revision: str) -> None:
    package = _messages(revision)
    examples = _examples(revision)
    assert len(examples) >= 25, "the revision's examples were not found"
    typed: set[str] = set()
    for path, raw in examples:
        decoded = json.loads(raw)
        pending = _pending(package, path, decoded)
        exact = _outcome(package.parse_message, decoded, pending)
        assert _outcome(package.parse_message, raw, pending) == exact, path.name
        assert _outcome(package.parse_message, raw.decode(), pending) == exact, path.name
        assert _outcome(package.parse_envelope, raw) == _outcome(package.parse_envelope, decoded), path.name
        typed.add(exact[0])
    # the examples reached the typed classes (requests, notifications, responses, errors), not envelopes
    assert len(typed - {"JSONRPCRequest", "JSONRPCNotification", "JSONRPCResultResponse"}) >= 25, sorted(typed)


@pytest.mark.parametrize("revision", [r for r in REVISIONS if (SPEC / r / "examples").is_dir()])
def test_a_method_no_class_pins_or_not_written_plainly_goes_to_the_exact_rules(revision: str) -> None:
    package = _messages(revision)
    request = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}
    for changed, expected in (
        ({"method": "vendor/custom"}, "JSONRPCRequest"),  # no class pins it: the envelope
        ({"method": 5}, "ValidationError"),  # not a tag at all
        ({"id": None}, "JSONRPCNotification"),  # a request's id is a number or a string
    ):
        message = {**request, **changed}
        raw = json.dumps(message).encode()
        assert _outcome(package.parse_message, raw)[0] == expected
        assert _outcome(package.parse_message, raw) == _outcome(package.parse_message, message)
    # a notification's method with an id: a request of an unknown kind, as the exact rule says
    message = {"jsonrpc": "2.0", "id": 4, "method": "notifications/tools/list_changed"}
    assert _outcome(package.parse_message, json.dumps(message).encode()) == _outcome(package.parse_message, message)
    # the method key written with escapes is the method, read as the exact rule reads it
    for path, raw in _examples(revision):
        if b'"method": "tools/list"' in raw:
            escaped = raw.replace(b'"method"', b'"\\u006dethod"', 1)
            assert _outcome(package.parse_message, escaped) == _outcome(package.parse_message, raw), path.name
            assert _outcome(package.parse_message, escaped)[0] == "ListToolsRequest"


_EXPONENTS = st.builds(
    lambda mantissa, marker, sign, zeros, digits: f"{mantissa}{marker}{sign}{'0' * zeros}{digits}",
    st.sampled_from(["1", "-1", "2.5", "0.1", "9", "-0", "17976931348623157"]),
    st.sampled_from(["e", "E"]),
    st.sampled_from(["", "+", "-"]),
    st.integers(0, 3),
    st.integers(0, 99999).map(str),
)
_NUMBERS = st.one_of(
    _EXPONENTS,
    st.integers(1, 400).map(lambda n: "7" * n + ".5"),  # long integer parts
    st.integers(1, 400).map(lambda n: "1" + "0" * n),  # integers: a Python int, never infinity
    st.floats(allow_nan=False, allow_infinity=False).map(repr).filter(lambda text: "inf" not in text),
)
_WORDS = st.text(st.sampled_from("aeEIN0123456789 -+./_xyz"), max_size=12)


@st.composite
def _text_with_numbers(draw: st.DrawFn) -> bytes:
    """JSON text: an object whose values are drawn numbers, strings of number-like words, nested."""
    values = st.recursive(
        st.one_of(_NUMBERS, _WORDS.map(json.dumps)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
            st.dictionaries(_WORDS, inner, max_size=3).map(
                lambda members: "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in members.items()) + "}"
            ),
        ),
        max_leaves=6,
    )
    members = draw(st.dictionaries(_WORDS, values, min_size=1, max_size=4))
    return ("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in members.items()) + "}").encode()


def _holds_non_finite(value: object) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_holds_non_finite(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds_non_finite(item) for item in value)
    return False


@pytest.mark.parametrize("revision", ["2024-11-05", "2026-07-28"])
def test_the_number_pre_scan_never_misses_a_number_a_double_cannot_hold(revision: str) -> None:
    package = _messages(revision)
    huge: list[bytes] = []

    @settings(max_examples=suite.examples(800))
    @given(raw=_text_with_numbers())
    def check(raw: bytes) -> None:
        if _holds_non_finite(from_json(raw)):
            assert package._maybe_huge(raw), raw
            assert package._maybe_huge(bytearray(raw)), raw
            with pytest.raises(package.MessageError, match="does not fit a double"):
                package._json_numbers_only(raw)
            huge.append(raw)
        else:
            package._json_numbers_only(raw)  # a hint is weighed by the exact check: kept

    check()
    assert len(huge) >= 25, "the drawn text seldom held such a number"


@pytest.mark.parametrize("revision", ["2024-11-05", "2026-07-28"])
def test_the_word_pre_scan_finds_nan_and_infinity_wherever_they_are(revision: str) -> None:
    package = _messages(revision)

    @settings(max_examples=suite.examples(1000))
    @given(before=st.text(max_size=40), word=st.sampled_from(["NaN", "Infinity", "-Infinity"]), after=st.text(max_size=40))
    def check(before: str, word: str, after: str) -> None:
        raw = (before + word + after).encode()
        assert package._may_hold_non_json_number(raw)
        with pytest.raises(package.MessageError):
            package._json_numbers_only(f'{{"a": [{word}], "b": {json.dumps(before + after)}}}')

    check()
    for text in (b"", b"NI", b"Na N", b"Infinit", b"INFINITY", b"nan", b'{"I": "N"}'):
        assert not package._may_hold_non_json_number(text), text


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_a_method_beside_a_result_or_error_is_read_by_the_rules(revision: str) -> None:
    """The long differential run found these: a request's method and id beside an `error` member is
    an error response by the older schemas' rules, while the text's method picked the request."""
    package = _messages(revision)
    methods = sorted(package.REQUESTS)[:3] + ["ping"]
    for method in methods:
        for member in ({"error": {"message": "m", "code": -32600}}, {"result": {}}):
            for with_id in (True, False):
                message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": {}, **member}
                if with_id:
                    message["id"] = 0
                raw = json.dumps(message).encode()
                exact = _outcome(package.parse_message, message)
                assert _outcome(package.parse_message, raw) == exact, raw
                assert _outcome(package.parse_message, raw, {0: method}) == _outcome(package.parse_message, message, {0: method}), raw
                assert _outcome(package.parse_envelope, raw) == _outcome(package.parse_envelope, message), raw
