"""The runtime's base machinery, most-specific engine and forms builder (codegen/runtime/base.py,
specific.py, forms.py), unit-tested directly on small hand-made models: a package's MCPModel is
`ModelBase` and the mixins its settings choose, configured by its ConfigDict."""

from __future__ import annotations

import importlib
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import MISSING

from codegen.analysis import specific as analysis_specific
from codegen.runtime import base, elicitation, forms, mixins, specific

_STRICT = ConfigDict(
    extra="allow", strict=True, validate_by_name=False, validate_by_alias=True, serialize_by_alias=True,
    allow_inf_nan=False,
)  # fmt: skip


class Strict(base.ModelBase, BaseModel):
    model_config = _STRICT
    __mcp_build_strict__ = True


class Lenient(base.ModelBase, mixins.LenientNulls, BaseModel):
    model_config = ConfigDict(**{**_STRICT, "strict": False})


class Block(Strict):
    model_config = ConfigDict(alias_generator=base.wire_names({"is_error": "isError"}))
    type: Literal["text"] = base.const("text")
    text: str
    is_error: bool | MISSING = MISSING


class Loose(Lenient):
    count: int | MISSING = MISSING


class Audited(BaseModel):
    """A user base class (setting `base-class`) with dumps of its own."""

    def model_dump_json(self, /, **options: Any) -> str:
        return "audited:" + super().model_dump_json(**options)


class OnUserBase(mixins.QuietDumps, base.ModelBase, Audited):
    model_config = _STRICT


class Note(OnUserBase):
    text: str
    is_error: bool | MISSING = MISSING


def test_under_a_user_base_class_its_own_dumps_stand_not_model_base_s() -> None:
    note = Note(text="a")
    assert note.model_dump_json() == 'audited:{"text":"a"}'  # MISSING left out, as BaseModel's does
    assert note.model_dump(mode="json") == {"text": "a"}  # pydantic's, through the user base class
    assert Note.__dict__["__init__"] is not base.ModelBase.__init__  # built by ModelBase's machinery


def _wire(keywords: dict[str, Any]) -> dict[str, Any]:
    """Keywords spelled as wire names, which type checkers do not offer."""
    return keywords


def test_the_engine_s_any_arm_tag_is_the_generator_s() -> None:
    assert base.ANY_ARM == specific.ANY_ARM == analysis_specific.ANY_ARM_TAG


def test_building_fills_constants_and_reads_either_name() -> None:
    block = Block(text="a", is_error=True)
    assert block.model_dump(mode="json") == {"type": "text", "text": "a", "isError": True}
    assert Block(text="b", **_wire({"isError": False})).is_error is False  # the wire name lands in the same field
    assert Block(text="c").model_dump_json() == '{"type":"text","text":"c"}'  # MISSING never dumped
    with pytest.raises(TypeError, match="both of its names"):
        Block(text="d", is_error=True, **_wire({"isError": True}))


def test_reading_stays_by_wire_name_with_constants_required() -> None:
    with pytest.raises(ValidationError):
        Block.model_validate({"text": "a"})  # the constant is required when read
    read = Block.model_validate({"type": "text", "text": "a", "is_error": True})
    assert read.is_error is MISSING and read.model_extra == {"is_error": True}  # an unknown key, kept
    with pytest.raises(ValidationError):
        Block.model_validate({"type": "text", "text": 7})  # strict JSON types


def test_the_package_base_keeps_the_general_init_and_a_model_gets_its_own() -> None:
    class Fresh(Strict):
        kind: Literal["fresh"] = base.const("fresh")

    assert "__init__" not in vars(Strict)  # the general one, ModelBase's
    first = Fresh.__dict__["__init__"]
    assert Fresh().kind == "fresh"
    made = Fresh.__dict__["__init__"]
    assert made is not first and getattr(made, "__mcp_unchecked__", False)


def test_lenient_reads_lax_scalars_and_null_as_absent() -> None:
    loose = Loose.model_validate({"count": "7"})
    assert loose.count == 7
    assert Loose.model_validate({"count": None}).count is MISSING


