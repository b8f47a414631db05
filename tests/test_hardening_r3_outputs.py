"""Hardening round three, outputs: what `diff`, the generated models and `tools` report is true and
bounded, whatever the schemas hold.

- `diff` of large flat schemas (300 and 1,000 definitions, renamed and changed) gives the right
  report in bounded CPU; and wherever its work budget runs out, the error names a place that is in
  the input it names (renames were paired by re-walking every definition for every candidate, and
  charged with pointers relative to the definition: `#/properties/count`, in neither input);
- the Markdown, HTML and text reports show a hostile name (backticks, line breaks, `<!--`, pipes)
  as that text: a Markdown renderer (markdown-it, CommonMark + tables) and an HTML parser see the
  structure a plain name gives, headline and breaking tables included;
- a pattern's worst matching cost is estimated and bounded (`a.{2000}c`: 5 s for 512 KiB), for the
  models, `tools` and `check_output` alike, and `check_output` keeps its time budget with a long
  string; the generated model's validation of 512 KiB against the worst accepted pattern is
  measured in a forked child (tests/cpu_bound.py);
- `tools` models that accept what their schema refuses say so: a warning per tool and keyword, and
  the class docstring; measured keyword by keyword against the generated models.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from codegen import generate_schema
from codegen.checks.outputschema import check_output
from codegen.diff import diff as diff_revisions
from codegen.diff import diff_sides, pyapi, renames
from codegen.diff.source import load_side
from codegen.emit.unenforced import unenforced
from codegen.errors import CodegenError, printable
from codegen.limits import DEFAULT_LIMITS
from codegen.schema import budget, patterns, pointers
from codegen.tools import package as tools_package

from . import bad_input_support as support
from . import cpu_bound

# -- diff: large flat schemas ------------------------------------------------------------------------


def _flat(count: int, *, alike: bool) -> tuple[dict[str, Any], dict[str, Any], dict[str, str], set[str]]:
    """old and new schemas of count definitions, each an object with a few typed properties (alike:
    all of one shape; else each with a property of its own). new renames every one (D7 -> R7) and
    adds an optional property to every fifth (R1, R6, ...): (old, new, renames, changed)."""

    def shape(index: int, **extra: Any) -> dict[str, Any]:
        properties: dict[str, Any] = {"id": {"type": "string"}, "count": {"type": "integer"}}
        properties["tags"] = {"type": "array", "items": {"type": "string"}}
        if not alike:
            properties[f"f{index}"] = {"type": "boolean"}
        return {"type": "object", "properties": {**properties, **extra}, "required": ["id"]}

    old = {"$defs": {f"D{i}": shape(i) for i in range(count)}}
    new = {"$defs": {f"R{i}": shape(i, **({"note": {"type": "string"}} if i % 5 == 1 else {})) for i in range(count)}}
    return old, new, {f"D{i}": f"R{i}" for i in range(count)}, {f"R{i}" for i in range(1, count, 5)}


def _write_pair(tmp_path: Path, old: Any, new: Any) -> tuple[Path, Path]:
    paths = []
    for label, document in (("old", old), ("new", new)):
        (tmp_path / label).mkdir(exist_ok=True)
        path = tmp_path / label / "schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return support.cli_env(tmp_path / "cache")


@pytest.mark.parametrize(
    ("count", "alike", "python_api"), [(300, True, True), (300, False, True), (1000, True, False), (1000, False, False)]
)
def test_diff_of_large_flat_schemas_is_right_and_bounded(
    count: int, alike: bool, python_api: bool, tmp_path: Path, env: dict[str, str]
) -> None:
    old, new, renames, changed = _flat(count, alike=alike)
    old_path, new_path = _write_pair(tmp_path, old, new)
    args = ["diff", str(old_path), str(new_path), "--format", "json", *([] if python_api else ["--no-python-api"])]
    result = support.run(args, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    found = {pair["from"]: pair["to"] for pair in report["definitions"]["renamed"]}
    if alike:  # every renamed one is paired, one to one, with one of the same shape
        assert set(found) == set(renames) and sorted(found.values()) == sorted(renames.values())
    else:  # each with the one holding its own property
        assert found == renames
    assert report["definitions"]["added"] == [] and report["definitions"]["removed"] == []
    added = {c["subject"] for c in report["changes"] if c["kind"] == "property-added" and c["path"] == ["note"]}
    assert added == changed
    names = set(old["$defs"]) | set(new["$defs"])
    assert all(c["subject"] in names for c in report["changes"])
    support.assert_bounded(result, support.GENERATION)
    support.record(
        f"outputs: diff of {count} flat definitions ({'alike' if alike else 'distinct'})",
        result,
        "exit 0, renames and changes right",
    )


def _with_messages(document: dict[str, Any], prefix: str) -> dict[str, Any]:
    """document with a message union, so that who sends what is worked out too."""
    arms = [{"$ref": f"#/$defs/{prefix}1"}, {"$ref": f"#/$defs/{prefix}6"}]
    return {"$defs": {**document["$defs"], "ClientRequest": {"anyOf": arms}}}


@pytest.mark.parametrize("per_node", [0.1, 0.2, 0.4, 0.9, 1.3, 1.4, 2.0, 8.0])
def test_a_diff_budget_running_out_names_a_place_in_the_input_it_names(
    per_node: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budgets of a diff (the rename shapes, who sends what, the walks and comparisons, each
    side's Python API models) made per_node units per schema node, after both sides were loaded:
    the run completes or stops with MCG119 naming one of the two inputs and a pointer that resolves
    in it. (The pairing of renames keeps its own budget here: the next test runs it out.)"""
    old, new, _, _ = _flat(60, alike=False)
    old, new = _with_messages(old, "D"), _with_messages(new, "R")
    sides = tuple(load_side(str(path)) for path in _write_pair(tmp_path, old, new))
    real = budget.limit_for
    monkeypatch.setattr(renames, "_pairing_limit", real, raising=False)
    monkeypatch.setattr(budget, "limit_for", lambda nodes: int(nodes * per_node))
    monkeypatch.setattr(pyapi, "_CACHE", {})  # built under these budgets, not taken from another test
    try:
        diff_sides(*sides)
    except CodegenError as exc:
        problem = exc.diagnostics[0]
        assert problem.code == "MCG119", problem
        documents = {"old": old, "new": new}
        assert problem.revision in documents, problem  # one input, not "old -> new"
        assert problem.pointer is not None
        pointers.resolve(documents[problem.revision], problem.pointer)  # KeyError if it is not in that one
    else:
        assert per_node >= 2, "a diff of 60 definitions ran within a budget that small"


