"""`mcp-codegen impact` on a team's project (issue 38): a server and a client written against
2026-07-28, vendored under `acme_platform.mcp`, checked by the project's own mypy and pyright.

The project pins a draft (`spec bump draft`) that is 2026-07-28 with `ListToolsResult.etag`
required and the `"decline"` action of `ElicitResult` removed: impact names the server's line that
builds a ListToolsResult without etag and the client's line that declines, each with its change;
against 2026-07-28 itself it names nothing. The project's tree is hashed before and after every
run: impact writes nothing into it.

The checker runs are the cost (pyright: ~15 s a run); each test makes one impact run (two checker
runs), and the project is built once per test run.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from . import bad_input_support as support
from . import suite
from .conftest import REPO
from .test_team_project import CLIENT, SERVER

PROJECT = Path("packages") / "acme-platform"
PYPROJECT = """\
[project]
name = "acme-platform"
version = "0.1.0"

[tool.mypy]
strict = true
mypy_path = "src"
files = ["src/acme_platform/server.py", "src/acme_platform/client.py", "src/acme_platform/legacy.py"]

[tool.pyright]
typeCheckingMode = "strict"
include = ["src/acme_platform/server.py", "src/acme_platform/client.py", "src/acme_platform/legacy.py"]
extraPaths = ["src"]

[tool.mcp-codegen]
revisions = ["2026-07-28"]
out = "src/acme_platform/mcp"
package = "acme_platform.mcp"
pins = "mcp-spec/pins.toml"
"""
# the client answers an elicitation: the action it sends is a Literal of ElicitResult
DECLINE = '''

def refuse() -> ElicitResult:
    """The user said no."""
    return ElicitResult(action="decline")
'''
# an error the project has before any revision changes: in both runs, so neither new nor gone
LEGACY = '''"""Code that was wrong before the revision changed."""


def count() -> int:
    return "three"
'''
RUN_SECONDS = 900.0  # a hang guard for a run that type-checks twice (not a bound on cost)


def client_source() -> str:
    return CLIENT.replace("    ClientCapabilities,\n", "    ClientCapabilities,\n    ElicitResult,\n", 1) + DECLINE


def draft_schema() -> dict[str, object]:
    """2026-07-28 with ListToolsResult.etag required and ElicitResult's "decline" action removed."""
    schema = json.loads((suite.SPEC / "2026-07-28" / "schema.json").read_text(encoding="utf-8"))
    listed = schema["$defs"]["ListToolsResult"]
    listed["properties"]["etag"] = {"type": "string", "description": "An opaque version of the list."}
    listed["required"] = sorted([*listed["required"], "etag"])
    schema["$defs"]["ElicitResult"]["properties"]["action"]["enum"].remove("decline")
    return schema


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def _env(root: Path) -> dict[str, str]:
    return support.cli_env(root / ".mcg-cache")


def build_project(root: Path) -> None:
    """The monorepo: the package's folder with its sources, the vendored 2026-07-28, the draft pinned."""
    project = root / PROJECT
    package = project / "src" / "acme_platform"
    package.mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (package / "__init__.py").write_text('"""Acme\'s platform."""\n', encoding="utf-8")
    (package / "server.py").write_text(SERVER, encoding="utf-8")
    (package / "client.py").write_text(client_source(), encoding="utf-8")
    (package / "legacy.py").write_text(LEGACY, encoding="utf-8")
    mirror = root / "mirror" / "draft"
    mirror.mkdir(parents=True)
    (mirror / "schema.json").write_text(json.dumps(draft_schema(), indent=2), encoding="utf-8")
    config = str(PROJECT / "pyproject.toml")
    bumped = support.run(
        ["spec", "bump", "draft", "--commit", "0" * 40, "--spec-source", str(root / "mirror"), "--config", config],
        env=_env(root),
        cwd=root,
    )
    assert bumped.returncode == 0, bumped.stderr
    made = support.run(["generate", "-q", "--config", config], env=_env(root), cwd=root)
    assert made.returncode == 0, made.stderr


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return suite.shared_tree(tmp_path_factory, "impact-project", [], build_project)


