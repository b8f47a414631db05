"""Elicitation forms (issue 18): a Pydantic model becomes each revision's requestedSchema, answers come back typed.

- The seed's example forms (feedback, order, user info) in every revision with elicitation: the schema each
  gives is valid as `requestedSchema` under that revision's schema.json (jsonschema), the whole request too,
  and it round-trips through the generated models; answers read back as Accepted / Declined / Cancelled.
- Every refused field kind, with its one-line error; the revision-specific refusals (2025-06-18: no
  multi-select, no defaults on strings, numbers or choices).
- A property test: forms drawn from the supported vocabulary (booleans, bounded numbers, strings with lengths,
  an email format, dates, titled and untitled choices and multi-selects; required, optional or with a default;
  titles and descriptions) give schemas the revision accepts that round-trip through its models, and answers
  drawn for them are accepted by the form exactly when `check_answer` and jsonschema accept them. jsonschema
  reads the requested schema as closed (a form lists every field); drawn selections do not repeat and a
  date's text is a date. Those three are where the checkers part by design; each has its own test below.
- The client side: `answer`, `answer_with`, `decline`, `cancel`; 2026-07-28's InputRequiredResult.
"""

from __future__ import annotations

import datetime
import enum
import functools
import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import AnyUrl, BaseModel, Field, create_model

from codegen.schema import errata

from . import suite
from .conftest import SPEC

PACKAGES = {"2025-06-18": "v2025_06_18", "2025-11-25": "v2025_11_25", "2026-07-28": "v2026_07_28", "draft": "draft"}
REVISIONS = list(PACKAGES)