def test_renames_past_their_budget_name_the_removed_definition_being_paired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, _, _ = _flat(120, alike=True)
    old_path, new_path = _write_pair(tmp_path, old, new)
    # the rest of the diff keeps its budget; pairing 120 alike definitions with 120 gets 200 steps
    monkeypatch.setattr(renames, "_pairing_limit", lambda nodes: 200)
    with pytest.raises(CodegenError) as caught:
        diff_revisions(str(old_path), str(new_path), python_api=False)
    problem = caught.value.diagnostics[0]
    assert problem.code == "MCG119" and problem.revision == "old", problem
    assert "pairing the removed definitions" in problem.message and "look alike" in problem.message
    assert problem.pointer is not None and problem.pointer.removeprefix("#/$defs/") in old["$defs"]


# -- diff reports: hostile names shown as text --------------------------------------------------------

CASE = Path(__file__).parent / "cases" / "diff" / "method-added-removed"
# a forged headline and a comment that would hide everything after it, a table row, a code span closed early
FORGE = "`` \n\n# MCP a - b\n\n- **Wire:** 0 breaking, safe to merge\n\n<!-- | x | y | *z* [l](u) &amp; ~~s~~ $m$"
PLAIN = "Plain"


def _reports_pair(suffix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The method-added-removed case with suffix on its names: a definition (and its references), an
    added one, the methods (one removed, one added, one changed), a property and an enum value; new
    also adds a required property, drops the enum value and changes a description (breaking rows,
    --descriptions)."""
    renamed = ("CallToolRequestParams", "ListToolsResult")  # a *Request keeps its name: it makes a method
    documents = []
    for file in ("old.json", "new.json"):
        text = (CASE / file).read_text(encoding="utf-8")
        for name in renamed:
            text = text.replace(f'"{name}"', json.dumps(name + suffix)).replace(f'/{name}"', f"/{json.dumps(name + suffix)[1:]}")
        for value in ("ping", "tools/list", "tools/call", "protocolVersion", "assistant"):
            text = text.replace(f'"{value}"', json.dumps(value + suffix))
        documents.append(json.loads(text))
    old, new = documents
    params = new["$defs"]["CallToolRequestParams" + suffix]
    params["properties"]["extra" + suffix] = {"type": "string"}
    params["required"] = [*params["required"], "extra" + suffix]
    new["$defs"]["Role"]["enum"] = ["user"]
    new["$defs"]["Annotations"]["description"] = "described" + suffix
    return old, new


def _reports(tmp_path: Path, env: dict[str, str], suffix: str, fmt: str, *extra: str) -> tuple[support.Run, str]:
    folder = tmp_path / ("hostile" if suffix != PLAIN else "plain") / fmt
    folder.mkdir(parents=True)
    old_path, new_path = _write_pair(folder, *_reports_pair(suffix))
    result = support.run(["diff", str(old_path), str(new_path), "--format", fmt, "--descriptions", *extra], env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    digests = [hashlib.sha256(p.read_bytes()).hexdigest() for p in (old_path, new_path)]
    return result, result.stdout.replace(digests[0], "OLD-SHA").replace(digests[1], "NEW-SHA")


def _markdown(text: str) -> tuple[list[tuple[str, str, int]], list[str], list[list[str]]]:
    """What a CommonMark renderer (with GitHub's tables) makes of text: its blocks (type, tag,
    nesting), the text each inline shows, and the markup inside each inline (emphasis, links,
    HTML: anything but plain text and code)."""
    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    blocks: list[tuple[str, str, int]] = []
    shown: list[str] = []
    markup: list[list[str]] = []
    for token in parser.parse(text):
        blocks.append((token.type, token.tag, token.nesting))
        if token.type == "inline":
            children = token.children or []
            shown.append("".join(child.content for child in children if child.type in ("text", "code_inline")))
            markup.append([child.type for child in children if child.type not in ("text", "code_inline")])
    return blocks, shown, markup


def _tables(text: str) -> list[tuple[str, list[list[str]]]]:
    """The tables a Markdown renderer shows: (the heading above it, its rows of cell texts)."""
    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(text)
    tables: list[tuple[str, list[list[str]]]] = []
    heading, in_heading, rows = "", False, list[list[str]]()
    for token in tokens:
        if token.type == "heading_open":
            in_heading = True
        elif token.type == "inline" and in_heading:
            heading, in_heading = token.content, False
        elif token.type == "table_open":
            rows = []
        elif token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append("".join(c.content for c in token.children or [] if c.type in ("text", "code_inline")))
        elif token.type == "table_close":
            tables.append((heading, rows))
            rows = []
    return tables


def _forged(text: str) -> str:
    return text.replace(PLAIN, printable(FORGE))


def test_markdown_report_shows_hostile_names_as_text(tmp_path: Path, env: dict[str, str]) -> None:
    hostile_run, hostile = _reports(tmp_path, env, FORGE, "markdown", "--no-python-api")
    _, plain = _reports(tmp_path, env, PLAIN, "markdown", "--no-python-api")
    blocks, shown, markup = _markdown(hostile)
    plain_blocks, plain_shown, plain_markup = _markdown(plain)
    assert blocks == plain_blocks  # no heading, list, table row, column or HTML block added or lost
    assert markup == plain_markup  # no emphasis, link, inline HTML or comment either
    assert shown == [_forged(text) for text in plain_shown]  # each value as itself
    assert shown[0] == "MCP old → new"
    assert shown[1].startswith("Wire: 6 breaking"), shown[1]  # the real headline, not the forged one
    tables = _tables(hostile)
    assert tables == [(title, [[_forged(cell) for cell in row] for row in rows]) for title, rows in _tables(plain)]
    titles = [title for title, _ in tables]
    assert titles == ["Methods", "Breaking (6)", "Breaking (6)"], titles  # the last one: informational, folded
    methods, breaking = tables[0][1], tables[1][1]
    first_column = [row[0] for row in methods]
    assert f"ping{printable(FORGE)} (request)" in first_column and f"tools/list{printable(FORGE)} (request)" in first_column
    assert f"CallToolRequestParams{printable(FORGE)}.extra{printable(FORGE)}" in [row[0] for row in breaking]
    support.assert_bounded(hostile_run, support.GENERATION)
    support.record("outputs: diff --format markdown with forged names", hostile_run, "exit 0, rendered as text")


def test_markdown_report_with_the_python_api_keeps_its_structure(tmp_path: Path, env: dict[str, str]) -> None:
    """The Python API rows quote annotations (`Literal['assistant...']`) built from hostile values."""
    hostile_run, hostile = _reports(tmp_path, env, FORGE, "markdown")
    _, plain = _reports(tmp_path, env, PLAIN, "markdown")
    blocks, shown, markup = _markdown(hostile)
    plain_blocks, _, plain_markup = _markdown(plain)
    assert blocks == plain_blocks and markup == plain_markup
    assert shown[1].startswith("Wire: 6 breaking") and shown[2].startswith("Python API: "), shown[:3]
    support.assert_bounded(hostile_run, support.GENERATION)
    support.record("outputs: diff --format markdown, Python API, forged names", hostile_run, "exit 0, structure kept")


class _Page(HTMLParser):
    """An HTML page as its elements (tag, attribute names, fixed-vocabulary attribute values) and the
    text it shows."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, ...]] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        fixed = tuple(f"{k}={v}" for k, v in sorted(attrs) if k in ("class", "data-severity", "data-sides", "data-axis"))
        self.elements.append(("start", tag, *sorted(k for k, _ in attrs), *fixed))

    def handle_endtag(self, tag: str) -> None:
        self.elements.append(("end", tag))

    def handle_comment(self, data: str) -> None:
        self.elements.append(("comment",))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_report_shows_hostile_names_as_text(tmp_path: Path, env: dict[str, str]) -> None:
    hostile_run, hostile = _reports(tmp_path, env, FORGE, "html", "--no-python-api")
    _, plain = _reports(tmp_path, env, PLAIN, "html", "--no-python-api")
    page, plain_page = _Page(hostile), _Page(plain)
    assert page.elements == plain_page.elements  # no element, attribute or comment added
    # a description is shown clipped to one line of words (structure.py's _clip), the rest as it is
    clipped = " ".join(("described" + FORGE).split())
    assert "".join(page.text) == "".join(plain_page.text).replace("described" + PLAIN, clipped).replace(PLAIN, printable(FORGE))
    support.assert_bounded(hostile_run, support.GENERATION)
    support.record("outputs: diff --format html with forged names", hostile_run, "exit 0, shown as text")


def test_text_report_shows_hostile_names_on_their_own_lines(tmp_path: Path, env: dict[str, str]) -> None:
    hostile_run, hostile = _reports(tmp_path, env, FORGE, "text", "--no-python-api")
    _, plain = _reports(tmp_path, env, PLAIN, "text", "--no-python-api")
    assert hostile.splitlines() == [line.replace(PLAIN, printable(FORGE)) for line in plain.splitlines()]
    assert hostile.splitlines()[1].startswith("Wire: 6 breaking")
    support.assert_bounded(hostile_run, support.GENERATION)
    support.record("outputs: diff --format text with forged names", hostile_run, "exit 0, lines kept")


# -- patterns: the cost of matching --------------------------------------------------------------------

COSTLY_PATTERNS = {
    "dot_2000": "a.{2000}c",
    "nested_product": "(a.{40}){40}c",
    "adjacent_sum": "a.{100}.{100}c",
    "ascii_class_500": "a[a-z]{500}c",
}


def _schema_with(pattern: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"p": {"type": "string", "pattern": pattern}}}


