"""Each marked line must be an error under mypy --strict and pyright strict (see tests/test_forms_typing.py)."""

from __future__ import annotations

from pydantic import BaseModel

from mcp_models.v2025_11_25 import forms as forms_2025_11
from mcp_models.v2026_07_28 import ElicitResult
from mcp_models.v2026_07_28.forms import Accepted, Cancelled, Declined, elicit_request, read_answer, requested_schema


class Feedback(BaseModel):
    rating: int


class Other(BaseModel):
    name: str


def misuse(result: ElicitResult, declined: Declined, cancelled: Cancelled) -> None:
    outcome = read_answer(Feedback, result)
    outcome.value  # expect-error
    declined.value  # expect-error
    cancelled.value.rating  # expect-error
    if isinstance(outcome, Accepted):
        outcome.value.name  # expect-error
        other: Other = outcome.value  # expect-error
        print(other)
    else:
        outcome.value  # expect-error
    wrong: Accepted[Other] | Declined | Cancelled = read_answer(Feedback, result)  # expect-error
    requested_schema(Feedback(rating=1))  # expect-error
    read_answer(dict, result)  # expect-error
    elicit_request(Feedback, "m", id=7)  # expect-error
    forms_2025_11.elicit_request(Feedback, "m")  # expect-error
    print(wrong)
