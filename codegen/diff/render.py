"""The report as text (coloured on a terminal, through rich), Markdown and a self-contained HTML page
(both from jinja2 templates in templates/diff/), and JSON (report.py)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from codegen.version import __version__
from codegen.errors import printable
from codegen.resources import templates_dir
from codegen.diff.report import BREAKING, COMPATIBLE, INFORMATIONAL, SEVERITIES, Change, MethodEntry, Report

if TYPE_CHECKING:  # imported when first rendering: a fast start
    import jinja2

FORMATS = ("text", "markdown", "json", "html")
_STYLE = {BREAKING: "bold red", COMPATIBLE: "yellow", INFORMATIONAL: "dim"}
_STATUS_ORDER = {"removed": 0, "changed": 1, "added": 2}
_QUIET_KINDS = frozenset({"definition-added", "definition-removed", "definition-renamed"})  # listed apart


@dataclass(frozen=True)
class Group:
    """The changes of one definition or class."""

    subject: str
    severity: str  # the worst of its changes
    senders: tuple[str, ...]
    receivers: tuple[str, ...]
    changes: tuple[Change, ...]

    @property
    def counts(self) -> dict[str, int]:
        return {s: sum(1 for c in self.changes if c.severity == s) for s in SEVERITIES}


def groups(changes: Iterable[Change]) -> list[Group]:
    by_subject: dict[str, list[Change]] = {}
    for change in changes:
        if change.kind not in _QUIET_KINDS:
            by_subject.setdefault(change.subject, []).append(change)
    result: list[Group] = []
    for subject, items in by_subject.items():
        items.sort(key=lambda c: (SEVERITIES.index(c.severity), c.path, c.kind, c.summary))
        result.append(
            Group(
                subject=subject,
                severity=min((c.severity for c in items), key=SEVERITIES.index),
                senders=tuple(sorted({s for c in items for s in c.senders})),
                receivers=tuple(sorted({s for c in items for s in c.receivers})),
                changes=tuple(items),
            )
        )
    # what breaks first: the worst severity, then the most breaking changes, then the name
    return sorted(result, key=lambda g: (SEVERITIES.index(g.severity), -g.counts[BREAKING], g.subject))


def headline(report: Report, limit: int = 3) -> list[str]:
    """A few plain sentences of what matters most: methods gone and new, the keys messages must now
    carry, and the members most often retyped in a breaking way (each with how often)."""
    sentences: list[str] = []
    removed = [m.method for m in report.methods if m.status == "removed"]
    added = [m.method for m in report.methods if m.status == "added"]
    requests_first = sorted(removed, key=lambda name: (name.startswith("notifications/"), name))
    if removed:
        sentences.append(f"{len(removed)} method(s) removed: {', '.join(requests_first)}")
    if added:
        sentences.append(f"{len(added)} method(s) added: {', '.join(sorted(added))}")
    required: dict[str, set[str]] = {}
    retyped: dict[tuple[str, str], set[str]] = {}
    for change in report.changes:
        if change.severity != BREAKING or not change.path:
            continue
        if change.summary.startswith(("property added (required)", "optional → required")):
            required.setdefault(change.path[-1], set()).add(change.subject)
        elif change.kind == "type-changed" and change.new:
            retyped.setdefault((change.path[-1], change.new), set()).add(change.subject)
    if required:
        top = sorted(required.items(), key=lambda item: (-len(item[1]), item[0]))[:limit]
        sentences.append(
            "now required: " + ", ".join(f"`{key}` (in {len(subjects)} definitions)" for key, subjects in top)
        )
    if retyped:
        top_retyped = sorted(retyped.items(), key=lambda item: (-len(item[1]), item[0]))[:limit]
        sentences.append(
            "now typed differently: "
            + ", ".join(f"`{key}` → {new} (in {len(subjects)} definitions)" for (key, new), subjects in top_retyped)
        )
    return sentences


def sides_of(change: Change | MethodEntry) -> str:
    """The sides a filter matches a change by: whom it breaks, else who exchanges it."""
    if change.breaks:
        return " ".join(change.breaks)
    if isinstance(change, Change):
        involved = sorted(set(change.senders) | set(change.receivers))
    else:
        involved = sorted(set(change.old_senders) | set(change.new_senders))
    return " ".join(involved) or "none"


def view(report: Report) -> dict[str, Any]:
    """Everything the templates show, in the order they show it."""
    summary = report.summary()
    methods = sorted(report.methods, key=lambda m: (_STATUS_ORDER[m.status], SEVERITIES.index(m.severity), m.method))
    return {
        "report": report,
        "summary": summary,
        "methods": methods,
        "wire_groups": groups(report.changes),
        "python_groups": groups(report.python_api),
        "sections": [("Wire changes", _by_severity(report.changes)), ("Python API changes", _by_severity(report.python_api))],
        "version": __version__,
        "severities": SEVERITIES,
    }


def _by_severity(changes: Iterable[Change]) -> dict[str, list[Change]]:
    listed = [c for c in changes if c.kind not in _QUIET_KINDS]
    return {s: [c for c in listed if c.severity == s] for s in SEVERITIES}


def render(report: Report, fmt: str, *, color: bool = False) -> str:
    if fmt == "json":
        return report.as_json()
    if fmt == "text":
        return text(report, color=color)
    template = {"markdown": "report.md.jinja2", "html": "report.html.jinja2"}[fmt]
    return str(_environment(html=fmt == "html").get_template(template).render(**view(report)))


@cache
def _environment(*, html: bool) -> jinja2.Environment:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "diff")),
        undefined=jinja2.StrictUndefined,
        autoescape=html,  # names and descriptions come from the schemas: escaped in HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # every {{ value }} escaped for the terminal (no control character, bidi override, line
        # break, ... gets through) and, in Markdown, for Markdown: the one place values are escaped
        finalize=_finalize_html if html else _finalize_markdown,
    )
    # jinja2 leaves the filter table's type to inference from its built-in filters
    filters = cast("dict[str, Callable[..., Any]]", environment.filters)
    filters["code"] = markdown_code
    filters["full_where"] = _full_where
    filters["sides"] = sides_of
    filters["where"] = _where
    filters["few"] = _few
    filters["methods_by_relevance"] = methods_by_relevance
    filters["who"] = _who
    return environment


def _finalize_html(value: Any) -> Any:
    """What the HTML template prints, escaped like every text mcp-codegen prints: a value on one
    line (then HTML-escaped by autoescape); a block the template built (a macro's output, Markup)
    keeps its line breaks."""
    import markupsafe

    if isinstance(value, markupsafe.Markup):
        return markupsafe.Markup(printable(str(value), keep="\n\t"))
    return value if _is_number(value) else printable(str(value))


def _finalize_markdown(value: Any) -> Any:
    """What the Markdown template prints: a value as Markdown text showing exactly it (escaped);
    Markup is Markdown this module built (a code span), printed as it is."""
    import markupsafe

    if isinstance(value, markupsafe.Markup):
        return markupsafe.Markup(printable(str(value)))
    return value if _is_number(value) else markdown_text(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# Characters that open or close an inline construct wherever they stand in a line: a code span,
# emphasis, a link or image, raw HTML or an HTML comment, an entity, strikethrough, math, a table
# cell, an escape (and `#`, which closes a heading). Backslash-escaped, each is shown as itself.
# Block constructs (`>`, `-`, `1.`, `===`) need a line of their own, which an escaped value never
# starts: printable() leaves it no line break.
_MARKDOWN_ACTIVE = frozenset("\\`*_[]<>&|~$#")


def markdown_text(value: Any) -> str:
    """value as Markdown inline text: one line (printable()), every active character escaped, so
    it can neither end the construct it stands in (a table cell, a list item, a heading) nor open
    one, and a table row keeps its columns."""
    return "".join(f"\\{c}" if c in _MARKDOWN_ACTIVE else c for c in printable(str(value)))


def markdown_code(value: Any) -> Any:
    """value as a Markdown code span no character of it can close early: fenced by one backtick
    more than its longest run of them (padded with a space where it starts or ends with a
    backtick or a space, which the fence strips). A value holding `|` is escaped text instead: in
    a table cell the pipe would need a backslash, which a code span shows. Markup: Markdown already."""
    import markupsafe

    text = printable(str(value))
    if "|" in text:
        return markupsafe.Markup(markdown_text(text))
    if not text:
        return markupsafe.Markup("` `")
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    pad = " " if text.strip(" ") and (text[0] in "` " or text[-1] in "` ") else ""
    return markupsafe.Markup(f"{fence}{pad}{text}{pad}{fence}")


def _full_where(change: Change) -> str:
    return change.where


def _where(change: Change) -> str:
    return ".".join(change.path) if change.path else "(itself)"
def methods_by_relevance(change: Change) -> list[str]:
    """The methods carrying a change, the ones its subject is named after first (CallToolResult:
    tools/call), so a shortened list never hides the obvious one."""
    subject = change.subject.lower()

    def named_after(method: str) -> int:
        words = [w for part in method.split("/") for w in re.split(r"(?=[A-Z])|_", part) if w]
        return sum(1 for w in words if w.lower().rstrip("s") in subject)

    return sorted(change.methods, key=lambda method: -named_after(method))


def _few(items: Iterable[str], limit: int = 3) -> str:
    items = list(items)
    shown = ", ".join(items[:limit])
    return shown + (f" +{len(items) - limit} more" if len(items) > limit else "")


def _who(sides: Iterable[str]) -> str:
    sides = list(sides)
    return " and ".join(sides) if sides else "nobody"


def text(report: Report, *, color: bool) -> str:
    from rich.console import Console
    from rich.text import Text

    lines: list[Text] = []

    def line(*parts: tuple[str, str] | str) -> None:
        # every part escaped: names, summaries and details come from the schemas
        lines.append(Text.assemble(*(printable(p) if isinstance(p, str) else (printable(p[0]), p[1]) for p in parts)))

    summary = report.summary()
    wire, python = summary["wire"], summary["python"]
    line(("MCP schema diff: ", "bold"), (f"{report.old.label} → {report.new.label}", "bold cyan"))
    line(*_counts("Wire", wire))
    if report.python_api_compared:
        line(*_counts("Python API", python))
    if report.empty:
        line(("no changes", "green"))
    sentences = headline(report)
    if sentences:
        line()
        line(("In short", "bold underline"))
        for sentence in sentences:
            line(f"  - {sentence}")
    if report.methods:
        line()
        line(("Methods", "bold underline"))
        for method in sorted(report.methods, key=lambda m: (_STATUS_ORDER[m.status], m.method)):
            senders = method.new_senders if method.status != "removed" else method.old_senders
            parts: list[tuple[str, str] | str] = [
                (f"  {method.status:<8}", _STYLE[method.severity]), (method.method, "bold"),
                f" ({method.kind}, sent by {_who(senders)})",
            ]  # fmt: skip
            if method.breaks:
                parts.append((f"  breaks {_who(method.breaks)}", _STYLE[BREAKING]))
            line(*parts)
            for note in method.notes:
                line(f"            {note}")
            if method.changes:
                line((f"            {method.changes} change(s) in what it carries", "dim"))
    if report.capabilities:
        line()
        line(("Capabilities", "bold underline"))
        for capability in report.capabilities:
            mark = {"added": "+", "removed": "-", "changed": "~"}[capability.status]
            extra = f" ({capability.relation})" if capability.relation else ""
            line(f"  {capability.side:<7}{mark} {capability.capability}{extra}")
    if report.definitions_added or report.definitions_removed or report.definitions_renamed:
        line()
        line(("Definitions", "bold underline"))
        if report.definitions_added:
            line(f"  added ({len(report.definitions_added)}): {', '.join(report.definitions_added)}")
        if report.definitions_removed:
            line(f"  removed ({len(report.definitions_removed)}): {', '.join(report.definitions_removed)}")
        for rename in report.definitions_renamed:
            line(f"  renamed: {rename['from']} → {rename['to']}")
    for title, found in (("Wire changes", groups(report.changes)), ("Python API changes", groups(report.python_api))):
        if not found:
            continue
        line()
        line((title, "bold underline"))
        for group in found:
            who = f"sent by {_who(group.senders)}" if group.senders else "on no wire"
            line(("  " + group.subject, "bold"), (f"  ({who})", "dim"))
            for change in group.changes:
                where = ".".join(change.path) or "(itself)"
                breaks = f" breaks {_who(change.breaks)}" if change.breaks else ""
                severity = (f"    {change.severity + ' ':<13}", _STYLE[change.severity])  # a space after the longest too
                line(severity, (f"{where}: ", "bold"), change.summary, (breaks, _STYLE[BREAKING]))
                for detail in change.details:
                    line((f"                   {detail}", "dim"))
    if color:
        console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", soft_wrap=True, width=200)
        for item in lines:
            console.print(item, highlight=False)
        output = cast(io.StringIO, console.file).getvalue()
        return str(output)
    return "".join(item.plain + "\n" for item in lines)


def _counts(axis: str, counts: dict[str, Any]) -> list[tuple[str, str] | str]:
    breaking_for = counts["breaking_for"]
    return [
        (f"{axis}: ", "bold"),
        (f"{counts[BREAKING]} breaking", _STYLE[BREAKING]),
        f" (client {breaking_for['client']}, server {breaking_for['server']}) · ",
        (f"{counts[COMPATIBLE]} compatible", _STYLE[COMPATIBLE]),
        " · ",
        (f"{counts[INFORMATIONAL]} informational", _STYLE[INFORMATIONAL]),
    ]