def impact(root: Path, *args: str, cwd: Path | None = None) -> support.Run:
    """One impact run; the monorepo (the project, the pins beside it, the schema cache) is
    byte-identical before and after, and the run's temporary folder is empty again."""
    before = support.tree_digest(root)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**_env(root), "TMPDIR": tmp}
        done = support.run(["impact", *args], env=env, cwd=cwd or root / PROJECT, timeout=RUN_SECONDS)
        assert os.listdir(tmp) == [], "impact left its scratch folder behind"
    assert support.tree_digest(root) == before, "impact wrote into the project's tree"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def _expected_lines(root: Path) -> tuple[tuple[str, int], tuple[str, int]]:
    package = root / PROJECT / "src" / "acme_platform"
    server = ("src/acme_platform/server.py", line_of((package / "server.py").read_text(encoding="utf-8"), "ListToolsResult("))
    client = ("src/acme_platform/client.py", line_of((package / "client.py").read_text(encoding="utf-8"), 'ElicitResult(action="decline")'))
    return server, client


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_the_draft_breaks_the_server_and_the_client_at_their_lines(checker: str, monorepo: Path) -> None:
    done = impact(monorepo, "draft", "--checker", checker, "--format", "json")
    assert done.returncode == 1, done.stderr[-3000:]
    report = json.loads(done.stdout)
    server, client = _expected_lines(monorepo)
    found = {(e["file"], e["line"]): e for e in report["new_errors"]}
    assert sorted(found) == sorted([server, client]), report["new_errors"]
    places = {where: {(c["subject"], tuple(c["path"])) for c in e["causes"]} for where, e in found.items()}
    assert places[server] == {("ListToolsResult", ("etag",))}, found[server]
    assert places[client] == {("ElicitResult", ("action",))}, found[client]
    kinds = {c["kind"] for c in found[client]["causes"]}
    assert "enum-value-removed" in kinds, kinds
    assert "etag" in found[server]["message"] and "decline" in found[client]["message"]
    assert report["summary"] | {"changes": 0} == {
        "new": 2, "explained": 2, "unexplained": 0, "gone": 0, "already": 1, "changes": 0, "checker_runs": 2,
    }  # fmt: skip
    assert report["checker"]["name"] == checker and report["target"]["label"] == "draft"
    assert report["current"]["label"] == "2026-07-28" and report["module"] == "acme_platform.mcp.v2026_07_28"


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_against_the_vendored_revision_itself_nothing_is_new(checker: str, monorepo: Path) -> None:
    done = impact(monorepo, "2026-07-28", "--checker", checker, "--format", "json")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["new_errors"] == [] and report["gone"] == [], report
    assert report["summary"]["changes"] == 0 and report["summary"]["checker_runs"] == 2
    assert report["summary"]["already"] == 1  # legacy.py's error, seen in both runs


def test_the_text_report_from_the_monorepo_root_names_each_line_and_its_change(monorepo: Path) -> None:
    """The checker the project configures (mypy first), a schema path whose bytes are the pinned
    draft (that revision), run from the monorepo root with --config: paths as seen from there."""
    draft = str(PROJECT / "mcp-spec" / "draft" / "schema.json")
    done = impact(monorepo, draft, "--config", str(PROJECT / "pyproject.toml"), cwd=monorepo)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    server, client = _expected_lines(monorepo)
    assert lines[0].startswith("impact of draft on ") and "in place of 2026-07-28 as acme_platform.mcp.v2026_07_28; mypy " in lines[0]
    prefix = PROJECT.as_posix() + "/"
    at_server = next(i for i, line in enumerate(lines) if line.startswith(f"{prefix}{server[0]}:{server[1]}: error: "))
    at_client = next(i for i, line in enumerate(lines) if line.startswith(f"{prefix}{client[0]}:{client[1]}: error: "))
    assert 'Missing named argument "etag" for "ListToolsResult"' in lines[at_server], lines
    assert lines[at_server + 1].startswith("  caused by ListToolsResult.etag: property added (required)"), lines
    assert lines[at_client + 1].startswith('  caused by ElicitResult.action: values removed: "decline"'), lines
    assert lines[-1].startswith("2 new errors in 2 files (2 tied to a change, 0 unexplained); 0 gone; 1 already at 2026-07-28;"), lines
    # the example of docs/commands.md is this run, seen from the project's folder
    commands = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    example = commands.split("$ mcp-codegen impact draft\n", 1)[1].split("```", 1)[0].splitlines()
    def replacing(header: str) -> str:  # the header less the folder and the checker's version
        return header.split(" (", 1)[1].split("; mypy ", 1)[0]

    assert example[0].startswith("impact of draft on ") and replacing(example[0]) == replacing(lines[0]), example[0]
    assert example[1:] == [line.removeprefix(prefix) for line in lines[1:]], lines


def _project_copy(monorepo: Path, tmp_path: Path, pyproject: str | None = None) -> Path:
    import shutil

    copy = tmp_path / "monorepo"
    shutil.copytree(monorepo, copy, symlinks=True, ignore=shutil.ignore_patterns(".mcg-cache"))
    if pyproject is not None:
        (copy / PROJECT / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("args", "pyproject", "code"),
    [
        (["no-such-revision"], None, "MCG002"),
        (["draft", "--checker", "flow"], None, "MCG012"),
        (["draft", "--format", "xml"], None, "MCG012"),
        (["draft"], PYPROJECT.split("[tool.mypy]")[0] + "[tool.mcp-codegen]" + PYPROJECT.split("[tool.mcp-codegen]")[1], "MCG820"),
        (["draft"], PYPROJECT.replace('revisions = ["2026-07-28"]', 'revisions = ["2025-11-25", "2026-07-28"]'), "MCG822"),
        (["draft", "--against", "2025-11-25"], None, "MCG822"),
        (["draft"], PYPROJECT.replace('out = "src/acme_platform/mcp"', 'out = "src/acme_platform/elsewhere"'), "MCG823"),
        (["draft"], PYPROJECT.replace('out = "src/acme_platform/mcp"', 'out = "../outside"'), "MCG823"),
        (["draft", "--spec-source", "https://example.invalid/spec"], None, "MCG826"),
        (["draft", "/etc"], None, "MCG827"),
        (["draft", "src/acme_platform/nothing.py"], None, "MCG827"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_before_any_checker_runs(
    args: list[str], pyproject: str | None, code: str, monorepo: Path, tmp_path: Path
) -> None:
    copy = _project_copy(monorepo, tmp_path, pyproject)
    done = impact(copy, *args)
    support.assert_one_line_error(done, code)
