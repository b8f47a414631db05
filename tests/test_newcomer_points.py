"""The smaller points of a newcomer's path: `diff … latest`, `init` twice, config errors that say what
to write, `--package` messages, and the tools package's output() error and header."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codegen import api, config
from codegen.cli import app
from codegen.errors import CodegenError
from codegen.schema import spec

from .conftest import SPEC


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_diff_accepts_latest_as_the_newest_released_revision() -> None:
    assert spec.find_revision("latest") == spec.find_pin("2026-07-28")
    code, stdout, stderr = _invoke("diff", "2025-11-25", "latest", "--format", "json", "--no-python-api")
    assert code == 0, stderr
    report = json.loads(stdout)
    assert (report["old"]["label"], report["new"]["label"]) == ("2025-11-25", "2026-07-28")


def test_init_twice_says_already_set_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _invoke("init")[0] == 0
    written = (tmp_path / "pyproject.toml").read_text()
    code, stdout, stderr = _invoke("init")
    assert (code, stderr) == (0, "") and "already set up" in stdout
    assert (tmp_path / "pyproject.toml").read_text() == written


def _errors(tmp_path: Path, body: str) -> list[str]:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.mcp-codegen]\n" + body)
    with pytest.raises(CodegenError) as caught:
        config.load(pyproject)
    return [d.one_line() for d in caught.value.diagnostics]


def test_a_revisions_string_asks_for_a_toml_array(tmp_path: Path) -> None:
    (line,) = _errors(tmp_path, 'revisions = "2025-11-25"\n')
    assert "revisions: expected an array of revision names (strings), got \"2025-11-25\"" in line and 'use a TOML array: revisions = ["2025-11-25"]' in line


def test_every_bad_key_is_reported_with_a_did_you_mean(tmp_path: Path) -> None:
    lines = _errors(tmp_path, 'revision = ["draft"]\nfield-nameing = "wire"\nbogus = 1\n')
    assert len(lines) == 3
    assert "revision: unknown key" in lines[0] and "did you mean `revisions`?" in lines[0]
    assert "did you mean `field-naming`?" in lines[1]
    assert "bogus: unknown key" in lines[2] and "did you mean" not in lines[2]


def test_a_dashed_package_is_told_why_not_shown_a_regex(tmp_path: Path) -> None:
    code, _, stderr = _invoke("generate", "--package", "acme-mcp", "--out", str(tmp_path / "out"))
    assert code == 2 and stderr.count("\n") == 1
    assert "'acme-mcp' is not an import path" in stderr and "a dash is not allowed" in stderr
    assert "^[" not in stderr and "pattern" not in stderr
    (line,) = _errors(tmp_path, 'package = "acme-mcp"\n')
    assert "'acme-mcp' is not an import path" in line and "^[" not in line


@pytest.fixture(scope="module")
def tools_package(tmp_path_factory: pytest.TempPathFactory) -> object:
    root = tmp_path_factory.mktemp("tools")
    listed = [
        json.loads((SPEC / "2026-07-28" / "examples" / "Tool" / name).read_text())
        for name in ("with-no-parameters.json", "with-output-schema-for-structured-content.json")
    ]
    (root / "tools.json").write_text(json.dumps({"tools": listed}))
    api.generate_tools(out=root / "newcomer_tools", tools_file=root / "tools.json")
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("newcomer_tools")
    finally:
        sys.path.remove(str(root))


def test_tools_output_of_an_unknown_tool_is_a_clear_error(tools_package: object) -> None:
    from mcp_models.v2026_07_28 import CallToolResult

    package: object = tools_package
    result = CallToolResult(content=[], result_type="complete")
    with pytest.raises(KeyError) as caught:
        package.output("search-docs", result)  # type: ignore[attr-defined]
    text = str(caught.value)
    assert text.startswith("tool 'search-docs' is not a tool of this server; tools with structured output: ")
    assert type(caught.value).__name__ == "NoOutputSchema"
    no_output = next(name for name in package.INPUTS if name not in package.OUTPUTS)  # type: ignore[attr-defined]
    with pytest.raises(KeyError, match="declares no outputSchema"):
        package.output(no_output, result)  # type: ignore[attr-defined]


def test_tools_header_names_the_tools_list_not_a_schema_revision(tools_package: object) -> None:
    lines = Path(tools_package.__file__).read_text().splitlines()  # type: ignore[attr-defined]
    comments = lines[: next(i for i, line in enumerate(lines) if not line.startswith("# "))]
    header = " ".join(line.removeprefix("# ") for line in comments)
    assert header.split("Do not edit. ", 1)[1].startswith("From one MCP server's tools/list result, sha256 ")
    assert header.endswith("; spec models: mcp_models.v2026_07_28.") and "schema revision" not in header
    assert all(len(line) <= 79 for line in comments)


def test_text_diff_opens_with_a_plain_headline_and_lists_what_breaks_first() -> None:
    from codegen import diff
    from codegen.diff import render
    from codegen.diff.report import BREAKING

    report = diff.diff("2025-11-25", "2026-07-28", python_api=False)
    text = render.render(report, "text")
    short = text.split("In short\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert short[0].startswith("  - 13 method(s) removed: initialize, ")
    assert any(line.startswith("  - now required: `resultType` (in ") for line in short)
    assert any("`_meta` → RequestMetaObject" in line for line in short)
    found = render.groups(report.changes)
    breaking = [g.counts[BREAKING] for g in found if g.severity == BREAKING]
    assert breaking == sorted(breaking, reverse=True) and breaking[0] > 1


def test_html_methods_never_wrap_inside_a_name_and_the_named_method_comes_first(tmp_path: Path) -> None:
    from codegen.diff import render
    from codegen.diff.report import Change

    change = Change(
        "wire", "type-changed", "CallToolResult", ("content",), "s", "breaking",
        methods=("prompts/get", "resources/read", "sampling/createMessage", "tools/call", "tasks/result"),
    )
    assert render.methods_by_relevance(change)[0] == "tools/call"
    out = tmp_path / "diff.html"
    code, _, stderr = _invoke("diff", "2025-11-25", "latest", "--format", "html", "--no-python-api", "-o", str(out))
    assert code == 0, stderr
    html = out.read_text()
    assert ".methods-cell .method { white-space: nowrap; }" in html
    assert '<span class="method">tools/call</span>' in html and "<summary>+" in html and " more</summary>" in html
