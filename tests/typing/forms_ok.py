"""Elicitation forms that must type-check cleanly under mypy --strict and pyright strict (tests/test_forms_typing.py).

The accepted outcome is typed as the form class itself; declined and cancelled outcomes carry no form.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field
from typing_extensions import assert_type

from mcp_models import v2025_06_18, v2025_11_25
from mcp_models.v2026_07_28 import ElicitRequest, ElicitResult, InputRequiredResult
from mcp_models.v2026_07_28.forms import (
    Accepted,
    AnswerError,
    Cancelled,
    Declined,
    Format,
    Titles,
    answer,
    answer_with,
    decline,
    elicit_request,
    input_required,
    read_answer,
    read_input_answer,
    requested_schema,
)
from mcp_models.v2026_07_28.models import ElicitRequestFormParamsRequestedSchema, InputResponseRequestParams


class Feedback(BaseModel):
    rating: int = Field(ge=1, le=5, title="Rating")
    comment: str | None = Field(None, max_length=500)
    email: Annotated[str, Format("email")] = ""
    size: Annotated[Literal["s", "m", "l"], Titles({"s": "Small", "m": "Medium", "l": "Large"})] = "m"


def server_side(result: ElicitResult) -> int | None:
    schema = requested_schema(Feedback)
    assert_type(schema, ElicitRequestFormParamsRequestedSchema)
    request = elicit_request(Feedback, "How was it?")
    assert_type(request, ElicitRequest)
    asked = input_required({"feedback": request})
    assert_type(asked, InputRequiredResult)
    outcome = read_answer(Feedback, result)
    assert_type(outcome, Accepted[Feedback] | Declined | Cancelled)
    if isinstance(outcome, Accepted):
        assert_type(outcome.value, Feedback)
        rating: int = outcome.value.rating
        comment: str | None = outcome.value.comment
        print(comment)
        return rating
    assert_type(outcome, Declined | Cancelled)
    assert_type(outcome.action, Literal["decline", "cancel"])
    return None


def match_outcome(result: ElicitResult) -> str:
    match read_answer(Feedback, result):
        case Accepted(value=form):
            assert_type(form, Feedback)
            return form.size
        case Declined():
            return "declined"
        case Cancelled():
            return "cancelled"


def retried(params: InputResponseRequestParams) -> Feedback | None:
    outcome = read_input_answer(Feedback, params.input_responses, "feedback")
    return outcome.value if isinstance(outcome, Accepted) else None


def client_side(schema: ElicitRequestFormParamsRequestedSchema, filled: Feedback) -> list[ElicitResult]:
    try:
        accepted = answer(schema, {"rating": 4})
    except AnswerError as exc:
        print([problem.field for problem in exc.problems])
        accepted = decline()
    return [accepted, answer_with(filled)]


def older_revisions(result_2025_06: v2025_06_18.ElicitResult, result_2025_11: v2025_11_25.ElicitResult) -> None:
    from mcp_models.v2025_06_18 import forms as forms_2025_06
    from mcp_models.v2025_11_25 import forms as forms_2025_11

    request = forms_2025_11.elicit_request(Feedback, "How was it?", id=7)
    assert_type(request, v2025_11_25.ElicitRequest)
    old = forms_2025_06.read_answer(Feedback, result_2025_06)
    if isinstance(old, forms_2025_06.Accepted):
        assert_type(old.value, Feedback)
    new = forms_2025_11.read_answer(Feedback, result_2025_11)
    if isinstance(new, forms_2025_11.Accepted):
        assert_type(new.value.rating, int)
