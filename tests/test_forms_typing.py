"""Elicitation forms under the type checkers (issue 18), proven both ways.

- tests/typing/forms_ok.py: the accepted outcome is typed as the form class (`Accepted[Feedback].value` is a
  `Feedback`), narrowing by isinstance or `match` works, requests and results have the revision's types; it
  must type-check cleanly under mypy --strict and pyright strict.
- tests/typing/forms_misuse.py: reading a field of a declined or cancelled outcome (or of the un-narrowed
  outcome), a field the form lacks, a form instance where its class is wanted, an `id` where the revision's
  request has none (or none where it needs one): each marked line fails under both checkers, and no other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from .typing_checkers import TYPING, expected_errors, mypy_errors, pyright_errors

CHECKERS = [mypy_errors, pyright_errors]


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_forms_type_check(checker: Callable[[Path], set[int]]) -> None:
    assert checker(TYPING / "forms_ok.py") == set()


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_forms_misuse_fails_on_exactly_the_marked_lines(checker: Callable[[Path], set[int]]) -> None:
    path = TYPING / "forms_misuse.py"
    expected = expected_errors(path)
    assert len(expected) >= 10
    assert checker(path) == expected


def test_forms_typing_files_carry_no_suppression() -> None:
    for name in ("forms_ok.py", "forms_misuse.py"):
        text = (TYPING / name).read_text()
        assert "type: ignore" not in text and "pyright: ignore" not in text, name
