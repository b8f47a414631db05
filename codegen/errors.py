"""Errors as values: every stage reports problems as Diagnostics; only the CLI prints them."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ExitCode(enum.IntEnum):
    OK = 0
    DRIFT = 1  # generated tree differs from a fresh generation (or a breaking diff)
    ERROR = 2  # bad input, failed erratum, I/O failure, ...


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem, with where it is and what to do about it."""

    code: str  # stable identifier, e.g. "MCG103"
    message: str
    revision: str | None = None
    pointer: str | None = None  # JSON pointer into the schema, "#/$defs/Tool"
    hint: str | None = None

    def one_line(self) -> str:
        where = ", ".join(
            part
            for part in (
                f"revision {self.revision}" if self.revision else "",
                f"at {self.pointer}" if self.pointer else "",
            )
            if part
        )
        text = f"error[{self.code}]"
        if where:
            text += f" ({where})"
        text += f": {_single_line(self.message)}"
        if self.hint:
            text += f" (hint: {_single_line(self.hint)})"
        return text


def _single_line(text: str) -> str:
    return " ".join(text.split())


class CodegenError(Exception):
    """Raised by a stage to stop the pipeline; carries one or more diagnostics."""

    def __init__(self, *diagnostics: Diagnostic) -> None:
        if not diagnostics:
            raise ValueError("CodegenError needs at least one diagnostic")
        self.diagnostics: tuple[Diagnostic, ...] = diagnostics
        super().__init__(diagnostics[0].one_line())

    def __reduce__(self) -> tuple[type[CodegenError], tuple[Diagnostic, ...]]:
        # rebuilt from the diagnostics, so the error survives the trip back from a worker process
        return (CodegenError, self.diagnostics)

    def with_revision(self, revision: str) -> CodegenError:
        """The same errors, stamped with the revision they happened in (if not already)."""
        return CodegenError(
            *(
                d
                if d.revision
                else Diagnostic(d.code, d.message, revision, d.pointer, d.hint)
                for d in self.diagnostics
            )
        )


def fail(
    code: str,
    message: str,
    *,
    revision: str | None = None,
    pointer: str | None = None,
    hint: str | None = None,
) -> CodegenError:
    """Build a CodegenError for a single problem (to be raised by the caller)."""
    return CodegenError(Diagnostic(code, message, revision, pointer, hint))