def test_a_class_from_two_bases_keeps_both_bases_wire_names() -> None:
    class Other(Strict):
        model_config = ConfigDict(alias_generator=base.wire_names({"max_items": "maxItems"}))
        max_items: int | MISSING = MISSING

    class Both(Block, Other):
        pass

    both = Both(text="a", is_error=False, max_items=3)
    assert both.model_dump(mode="json") == {"maxItems": 3, "type": "text", "text": "a", "isError": False}


def test_most_specific_asks_the_package_decider_once_per_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    class Module:
        @staticmethod
        def decide(union: str, value: dict[Any, Any]) -> str:
            calls.append(union)
            return "A" if "a" in value else specific.ANY_ARM

    loaded: list[str] = []

    def import_module(name: str) -> Any:
        loaded.append(name)
        return Module

    monkeypatch.setattr(importlib, "import_module", import_module)
    pick: Any = base.MostSpecific("acme.models._base")("U").discriminator
    assert pick({"a": 1}) == "A" and pick({"a": 2}) == "A" and pick({"b": 1}) == specific.ANY_ARM
    assert calls == ["U", "U"] and loaded == ["acme.models._specific", "acme.models._specific"]
    assert pick(Block(text="m")) == specific.ANY_ARM  # a model instance: the smart union decides


def test_the_decider_singles_out_the_arm_that_fills_more() -> None:
    small: specific.Table = (("type",), (("type", 1, None),))
    large: specific.Table = (("type",), (("type", 1, None), ("extra", 2, None)))
    decide = specific.Decider({"U": (("Small", small), ("Large", large))})
    assert decide("U", {"type": "x", "extra": 1}) == "Large"
    assert decide("U", {"type": "x"}) == "Small"  # as many fields, alike: the first arm
    assert decide("U", {}) == specific.ANY_ARM


# -- forms ------------------------------------------------------------------------------------------


class StringSchema(Strict):
    type: Literal["string"] = base.const("string")
    title: str | MISSING = MISSING
    description: str | MISSING = MISSING
    minLength: int | MISSING = MISSING  # noqa: N815 - a package with field-naming = "wire"
    maxLength: int | MISSING = MISSING  # noqa: N815
    format: Literal["email"] | MISSING = MISSING


class Requested(Strict):
    type: Literal["object"] = base.const("object")
    properties: dict[str, StringSchema]
    required: list[str] | MISSING = MISSING


class Result(Strict):
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, str] | MISSING = MISSING


_READ = elicitation.Elicitation(TypeAdapter(StringSchema))
FORMS: forms.Forms[Requested, Result] = forms.Forms(
    "test", Requested, Result, _READ.check_answer, ("email",), (), string=forms.Arm(StringSchema, False)
)


class Contact(BaseModel):
    email: str = Field(max_length=80, title="Email")


def test_the_builder_makes_the_revision_s_schema_by_wire_names() -> None:
    schema = FORMS.requested_schema(Contact)
    assert schema.model_dump(mode="json") == {
        "type": "object",
        "properties": {"email": {"type": "string", "title": "Email", "maxLength": 80}},
        "required": ["email"],
    }


def test_what_the_revision_lacks_is_refused_naming_it() -> None:
    class Flag(BaseModel):
        on: bool

    class Defaulted(BaseModel):
        email: str = "a@b.c"

    with pytest.raises(forms.FormError, match="a boolean: test has no boolean schema"):
        FORMS.requested_schema(Flag)
    with pytest.raises(forms.FormError, match="test's StringSchema has no `default`"):
        FORMS.requested_schema(Defaulted)


def test_answers_are_read_into_the_outcome_classes_given() -> None:
    accepted = FORMS.read_answer(Contact, {"action": "accept", "content": {"email": "x"}}, forms.Accepted, forms.Declined, forms.Cancelled)
    assert isinstance(accepted, forms.Accepted) and accepted.value == Contact(email="x")
    declined = FORMS.read_answer(Contact, FORMS.decline(), forms.Accepted, forms.Declined, forms.Cancelled)
    assert isinstance(declined, forms.Declined)
    with pytest.raises(forms.AnswerError, match="email"):
        FORMS.read_answer(Contact, {"action": "accept", "content": {}}, forms.Accepted, forms.Declined, forms.Cancelled)
    assert FORMS.answer_with(Contact(email="y")).content == {"email": "y"}