@pytest.mark.parametrize("case", sorted(COSTLY_PATTERNS))
def test_costly_patterns_are_refused_by_models_tools_and_check_output(
    case: str, tmp_path: Path, env: dict[str, str]
) -> None:
    pattern = COSTLY_PATTERNS[case]
    assert isinstance(patterns.match_cost(pattern), int) and patterns.match_cost(pattern) > patterns.MAX_MATCH_COST
    schema = tmp_path / "costly" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps({"$defs": {"A": _schema_with(pattern)}}))
    made = support.run(["generate", "--schema", str(schema), "--out", str(tmp_path / "pkg")], env=env)
    line = support.assert_one_line_error(made, "MCG120", pointer="#/$defs/A/properties/p/pattern")
    assert "ns per byte" in line and len(line) <= 340, line
    support.assert_bounded(made)
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": _schema_with(pattern)}]}))
    listed = support.run(["tools", "--from", str(listing), "--out", str(tmp_path / "tools_pkg")], env=env)
    support.assert_one_line_error(listed, "MCG120", pointer="#/tools/0/inputSchema/properties/p/pattern")
    support.assert_bounded(listed)
    with pytest.raises(CodegenError) as caught:
        check_output(_schema_with(pattern), {"p": "a" * 10})
    assert caught.value.diagnostics[0].code == "MCG713" and caught.value.diagnostics[0].pointer == "#/properties/p/pattern"
    support.record(f"outputs: pattern {case} (generate)", made, "match cost over the limit")
    support.record(f"outputs: pattern {case} (tools)", listed, "match cost over the limit")


