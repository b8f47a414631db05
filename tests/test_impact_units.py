"""impact's parts without a checker run: tying an error to its change, decoding the checkers'
output, comparing two runs, choosing the checker, the copy of the project, the child's environment."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from codegen.diff.report import Change
from codegen.errors import CodegenError
from codegen.impact import checkers, findings, match, project as projects, scratch
from codegen.impact.findings import Finding
from codegen.impact.report import compare


def change(subject: str, *path: str, kind: str = "property-added", axis: str = "wire", old: str | None = None, new: str | None = None) -> Change:
    return Change(axis=axis, kind=kind, subject=subject, path=path, summary=kind, severity="breaking", old=old, new=new)


ETAG = change("ListToolsResult", "etag")
ETAG_PY = change("ListToolsResult", "etag", kind="attribute-added", axis="python", new="str")
TTL = change("ListToolsResult", "ttlMs", kind="property-now-required")
DECLINE = change("ElicitResult", "action", kind="enum-value-removed", old='"decline"')
DECLINE_PY = change(
    "ElicitResult", "action", kind="attribute-retyped", axis="python",
    old="Literal['accept', 'cancel', 'decline']", new="Literal['accept', 'cancel']",
)  # fmt: skip
LEVEL = change("LoggingLevel", kind="enum-value-removed", old='"notice", "warning"')
TOOL_GONE = change("Tool", kind="class-removed", axis="python")
ACTION_ELSEWHERE = change("Transaction", "action", kind="property-removed")
DESCRIBED = change("ListToolsResult", "etag", kind="description-changed")
RENAMED = change("JSONRPCErrorResponse", kind="class-renamed", axis="python", old="JSONRPCError", new="JSONRPCErrorResponse")
ATTRIBUTE_RENAMED = change("Tool", "input_schema", kind="attribute-renamed", axis="python", old="inputs", new="input_schema")
ALL = (ETAG, ETAG_PY, TTL, DECLINE, DECLINE_PY, LEVEL, TOOL_GONE, ACTION_ELSEWHERE, DESCRIBED, RENAMED, ATTRIBUTE_RENAMED)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # mypy: the class and the keyword
        ('Missing named argument "etag" for "ListToolsResult"', {ETAG, ETAG_PY}),
        # pyright names no class: the attribute alone
        ('Argument missing for parameter "etag"', {ETAG, ETAG_PY}),
        ('"ListToolsResult" has no attribute "etag"', {ETAG, ETAG_PY}),
        # a removed value: in the Literal of the argument's type, whatever the checker
        ("Argument \"action\" to \"ElicitResult\" has incompatible type \"Literal['decline']\"; expected \"Literal['accept', 'cancel']\"", {DECLINE, DECLINE_PY}),
        ("Argument of type \"Literal['decline']\" cannot be assigned to parameter \"action\" of type \"Literal['accept', 'cancel']\"", {DECLINE, DECLINE_PY}),
        # a value alone beats a bare attribute or class name
        ("Incompatible return value type (got \"Literal['notice']\", expected \"Literal['debug', 'info']\")", {LEVEL}),
        ('Type "Literal[\'warning\']" is not assignable to declared type "LoggingLevel"', {LEVEL}),
        # whole names only: Tool is not ListToolsResult; "action" of another class is a weaker match
        ('Module "acme.mcp" has no attribute "Tool"', {TOOL_GONE}),
        ('Missing named argument "ttl_ms" for "ListToolsResult"', {TTL}),
        ('Unexpected keyword argument "action" for "Transaction"', {ACTION_ELSEWHERE}),
        # a class or attribute renamed: code still uses the old name
        ('Module "acme.mcp.v2026_07_28" has no attribute "JSONRPCError"', {RENAMED}),
        ('"Tool" has no attribute "inputs"', {ATTRIBUTE_RENAMED}),
        # nothing of the diff in it
        ('Name "undefined_thing" is not defined', set[Change]()),
        ('Argument 1 to "f" has incompatible type "int"; expected "str"', set[Change]()),
    ],
)
def test_an_error_is_tied_to_the_changes_its_message_names(message: str, expected: set[Change]) -> None:
    assert set(match.causes(message, ALL)) == expected


def test_the_most_specific_evidence_wins() -> None:
    closed = change("ListToolsResult", kind="object-closed")
    assert set(match.causes('Missing named argument "etag" for "ListToolsResult"', [closed, ETAG, TTL])) == {ETAG}
    assert set(match.causes('Unexpected keyword argument "extra" for "ListToolsResult"', [closed, ETAG, TTL])) == {closed}


def test_the_causes_come_in_the_diffs_order_and_descriptions_never_cause() -> None:
    found = match.causes('Missing named argument "etag" for "ListToolsResult"', [ETAG_PY, DESCRIBED, ETAG])
    assert found == tuple(sorted([ETAG, ETAG_PY], key=Change.sort_key))


def test_literal_values_are_read_as_python_writes_them() -> None:
    assert match.literal_values("Literal['a, b', \"c\", 1, True, None, -2]") == {'"a, b"', '"c"', "1", "true", "null", "-2"}
    assert match.literal_values("Literal[Color.RED]") == frozenset()  # an enum member: not a JSON value
    assert match.changed_values(DECLINE_PY) == {'"decline"'}
    assert match.changed_values(LEVEL) == {'"notice"', '"warning"'}
    assert match.changed_values(change("X", kind="const-changed", old='"a"', new='"b"')) == {'"a"', '"b"'}
    assert match.changed_values(change("X", kind="enum-value-removed", old="not json [")) == frozenset()


def test_mypy_json_lines_become_findings_and_the_rest_is_skipped() -> None:
    output = "\n".join(
        [
            json.dumps({"file": "src/a.py", "line": 3, "column": 4, "message": "Bad", "hint": None, "code": "call-arg", "severity": "error"}),
            json.dumps({"file": "src/a.py", "line": 5, "column": 0, "message": "Revealed", "code": "misc", "severity": "note"}),
            "not json at all",
            json.dumps(["a", "list"]),
            json.dumps({"file": "src/b.py", "line": "7", "message": "a line that is no number", "severity": "error"}),
            json.dumps({"file": "src/b.py", "line": True, "message": "a boolean line", "severity": "error"}),
        ]
    )
    assert findings.mypy_json(output) == [Finding("src/a.py", 3, 5, "call-arg", "Bad")]


def test_mypy_text_lines_become_findings() -> None:
    output = (
        'src/a.py:3: error: Missing named argument "etag" for "ListToolsResult"  [call-arg]\n'
        "src/a.py:4:9: error: No code here\n"
        "src/a.py:5: note: See https://example.invalid\n"
        "Found 2 errors in 1 file (checked 3 source files)\n"
    )
    assert findings.mypy_text(output) == [
        Finding("src/a.py", 3, 0, "call-arg", 'Missing named argument "etag" for "ListToolsResult"'),
        Finding("src/a.py", 4, 9, "", "No code here"),
    ]


def test_pyright_json_becomes_findings_with_lines_from_one() -> None:
    document = {
        "version": "1.1.414",
        "generalDiagnostics": [
            {"file": "/p/a.py", "severity": "error", "message": "Argument missing for parameter \"etag\"\n  more",
             "range": {"start": {"line": 22, "character": 11}}, "rule": "reportCallIssue"},
            {"file": "/p/a.py", "severity": "warning", "message": "w", "range": {"start": {"line": 1, "character": 0}}},
            {"file": "/p/a.py", "severity": "error", "message": "no range"},
            "junk",
        ],
    }  # fmt: skip
    decoded = findings.pyright_json(json.dumps(document))
    assert decoded is not None
    found, version = decoded
    assert version == "1.1.414"
    assert found == [Finding("/p/a.py", 23, 12, "reportCallIssue", 'Argument missing for parameter "etag"\n  more')]
    assert found[0].headline == 'Argument missing for parameter "etag"'
    assert findings.pyright_json("No configuration file found.\n") is None
    assert findings.pyright_json("[]") is None


def test_new_and_gone_are_multisets_by_file_line_code_and_message() -> None:
    a = Finding("a.py", 3, 1, "x", "m")
    moved_column = Finding("a.py", 3, 9, "x", "m")
    b = Finding("a.py", 4, 1, "y", "n")
    new, gone = compare([a, b], [moved_column, moved_column, b])
    assert (new, gone) == ([moved_column], [])
    new, gone = compare([a, b], [b])
    assert (new, gone) == ([], [a])


def test_the_checker_is_the_one_the_project_configures(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pyright]\nvenv = ".venv"\n', encoding="utf-8")
    chosen = projects.choose(tmp_path, None)
    assert (chosen.name, chosen.file, chosen.table) == ("pyright", Path("pyproject.toml"), {"venv": ".venv"})
    (tmp_path / "setup.cfg").write_text("[mypy]\nfiles = src/a.py\n", encoding="utf-8")
    chosen = projects.choose(tmp_path, None)  # both: mypy first
    assert (chosen.name, chosen.file) == ("mypy", Path("setup.cfg")) and projects.mypy_names_files(chosen)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    chosen = projects.choose(tmp_path, None)
    assert (chosen.file, projects.mypy_names_files(chosen)) == (Path("mypy.ini"), False)
    (tmp_path / "pyrightconfig.json").write_text('{"include": ["src"]}', encoding="utf-8")
    assert projects.choose(tmp_path, "pyright").file == Path("pyrightconfig.json")
    assert projects.choose(tmp_path / "elsewhere", "mypy").file is None  # forced, with no config: its defaults
    with pytest.raises(CodegenError) as none:
        projects.choose(tmp_path / "elsewhere", None)
    assert none.value.diagnostics[0].code == "MCG820"
    with pytest.raises(CodegenError) as other:
        projects.choose(tmp_path, "pytype")
    assert other.value.diagnostics[0].code == "MCG012"


def test_which_vendored_revision_is_replaced() -> None:
    assert projects.current_revision(["2026-07-28"], None) == "2026-07-28"
    assert projects.current_revision(["2025-11-25", "2026-07-28"], "2025-11-25") == "2025-11-25"
    for vendored, against in ((["2025-11-25", "2026-07-28"], None), (["2026-07-28"], "draft")):
        with pytest.raises(CodegenError) as refused:
            projects.current_revision(vendored, against)
        assert refused.value.diagnostics[0].code == "MCG822"


def test_the_copy_leaves_out_the_replaced_package_and_caches_and_links_environments(tmp_path: Path) -> None:
    root = tmp_path / "project"
    files = {
        "pyproject.toml": "[tool.mypy]\n",
        "src/acme/__init__.py": "",
        "src/acme/mcp/__init__.py": "# root\n",
        "src/acme/mcp/v2026_07_28/models.py": "# replaced\n",
        "src/acme/mcp/v2025_11_25/models.py": "# kept\n",
        "src/acme/__pycache__/x.pyc": "",
        ".git/HEAD": "",
        ".mypy_cache/3.11/x.json": "",
        ".venv/pyvenv.cfg": "home = /usr\n",
        ".venv/lib/site.py": "",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    os.symlink("acme/__init__.py", root / "src" / "alias.py")
    os.mkfifo(root / "src" / "pipe")  # never opened: a FIFO would block the copy
    copy = tmp_path / "copy"
    copied = scratch.copy_project(root, copy, leave_out=Path("src/acme/mcp/v2026_07_28"))
    kept = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file() and ".venv" not in p.parts)
    assert kept == ["pyproject.toml", "src/acme/__init__.py", "src/acme/mcp/__init__.py", "src/acme/mcp/v2025_11_25/models.py", "src/alias.py"]
    assert copied == 4  # the link is a link
    assert os.readlink(copy / "src" / "alias.py") == "acme/__init__.py"
    assert (copy / ".venv").is_symlink() and os.readlink(copy / ".venv") == str(root / ".venv")
    assert not os.path.lexists(copy / "src" / "pipe")
    with pytest.raises(CodegenError) as large:
        scratch.copy_project(root, tmp_path / "small", leave_out=Path("src/acme/mcp/v2026_07_28"), max_files=2)
    assert large.value.diagnostics[0].code == "MCG825"


def test_the_child_gets_a_bounded_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"PYTHONPATH": "/x", "MYPYPATH": "/y", "PYRIGHT_PYTHON_FORCE_VERSION": "latest", "AWS_SECRET": "s",
                        "HOME": "/home/someone"}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    env = checkers.environment(tmp_path)
    assert not {"PYTHONPATH", "MYPYPATH", "PYRIGHT_PYTHON_FORCE_VERSION", "AWS_SECRET"} & set(env)
    assert env["HOME"] == "/home/someone" and env["TMPDIR"] == str(tmp_path)
    assert env["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
    assert env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] == "1" and env["PYTHONDONTWRITEBYTECODE"] == "1"


def test_the_commands_read_the_projects_config_and_decode_as_json() -> None:
    mypy = checkers.Checker("mypy", ("python", "-m", "mypy"), "2.4.1", True)
    config = projects.CheckerConfig("mypy", Path("pyproject.toml"), {})
    args = checkers.command(mypy, config, ["src"], Path("/s/cache"))
    assert args[:3] == ["python", "-m", "mypy"] and args[-1] == "src"
    assert "--output" in args and args[args.index("--output") + 1] == "json"
    assert args[args.index("--config-file") + 1] == "pyproject.toml" and args[args.index("--cache-dir") + 1] == "/s/cache"
    old = checkers.command(checkers.Checker("mypy", ("mypy",), "1.8.0", False), config, [], Path("/c"))
    assert "--output" not in old and "--show-column-numbers" in old
    pyright = checkers.Checker("pyright", ("pyright",), "", True)
    args = checkers.command(pyright, projects.CheckerConfig("pyright", None, {}), [], Path("/c"))
    assert args[:4] == ["pyright", "--outputjson", "-p", "."] and args[args.index("--pythonpath") + 1] == sys.executable
    own_venv = checkers.command(pyright, projects.CheckerConfig("pyright", Path("pyrightconfig.json"), {"venv": ".venv"}), [], Path("/c"))
    assert "--pythonpath" not in own_venv  # the project's own environment setting stands


def test_a_checker_that_is_not_installed_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(checkers.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr(checkers.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("mypy", "pyright"):
        with pytest.raises(CodegenError) as missing:
            checkers.locate(name)
        assert missing.value.diagnostics[0].code == "MCG821" and name in missing.value.diagnostics[0].message


def test_what_the_checker_is_told_to_check(tmp_path: Path) -> None:
    from codegen.impact import _targets

    root = tmp_path / "project"
    (root / "src" / "acme").mkdir(parents=True)
    (root / "src" / "acme" / "a.py").write_text("", encoding="utf-8")
    project = projects.Project(root, Path("src/acme/mcp"), "acme.mcp", "2026-07-28", "v2026_07_28")
    listed = projects.CheckerConfig("mypy", Path("pyproject.toml"), {"files": ["src/acme/a.py"]})
    bare = projects.CheckerConfig("mypy", None, {})
    pyright = projects.CheckerConfig("pyright", None, {})
    assert _targets(project, listed, ()) == []  # mypy's own `files`
    assert _targets(project, bare, ()) == ["src"]
    assert _targets(project, pyright, ()) == []  # pyright's default: the project folder
    assert _targets(project, bare, [root / "src" / "acme" / "a.py"]) == ["src/acme/a.py"]
    for wrong in (tmp_path, root / "src" / "missing.py"):
        with pytest.raises(CodegenError) as refused:
            _targets(project, bare, [wrong])
        assert refused.value.diagnostics[0].code == "MCG827"
