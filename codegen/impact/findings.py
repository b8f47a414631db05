"""A type checker's errors, decoded from what it prints: mypy's JSON lines (`--output json`) or its
text lines, pyright's `--outputjson` document. Nothing here trusts the output's shape: a line or
an entry that is not what the format says is skipped, never a traceback."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast


@dataclass(frozen=True, order=True)
class Finding:
    """One error: where (as the checker printed the file), what, and the checker's code for it."""

    file: str
    line: int  # 1-based
    column: int  # 1-based; 0 when not given
    code: str  # mypy's error code (`call-arg`), pyright's rule (`reportCallIssue`); "" when none
    message: str  # the whole message (pyright's may span lines)

    @property
    def key(self) -> tuple[str, int, str, str]:
        """What makes two runs' errors the same error: the project's files are not edited between
        the runs, so a line number is stable; the column is not part of it (a longer type name in
        the message does not move code)."""
        return (self.file, self.line, self.code, self.message)

    @property
    def headline(self) -> str:
        """The message's first line, for one-line reports."""
        return self.message.split("\n", 1)[0].strip()


_MYPY_TEXT = re.compile(
    r"^(?P<file>[^\n]+?):(?P<line>\d+):(?:(?P<column>\d+):)? (?P<severity>error|note|warning): "
    r"(?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


def mypy_json(output: str) -> list[Finding]:
    """`mypy --output json`: one JSON object per line; notes are not errors."""
    found: list[Finding] = []
    for line in output.splitlines():
        try:
            entry: object = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        fields = cast("dict[str, Any]", entry)
        if fields.get("severity") != "error":
            continue
        finding = _finding(
            fields.get("file"), fields.get("line"), _plus_one(fields.get("column")), fields.get("code"), fields.get("message")
        )
        if finding is not None:
            found.append(finding)
    return found


def mypy_text(output: str) -> list[Finding]:
    """mypy's plain lines `file:line[:column]: error: message  [code]` (a mypy without JSON output)."""
    found: list[Finding] = []
    for line in output.splitlines():
        matched = _MYPY_TEXT.match(line)
        if matched is None or matched["severity"] != "error":
            continue
        column = int(matched["column"]) if matched["column"] else 0
        finding = _finding(matched["file"], int(matched["line"]), column, matched["code"] or "", matched["message"])
        if finding is not None:
            found.append(finding)
    return found


def pyright_json(output: str) -> tuple[list[Finding], str | None] | None:
    """`pyright --outputjson`: (its errors, its version), or None when the output is no such document."""
    try:
        document: object = json.loads(output)
    except ValueError:
        return None
    if not isinstance(document, dict):
        return None
    fields = cast("dict[str, Any]", document)
    if not isinstance(fields.get("generalDiagnostics"), list):
        return None
    version = fields.get("version")
    found: list[Finding] = []
    for entry in _objects(fields["generalDiagnostics"]):
        if entry.get("severity") != "error":
            continue
        start = _object(_object(entry.get("range")).get("start"))
        line = start.get("line")
        finding = _finding(
            entry.get("file"),
            _plus_one(line) if _is_int(line) else None,  # pyright's lines count from 0
            _plus_one(start.get("character")),
            entry.get("rule", ""),
            entry.get("message"),
        )
        if finding is not None:
            found.append(finding)
    return found, version if isinstance(version, str) else None


def _finding(file: object, line: object, column: object, code: object, message: object) -> Finding | None:
    if not (isinstance(file, str) and file and _is_int(line) and isinstance(message, str)):
        return None
    return Finding(
        file=file,
        line=cast(int, line),
        column=cast(int, column) if _is_int(column) else 0,
        code=code if isinstance(code, str) else "",
        message=message,
    )


def _plus_one(column: object) -> int:
    """A position counted from 0 (mypy's JSON columns, pyright's lines and characters) counted from
    1, as mypy's text and pyright's own report show it; 0 when there is none."""
    return cast(int, column) + 1 if _is_int(column) else 0


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(value: object) -> Mapping[str, Any]:
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def _objects(values: object) -> Iterator[Mapping[str, Any]]:
    for value in cast("list[object]", values):
        if isinstance(value, dict):
            yield cast("dict[str, Any]", value)