def _worst_accepted(atom: str) -> tuple[str, int]:
    """`a<atom>{k}c` with the largest k the estimate accepts (it grows with k), and k."""
    low, high = 1, 5_000
    while low < high:
        middle = (low + high + 1) // 2
        if patterns.Tally().add(f"a{atom}{{{middle}}}c") is None:
            low = middle
        else:
            high = middle - 1
    assert patterns.Tally().add(f"a{atom}{{{low + 1}}}c") is not None
    return f"a{atom}{{{low}}}c", low


# In reference tasks (tests/cpu_bound.py): the estimate allows ~0.55 s for 512 KiB (1,000 ns a byte),
# about 3 of them idle; `a.{2000}c` took 5.4 s (27).
MATCH_TIMES = 7


def _adversarial(size: int) -> str:
    """A string that keeps the engine's DFA from settling on `a<class>{k}c`: a and b at random."""
    chosen = random.Random(7)
    return "".join(chosen.choice("ab") for _ in range(size))


@pytest.mark.parametrize("atom", [".", "[a-z]", "\\w"])
def test_generated_model_validates_512_kib_against_the_worst_accepted_pattern_in_bounded_cpu(
    atom: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pattern, _ = _worst_accepted(atom)
    schema = tmp_path / "worst" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps({"$defs": {"Args": _schema_with(pattern)}}))
    out = tmp_path / "r3_outputs_worst_pattern"
    generate_schema(schema, out=out)
    monkeypatch.syspath_prepend(str(tmp_path))
    models = importlib.import_module(out.name)
    try:
        text = _adversarial(512 * 1024)

        def validate() -> bool:
            return bool(models.Args.model_validate({"p": text}) is not None)

        measured = cpu_bound.measure(lambda: _refused(validate), cpu_limit=20)
    finally:
        for name in [m for m in sys.modules if m == out.name or m.startswith(out.name + ".")]:
            del sys.modules[name]
    assert measured.raised is None and measured.value == "refused", measured  # it matched nothing: searched it all
    cpu_bound.assert_within(measured, MATCH_TIMES, what=f"matching {pattern!r}")