def forms(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{PACKAGES[revision]}.forms")


def package(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{PACKAGES[revision]}")


@functools.cache
def _document(revision: str, patched: bool) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((SPEC / revision / "schema.json").read_text())
    return errata.apply_errata(document, errata.load_errata(revision), revision) if patched else document


@functools.cache
def validator(revision: str, pointer: str, *, patched: bool = False) -> Any:
    """A jsonschema validator of the revision's schema.json (as pinned, unless patched) at `pointer`."""
    document = _document(revision, patched)
    defs = "$defs" if "$defs" in document else "definitions"
    return jsonschema.validators.validator_for(document)({**document, "$ref": f"#/{defs}/{pointer}"})


def requested_schema_validator(revision: str) -> Any:
    if revision == "2025-06-18":  # its params are inline in ElicitRequest
        return validator(revision, "ElicitRequest/properties/params/properties/requestedSchema")
    return validator(revision, "ElicitRequestFormParams/properties/requestedSchema")


# -- the seed's example forms -------------------------------------------------------------------------------


class YesNo(enum.StrEnum):
    YES = "yes"
    NO = "no"


class Feedback(BaseModel):
    """The seed's FeedbackForm."""

    number: float = Field(ge=0, le=5, title="How good was it?", description="Please rate from 0.0 - 5.0")
    rating: int = Field(ge=1, le=5, title="Rate from 1-5 ✨", description="You must enter 1, 2, 3, 4, or 5.")
    feedback: str | None = Field(None, max_length=500, title="Optional feedback", description="Dish the details.")
    recommend: bool = Field(title="Would you recommend us?", description="Your opinion is one of many.")


def order_form(revision: str) -> type[BaseModel]:
    titles = forms(revision).Titles({YesNo.YES: "Of Course", YesNo.NO: "Nope, I'll remember"})

    class Order(BaseModel):
        """The seed's OrderForm: a titled yes/no choice."""

        meals: int = Field(title="# of meals", description="How many do you want?")
        note: str = Field(title="Notes", description="Any special requests or delivery instructions?")
        tip_reminder: Annotated[YesNo, titles] = Field(title="Remind me to tip?", description="Schedule a reminder.")

    return Order


def user_info_form(revision: str) -> type[BaseModel]:
    email = forms(revision).Format("email")

    class UserInfo(BaseModel):
        """The seed's UserInfoForm: bounds, an email format, a default and a country choice."""

        name: str = Field(min_length=1, max_length=100, description="Your full name")
        email_address: Annotated[str, email] = Field(alias="email", description="Your email address")
        age: int = Field(ge=0, le=150, description="Your age")
        newsletter: bool = Field(False, description="Subscribe to newsletter")
        country: Literal["US", "UK", "CA", "AU", "Other"] = Field(description="Your country")

    return UserInfo


EXPECTED_FEEDBACK = {
    "type": "object",
    "properties": {
        "number": {"type": "number", "minimum": 0, "maximum": 5, "title": "How good was it?",
                   "description": "Please rate from 0.0 - 5.0"},
        "rating": {"type": "integer", "minimum": 1, "maximum": 5, "title": "Rate from 1-5 ✨",
                   "description": "You must enter 1, 2, 3, 4, or 5."},
        "feedback": {"type": "string", "maxLength": 500, "title": "Optional feedback", "description": "Dish the details."},
        "recommend": {"type": "boolean", "title": "Would you recommend us?", "description": "Your opinion is one of many."},
    },
    "required": ["number", "rating", "recommend"],
}  # fmt: skip


def example_forms(revision: str) -> list[type[BaseModel]]:
    return [Feedback, order_form(revision), user_info_form(revision)]


def test_feedback_form_gives_the_schema_written_by_hand() -> None:
    for revision in REVISIONS:
        assert forms(revision).requested_schema(Feedback).model_dump(mode="json") == EXPECTED_FEEDBACK, revision


def test_titled_choice_is_one_of_const_title_where_the_revision_has_it_and_legacy_enum_names_before() -> None:
    expected_titled = {
        "type": "string", "title": "Remind me to tip?", "description": "Schedule a reminder.",
        "oneOf": [{"const": "yes", "title": "Of Course"}, {"const": "no", "title": "Nope, I'll remember"}],
    }  # fmt: skip
    for revision in ("2025-11-25", "2026-07-28", "draft"):
        schema = forms(revision).requested_schema(order_form(revision)).model_dump(mode="json")
        assert schema["properties"]["tip_reminder"] == expected_titled
    legacy = forms("2025-06-18").requested_schema(order_form("2025-06-18")).model_dump(mode="json")
    assert legacy["properties"]["tip_reminder"] == {
        "type": "string", "title": "Remind me to tip?", "description": "Schedule a reminder.",
        "enum": ["yes", "no"], "enumNames": ["Of Course", "Nope, I'll remember"],
    }  # fmt: skip


def test_user_info_form_carries_bounds_format_default_and_choice() -> None:
    for revision in REVISIONS:
        schema = forms(revision).requested_schema(user_info_form(revision)).model_dump(mode="json")
        assert schema["required"] == ["name", "email", "age", "country"]
        assert schema["properties"]["name"] == {
            "type": "string", "minLength": 1, "maxLength": 100, "description": "Your full name"
        }  # fmt: skip
        assert schema["properties"]["email"] == {"type": "string", "format": "email", "description": "Your email address"}
        assert schema["properties"]["age"] == {"type": "integer", "minimum": 0, "maximum": 150, "description": "Your age"}
        assert schema["properties"]["newsletter"] == {"type": "boolean", "default": False,
                                                      "description": "Subscribe to newsletter"}  # fmt: skip
        assert schema["properties"]["country"] == {"type": "string", "enum": ["US", "UK", "CA", "AU", "Other"],
                                                   "description": "Your country"}  # fmt: skip


@pytest.mark.parametrize("revision", REVISIONS)
def test_example_forms_are_valid_requested_schemas_of_the_revision_and_round_trip(revision: str) -> None:
    module = forms(revision)
    for form in example_forms(revision):
        built = module.requested_schema(form)
        wire = built.model_dump(mode="json")
        errors = [e.message for e in requested_schema_validator(revision).iter_errors(wire)]
        assert errors == [], (form.__name__, errors)
        again = type(built).model_validate_json(built.model_dump_json())
        assert again == built and again.model_dump(mode="json") == wire
        assert json.loads(again.model_dump_json()) == wire


@pytest.mark.parametrize("revision", REVISIONS)
def test_example_requests_are_valid_messages_of_the_revision(revision: str) -> None:
    module = forms(revision)
    for form in example_forms(revision):
        if revision in ("2025-06-18", "2025-11-25"):  # sent alone: a JSON-RPC request, id and all
            request = module.elicit_request(form, "Tell us", id=7)
        else:  # 2026-07-28 on: inside an InputRequiredResult, without an id
            request = module.elicit_request(form, "Tell us")
        wire = request.model_dump(mode="json")
        if revision in ("2025-06-18", "2025-11-25"):
            assert wire["jsonrpc"] == "2.0" and wire["id"] == 7
            assert list(validator(revision, "JSONRPCRequest").iter_errors(wire)) == []
        assert wire["method"] == "elicitation/create" and wire["params"]["message"] == "Tell us"
        assert list(validator(revision, "ElicitRequest").iter_errors(wire)) == []
        assert type(request).model_validate_json(request.model_dump_json()) == request
        if revision != "2025-06-18":
            assert wire["params"]["mode"] == "form"


@pytest.mark.parametrize("revision", ["2026-07-28", "draft"])
def test_input_required_result_carries_the_form_and_reads_the_retried_answer(revision: str) -> None:
    module, pkg = forms(revision), package(revision)
    result = module.input_required(
        {"feedback": module.elicit_request(Feedback, "How was it?")}, request_state="opaque"
    )
    wire = result.model_dump(mode="json")
    assert wire["resultType"] == "input_required" and wire["requestState"] == "opaque"
    assert wire["inputRequests"]["feedback"]["params"]["requestedSchema"] == EXPECTED_FEEDBACK
    assert list(validator(revision, "InputRequiredResult").iter_errors(wire)) == []
    assert pkg.parse_result("tools/call", result.model_dump_json()) == result
    # The client retries the call with its answer under the same key.
    retried = pkg.InputResponseRequestParams.model_validate(
        {
            "_meta": {"io.modelcontextprotocol/protocolVersion": revision, "io.modelcontextprotocol/clientCapabilities": {}},
            "inputResponses": {"feedback": {"action": "accept", "content": {"number": 4.5, "rating": 5, "recommend": True}}},
        }
    )
    outcome = module.read_input_answer(Feedback, retried.input_responses, "feedback")
    assert isinstance(outcome, module.Accepted) and outcome.value == Feedback(number=4.5, rating=5, recommend=True)
    with pytest.raises(module.AnswerError, match="^the answer to Feedback does not fit: other: has no elicitation"):
        module.read_input_answer(Feedback, retried.input_responses, "other")


# -- outcomes -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("revision", REVISIONS)
def test_accepted_answers_come_back_as_the_validated_form(revision: str) -> None:
    module = forms(revision)
    outcome = module.read_answer(Feedback, {"action": "accept", "content": {"number": 3.5, "rating": 4, "recommend": True}})
    assert isinstance(outcome, module.Accepted) and outcome.action == "accept"
    assert outcome.value == Feedback(number=3.5, rating=4, feedback=None, recommend=True)
    order = order_form(revision)
    answer = package(revision).ElicitResult(action="accept", content={"meals": 2, "note": "hot", "tip_reminder": "no"})
    got = module.read_answer(order, answer)
    assert isinstance(got, module.Accepted) and got.value.tip_reminder is YesNo.NO and got.result is answer
    info = user_info_form(revision)
    content = {"name": "Ada", "email": "ada@example.com", "age": 36, "country": "UK"}
    accepted = module.read_answer(info, {"action": "accept", "content": content})
    assert isinstance(accepted, module.Accepted)
    assert accepted.value.model_dump(by_alias=True) == {**content, "newsletter": False}
    assert accepted.value.email_address == "ada@example.com"  # read by its alias, the wire name


@pytest.mark.parametrize("revision", REVISIONS)
def test_declined_and_cancelled_carry_no_form(revision: str) -> None:
    module = forms(revision)
    declined = module.read_answer(Feedback, {"action": "decline"})
    cancelled = module.read_answer(Feedback, module.cancel())
    assert type(declined) is module.Declined and declined.action == "decline"
    assert type(cancelled) is module.Cancelled and cancelled.action == "cancel"
    assert not hasattr(declined, "value") and not hasattr(cancelled, "value")


@pytest.mark.parametrize("revision", REVISIONS)
def test_an_accepted_answer_that_does_not_fit_lists_each_fields_problem(revision: str) -> None:
    module = forms(revision)
    content = {"number": 7, "rating": "x", "feedback": "y" * 501, "colour": "red"}
    with pytest.raises(module.AnswerError) as caught:
        module.read_answer(Feedback, {"action": "accept", "content": content})
    assert str(caught.value) == (
        "the answer to Feedback does not fit: recommend: is required; number: must be at most 5; "
        "rating: must be a number; feedback: must be at most 500 characters; colour: is not a field of the form"
    )
    assert [p.field for p in caught.value.problems] == ["recommend", "number", "rating", "feedback", "colour"]


@pytest.mark.parametrize("revision", REVISIONS)
def test_an_answer_no_elicit_result_carries_is_a_per_field_answer_error(revision: str) -> None:
    module = forms(revision)
    content = {"number": {"nested": 1}, "rating": 2, "recommend": True}
    with pytest.raises(module.AnswerError) as caught:
        module.read_answer(Feedback, {"action": "accept", "content": content})
    assert str(caught.value) == (
        "the answer to Feedback does not fit: number: is not a value an answer carries"
        " (a string, number, boolean or list of strings)"
    )
    with pytest.raises(module.AnswerError, match="^the answer to Feedback does not fit: action: Input should be"):
        module.read_answer(Feedback, {"action": "maybe"})


def test_the_forms_own_validators_run_after_the_schema_checks() -> None:
    module = forms("2025-11-25")
    from pydantic import model_validator

    class Adult(BaseModel):
        age: int = Field(ge=0, le=150)
        newsletter: bool = False

        @model_validator(mode="after")
        def newsletter_needs_adult(self) -> Adult:
            if self.newsletter and self.age < 18:
                raise ValueError("newsletter subscription requires age 18 or older")
            return self

    with pytest.raises(module.AnswerError, match=r"\(form\): Value error, newsletter subscription requires age 18"):
        module.read_answer(Adult, {"action": "accept", "content": {"age": 12, "newsletter": True}})


# -- the client side -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("revision", REVISIONS)
def test_client_answers_a_received_form_checked_against_its_schema(revision: str) -> None:
    module, pkg = forms(revision), package(revision)
    request = pkg.ElicitRequest.model_validate_json(
        json.dumps({"method": "elicitation/create", "params": {"message": "m", "requestedSchema": EXPECTED_FEEDBACK}}
                   | ({"id": 1, "jsonrpc": "2.0"} if revision == "2025-11-25" else {}))
    )  # fmt: skip
    schema = request.params.requested_schema
    result = module.answer(schema, {"number": 2.5, "rating": 3, "recommend": False})
    assert result.model_dump(mode="json") == {"action": "accept", "content": {"number": 2.5, "rating": 3, "recommend": False}}
    assert list(validator(revision, "ElicitResult", patched=True).iter_errors(result.model_dump(mode="json"))) == []
    with pytest.raises(module.AnswerError, match="^the answer to the requested schema does not fit: recommend: is required; rating: must be at least 1$"):
        module.answer(schema, {"number": 2.5, "rating": 0})
    assert module.decline().model_dump(mode="json") == {"action": "decline"}
    assert module.cancel().model_dump(mode="json") == {"action": "cancel"}


@pytest.mark.parametrize("revision", REVISIONS)
def test_client_answers_with_a_filled_in_form(revision: str) -> None:
    module = forms(revision)
    filled = user_info_form(revision)(name="Ada", email="ada@example.com", age=36, country="UK")
    result = module.answer_with(filled)
    assert result.content == {"name": "Ada", "email": "ada@example.com", "age": 36, "newsletter": False, "country": "UK"}
    outcome = module.read_answer(type(filled), result)
    assert isinstance(outcome, module.Accepted) and outcome.value == filled


def test_a_non_integer_answer_to_a_number_field_is_carried_by_the_erratum() -> None:
    for revision in REVISIONS:
        wire = {"action": "accept", "content": {"number": 3.5}}
        assert package(revision).ElicitResult.model_validate(wire).model_dump(mode="json") == wire
        assert validator(revision, "ElicitResult", patched=True).is_valid(wire)
        assert not validator(revision, "ElicitResult").is_valid(wire)  # the pinned schema's defect


# -- refusals -------------------------------------------------------------------------------------------------


class Address(BaseModel):
    city: str


def _form(**fields: Any) -> type[BaseModel]:
    return create_model("Signup", **fields)


REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("nested model", {"home": (Address, ...)}, "Signup.home: a nested model (Address): MCP forms are flat"),
    ("mapping", {"extra": (dict[str, str], ...)}, "Signup.extra: a mapping (dict[str, str]): MCP forms are flat"),
    ("union", {"code": (int | str, ...)}, "Signup.code: a union of types (int | str): a form field has one type"),
    ("list of free text", {"tags": (list[str], ...)},
     "Signup.tags: a list of free text: MCP forms carry lists of choices only (a multi-select)"),
    ("list of numbers", {"ids": (list[int], ...)},
     "Signup.ids: a list of int: MCP forms carry lists of choices only (a multi-select)"),
    ("fixed tuple", {"pair": (tuple[Literal["a"], Literal["b"]], ...)},
     "Signup.pair: a fixed-length tuple (tuple[Literal['a'], Literal['b']]): a multi-select is a list of choices"),
    ("Any", {"blob": (Any, ...)}, "Signup.blob: Any: a form field needs one primitive type"),
    ("bytes", {"raw": (bytes, ...)}, "Signup.raw: bytes: not a type MCP forms carry"),
    ("pattern", {"code": (str, Field(pattern="^[A-Z]+$"))}, "Signup.code: pattern: not a keyword MCP forms carry"),
    ("multiple_of", {"n": (int, Field(multiple_of=5))}, "Signup.n: MultipleOf: not a keyword MCP forms carry"),
    ("exclusive float bound", {"x": (float, Field(gt=0))},
     "Signup.x: gt/lt: NumberSchema bounds are inclusive (minimum/maximum); use ge/le"),
    ("length on a number", {"n": (int, Field(max_length=3))}, "Signup.n: max_length: does not apply to a number"),
    ("bound on a string", {"s": (str, Field(ge=1))}, "Signup.s: ge: does not apply to a string"),
    ("unknown metadata", {"ip": (Annotated[str, "ipv4"], ...)}, "Signup.ip: str: not a keyword MCP forms carry"),
    ("non-string choices", {"n": (Literal[1, 2], ...)}, "Signup.n: choices must be strings: Literal[1, 2]"),
    ("required None", {"s": (str | None, ...)},
     "Signup.s: None is allowed but an answer cannot be null: give the field the default None"),
    ("default_factory", {"s": (str, Field(default_factory=str))},
     "Signup.s: default_factory: a form's default must be a fixed value"),
    ("default of the wrong type", {"n": (int, "3")}, "Signup.n: the default '3' is not a number"),
    ("json_schema_extra", {"s": (str, Field(json_schema_extra={"format": "ipv4"}))},
     "Signup.s: json_schema_extra: the requested schema is built from the field, not from JSON Schema"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "message"), [(f, m) for _, f, m in REFUSED], ids=[k for k, _, _ in REFUSED])
def test_each_refused_field_kind_is_one_line_naming_the_form_field_and_why(fields: dict[str, Any], message: str) -> None:
    for revision in REVISIONS:
        module = forms(revision)
        with pytest.raises(module.FormError) as caught:
            module.requested_schema(_form(**fields))
        assert str(caught.value) == message and "\n" not in str(caught.value), revision
        assert caught.value.form.__name__ == "Signup" and caught.value.field == next(iter(fields))


def test_formats_the_revision_lacks_and_titles_for_unknown_values_are_refused() -> None:
    for revision in REVISIONS:
        module = forms(revision)
        with pytest.raises(module.FormError, match=r"^Signup.ip: format 'ipv4': .*StringSchema formats are date, date-time, email, uri$"):
            module.requested_schema(_form(ip=(Annotated[str, module.Format("ipv4")], ...)))
        with pytest.raises(module.FormError, match=r"^Signup.c: titles for values that are not choices: 'z'$"):
            module.requested_schema(_form(c=(Annotated[Literal["a"], module.Titles({"z": "Zed"})], ...)))
        with pytest.raises(module.FormError, match=r"^Signup.d: format 'email': the type already means 'date'$"):
            module.requested_schema(_form(d=(Annotated[datetime.date, module.Format("email")], ...)))
        if revision != "2025-06-18":  # there, a choice has no default at all
            with pytest.raises(module.FormError, match=r"^Signup.c: the default 'z' is not one of the choices$"):
                module.requested_schema(_form(c=(Literal["a", "b"], "z")))


REFUSED_IN_2025_06_18: list[tuple[str, dict[str, Any], str]] = [
    ("multi-select", {"colours": (list[Literal["red", "green"]], ...)},
     "Signup.colours: a multi-select: 2025-06-18 has no multi-select enum schema"),
    ("string default", {"note": (str, "none")}, "Signup.note: a default: 2025-06-18's StringSchema has no `default`"),
    ("number default", {"n": (int, 3)}, "Signup.n: a default: 2025-06-18's NumberSchema has no `default`"),
    ("choice default", {"c": (Literal["a", "b"], "a")}, "Signup.c: a default: 2025-06-18's EnumSchema has no `default`"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "message"), [(f, m) for _, f, m in REFUSED_IN_2025_06_18], ids=[k for k, _, _ in REFUSED_IN_2025_06_18]
)
def test_what_2025_06_18_lacks_is_refused_there_and_carried_later(fields: dict[str, Any], message: str) -> None:
    module = forms("2025-06-18")
    with pytest.raises(module.FormError) as caught:
        module.requested_schema(_form(**fields))
    assert str(caught.value) == message
    for revision in ("2025-11-25", "2026-07-28", "draft"):
        wire = forms(revision).requested_schema(_form(**fields)).model_dump(mode="json")
        assert requested_schema_validator(revision).is_valid(wire)


def test_multi_selects_titled_and_untitled_with_item_bounds_and_defaults() -> None:
    for revision in ("2025-11-25", "2026-07-28", "draft"):
        module = forms(revision)
        titled = Annotated[set[YesNo], module.Titles({"yes": "Yes!"})]
        form = _form(
            plain=(list[Literal["a", "b", "c"]], Field(["a"], min_length=1, max_length=2)),
            titled=(titled, ...),
        )
        wire = module.requested_schema(form).model_dump(mode="json")
        assert wire["properties"]["plain"] == {
            "type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]},
            "minItems": 1, "maxItems": 2, "default": ["a"],
        }  # fmt: skip
        assert wire["properties"]["titled"] == {
            "type": "array", "items": {"anyOf": [{"const": "yes", "title": "Yes!"}, {"const": "no", "title": "no"}]},
        }  # fmt: skip
        assert requested_schema_validator(revision).is_valid(wire)
        outcome = module.read_answer(form, {"action": "accept", "content": {"titled": ["no", "yes"]}})
        assert isinstance(outcome, module.Accepted) and outcome.value.titled == {YesNo.YES, YesNo.NO}


def test_integer_exclusive_bounds_are_the_inclusive_bounds_one_step_in() -> None:
    module = forms("2025-11-25")
    wire = module.requested_schema(_form(n=(int, Field(gt=0, lt=10)), m=(int, Field(gt=-1, le=3)))).model_dump(mode="json")
    assert wire["properties"]["n"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert wire["properties"]["m"] == {"type": "integer", "minimum": 0, "maximum": 3}


class LaterForm(BaseModel):
    choice: LaterColour  # defined below: pydantic leaves the form incomplete until it is rebuilt


class NeverForm(BaseModel):
    choice: Undefined  # type: ignore[name-defined]  # noqa: F821


LaterColour = Literal["red", "green"]


def test_a_form_naming_a_class_defined_later_is_rebuilt_or_refused() -> None:
    module = forms("2026-07-28")
    assert module.requested_schema(LaterForm).model_dump(mode="json")["properties"]["choice"]["enum"] == ["red", "green"]
    with pytest.raises(module.FormError, match=r"^NeverForm.\(form\): Undefined is not defined: the form's fields cannot be read$"):
        module.requested_schema(NeverForm)


def test_dates_and_urls_are_formatted_strings_read_back_typed() -> None:
    module = forms("2026-07-28")
    form = _form(day=(datetime.date, ...), at=(datetime.datetime, ...), site=(AnyUrl, ...))
    wire = module.requested_schema(form).model_dump(mode="json")
    assert [wire["properties"][k]["format"] for k in ("day", "at", "site")] == ["date", "date-time", "uri"]
    content = {"day": "2026-07-28", "at": "2026-07-28T10:00:00Z", "site": "https://example.com/"}
    outcome = module.read_answer(form, {"action": "accept", "content": content})
    assert isinstance(outcome, module.Accepted) and outcome.value.day == datetime.date(2026, 7, 28)


# -- the property test -----------------------------------------------------------------------------------------

CHOICES = ["a", "b", "c", "d"]
TEXT = st.text(alphabet="xyé", max_size=6)


@st.composite
def field_specs(draw: st.DrawFn, multi: bool) -> dict[str, Any]:
    kinds = ["bool", "int", "float", "str", "email", "date", "choice", "titled"]
    kinds += ["multi", "titled_multi"] if multi else []
    kind = draw(st.sampled_from(kinds))
    # 2025-06-18 (no multi-selects) has a `default` only on booleans
    defaults = multi or kind == "bool"
    presence = draw(st.sampled_from(["required", "optional", "default"] if defaults else ["required", "optional"]))
    spec: dict[str, Any] = {"kind": kind, "presence": presence, "title": draw(st.none() | TEXT)}
    spec["description"] = draw(st.none() | TEXT)
    low = draw(st.none() | st.integers(-5, 5))
    high = draw(st.none() | st.integers(5, 15))
    spec.update(low=low, high=high)
    if kind in ("choice", "titled", "multi", "titled_multi"):
        spec["values"] = draw(st.lists(st.sampled_from(CHOICES), min_size=1, max_size=4, unique=True))
        spec.update(low=draw(st.none() | st.integers(0, 2)), high=draw(st.none() | st.integers(2, 4)))
    if kind == "str":
        spec.update(low=draw(st.none() | st.integers(0, 3)), high=draw(st.none() | st.integers(3, 6)))
    return spec


def build_form(module: ModuleType, specs: list[dict[str, Any]]) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for index, spec in enumerate(specs):
        kind, low, high = spec["kind"], spec["low"], spec["high"]
        constraints: dict[str, Any] = {"title": spec["title"], "description": spec["description"]}
        annotation: Any
        default: Any = None
        if kind == "bool":
            annotation, default = bool, True
        elif kind in ("int", "float"):
            annotation = int if kind == "int" else float
            constraints.update(ge=low, le=high)
            default = low if low is not None else high if high is not None else 0
        elif kind == "str":
            annotation = str
            constraints.update(min_length=low, max_length=high)
            default = "y" * (low or 0)
        elif kind == "email":
            annotation, default = Annotated[str, module.Format("email")], "a@example.com"
        elif kind == "date":
            annotation, default = datetime.date, datetime.date(2026, 7, 28)
        else:
            default = spec["values"][0] if not kind.endswith("multi") else spec["values"][: low or 0]
            choice: Any = Literal[tuple(spec["values"])]  # type: ignore[valid-type]
            if kind.startswith("titled"):
                choice = Annotated[choice, module.Titles({v: v.upper() for v in spec["values"]})]
            annotation = list[choice] if kind.endswith("multi") else choice  # type: ignore[valid-type]
            if kind.endswith("multi"):
                constraints.update(min_length=low, max_length=high)
        if spec["presence"] == "optional":
            fields[f"f{index}"] = (annotation | None, Field(None, **constraints))
        elif spec["presence"] == "default" and (not kind.endswith("multi") or len(default) == (low or 0)):
            fields[f"f{index}"] = (annotation, Field(default, **constraints))
        else:
            fields[f"f{index}"] = (annotation, Field(**constraints))
    return create_model("Drawn", **fields)


@st.composite
def answer_values(draw: st.DrawFn, spec: dict[str, Any]) -> Any:
    kind = spec["kind"]
    # wrong JSON types; for a date no other text (the form alone reads a date's text: see the format test)
    wrong = draw(st.sampled_from([True, 1, 2.5, ["a"], None] + ([] if kind == "date" else ["x"])))
    if draw(st.integers(0, 5)) == 0:
        return wrong
    if kind == "bool":
        return draw(st.booleans())
    if kind == "int":
        return draw(st.integers(-8, 18) | st.integers(-8, 18).map(float))
    if kind == "float":
        return draw(st.floats(-8, 18, allow_nan=False) | st.integers(-8, 18))
    if kind in ("str", "email"):
        return draw(TEXT)
    if kind == "date":  # a date's text is checked by the form only: see the format test below
        return draw(st.dates()).isoformat()
    if kind in ("choice", "titled"):
        return draw(st.sampled_from(CHOICES))
    return draw(st.lists(st.sampled_from(CHOICES), max_size=5, unique=True))  # repeats: see the test below


@st.composite
def forms_and_answers(draw: st.DrawFn, multi: bool) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    specs = draw(st.lists(field_specs(multi), min_size=1, max_size=5))
    content: dict[str, Any] = {}
    for index, spec in enumerate(specs):
        if draw(st.integers(0, 6)) > 0:
            value = draw(answer_values(spec))
            if value is not None:
                content[f"f{index}"] = value
    if draw(st.integers(0, 9)) == 0:
        content["stranger"] = "x"
    return specs, content


AGREEMENT: dict[str, dict[str, int]] = {}


def _agreement_case(revision: str, specs: list[dict[str, Any]], content: dict[str, Any]) -> None:
    module = forms(revision)
    form = build_form(module, specs)
    schema = module.requested_schema(form)
    wire = schema.model_dump(mode="json")
    assert requested_schema_validator(revision).is_valid(wire), wire
    assert type(schema).model_validate_json(schema.model_dump_json()).model_dump(mode="json") == wire
    checked = not importlib.import_module(f"mcp_models.{PACKAGES[revision]}.elicitation").check_answer(schema, content)
    # A form lists every field it takes: jsonschema reads the requested schema as closed, like check_answer.
    closed = {**wire, "additionalProperties": False}
    by_jsonschema = jsonschema.validators.validator_for(_document(revision, False))(closed).is_valid(content)
    try:
        module.read_answer(form, {"action": "accept", "content": content})
        accepted = True
    except module.AnswerError:
        accepted = False
    counts = AGREEMENT.setdefault(revision, {"cases": 0, "agree": 0, "accepted": 0})
    counts["cases"] += 1
    counts["agree"] += accepted == checked == by_jsonschema
    counts["accepted"] += accepted
    assert accepted == checked == by_jsonschema, (wire, content, accepted, checked, by_jsonschema)


@pytest.mark.slow
@pytest.mark.parametrize("revision", REVISIONS)
def test_drawn_forms_give_valid_schemas_and_answers_agree_with_check_answer_and_jsonschema(revision: str) -> None:
    multi = revision != "2025-06-18"

    @settings(max_examples=suite.examples(300))
    @given(forms_and_answers(multi))
    def check(case: tuple[list[dict[str, Any]], dict[str, Any]]) -> None:
        _agreement_case(revision, *case)

    AGREEMENT.pop(revision, None)
    check()
    counts = AGREEMENT[revision]
    print(f"\n{revision}: {counts['agree']}/{counts['cases']} answers agree ({counts['accepted']} accepted)")
    assert counts["agree"] == counts["cases"] >= suite.examples(300)
    assert 0 < counts["accepted"] < counts["cases"]


def test_a_dates_text_is_checked_by_the_form_not_by_check_answer() -> None:
    # `format` is an annotation in JSON Schema and check_answer leaves it alone; a date field of the form
    # still refuses text that is not a date, as a per-field AnswerError.
    module = forms("2026-07-28")
    form = _form(day=(datetime.date, ...))
    schema = module.requested_schema(form)
    assert importlib.import_module("mcp_models.v2026_07_28.elicitation").check_answer(schema, {"day": "soon"}) == []
    with pytest.raises(module.AnswerError, match=r"^the answer to Signup does not fit: day: Input should be a valid date"):
        module.read_answer(form, {"action": "accept", "content": {"day": "soon"}})


def test_an_unknown_key_is_refused_although_the_schema_is_open() -> None:
    module = forms("2025-11-25")
    wire = module.requested_schema(Feedback).model_dump(mode="json")
    content = {"number": 1, "rating": 1, "recommend": True, "stranger": "x"}
    assert jsonschema.validators.validator_for(_document("2025-11-25", False))(wire).is_valid(content)
    with pytest.raises(module.AnswerError, match="stranger: is not a field of the form$"):
        module.read_answer(Feedback, {"action": "accept", "content": content})


def test_a_repeated_selection_is_refused_although_the_schema_has_no_unique_items() -> None:
    # The one place check_answer is stricter than the JSON Schema: SEP-1330 multi-selects pick values,
    # and the schema leaves out uniqueItems; the form refuses a repeat rather than silently dropping it.
    module = forms("2025-11-25")
    form = _form(picks=(list[Literal["a", "b"]], ...))
    wire = module.requested_schema(form).model_dump(mode="json")
    content = {"picks": ["a", "a"]}
    assert jsonschema.validators.validator_for(_document("2025-11-25", False))(wire).is_valid(content)
    with pytest.raises(module.AnswerError, match="picks: must not repeat a value"):
        module.read_answer(form, {"action": "accept", "content": content})


# -- the documentation's examples run as written -------------------------------------------------------------


def test_the_docs_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    from .conftest import REPO

    text = (REPO / "docs" / "forms.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/forms.md", "exec", dont_inherit=True), {"__name__": "docs_forms"})
    printed = capsys.readouterr().out
    assert "hello Ada from UK, interested in ['news']" in printed
    assert "size [('s', 'Small'), ('l', 'Large')]" in printed
    assert "the answer to the requested schema does not fit: copies: must be at most 10" in printed


# -- the facts come from the schema ---------------------------------------------------------------------------


@pytest.mark.slow
def test_what_a_form_may_hold_is_read_from_the_schema_not_from_the_revision_name(tmp_path: Path) -> None:
    """2025-11-25 with its titled single-select and untitled multi-select taken out of
    PrimitiveSchemaDefinition: the generated forms fall back to legacy enumNames and refuse untitled
    multi-selects, although the revision (and every class name) is the same."""
    import hashlib
    import sys

    from codegen.emit import pipeline
    from codegen.limits import Limits

    document = json.loads((SPEC / "2025-11-25" / "schema.json").read_text())
    union = document["$defs"]["PrimitiveSchemaDefinition"]
    dropped = {"#/$defs/TitledSingleSelectEnumSchema", "#/$defs/UntitledMultiSelectEnumSchema"}
    union["anyOf"] = [arm for arm in union["anyOf"] if arm["$ref"] not in dropped]
    data = json.dumps(document).encode()
    built = pipeline.build_revision(
        "2025-11-25", "forms_alt", data, hashlib.sha256(data).hexdigest(), limits=Limits(), standalone=True
    )
    for name, text in {**built.files, **pipeline.runtime_files()}.items():  # a package on its own
        target = tmp_path / "forms_alt" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        alt = importlib.import_module("forms_alt.forms")
        wire = alt.requested_schema(order_form_with(alt)).model_dump(mode="json")
        assert wire["properties"]["tip_reminder"]["enumNames"] == ["Of Course", "Nope, I'll remember"]
        assert "oneOf" not in wire["properties"]["tip_reminder"]
        with pytest.raises(alt.FormError, match=r"^Signup.picks: an untitled multi-select: 2025-11-25 has only titled ones$"):
            alt.requested_schema(_form(picks=(list[Literal["a", "b"]], ...)))
        titled = alt.requested_schema(_form(picks=(Annotated[list[Literal["a"]], alt.Titles({"a": "A"})], ...)))
        assert titled.model_dump(mode="json")["properties"]["picks"]["items"] == {"anyOf": [{"const": "a", "title": "A"}]}
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "forms_alt" or m.startswith("forms_alt.")]:
            del sys.modules[name]


def order_form_with(module: ModuleType) -> type[BaseModel]:
    titles = module.Titles({YesNo.YES: "Of Course", YesNo.NO: "Nope, I'll remember"})

    class Order(BaseModel):
        tip_reminder: Annotated[YesNo, titles] = Field(title="Remind me to tip?")

    return Order


def test_only_revisions_with_elicitation_get_a_forms_module() -> None:
    from .conftest import GENERATED

    from codegen.emit.runtime import FOLDER

    # the shared runtime's forms.py (markers and errors) is no revision's
    have = sorted(p.parent.name for p in (GENERATED / "mcp_models").glob("*/forms.py") if p.parent.name != FOLDER)
    assert have == sorted([*PACKAGES.values(), "surface"])
