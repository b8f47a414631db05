"""The structural routing engine (codegen/runtime/structural.py), unit-tested on rule tables of its
own: the compiled straight-line function and the general rule path pick the same arm, the error
line and the closed keys come from the rules alone, and no text of a rule is ever run as code.
tests/test_structural_compiled.py holds every generated package's tables to the same agreement."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Discriminator, Tag, TypeAdapter, ValidationError

from codegen.runtime import structural
from codegen.runtime.structural import Unions

RULES: dict[str, tuple[structural.Rule, ...]] = {
    "Content": (
        ("Text", (("eq", ("type",), ("text",)), ("has", ("text",), ("string",)), ("is", (), ("object",)))),
        ("Image", (("eq", ("type",), ("image",)), ("has", ("data",), ("string",)), ("is", (), ("object",)))),
        ("Blocks", (("is", (), ("array",)),)),
    ),
    "Resource": (
        ("Form", (("eq_or_absent", ("mode",), ("form",)), ("has", ("schema", "properties"), ("object",)))),
        ("Link", (("eq", ("mode",), ("url",)), ("has", ("url",), ()))),
    ),
    "tools/call result": (
        ("Pending", (("eq", ("resultType",), ("input_required",)),)),
        ("Done", (("has", ("content",), ("array",)),)),
        ("Pending", ()),
    ),
    "Counted": (
        ("First", (("has", ("items", "0", "n"), ("integer",)),)),
        ("Other", (("has", ("items",), ()),)),
    ),
}

VALUES: list[object] = [
    {"type": "text", "text": "a"},
    {"type": "text", "text": 1},
    {"type": "image", "data": "x"},
    {"type": "audio", "data": "x"},
    {"type": "image"},
    [],
    [{}],
    {},
    None,
    "text",
    {"mode": "url", "url": "u"},
    {"mode": "form", "schema": {"properties": {}}},
    {"schema": {"properties": {}}},
    {"schema": {"properties": []}},
    {"mode": "other"},
    {"resultType": "input_required"},
    {"content": []},
    {"content": {}},
    {"items": [{"n": 1}]},
    {"items": [{"n": 1.0}]},
    {"items": [{"n": 1.5}]},
    {"items": [{"n": True}]},
    {"items": []},
    {"items": {"0": {"n": 2}}},
]


class _Dict(dict[str, Any]):
    pass


class _Str(str):
    __slots__ = ()


def test_the_compiled_function_and_the_general_path_agree() -> None:
    unions = Unions(RULES)
    for union in RULES:
        compiled, general = unions.compiled(union), unions.general(union)
        assert compiled is not general  # every test here compiles
        for value in VALUES:
            assert compiled(value) == general(value), (union, value)
            if isinstance(value, dict):  # a subclass instance: the general path decides
                subclassed = _Dict({k: _Str(v) if isinstance(v, str) else v for k, v in value.items()})
                assert compiled(subclassed) == general(subclassed), (union, value)


def test_rules_pick_in_order_and_report_what_no_arm_takes() -> None:
    unions = Unions(RULES)
    pick = unions.general("Content")
    assert pick({"type": "text", "text": "a"}) == "Text"
    assert pick([]) == "Blocks"
    assert pick({"type": "image"}) == "Image"  # no rule holds: the arm with nothing wrong, to report
    assert pick({"type": "audio", "data": "x"}) is None  # a value of a closed key no arm pins
    assert unions.general("tools/call result")({}) == "Pending"  # a catch-all
    assert unions.compiled("Counted")({"items": [{"n": 2.0}]}) == "First"  # an integral float
    assert unions.compiled("Counted")({"items": [{"n": True}]}) == "Other"  # a bool is no integer
    assert unions.holding("tools/call result", {"resultType": "input_required"}) == ("Pending", "Pending")


def test_the_error_line_and_the_closed_keys_come_from_the_rules() -> None:
    unions = Unions(RULES, names={"Resource": "ResourceSpec"})
    assert unions.message("Content") == (
        "cannot tell which Content this is: expected Text (type = 'text', has text (string), a JSON "
        "object); Image (type = 'image', has data (string), a JSON object); Blocks (a JSON array)"
    )
    assert unions.message("Resource").startswith("cannot tell which ResourceSpec this is: expected Form (")
    assert "mode = 'form' or absent" in unions.message("Resource")
    assert unions.message("tools/call result").startswith("cannot tell which result of tools/call this is")
    assert unions.closed_keys("Content") == {}  # Blocks pins no `type`
    two = Unions({"Content": RULES["Content"][:2]})
    assert {k: set(v) for k, v in two.closed_keys("Content").items()} == {"type": {"text", "image"}}
    assert two.general("Content")({"type": "audio", "data": "x"}) is None  # a wrong tag
    assert {k: set(v) for k, v in unions.closed_keys("Resource").items()} == {"mode": {"form", "url"}}
    assert unions.closed_keys("Counted") == {}  # no arm pins anything


def test_a_union_compiles_on_its_first_value_not_when_its_discriminator_is_made() -> None:
    unions = Unions(RULES)
    discriminator = unions.structural("Content")
    assert isinstance(discriminator, Discriminator)
    assert "Content" not in unions._compiled  # pyright: ignore[reportPrivateUsage]
    pick: Any = discriminator.discriminator
    first_call = pick.__code__
    assert pick({"type": "text", "text": "a"}) == "Text"
    assert "Content" in unions._compiled  # pyright: ignore[reportPrivateUsage]
    # the function a schema holds is now the compiled one: no call in front of it
    assert unions.compiled("Content") is pick and pick.__code__ is not first_call
    assert unions.structural("Content").discriminator is pick
    assert pick({"type": "image", "data": "x"}) == "Image" and pick([]) == "Blocks"


def _tagged_unions(schema: object) -> list[dict[str, Any]]:
    """The tagged-union nodes of a core schema, wherever they stand in it."""
    found: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        node: dict[str, Any] = schema  # pyright: ignore[reportUnknownVariableType]
        if node.get("type") == "tagged-union":
            found.append(node)
        for value in node.values():
            found += _tagged_unions(value)
    elif isinstance(schema, list | tuple):
        for item in schema:  # pyright: ignore[reportUnknownVariableType]
            found += _tagged_unions(item)
    return found


def test_a_schema_calls_the_pick_itself_and_reports_the_rules_line() -> None:
    """The schema pydantic builds holds the union's pick function itself (no call in front of it)
    and the line that says how the arms are told apart; making the discriminator does not make
    that line: a schema holding it is built on a model's first use."""
    unions = Unions({"Content": RULES["Content"][:2]})
    arms: Any = Annotated[Text, Tag("Text")] | Annotated[Image, Tag("Image")]
    for read_as_python in (False, True):
        discriminator = unions.structural("Content", read_as_python=read_as_python)
        assert discriminator.custom_error_message is None
        [schema] = _tagged_unions(TypeAdapter(Annotated[arms, discriminator]).core_schema)
        assert schema["discriminator"] is discriminator.discriminator
        assert schema["custom_error_message"] == unions.message("Content")
    assert "Content" not in unions._compiled  # pyright: ignore[reportPrivateUsage]


