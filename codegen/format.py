"""black, in-process, with one fixed Mode: the output never depends on the user's own config."""

from __future__ import annotations

import ast
from functools import cache

from .errors import fail

LINE_LENGTH = 100


@cache
def _mode():  # type: ignore[no-untyped-def]
    import black

    return black.Mode(
        target_versions={black.TargetVersion.PY311},
        line_length=LINE_LENGTH,
        string_normalization=True,
        magic_trailing_comma=True,
    )


def format_python(source: str, *, name: str, revision: str | None = None) -> str:
    """Formatted source; a syntax error before or after formatting is a bug reported with the file name."""
    import black

    _parse(source, name, revision, "before")
    try:
        formatted = black.format_str(source, mode=_mode())
    except black.InvalidInput as exc:  # pragma: no cover - ast.parse accepted it
        raise fail("MCG501", f"black cannot format {name}: {exc}", revision=revision) from exc
    _parse(formatted, name, revision, "after")
    return formatted


def _parse(source: str, name: str, revision: str | None, stage: str) -> None:
    try:
        ast.parse(source, filename=name)
    except SyntaxError as exc:
        raise fail(
            "MCG502",
            f"generated {name} is not valid Python {stage} formatting: {exc.msg} (line {exc.lineno})",
            revision=revision,
            hint="this is a generator bug; please report it with the schema",
        ) from exc
