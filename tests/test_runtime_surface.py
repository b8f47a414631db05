"""The surface's engine (codegen/runtime/surface.py, fields.py) on a surface made by hand: two
revisions of one class, the second adding a key. What the generated surface does at every pinned
revision is tests/test_surface*.py's; here, the engine's own rules, without a generation."""

from __future__ import annotations

import json
import sys
from types import ModuleType
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel, ConfigDict
from pydantic_core import MISSING

from codegen.runtime import fields
from codegen.runtime.surface import Change, RevisionError, Shape, Surface


class Model(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class OldItem(Model):
    """Revision r1's Item: no icons (kept as an unknown key)."""

    name: str


class NewItem(Model):
    """Revision r2's Item."""

    name: str
    icons: list[str] | MISSING = MISSING


class Item(Model):
    """The surface's Item: every key of every revision."""

    name: str
    icons: list[str] | MISSING = MISSING


class Listing(Model):
    """The surface's class holding items."""

    items: list[Item]


def _module(name: str, **members: object) -> ModuleType:
    module = ModuleType(name)
    vars(module).update(members)
    return module


@pytest.fixture
def surface(monkeypatch: pytest.MonkeyPatch) -> Surface:
    modules = {
        "fake": _module("fake"),
        "fake.r1": _module("fake.r1"),
        "fake.r1.models": _module("fake.r1.models", Item=OldItem),
        "fake.r2": _module("fake.r2"),
        "fake.r2.models": _module("fake.r2.models", Item=NewItem),
        "fake.surface": _module("fake.surface"),
    }
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    shapes = {
        "Item": {
            "r1": Shape("Item", frozenset({"name"}), frozenset({"name"}), False),
            "r2": Shape("Item", frozenset({"name", "icons"}), frozenset({"name"}), False),
        }
    }
    return Surface(
        "fake.surface",
        _module("fake.surface.models", Item=Item, Listing=Listing),
        _module("fake.surface.messages"),
        revisions=("r1", "r2"),
        packages={"r1": "r1", "r2": "r2"},
        renamed={},
        absent_means={},
        shapes=shapes,
        wire_shapes={},
        widened={},
        methods={},
    )


def test_send_drops_a_key_the_revision_lacks_and_reports_it(surface: Surface) -> None:
    item = Item(name="a", icons=["i.png"])
    dropped: list[str] = []
    changes: list[Change] = []
    assert surface.send(item, "r1", dropped=dropped, changes=changes) == '{"name":"a"}'
    assert dropped == ["/icons"]
    assert changes == [Change("dropped", "/icons", "revision r1 does not define icons here")]
    assert json.loads(surface.send(item, "r2")) == {"name": "a", "icons": ["i.png"]}
    assert isinstance(surface.to_revision(item, "r1"), OldItem)


def test_the_text_path_is_taken_only_where_the_fit_changes_nothing(surface: Surface) -> None:
    assert surface._left_as_dumped(Item(name="a"), "r1")
    assert surface._left_as_dumped(Item(name="a", icons=[]), "r2")
    assert not surface._left_as_dumped(Item(name="a", icons=[]), "r1")  # icons: dropped at r1


def test_a_key_that_arrived_at_a_revision_goes_back_as_it_came(surface: Surface) -> None:
    exact = OldItem.model_validate({"name": "a", "icons": ["i.png"]})  # kept as an unknown key
    received = Item(name="a", icons=["i.png"])
    fields.remember(exact, received, "r1")
    assert fields.arrived(received, "r1") == {"icons"} and fields.arrived(received, "r2") == set()
    assert json.loads(surface.send(received, "r1")) == {"name": "a", "icons": ["i.png"]}


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the wrong value, dumped
def test_what_a_revision_refuses_is_a_revision_error_naming_the_place(surface: Surface) -> None:
    wrong = Item.model_construct(name=3)  # built without validation, as a caller may
    with pytest.raises(RevisionError) as refused:
        surface.send(wrong, "r1")
    assert refused.value.path == "/name" and "revision r1 cannot carry this Item" in str(refused.value)
    with pytest.raises(RevisionError, match="Listing does not exist in revision r1"):
        surface.send(Listing(items=[]), "r1")
    with pytest.raises(RevisionError, match=r"protocol version '1999' is not one this surface spans \(r1, r2\)"):
        surface.send(Item(name="a"), "1999")
    with pytest.raises(ValueError, match="downgrade must be one of 'fallback', 'refuse'"):
        surface.send(Item(name="a"), "r1", downgrade="later")  # type: ignore[arg-type]
    assert surface.revision_of("r2") == "r2"


def test_a_revision_error_is_one_bounded_line() -> None:
    error = RevisionError("x" * 500, revision="r1", path="/" + "k\n" * 200)
    line = str(error)
    assert "\n" not in line and len(line) == 300 and "\\n" in line
    assert error.path.startswith("/k\n") and error.revision == "r1"


T = TypeVar("T")


def test_the_model_classes_a_type_may_hold() -> None:
    assert fields.model_classes_in(list[Item] | None) == {Item}
    assert fields.model_classes_in(dict[str, Listing]) == {Listing}
    assert fields.model_classes_in(Any) == frozenset()  # any JSON: read and dumped as JSON
    assert fields.model_classes_in(str | int) == frozenset()
    assert fields.model_classes_in(T) is None  # not known
    assert fields.classes_in(list[Item]) == {"Item"}
    assert fields.wire_names(Listing) == {"items": "items"}
    assert fields.walked_keys(Listing) == {"items"} and fields.walked_keys(Item) == set()
