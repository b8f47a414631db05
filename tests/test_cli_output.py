"""What `generate`/`check` print (quiet by default, --verbose, --quiet), the progress events behind the
terminal display, and `check`/`tools` lining up with a vendored `generate`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codegen import api
from codegen.cli import app
from codegen.emit.pipeline import STAGES

from .conftest import REPO, SPEC

SMALL = ["-r", "2024-11-05", "-r", "2025-03-26"]


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow
def test_generate_prints_one_line_per_revision_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stdout, _ = _invoke("generate", *SMALL, "--out", str(out), "--no-cache", "-j", "1")
    lines = stdout.splitlines()
    assert code == 0
    assert len(lines) == 4, stdout  # two revisions, the surface over them, the summary
    assert lines[0].startswith(f"2024-11-05 -> {(out / 'v2024_11_05').as_posix()}: 79 definitions")
    assert lines[0].endswith("files written") and "tagged unions" not in stdout
    assert lines[2].startswith(f"surface -> {(out / 'surface').as_posix()}: ")
    assert lines[3].startswith(f"{out}: ") and " written, 0 unchanged, 0 removed" in lines[3]
    code, stdout, _ = _invoke("generate", *SMALL, "--out", str(out), "--no-cache", "-j", "1")
    assert [line.rsplit("; ", 1)[1] for line in stdout.splitlines()[:3]] == ["unchanged"] * 3
    assert " 0 written, " in stdout.splitlines()[3]


@pytest.mark.slow
def test_verbose_adds_the_union_report_timings_and_files(tmp_path: Path) -> None:
    code, stdout, _ = _invoke("generate", *SMALL, "--out", str(tmp_path), "--no-cache", "--verbose")
    assert code == 0
    assert "  tagged unions: " in stdout and "  not discriminated: ServerResult" in stdout
    assert "; built in " in stdout.splitlines()[0]
    assert "  wrote v2024_11_05/models.py" in stdout
    assert stdout.splitlines()[-1 - stdout.count("  wrote ")].endswith("s")


@pytest.mark.slow
def test_quiet_prints_nothing_on_success_and_no_diff_on_drift(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _invoke("generate", "-r", "2024-11-05", "--out", str(out), "--quiet") == (0, "", "")
    assert _invoke("check", "-r", "2024-11-05", "--out", str(out), "--quiet") == (0, "", "")
    (out / "v2024_11_05" / "models.py").write_text("# edited\n")
    code, stdout, stderr = _invoke("check", "-r", "2024-11-05", "--out", str(out), "--quiet", "--no-cache")
    assert (code, stdout) == (1, "")
    assert stderr.count("\n") == 1 and stderr.startswith("drift: ")


@pytest.mark.slow
def test_check_diff_labels_tell_disk_from_fresh_generation(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _invoke("generate", "-r", "2024-11-05", "--out", str(out), "-q")[0] == 0
    (out / "v2024_11_05" / "models.py").write_text("# edited\n")
    code, stdout, _ = _invoke("check", "-r", "2024-11-05", "--out", str(out), "--no-cache")
    label = (out / "v2024_11_05" / "models.py").as_posix()
    assert code == 1
    assert f"--- {label} (on disk)\n" in stdout and f"+++ {label} (fresh generation)\n" in stdout
    assert stdout.splitlines()[0].endswith("differs (1 file)")


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_reports_every_stage_of_every_revision(tmp_path: Path, jobs: int) -> None:
    events: list[tuple[str, str]] = []
    api.generate(
        ["2024-11-05", "2025-03-26"], out=tmp_path, use_cache=False, jobs_count=jobs,
        progress=lambda revision, stage: events.append((revision, stage)),
    )
    for revision in ("2024-11-05", "2025-03-26"):
        assert [stage for r, stage in events if r == revision] == [*STAGES, "done"]


def test_the_progress_bar_counts_the_revisions_of_the_run() -> None:
    """The terminal bar's total is this run's revisions times the stages: `-r` runs reach 100%."""
    assert api.pinned_revision_count(["2025-11-25"]) == 1
    assert api.pinned_revision_count(["2024-11-05", "2026-07-28"]) == 2
    assert api.pinned_revision_count() == api.pinned_revision_count(None) == len(api.pin_rows())


@pytest.mark.slow
def test_check_takes_the_vendoring_flags_of_generate(tmp_path: Path) -> None:
    out = tmp_path / "src" / "acme" / "_mcp"
    vendoring = ["-r", "2024-11-05", "--out", str(out), "--package", "acme._mcp", "--field-naming", "wire"]
    assert _invoke("generate", *vendoring, "-q")[0] == 0
    assert _invoke("check", *vendoring, "--no-cache")[0] == 0
    code, stdout, _ = _invoke("check", "-r", "2024-11-05", "--out", str(out), "--no-cache")
    assert code == 1 and "differs" in stdout  # other settings, other output: check sees it


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


@pytest.mark.slow
def test_vendoring_from_config_alone_lines_up_generate_check_and_tools(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcp-codegen]\nrevisions = ["2025-06-18"]\nout = "src/acme/_mcp"\npackage = "acme._mcp"\n'
    )
    (tmp_path / "tools.json").write_bytes((SPEC / "2026-07-28" / "examples" / "Tool" / "with-no-parameters.json").read_bytes().join([b'{"tools": [', b"]}"]))
    assert _cli(tmp_path, "generate", "-q").returncode == 0
    assert _cli(tmp_path, "check", "-q", "--no-cache").returncode == 0
    made = _cli(tmp_path, "tools", "--from", "tools.json", "--out", "src/acme/tools")
    assert made.returncode == 0, made.stderr
    source = (tmp_path / "src" / "acme" / "tools" / "__init__.py").read_text()
    assert "from acme._mcp.v2025_06_18 import" in source and "mcp_models" not in source
    imported = subprocess.run(
        [sys.executable, "-c", "import acme.tools, json; print(json.dumps(sorted(acme.tools.INPUTS)))"],
        cwd=tmp_path / "src", capture_output=True, text=True, check=False,
    )
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("namespace", [False, True], ids=["regular-package", "namespace-package"])
def test_vendoring_from_flags_alone_tools_imports_the_models_beside_it(tmp_path: Path, namespace: bool) -> None:
    """src/acme with or without an __init__.py (a namespace package is what `generate --out
    src/acme/_mcp` leaves): tools finds `acme._mcp` below the src folder either way."""
    (tmp_path / "src" / "acme").mkdir(parents=True)
    if not namespace:
        (tmp_path / "src" / "acme" / "__init__.py").write_text("")
    listing = (SPEC / "2026-07-28" / "examples" / "Tool" / "with-no-parameters.json").read_bytes()
    (tmp_path / "tools.json").write_bytes(b'{"tools": [' + listing + b"]}")
    vendoring = ("-r", "2025-06-18", "-r", "2025-03-26", "--out", "src/acme/_mcp", "--package", "acme._mcp")
    assert _cli(tmp_path, "generate", "-q", *vendoring).returncode == 0
    assert _cli(tmp_path, "check", "-q", "--no-cache", *vendoring).returncode == 0
    made = _cli(tmp_path, "tools", "--from", "tools.json", "--out", "src/acme/tools")
    assert made.returncode == 0, made.stderr
    source = (tmp_path / "src" / "acme" / "tools" / "__init__.py").read_text()
    assert "from acme._mcp.v2025_06_18 import CallToolResult" in source
    imported = subprocess.run(
        [sys.executable, "-c", "import acme.tools; print(sorted(acme.tools.INPUTS))"],
        cwd=tmp_path / "src", capture_output=True, text=True, check=False,
    )
    assert imported.returncode == 0, imported.stderr


@pytest.mark.slow
def test_check_counts_a_stray_file_against_its_revision(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _invoke("generate", "-r", "2024-11-05", "--out", str(out), "-q")[0] == 0
    (out / "v2024_11_05" / "stray.py").write_text("# not generated\n")
    code, stdout, _ = _invoke("check", "-r", "2024-11-05", "--out", str(out), "--no-cache")
    assert code == 1
    assert stdout.splitlines()[0].endswith("differs (1 file)")
    assert f"--- {(out / 'v2024_11_05' / 'stray.py').as_posix()} (on disk)\n+++ /dev/null\n" in stdout
