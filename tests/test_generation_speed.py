"""Generation speed (issue 23): what makes `mcp-codegen generate` fast, proven by what it does, not
by how long it takes (`bench/generate.py` times it against the datamodel-code-generator CLI).

- The default output is black's, byte for byte. `ruff format`, configured as black, is the engine;
  a generation with black itself as the formatter gives the very same files: every file of a full
  generation (every pin, the surface, the generated tests), the committed tools package, every
  case folder, and a revision under other settings. black never runs in a default generation.
- Identical schema bytes are built once: while the draft is 2026-07-28's schema, the two packages
  cost one engine run, and their files differ only where they name their revision.
- The surface and the import check run in the workers, beside the revisions: the parent imports
  only the root package's own files, and builds no surface itself.
- The work budget of a revision spans the stages done in the parent and those done in a worker.
"""

from __future__ import annotations

import functools
import json
import pickle
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from codegen import api
from codegen.emit import dcg, format as formatting, pipeline, smoke
from codegen.errors import CodegenError
from codegen.limits import DEFAULT_LIMITS
from codegen.emit.runtime import FOLDER as RUNTIME_FOLDER
from codegen.output.tree import read_tree
from codegen.schema import budget
from codegen.surface import build as surface_build

from . import bad_input_support as support
from . import suite
from .conftest import GENERATED, REPO

TOOLS = GENERATED / "everything_tools"
CASES = Path(__file__).parent / "cases"


def _source() -> str | None:
    return None if suite.SPEC == REPO / "spec" else str(suite.SPEC)


def _differing(left: Mapping[str, bytes], right: Mapping[str, bytes]) -> list[str]:
    return sorted(name for name in left.keys() | right.keys() if left.get(name) != right.get(name))


# -- the default output is black's ------------------------------------------------------------


@pytest.mark.slow
def test_every_file_of_a_full_generation_is_what_black_makes_of_it(tmp_path: Path) -> None:
    """Every pin, the surface and the generated tests, with black itself formatting, against the
    committed tree (which test_determinism proves a fresh generation gives)."""
    out = tmp_path / "black" / "mcp_models"
    with formatting.reference_black():
        api.generate(out=out, use_cache=False, spec_source=_source())
    by_black, committed = read_tree(out), read_tree(GENERATED / "mcp_models")
    assert len(committed) > 70 and by_black.keys() == committed.keys()
    assert _differing(by_black, committed) == []


def test_the_tools_package_is_what_black_makes_of_it(tmp_path: Path) -> None:
    out = tmp_path / "everything_tools"
    args: dict[str, Any] = {"tools_file": TOOLS / "tools.json", "models_package": "mcp_models.v2025_11_25"}
    with formatting.reference_black():
        api.generate_tools(out=out, **args)
    assert _differing(read_tree(out), read_tree(TOOLS)) == []
    engine = tmp_path / "engine"
    api.generate_tools(out=engine, **args)
    assert read_tree(engine) == read_tree(out)


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if (p / "schema.json").exists()))
def test_every_case_folder_is_what_black_makes_of_it(case: str, tmp_path: Path) -> None:
    """The case folders' schemas reach template branches the pinned revisions do not (a package
    without messages, inline unions, other dialects); their expected files are the engine's."""
    folder = CASES / case
    errata = folder / "errata.json"
    settings = folder / "options.json"
    options = api.Options(**json.loads(settings.read_text(encoding="utf-8"))) if settings.exists() else None
    with formatting.reference_black():
        api.generate_schema(
            folder / "schema.json", out=tmp_path / case, name=case,
            errata_file=errata if errata.exists() else None, options=options,
        )  # fmt: skip
    made = read_tree(tmp_path / case)
    # the package holds the shared runtime (not copied into the case folders): black's, the engine's
    shared = {rel: data for rel, data in made.items() if rel.startswith(f"{RUNTIME_FOLDER}/")}
    assert {rel: data.decode() for rel, data in shared.items()} == pipeline.runtime_files(options)
    assert _differing({rel: data for rel, data in made.items() if rel not in shared}, read_tree(folder / "expected")) == []