def test_rule_text_is_data_never_code() -> None:
    """Keys and values from a schema enter the compiled source as literals or bound names: a key
    that looks like code is looked up as a key, a value that looks like code is compared as a
    string, and one whose repr is no literal (an infinite float) is bound to a name."""
    hostile = "'); import os; os._exit(3); ('"
    rules: dict[str, tuple[structural.Rule, ...]] = {
        "U": (
            ("A", (("eq", (hostile,), (hostile, float("inf"))),)),
            ("B", (("has", (hostile + "\n",), ("string",)),)),
        )
    }
    unions = Unions(rules)
    pick = unions.compiled("U")
    assert pick is not unions.general("U")
    assert pick({hostile: hostile}) == pick({hostile: float("inf")}) == "A"
    assert pick({hostile + "\n": "s"}) == "B"
    assert pick({hostile: 1}) == unions.general("U")({hostile: 1}) == "B"  # the arm to report


def test_an_arm_named_like_a_json_type_is_left_to_the_general_path() -> None:
    unions = Unions({"U": (("dict", (("has", ("a",), ()),)), ("list", ()))})
    assert unions.compiled("U") is unions.general("U")


class Text(BaseModel):
    type: str
    text: str


class Image(BaseModel):
    type: str
    data: str


def test_a_union_of_models_validates_the_picked_arm_only() -> None:
    unions = Unions({"Content": RULES["Content"][:2]})
    adapter: TypeAdapter[Any] = TypeAdapter(
        Annotated[Annotated[Text, Tag("Text")] | Annotated[Image, Tag("Image")], unions.structural("Content")]
    )
    assert type(adapter.validate_json('{"type": "image", "data": "x"}')) is Image
    text = Text(type="text", text="a")
    assert adapter.validate_python(text) is text  # an arm's instance: its class is its tag
    with pytest.raises(ValidationError) as refused:
        adapter.validate_python({"type": "audio"})
    assert [e["type"] for e in refused.value.errors()] == ["union_variant"]
    reading: TypeAdapter[Any] = TypeAdapter(
        Annotated[
            Annotated[Text, Tag("Text")] | Annotated[Image, Tag("Image")],
            unions.structural("Content", read_as_python=True),
        ]
    )
    assert reading.validate_json('{"type": "text", "text": "a"}') == text
