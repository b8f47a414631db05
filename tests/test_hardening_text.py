"""Every text that reaches a terminal is escaped: a name from a schema, a tools/list file or a live
server can neither split mcp-codegen's one-line error, nor clear, restyle or reorder the terminal,
nor hide what it is (control characters, newlines, ANSI/OSC sequences, bidi overrides, lone
surrogates become \\n, \\x1b, \\u202e, ...).

The escaping is structural: Diagnostic.one_line() escapes the whole line, the CLI escapes every
line it prints (summaries, drift diffs, reports), the diff report escapes every value it renders,
and a live server's own stderr never reaches the terminal raw. Each case runs `mcp-codegen` as a
real process (tests/bad_input_support.py): exit code, exactly one line, CPU and memory bounds.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codegen import generate_schema
from codegen.errors import Diagnostic, printable, printable_json

from . import suite
from . import bad_input_support as support

FAKE_SERVER = Path(__file__).parent / "fake_mcp_server.py"
# `tools --server`: importing the MCP client library alone costs 4-6 smallest refusals
SERVER = support.Bound(15, "refusal")
FORGED = "a\n\x1b[2Jerror[MCG000]: all good"

# name: (hostile text, how it must appear, escaped)
HOSTILE = {
    "newline_and_ansi_clear_screen": (FORGED, "a\\n\\x1b[2Jerror[MCG000]: all good"),
    "carriage_return_overwrite": ("ok\rerror[MCG000]: fine", "ok\\rerror[MCG000]: fine"),
    "bidi_right_to_left_override": ("evil\u202egnp.exe", "evil\\u202egnp.exe"),
    "bidi_isolates": ("\u2066admin\u2069", "\\u2066admin\\u2069"),
    "c1_control_sequence_introducer": ("x\x9b31mred", "x\\x9b31mred"),
    "next_line_c1": ("one\x85two", "one\\x85two"),
    "line_separator": ("one\u2028two", "one\\u2028two"),
    "paragraph_separator": ("one\u2029two", "one\\u2029two"),
    "osc8_hyperlink": ("\x1b]8;;evil.example\x07click\x1b]8;;\x07", "\\x1b]8;;evil.example\\x07click\\x1b]8;;\\x07"),
    "zero_width_joiner_and_bom": ("ad\u200dmin\ufeff", "ad\\u200dmin\\ufeff"),
    "lone_surrogate": ("name\udc00", "name\\udc00"),
    "tab_and_vertical_tab": ("a\tb\x0bc\x0cd", "a\\tb\\x0bc\\x0cd"),
    "backspace_and_bell": (
        "secret\x08\x08\x08\x08\x08\x08public\x07",
        "secret\\x08\\x08\\x08\\x08\\x08\\x08public\\x07",
    ),
    "delete_character": ("a\x7fb", "a\\x7fb"),
}


def _one_escaped_line(
    result: support.Run, code: str, shown: str, *, bound: support.Bound = support.REFUSAL
) -> str:
    line = support.assert_one_line_error(result, code)
    assert shown in line, line
    assert line.isprintable(), line  # nothing a terminal would act on
    assert result.stdout == "" or result.stdout.replace("\n", "").isprintable()
    support.assert_bounded(result, bound)
    return line


def _dangling_under(name: str) -> dict[str, Any]:
    return {"$defs": {"A": {"type": "object", "properties": {name: {"$ref": "#/$defs/Missing"}}}}}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return support.cli_env(tmp_path / "cache")


# -- from a schema file --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_name_in_a_schema_file_cannot_forge_or_split_the_error_line(
    case: str, tmp_path: Path, env: dict[str, str]
) -> None:
    text, shown = HOSTILE[case]
    schema = tmp_path / "hostile" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps(_dangling_under(text)), encoding="ascii")  # the JSON itself is plain ASCII
    out = tmp_path / "pkg"
    result = support.run(["generate", "--schema", str(schema), "--out", str(out)], env=env)
    if case == "lone_surrogate":  # not Unicode text: refused as the schema is read, before any $ref
        line = _one_escaped_line(result, "MCG121", f"'{shown}'")
        assert line.startswith("error[MCG121] (revision hostile, at #/$defs/A/properties)")
    else:
        line = _one_escaped_line(result, "MCG112", f"at #/$defs/A/properties/{shown}/$ref")
        assert line.startswith("error[MCG112] (revision hostile, at #/$defs/A/properties/")
    assert not out.exists()
    support.record(f"text: schema property {case}", result)


def test_hostile_output_path_is_escaped(tmp_path: Path, env: dict[str, str]) -> None:
    out = tmp_path / ("pkg" + FORGED)
    out.write_text("not a folder")
    schema = Path(__file__).parent / "cases" / "unions" / "schema.json"
    result = support.run(["generate", "--schema", str(schema), "--out", str(out)], env=env)
    _one_escaped_line(result, "MCG603", "pkga\\n\\x1b[2Jerror[MCG000]: all good: it is a regular file")
    support.record("text: hostile --out path", result)


def test_hostile_names_in_a_tools_file(tmp_path: Path, env: dict[str, str]) -> None:
    listing = tmp_path / "tools.json"
    tool = {"name": "evil", "inputSchema": _dangling_under("p\u202e" + FORGED)["$defs"]["A"]}
    listing.write_text(json.dumps({"tools": [tool]}))
    result = support.run(["tools", "--from", str(listing), "--out", str(tmp_path / "out")], env=env)
    _one_escaped_line(result, "MCG112", "at #/tools/0/inputSchema/properties/p\\u202ea\\n\\x1b[2Jerror[MCG000]")
    support.record("text: tools file property name", result)


def test_hostile_tag_property_in_the_success_summary_is_escaped(tmp_path: Path, env: dict[str, str]) -> None:
    """Exit 0, and stdout (--verbose: the union report names each union's tag property) holds no control character."""
    tag = "k\x1b[31m\u202e"
    arms = {name: {"type": "object", "properties": {tag: {"const": name.lower()}}, "required": [tag]} for name in "AB"}
    schema = tmp_path / "tagged" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps({"$defs": {**arms, "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}}}))
    result = support.run(
        ["generate", "--verbose", "--schema", str(schema), "--out", str(tmp_path / "tagged_pkg")], env=env
    )
    assert result.returncode == 0, result.stderr
    assert "U by k\\x1b[31m\\u202e" in result.stdout, result.stdout
    assert all(line.isprintable() for line in result.stdout.splitlines()), result.stdout
    support.assert_bounded(result, support.GENERATION)
    support.record("text: hostile tag property in the summary (exit 0)", result, "stdout escaped")


def test_drift_diff_of_a_file_holding_escape_sequences_is_escaped(tmp_path: Path, env: dict[str, str]) -> None:
    schema = Path(__file__).parent / "cases" / "unions" / "schema.json"
    out = tmp_path / "pkg"
    generate_schema(schema, out=out)
    models = out / "models.py"
    models.write_text(models.read_text() + "# \x1b[2J\x1b]0;owned\x07 \u202eevil\n")
    result = support.run(["check", "--schema", str(schema), "--out", str(out)], env=env)
    assert result.returncode == 1
    assert "-# \\x1b[2J\\x1b]0;owned\\x07 \\u202eevil" in result.stdout
    assert all(line.isprintable() for line in result.stdout.splitlines())
    assert len(result.lines) == 1 and result.lines[0].isprintable()
    support.assert_bounded(result, support.GENERATION)
    support.record("text: drift diff of a file with escape sequences", result, "exit 1, diff escaped")


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_diff_report_escapes_hostile_definition_names(fmt: str, tmp_path: Path, env: dict[str, str]) -> None:
    name = "Evil\x1b[2J\u202eX"
    old = {"$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    new = {"$defs": {**old["$defs"], name: {"type": "object", "description": "d\x1b[31m\nmore"}}}
    for label, document in (("old", old), ("new", new)):
        (tmp_path / label).mkdir()
        (tmp_path / label / "schema.json").write_text(json.dumps(document))
    result = support.run(
        ["diff", str(tmp_path / "old" / "schema.json"), str(tmp_path / "new" / "schema.json"), "--format", fmt],
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert all(line.isprintable() for line in result.stdout.splitlines())
    if fmt == "json":
        assert json.loads(result.stdout)["definitions"]["added"] == [name]  # the same data, escaped
    else:
        assert "Evil\\x1b[2J\\u202eX" in result.stdout
    support.assert_bounded(result, support.GENERATION)
    support.record(f"text: diff --format {fmt} with a hostile definition name", result, "exit 0, report escaped")


# -- from a live server ------------------------------------------------------------------------------


def _server(tmp_path: Path, tools: list[Any], stderr: str = "") -> str:
    config = tmp_path / "server.json"
    config.write_text(json.dumps({"tools": tools, "stderr": stderr}))
    return shlex.join([sys.executable, str(FAKE_SERVER), str(config)])


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", ["newline_and_ansi_clear_screen", "bidi_right_to_left_override", "c1_control_sequence_introducer"]
)
def test_hostile_names_from_a_live_server(case: str, tmp_path: Path, env: dict[str, str]) -> None:
    text, shown = HOSTILE[case]
    tools = [{"name": "t" + text, "inputSchema": _dangling_under(text)["$defs"]["A"]}]
    server = _server(tmp_path, tools)
    result = support.run(["tools", "--server", server, "--out", str(tmp_path / "out")], env=env)
    _one_escaped_line(
        result, "MCG112", f"at #/tools/0/inputSchema/properties/{shown}/$ref", bound=SERVER
    )
    support.record(f"text: live server property {case}", result)


def test_a_lone_surrogate_from_a_live_server_is_one_line_not_a_logged_traceback(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """The client library refuses the message (lone surrogates are not Unicode text) and logs a
    traceback about it: that log is kept and quoted in the one line, never printed."""
    tools = [{"name": "t\udc00", "inputSchema": {"type": "object"}}]
    result = support.run(["tools", "--server", _server(tmp_path, tools), "--out", str(tmp_path / "out")], env=env)
    line = _one_escaped_line(
        result, "MCG703", "(Failed to parse JSONRPC message from server: ", bound=SERVER
    )
    assert "lone leading surrogate" in line and "Traceback" not in result.stderr
    # the dropped message ends the call at once, not the 30 s timeout of an answer that never comes
    assert "UnreadableMessage" in line and "TimeoutError" not in line, line
    support.record("text: live server sending a lone surrogate", result)


def test_duplicate_hostile_tool_names_from_a_live_server(tmp_path: Path, env: dict[str, str]) -> None:
    tool = {"name": FORGED + "\u202e", "inputSchema": {"type": "object"}}
    result = support.run(["tools", "--server", _server(tmp_path, [tool, tool]), "--out", str(tmp_path / "o")], env=env)
    _one_escaped_line(
        result,
        "MCG702",
        "two tools are named 'a\\n\\x1b[2Jerror[MCG000]: all good\\u202e'",
        bound=SERVER,
    )
    support.record("text: live server duplicate hostile tool names", result)


def test_a_live_servers_stderr_does_not_reach_the_terminal(tmp_path: Path, env: dict[str, str]) -> None:
    tools = [{"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}}}]
    noise = "starting\n\x1b[2J\x1b[31merror[MCG000]: all good\n"
    result = support.run(
        ["tools", "--server", _server(tmp_path, tools, noise), "--out", str(tmp_path / "out"), "-q"], env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""
    support.assert_bounded(result, bound=SERVER)
    support.record("text: live server writing escapes on stderr (exit 0)", result, "nothing of it printed")


def test_a_failing_servers_last_words_are_quoted_escaped(tmp_path: Path, env: dict[str, str]) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.stderr.write('boot\\n\\x1b[2Jfatal: \\u202eno config\\n')\nsys.exit(3)\n")
    server = shlex.join([sys.executable, str(script)])
    result = support.run(["tools", "--server", server, "--out", str(tmp_path / "out")], env=env)
    _one_escaped_line(
        result, "MCG703", "(the server said: \\x1b[2Jfatal: \\u202eno config)", bound=SERVER
    )
    support.record("text: failing live server's stderr quoted", result)


# -- `tools --server` under the same limits as `--from FILE` -----------------------------------------


def _big_tool(size: int) -> dict[str, Any]:
    properties = {f"p{i:06d}": {"type": "string", "description": "x" * 1000} for i in range(size // 1040)}
    return {"name": "big", "inputSchema": {"type": "object", "properties": properties}}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "flags", "code", "phrase"),
    [
        (
            "schema_9_mib_over_a_100000_byte_limit",
            ["--max-schema-bytes", "100000"],
            "MCG101",
            "over the limit of 100,000",
        ),
        ("schema_9_mib_over_the_default_limit", [], "MCG101", "over the limit of 8,388,608"),
        ("subschemas_over_a_limit_of_100", ["--max-subschemas", "100"], "MCG109", "more than 100 objects"),
        ("depth_over_a_limit_of_3", ["--max-depth", "3"], "MCG103", ""),
    ],
)
def test_live_server_gets_the_same_limits_as_a_file(
    case: str, flags: list[str], code: str, phrase: str, tmp_path: Path, env: dict[str, str]
) -> None:
    tool = _big_tool(9 << 20) if "9_mib" in case else _big_tool(200_000)
    server = _server(tmp_path, [tool])
    out = tmp_path / "out"
    result = support.run(["tools", "--server", server, "--out", str(out), *flags], env=env)
    line = support.assert_one_line_error(result, code, revision="tools/list")
    assert phrase in line, line
    support.assert_bounded(result, bound=SERVER)
    assert not out.exists()
    support.record(f"server limits: {case}", result)
    listing = tmp_path / "tools.json"  # the very same tools from a file: the same error code
    listing.write_text(json.dumps({"tools": [tool]}))
    from_file = support.run(["tools", "--from", str(listing), "--out", str(out), *flags], env=env)
    assert from_file.code == code, from_file.stderr


# -- the escaping itself ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_printable_escapes_each_class(case: str) -> None:
    text, shown = HOSTILE[case]
    assert printable(text) == shown
    assert printable(shown) == shown  # escaping twice changes nothing


def test_printable_keeps_ordinary_text_of_any_script() -> None:
    for text in ("plain ascii", "Größe ünïcödé", "名前", "ＡＢＣ", "emoji 😀", "back\\slash", "a  b"):
        assert printable(text) == text


@settings(max_examples=suite.examples(500))
@given(
    message=st.text(),
    pointer=st.text(),
    hint=st.text() | st.none(),
    revision=st.text() | st.none(),
)
def test_a_diagnostic_is_always_one_printable_line(
    message: str, pointer: str, hint: str | None, revision: str | None
) -> None:
    line = Diagnostic("MCG000", message, revision, pointer or None, hint).one_line()
    assert line.isprintable()
    line.encode("utf-8")  # no lone surrogate left to break the stream
    assert line.startswith("error[MCG000]")


@settings(max_examples=suite.examples(300))
@given(
    st.recursive(
        st.text() | st.integers() | st.none(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
    )
)
def test_printable_json_is_the_same_document(value: Any) -> None:
    text = printable_json(json.dumps(value, ensure_ascii=False, indent=2))
    assert all(line.isprintable() for line in text.split("\n"))
    assert json.loads(text) == value


def test_server_command_itself_is_escaped_in_its_error(tmp_path: Path, env: dict[str, str]) -> None:
    missing = tmp_path / ("no-such-server" + FORGED)
    result = support.run(["tools", "--server", shlex.join([str(missing)]), "--out", str(tmp_path / "out")], env=env)
    line = _one_escaped_line(
        result, "MCG703", "no-such-servera\\n\\x1b[2Jerror[MCG000]: all good", bound=SERVER
    )
    assert "cannot list the tools of" in line
    support.record("text: hostile server command", result)
