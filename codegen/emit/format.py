"""black, in-process, with one fixed Mode: the output never depends on the user's own config."""

from __future__ import annotations

from functools import cache

from codegen.errors import fail, flat

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
    """Formatted source. black parses the source itself (it refuses invalid Python), so a module
    that is not valid Python is reported here, with the file name, as the generator bug it is."""
    import black

    try:
        return black.format_str(source, mode=_mode())
    except black.InvalidInput as exc:
        raise fail(
            "MCG502",
            f"generated {name} is not valid Python: {flat(str(exc))}",
            revision=revision,
            hint="this is a generator bug; please report it with the schema",
        ) from exc
