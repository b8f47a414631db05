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
                _origin(self.revision) if self.revision else "",
                f"at {self.pointer}" if self.pointer else "",
            )
            if part
        )
        text = f"error[{self.code}]"
        if where:
            text += f" ({where})"
        text += f": {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        # escaped as a whole, so no part (a name, a pointer, a path, a library's message) can
        # break the line or reach the terminal as a control sequence
        return printable(text)


def _origin(label: str) -> str:
    """Where an error happened: a spec revision ("revision 2025-11-25", a schema's folder name), or
    another input by what it is ("from tools/list": a server's tools, not a revision)."""
    return f"from {label}" if "/" in label else f"revision {label}"


def printable(text: str, *, keep: str = "") -> str:
    """text with every character a terminal would act on shown as a Python-style escape.

    Control characters (C0, DEL, C1: newlines, carriage returns, ANSI escape sequences), format
    characters (bidi overrides and isolates, zero-width joiners), line and paragraph separators,
    lone surrogates, private-use and unassigned code points become \\xNN, \\uNNNN or \\UNNNNNNNN;
    characters in keep are left as they are. Everything that reaches a terminal, a log or a
    one-line error goes through here, so a name from a schema or a server can neither split a line
    nor restyle, clear or reorder what is shown.
    """
    if text.isprintable() and not keep:
        return text
    return "".join(c if c.isprintable() or c == " " or c in keep else _escape(c) for c in text)


def printable_json(text: str) -> str:
    """JSON text (from json.dumps(..., ensure_ascii=False)) with what printable() escapes written as
    JSON \\u escapes instead: the same document, safe to print. Outside strings JSON text holds
    only ASCII structure and the line breaks of its indentation, which are kept."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in " \n" else _json_escape(c) for c in text)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def flat(text: str) -> str:
    """A library's (possibly wrapped) message as one line of words, for quoting in a Diagnostic."""
    return " ".join(text.split())


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    code = ord(char)
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


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


    def relabelled(self, revision: str, shown: str) -> CodegenError:
        """The same errors, with revision label `revision` shown as `shown` (where a file is)."""
        return CodegenError(
            *(
                Diagnostic(d.code, d.message, shown, d.pointer, d.hint) if d.revision == revision else d
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
