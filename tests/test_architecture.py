"""The generator's package tree is its pipeline: every import goes to the same stage or an earlier one.

Stages, in the order data flows: base (errors, limits, resources, version) -> schema -> analysis ->
emit -> output -> features (diff, tools, checks; none imports another) -> surface (built on the
diff's renames) -> impact (on the diff's changes) -> config, api -> cli ->
the package facade. A module may import its own stage or earlier ones; an import from a later
stage, between two features, or any import cycle fails here, naming the edge.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from .conftest import REPO

PACKAGE = REPO / "codegen"
BASE = ("codegen.errors", "codegen.limits", "codegen.resources", "codegen.safeio", "codegen.version", "codegen.runtime")
# What the shared runtime (codegen/runtime/, written into every output root) may import: it runs
# in the user's project, which has pydantic and nothing of the generator.
RUNTIME = "codegen.runtime"
RUNTIME_MAY_IMPORT = frozenset({"__future__", "pydantic", "pydantic_core", "typing_extensions"})
STAGES: tuple[tuple[str, ...], ...] = (
    BASE,
    ("codegen.schema",),
    ("codegen.analysis",),
    ("codegen.emit",),
    ("codegen.output",),
    ("codegen.diff", "codegen.tools", "codegen.checks"),
    ("codegen.surface",),
    ("codegen.impact",),  # the project's code at another revision: diff's changes, api's builds
    ("codegen.config", "codegen.api"),
    ("codegen.cli",),
    ("codegen.__main__", "codegen"),
)
FEATURES = STAGES[5]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """Every codegen module that module `name` imports (resolved to a module, not a name in it)."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            if target == "codegen" or target.startswith("codegen."):
                yield target


def _stage(module: str) -> int:
    best = -1
    for index, prefixes in enumerate(STAGES):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if prefix == "codegen" and module != "codegen":
                    continue
                best = index
    assert best >= 0, f"{module} belongs to no stage: add it to STAGES"
    return best


def _feature(module: str) -> str | None:
    return next((f for f in FEATURES if module == f or module.startswith(f + ".")), None)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: set(_imports(name, path, known)) - {name} for name, path in modules.items()}


def test_every_module_belongs_to_a_stage() -> None:
    for module in _modules():
        _stage(module)


def test_no_import_goes_to_a_later_stage_or_another_feature() -> None:
    wrong = []
    for module, targets in sorted(_graph().items()):
        for target in sorted(targets):
            if _stage(target) > _stage(module):
                wrong.append(f"{module} -> {target} (a later stage)")
            elif _feature(module) and _feature(target) and _feature(module) != _feature(target):
                wrong.append(f"{module} -> {target} (another feature)")
    assert not wrong, "\n".join(wrong)


def test_there_is_no_import_cycle() -> None:
    graph = _graph()
    for module in graph:
        graph[module] = {t for t in graph[module] if t in graph}
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(" -> ".join(trail[trail.index(target) :] + [target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "\n".join(cycles)


def test_the_checks_can_fail() -> None:
    """The walker sees relative and absolute imports alike (a blind walker would pass everything)."""
    graph = _graph()
    assert "codegen.schema.load" in graph["codegen.emit.lower"]
    assert "codegen.analysis.ir" in graph["codegen.diff.direction"]
    assert _stage("codegen.cli") > _stage("codegen.api") > _stage("codegen.output.tree") > _stage("codegen.schema.load")


def test_the_cli_wires_no_stages_itself() -> None:
    """api.py is the one place that wires the stages together for the CLI: cli.py imports the base
    modules, the settings and api, never a stage or a feature."""
    allowed = {*BASE, "codegen.config", "codegen.api", "codegen"}
    stages = sorted(t for t in _graph()["codegen.cli"] if t not in allowed)
    assert not stages, stages
    assert "codegen.api" in _graph()["codegen.cli"]  # the walker sees its imports at all


def test_the_runtime_imports_only_the_standard_library_pydantic_and_itself() -> None:
    """A copy of codegen/runtime/ under any package (`acme/mcp/_runtime/`) imports: its modules
    import their siblings relatively, and outside it the standard library and pydantic only."""
    import sys

    wrong = []
    for name, path in _modules().items():
        if not name.startswith(RUNTIME):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                if node.level > 1:
                    wrong.append(f"{name}: from {'.' * node.level}{node.module or ''} (outside the runtime)")
                continue
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            for module in modules:
                top = module.split(".")[0]
                if top not in sys.stdlib_module_names and top not in RUNTIME_MAY_IMPORT:
                    wrong.append(f"{name}: import {module}")
    assert not wrong, "\n".join(wrong)
    assert any(name.startswith(RUNTIME + ".") for name in _modules())  # the walk sees the runtime


def test_nothing_in_the_generator_imports_the_runtime() -> None:
    """The generator writes the runtime out as text (emit/runtime.py) and runs none of it: a module
    there is the user's code at run time, not the generator's."""
    importers = sorted(m for m, targets in _graph().items() if not m.startswith(RUNTIME) and any(
        t == RUNTIME or t.startswith(RUNTIME + ".") for t in targets
    ))
    assert not importers, importers