def _refused(validate: Callable[[], bool]) -> str:
    from pydantic import ValidationError

    try:
        validate()
    except ValidationError:
        return "refused"
    return "accepted"


def test_check_output_keeps_its_budget_with_a_long_string() -> None:
    pattern, copies = _worst_accepted(".")
    schema = _schema_with(pattern)
    long_text = _adversarial(4 * 1024 * 1024)  # ~2 s of matching: more than the budget

    def validate_long() -> list[str]:
        return [p.message for p in check_output(schema, {"p": long_text}, budget_seconds=1.0)]

    measured = cpu_bound.measure(validate_long, cpu_limit=20)
    assert measured.raised is None and measured.value, measured
    assert measured.value[0].startswith("validation stopped: matching a string of 4,194,304 bytes"), measured.value
    assert measured.cpu_seconds <= 1.0, measured.cpu_seconds  # stopped before the match, not after it
    # a string whose match fits is checked as usual
    short = "a" + "b" * (copies + 1) + "c"
    assert [p.message for p in check_output(schema, {"p": short}, budget_seconds=1.0)] == [
        f"{short!r} does not match {pattern!r}"
    ]
    assert check_output(schema, {"p": "a" + "b" * copies + "c"}, budget_seconds=1.0) == []


# -- tools: what the generated models do not enforce --------------------------------------------------