@pytest.mark.slow
def test_other_settings_are_formatted_as_black_formats_them(tmp_path: Path) -> None:
    """Wire attribute names and the sieve change line lengths and the helpers' code: still black's."""
    options = api.Options(field_naming="wire", extra_keys="sieve")
    trees: dict[str, dict[str, bytes]] = {}
    for name in ("engine", "black"):
        out = tmp_path / name / "mcp_models"
        if name == "black":
            with formatting.reference_black():
                api.generate(["2025-06-18"], out=out, options=options, use_cache=False, spec_source=_source())
        else:
            api.generate(["2025-06-18"], out=out, options=options, use_cache=False, spec_source=_source())
        trees[name] = read_tree(out)
    assert trees["engine"] != {} and _differing(trees["engine"], trees["black"]) == []
    # and the settings did shape the code: these are not the default package's files
    assert trees["engine"]["v2025_06_18/models.py"] != (GENERATED / "mcp_models" / "v2025_06_18" / "models.py").read_bytes()


@pytest.mark.slow
def test_the_users_ruff_configuration_changes_nothing(tmp_path: Path) -> None:
    """ruff formats now: a project's own ruff settings (and black's) must not reach the output."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        "[tool.ruff]\nline-length = 40\n[tool.ruff.format]\nquote-style = 'single'\nskip-magic-trailing-comma = true\n"
        "[tool.ruff.lint]\nselect = ['ALL']\n[tool.black]\nline-length = 40\n"
    )
    (project / "ruff.toml").write_text("line-length = 40\n[format]\nquote-style = 'single'\n")
    result = support.run(
        ["generate", "-q", "-r", "2025-06-18", "--out", str(project / "out")], env=support.cli_env(tmp_path / "c"), cwd=project
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert read_tree(project / "out" / "v2025_06_18") == read_tree(GENERATED / "mcp_models" / "v2025_06_18")


def test_a_module_that_is_not_python_is_reported_as_the_generator_bug_it_is() -> None:
    with pytest.raises(CodegenError) as caught:
        formatting.format_files({"ok.py": "x = 1\n", "broken.py": "def f(:\n    pass\n"}, where="pkg", revision="r")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "MCG502" and diagnostic.revision == "r"
    assert "pkg" in diagnostic.message and "not valid Python" in diagnostic.message
    assert "\n" not in diagnostic.message and len(diagnostic.message) <= 300
    assert diagnostic.hint is not None and "generator bug" in diagnostic.hint


# -- what a generation does -------------------------------------------------------------------


class _Calls:
    """Calls of some functions in this process (a forked worker counts in its own copy)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count: Counter[str] = Counter()
        self.checked: list[list[str]] = []
        self._monkeypatch = monkeypatch

    def count_calls(self, module: object, name: str) -> None:
        original: Callable[..., Any] = getattr(module, name)

        @functools.wraps(original)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count[name] += 1
            return original(*args, **kwargs)

        self._monkeypatch.setattr(module, name, counted)

    def record_checks(self) -> None:
        original = smoke.check

        @functools.wraps(original)
        def recorded(files: Mapping[str, str], **kwargs: Any) -> None:
            self.checked.append(sorted(files))
            original(files, **kwargs)

        self._monkeypatch.setattr(smoke, "check", recorded)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Calls]:
    yield _Calls(monkeypatch)


def test_identical_schema_bytes_are_built_once_and_differ_only_where_they_are_named(
    tmp_path: Path, calls: _Calls
) -> None:
    pins = {pin.revision: pin for pin in api.spec.load_manifest()}
    assert pins["draft"].sha256 == pins["2026-07-28"].sha256  # the premise: one schema, two labels
    calls.count_calls(dcg, "run_engine")
    calls.count_calls(formatting, "format_python")  # black
    calls.count_calls(formatting, "_run_ruff")
    out = tmp_path / "mcp_models"
    api.generate(["2026-07-28", "draft"], out=out, use_cache=False, jobs_count=1, surface=False, spec_source=_source())
    assert calls.count["run_engine"] == 1
    assert calls.count["format_python"] == 0
    # ruff: its fixes and its formatter, once per package, once for the root, once for latest.py
    assert calls.count["_run_ruff"] == 2 * 4
    tree = read_tree(out)
    newest, draft = (tree[f"{package}/models.py"].decode().splitlines() for package in ("v2026_07_28", "draft"))
    stamp = next(i for i, line in enumerate(newest) if line.startswith("# MCP schema revision"))
    assert newest[stamp] == "# MCP schema revision 2026-07-28," and draft[stamp] == "# MCP schema revision draft,"
    assert newest[:stamp] + newest[stamp + 1 :] == draft[:stamp] + draft[stamp + 1 :]  # the stamp names it, alone


