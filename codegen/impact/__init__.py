"""`mcp-codegen impact REVISION`: does the project's own code still type-check at another revision?

The project's folder is copied into a scratch folder (scratch.py) and its type checker (mypy or
pyright, as the project configures it: project.py, checkers.py) runs twice over the copy: once
with the revision it vendors generated afresh in place of the vendored package, once with the
target revision generated there under the same name and settings. The errors of the second run
that the first does not have are the impact (report.compare), each tied to the `diff` changes its
message names (match.py).

Why both runs are fresh builds: the first run is the baseline, so errors the project already has
(and a vendored copy that is stale, hand-edited or from another mcp-codegen) are in both runs and
cancel out; only what the revision changes remains. The project's files are never written: both
builds and both checker runs happen in the copy, which is removed afterwards.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen import diff as revision_diff
from codegen.errors import fail
from codegen.impact import checkers, match, project as projects, scratch
from codegen.impact.findings import Finding
from codegen.impact.project import Project
from codegen.impact.report import Impact, NewError, Side, compare

__all__ = ["Impact", "Project", "Schema", "assess"]


@dataclass(frozen=True)
class Schema:
    label: str  # the revision, as reports name it
    sha256: str
    data: bytes  # the schema's bytes, read offline
    argument: str  # what `diff` is given for it: the pinned label or the schema's path


# build(schema file, package folder, label): generate the revision into the folder, as the project's
# settings say (codegen.api wires it to generate_schema)
Build = Callable[[Path, Path, str], None]


def assess(
    project: Project,
    current: Schema,
    target: Schema,
    *,
    build: Build,
    checker: str | None = None,
    paths: Sequence[Path] = (),
    spec_source: str | None = None,
    errata_files: tuple[Path, ...] = (),
    disabled_errata: frozenset[str] = frozenset(),
) -> Impact:
    """The errors the project's checker (checker, else the one it configures) reports over its code
    (paths, else what the checker's configuration names) with target generated in place of the
    vendored revision, that it does not report with current generated there; each tied to the
    changes `diff` finds between them (read with the project's errata, as `diff` reads them)."""
    config = projects.choose(project.root, checker)
    found = checkers.locate(config.name)
    targets = _targets(project, config, paths)
    # the changes first: a target that is no schema fails here, before the slow runs
    report = revision_diff.diff(
        current.argument,
        target.argument,
        spec_source=spec_source,
        errata_files=errata_files,
        disabled_errata=disabled_errata,
    )
    changes = [*report.changes, *report.python_api]
    # a build imports modules (the project's base class, if it names one): no bytecode lands
    # beside them, in the project's tree or anywhere else
    writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        runs = _check_both(project, (current, target), build, found, config, targets)
    finally:
        sys.dont_write_bytecode = writes_bytecode
    before, after = (_own(run.findings, project) for run in runs)
    new, gone = compare(before, after)
    return Impact(
        project=str(project.root),
        module=project.module,
        current=Side(current.label, current.sha256),
        target=Side(target.label, target.sha256),
        checker=config.name,
        checker_version=runs[-1].version,
        new=tuple(NewError(f, match.causes(f.message, changes)) for f in new),
        gone=tuple(gone),
        changes=len(changes),
        already=len(before) - len(gone),
        runs=len(runs),
    )


def _check_both(
    project: Project,
    schemas: Sequence[Schema],
    build: Build,
    found: checkers.Checker,
    config: projects.CheckerConfig,
    targets: Sequence[str],
) -> list[checkers.Run]:
    """The checker's run over the copy with each schema's package in place of the vendored one:
    one copy, the package folder rebuilt between runs (mypy's cache, in the scratch folder, is
    shared: the second run rechecks only what the new package changes)."""
    runs: list[checkers.Run] = []
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-impact-", ignore_cleanup_errors=True) as folder:
        room = Path(folder)
        copy = room / "project"
        scratch.copy_project(project.root, copy, leave_out=project.replaced)
        for number, schema in enumerate(schemas):
            file = room / "schemas" / str(number) / "schema.json"
            file.parent.mkdir(parents=True)
            file.write_bytes(schema.data)
            build(file, scratch.replace_package(copy, project.replaced), schema.label)
            runs.append(checkers.run(found, config, copy, targets, room))
    return runs


def _own(found: Sequence[Finding], project: Project) -> list[Finding]:
    """The project's own files: the generated package's errors are not the project's code."""
    vendored = project.out.as_posix() + "/"
    return [f for f in found if not f.file.startswith(vendored)]


def _targets(project: Project, config: projects.CheckerConfig, paths: Sequence[Path]) -> list[str]:
    """What the checker is told to check, relative to the project folder: the paths given (each
    inside the project), else nothing for a checker whose configuration says it (pyright always
    has a default: the project folder; mypy its `files`), else the `src` folder or the project."""
    given: list[str] = []
    for path in paths:
        full = Path(os.path.abspath(path))
        try:
            relative = full.relative_to(project.root)
        except ValueError:
            raise fail(
                "MCG827", f"{path} is not inside the project folder {project.root}", hint="name the project's own files or folders"
            ) from None
        if not os.path.exists(full):
            raise fail("MCG827", f"{path} does not exist", hint="name the project's own files or folders")
        given.append(relative.as_posix())
    if given or config.name == "pyright" or projects.mypy_names_files(config):
        return given
    return ["src"] if (project.root / "src").is_dir() else ["."]