def _object(properties: dict[str, Any], **keywords: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **keywords}


# keyword case: (input schema, arguments its schema refuses)
KEYWORD_CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "required-undeclared": (_object({"a": {"type": "string"}}, required=["a", "b"]), {"a": "x"}),
    "required-nested": (_object({"o": _object({}, required=["q"])}), {"o": {}}),
    "required-via-allof": (_object({"a": {"type": "string"}}, allOf=[{"required": ["a"]}]), {}),
    "unique-items": (_object({"xs": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}}), {"xs": [1, 1]}),
    "unique-items-nested": (_object({"o": _object({"xs": {"type": "array", "uniqueItems": True}})}), {"o": {"xs": [1, 1]}}),
    "dependent-required": (_object({"a": {"type": "string"}, "b": {}}, dependentRequired={"a": ["b"]}), {"a": "x"}),
    "dependent-schemas": (_object({"a": {"type": "string"}, "b": {}}, dependentSchemas={"a": {"required": ["b"]}}), {"a": "x"}),
    "not": (_object({"a": {"type": "string", "not": {"const": "x"}}}), {"a": "x"}),
    "if-then": (
        _object({"a": {"type": "string"}, "b": {}}, **{"if": _object({"a": {"const": "x"}}, required=["a"]), "then": {"required": ["b"]}}),
        {"a": "x"},
    ),
    "contains": (_object({"xs": {"type": "array", "contains": {"const": 1}}}), {"xs": [2]}),
    "min-contains": (_object({"xs": {"type": "array", "contains": {"const": 1}, "minContains": 2}}), {"xs": [1]}),
    "prefix-items": (_object({"xs": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}}), {"xs": ["a", 1]}),
    # enforced by the models: no warning may name them
    "unevaluated-properties": (_object({"a": {"type": "string"}}, unevaluatedProperties=False), {"a": "x", "z": 1}),
    "property-names": (_object({}, propertyNames={"maxLength": 2}), {"abc": 1}),
    "pattern-properties": (_object({}, patternProperties={"^x": {"type": "integer"}}), {"xa": "s"}),
    "min-properties": (_object({}, minProperties=1), {}),
    "multiple-of": (_object({"n": {"type": "integer", "multipleOf": 3}}), {"n": 4}),
    "max-length": (_object({"s": {"type": "string", "maxLength": 2}}), {"s": "abc"}),
    "pattern": (_object({"s": {"type": "string", "pattern": "^a"}}), {"s": "b"}),
    "closed": (_object({"a": {}}, additionalProperties=False), {"b": 1}),
    "enum": (_object({"n": {"enum": [1, "a"]}}), {"n": 2}),
    "max-items": (_object({"xs": {"type": "array", "items": {"type": "integer"}, "maxItems": 1}}), {"xs": [1, 2]}),
}


