"""The history engine (codegen/runtime/history.py), unit-tested on tables and models of its own:
tables turned around, spans in words, keys and values another revision defines named with their
pointer. tests/test_revision_errors.py holds every generated package's tables to the spec."""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from codegen.runtime import history

PINNED = ("r1", "r2", "r3", "r4")


@dataclass(frozen=True)
class Explanation(history.Explanation):
    revision: str = "r1"
    pinned = PINNED


class Inner(BaseModel):
    model_config = ConfigDict(extra="allow")
    kind: Literal["a", "b"]


class Outer(BaseModel):
    model_config = ConfigDict(extra="allow")
    items: list[Inner]


MODELS = types.ModuleType("models")
KEYS = history.by_place({("r2", "r3", "r4"): {"Inner": ("ttl",)}, ("r3",): {"Outer": ("cursor", "cache")}})
VALUES = history.by_place({("r4",): {("Inner", "kind"): (("", '"c"'),)}})
HISTORY = history.History("r1", KEYS, VALUES, Explanation, MODELS)


def test_tables_are_turned_around_and_sorted() -> None:
    assert KEYS == {"Inner": {"ttl": ("r2", "r3", "r4")}, "Outer": {"cache": ("r3",), "cursor": ("r3",)}}
    assert list(KEYS) == ["Inner", "Outer"] and list(KEYS["Outer"]) == ["cache", "cursor"]
    assert VALUES == {("Inner", "kind"): {("", '"c"'): ("r4",)}}


@pytest.mark.parametrize(
    ("defined", "words"),
    [
        (("r2", "r3", "r4"), "defined from r2 on"),
        (("r1", "r2"), "defined up to r2"),
        (("r2", "r3"), "defined from r2 to r3"),
        (("r3",), "defined only in r3"),
        (("r1", "r3"), "defined only in r1, r3"),
    ],
)
def test_a_span_in_words(defined: tuple[str, ...], words: str) -> None:
    assert Explanation("/a", "`a`", defined).span == words


def test_foreign_keys_name_each_kept_key_another_revision_declares() -> None:
    outer = Outer.model_validate({"items": [{"kind": "a", "ttl": 3, "x": 1}], "cursor": "c"})
    found = HISTORY.foreign_keys(outer)
    assert found == [Explanation("/cursor", "`cursor`", ("r3",)), Explanation("/items/0/ttl", "`ttl`", ("r2", "r3", "r4"))]
    assert str(found[1]) == "/items/0/ttl: `ttl` is defined from r2 on; these models are revision r1"


def test_explain_names_a_value_another_revision_allows() -> None:
    with pytest.raises(ValidationError) as refused:
        Outer.model_validate({"items": [{"kind": "c"}]})
    found = HISTORY.explain(refused.value, Outer)
    assert found == Explanation("/items/0/kind", "kind `c`", ("r4",))
    with pytest.raises(ValidationError) as other:
        Outer.model_validate({"items": [{"kind": 5}]})
    assert HISTORY.explain(other.value, Outer) is None  # no revision allows 5 there


def test_without_a_reader_messages_are_not_explained() -> None:
    with pytest.raises(ValidationError) as refused:
        Outer.model_validate({"items": 1})
    assert HISTORY.explain_message(refused.value, b"{}") is None
    assert HISTORY.explain_result(refused.value, "tools/call") is None


def test_a_hostile_pointer_is_escaped_and_bounded() -> None:
    hostile = "\u202e\x1b[31m\nx/~" * 60
    outer = Outer.model_validate({"items": [{"kind": "a", "ttl": 1}], hostile: {}})
    keys = history.History("r1", {"Outer": {hostile: ("r3",)}}, {}, Explanation, MODELS).foreign_keys(outer)
    (found,) = keys
    assert found.path.startswith("/\\u202e\\x1b[31m\\nx~1~0") and len(found.path) == 120
    assert found.path.isprintable() and found.path.endswith("…")
    assert len(str(found)) <= 300