def test_the_surface_and_the_import_checks_run_in_the_workers(tmp_path: Path, calls: _Calls) -> None:
    calls.record_checks()
    calls.count_calls(surface_build, "build_surface")
    out = tmp_path / "mcp_models"
    result = api.generate(["2024-11-05", "2025-03-26"], out=out, use_cache=False, jobs_count=2, spec_source=_source())
    assert calls.count["build_surface"] == 0
    assert calls.checked == [["__init__.py", "py.typed"]]  # the root package's own files only
    written = read_tree(out)
    assert {"surface/wire.py", "latest.py", "v2025_03_26/models.py"} <= written.keys()
    assert [s.revision for s in result.summaries] == ["2024-11-05", "2025-03-26", "surface"]


def test_in_one_process_the_same_stages_run_in_turn(tmp_path: Path, calls: _Calls) -> None:
    """--jobs 1: every package and latest.py are still import-checked, each once, before writing."""
    calls.record_checks()
    out = tmp_path / "mcp_models"
    api.generate(["2024-11-05", "2025-03-26"], out=out, use_cache=False, jobs_count=1, spec_source=_source())
    roots = sorted({name.split("/")[0] for files in calls.checked for name in files})
    # each package is checked with the root's shared runtime it imports
    assert roots == ["__init__.py", RUNTIME_FOLDER, "latest.py", "py.typed", "surface", "v2024_11_05", "v2025_03_26"]
    assert len(calls.checked) == 4  # each revision (the newest with latest.py), the surface, the root


def test_a_revision_that_fails_to_load_is_reported_by_its_own_build(tmp_path: Path) -> None:
    """The parent reads every revision first; one it cannot read is left to its build in the
    workers, which reports it with its revision, as before."""
    erratum = tmp_path / "errata.json"
    path = "/definitions/Result/type"
    broken = {"id": "break", "reason": "r", "upstream": "u", "revisions": ["2025-03-26"]}
    broken["patch"] = [{"op": "test", "path": path, "value": "nope"}, {"op": "replace", "path": path, "value": "x"}]
    erratum.write_text(json.dumps({"errata": [broken]}))
    result = support.run(
        ["generate", "-q", "-r", "2024-11-05", "-r", "2025-03-26", "--errata", str(erratum), "--out", str(tmp_path / "out")],
        env=support.cli_env(tmp_path / "c"),
    )
    line = support.assert_one_line_error(result, "MCG202", revision="2025-03-26", pointer="#" + path)
    assert "'break'" in line
    assert not (tmp_path / "out").exists()


# -- the work budget --------------------------------------------------------------------------


def test_the_budget_goes_on_from_what_the_parent_spent() -> None:
    """A revision analysed in the parent is built in a worker from a copy of its budget: the
    worker's stages charge what is left, as one process's would."""
    data = json.dumps({"$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}).encode()
    done = pipeline.analyse("small", "small", data, "0", limits=DEFAULT_LIMITS, use_errata=False)
    assert 0 < done.work.spent < done.work.limit
    handed = pickle.loads(pickle.dumps(done))  # what a worker receives
    left = handed.work.limit - handed.work.spent
    with budget.resume(handed.work):
        budget.charge("#", units=left)
        with pytest.raises(CodegenError) as caught:
            budget.charge("#")
    assert caught.value.diagnostics[0].code == "MCG119" and caught.value.diagnostics[0].revision == "small"
    before = done.work.spent
    built = pipeline.build_revision("small", "small", data, "0", limits=DEFAULT_LIMITS, use_errata=False, analysed=done)
    assert done.work.spent > before and "models.py" in built.files  # in one process: the same budget