def _tools_listing() -> dict[str, Any]:
    return {"tools": [{"name": case, "inputSchema": schema} for case, (schema, _) in KEYWORD_CASES.items()]}


@pytest.fixture(scope="module")
def keyword_models(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("keywords")
    out = root / "r3_outputs_keyword_tools"
    out.mkdir()
    files = tools_package.generate_tools_package(
        _tools_listing()["tools"], models_package="mcp_models.v2026_07_28", limits=DEFAULT_LIMITS
    )
    for name, text in files.items():  # the package holds its own _runtime/
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(f"{out.name}.models")
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith(out.name)]:
            del sys.modules[name]


def test_a_tool_model_accepts_what_its_schema_refuses_only_where_it_says_so(keyword_models: Any) -> None:
    tools = _tools_listing()["tools"]
    stems = tools_package.stems(tools)
    loose = {(entry.tool, entry.keyword) for entry in tools_package.loose_keywords(tools)}
    for case, (schema, refused) in KEYWORD_CASES.items():
        assert check_output(schema, refused), case  # the schema refuses it
        model = getattr(keyword_models, stems[case] + "Input")
        try:
            model.model_validate(refused)
            accepted = True
        except Exception:  # noqa: BLE001 - pydantic's ValidationError
            accepted = False
        named = {keyword for tool, keyword in loose if tool == case}
        docstring = model.__doc__ or ""
        if accepted:
            assert named, f"{case}: the model accepts {refused!r} and no warning says why"
            assert all(keyword in docstring for keyword in named) and "check_output" in docstring, (case, docstring)
        else:
            assert not named, f"{case}: the model refuses {refused!r}, yet a warning names {named}"
            assert "Not enforced" not in docstring, case


def test_unenforced_keywords_are_found_where_they_are() -> None:
    schema = _object(
        {"xs": {"type": "array", "uniqueItems": True, "contains": {"uniqueItems": True}}, "o": {"$ref": "#/$defs/O"}},
        required=["xs", "missing"],
        **{"$defs": {"O": _object({"p": {}}, required=["p"], allOf=[{"required": ["q"]}])}},
    )
    assert unenforced(schema) == {
        "required": ["#", "#/$defs/O"],  # `q` is declared nowhere; what is under `contains` is not listed again
        "uniqueItems": ["#/properties/xs"],
        "contains": ["#/properties/xs"],
    }


def test_tools_warns_once_per_tool_and_keyword(tmp_path: Path, env: dict[str, str]) -> None:
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps(_tools_listing()))
    out = tmp_path / "keyword_tools"
    result = support.run(["tools", "--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28"], env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    expected = sorted(
        f"warning: tool {entry.tool!r}: {entry.model} does not enforce {entry.keyword}"
        for entry in tools_package.loose_keywords(_tools_listing()["tools"])
    )
    assert sorted(line.split(" (at ", 1)[0] for line in result.lines) == expected
    assert all(line.isprintable() and line.endswith("check_output or jsonschema checks it") for line in result.lines)
    assert "warning: tool 'unique-items': UniqueItemsInput does not enforce uniqueItems (at #/tools/3/inputSchema/properties/xs)" in result.stderr
    models = (out / "models.py").read_text()
    assert "Not enforced by this model: uniqueItems at #/properties/xs." in models
    support.assert_bounded(result, support.GENERATION)
    support.record("outputs: tools keywords the models do not enforce", result, "exit 0, a warning per tool and keyword")
    quiet = support.run(
        ["tools", "--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28", "--quiet"], env=env
    )
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""
