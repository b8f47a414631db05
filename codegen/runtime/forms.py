"""What an elicitation form is declared with and fails with, the same class in every revision
package and the surface: a form declared once, with `Titles` and `Format` from any of them, serves
every revision's `requested_schema` and `elicit_request`, and `except FormError` catches them all.
Each revision package's forms.py builds its own requestedSchema models from a form."""

from __future__ import annotations

import enum
from collections.abc import Mapping

from pydantic import BaseModel

from .elicitation import AnswerProblem

__all__ = ["AnswerError", "FormError", "Format", "Titles", "choice_value"]


class FormError(ValueError):
    """A form field MCP elicitation cannot carry (in the revision whose `requested_schema` said
    so)."""

    def __init__(self, form: type[BaseModel], field: str, reason: str) -> None:
        super().__init__(f"{form.__name__}.{field}: {reason}")
        self.form = form
        self.field = field
        self.reason = reason


class AnswerError(ValueError):
    """An accepted answer that does not fit its form: one problem per field."""

    def __init__(self, form: str, problems: list[AnswerProblem]) -> None:
        listed = "; ".join(f"{p.field}: {p.message}" for p in problems)
        super().__init__(f"the answer to {form} does not fit: {listed}")
        self.form = form
        self.problems = problems


class Titles:
    """Display titles of a choice field's values: `Annotated[Color, Titles({Color.RED: "Red"})]`.

    A value without a title shows as itself. One class for every revision package and the surface:
    a form is declared once and read by each of them."""

    __mcp_form_marker__ = "titles"

    def __init__(self, titles: Mapping[str, str]) -> None:
        self.titles = {choice_value(value): title for value, title in titles.items()}


class Format:
    """The StringSchema `format` of a `str` field: `Annotated[str, Format("email")]`."""

    __mcp_form_marker__ = "format"

    def __init__(self, name: str) -> None:
        self.name = name


def choice_value(value: object) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)
