"""Every generated package is imported and used once before it is written: a package that formats
and type-checks can still fail on first use (a pattern pydantic refuses, text it cannot encode, a
name Python cannot import). The files are written to a scratch folder, imported from there under a
private name, and the validator of every model and type alias is built, as the package's users will
build them; any failure is MCG404, and nothing is written.

In this process: the generator has pydantic loaded already, so this costs the validators only
(a separate interpreter doubled the cost of a small run). What the package runs at import is the
generator's own templates and the engine's output: every value from a schema, a server or a setting
reaches that source only as a literal or a validated identifier (render.py, config.py), and the
cost of building the validators is bounded by the limits on the schema (patterns.py, budget.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import itertools
import os
import pkgutil
import sys
import tempfile
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import replace
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from codegen import safeio
from codegen.analysis import ir
from codegen.emit import render
from codegen.emit.runtime import IN_ROOT, INSIDE
from codegen.emit.stamp import header
from codegen.errors import fail

_names = itertools.count()
# The frames a package may use to build its validators: pydantic recurses through nested types at
# import, and Python stops at 1,000 (its default recursion limit); the rest is the importer's own
# stack. The pinned MCP revisions take under 300.
IMPORT_FRAMES = 700
_SKIPPED = (".tests", "._examples")  # tests need pytest and a spec mirror; examples read files


def check(
    files: Mapping[str, str],
    *,
    revision: str | None = None,
    optional: tuple[str, ...] = (),
    standins: Mapping[str, str] | None = None,
) -> None:
    """Import the package made of files (paths relative to it) and build its validators; MCG404 if
    that fails. optional: top-level packages it imports that may be missing here: modules needing
    them are skipped. standins: files (paths from the import root) of packages it imports that are
    not importable here, put beside it for the check only (see `models_standin`)."""
    from pydantic import BaseModel, TypeAdapter
    from typing_extensions import TypeAliasType

    with _importable(files, standins or {}) as package:
        try:
            with _frames_at_most(IMPORT_FRAMES):
                built: set[int] = set()  # a model or alias several modules export is built once
                for module in _modules(package, optional):
                    for attribute in sorted(getattr(module, "__all__", ())):
                        value = getattr(module, attribute)
                        if id(value) in built:
                            continue
                        built.add(id(value))
                        if isinstance(value, type) and issubclass(value, BaseModel):
                            value.model_rebuild(force=True)
                        elif isinstance(value, TypeAliasType):
                            TypeAdapter(cast(Any, value))  # a type form known only at run time
        except RecursionError as exc:
            raise fail(
                "MCG103",
                f"the models nest too deeply to be built when the package is imported (pydantic recurses "
                f"through them, past {IMPORT_FRAMES} Python frames)",
                revision=revision,
                hint="no setting goes deeper; nest fewer levels (a chain of optional models costs the most)",
            ) from exc
        except Exception as exc:  # noqa: BLE001 - whatever the package raises is the diagnosis
            raise fail(
                "MCG404",
                f"the generated package fails when imported and used: {type(exc).__name__}: {exc}",
                revision=revision,
                hint="a defect of the generator for this schema: please report it with the schema",
            ) from exc


@contextmanager
def _frames_at_most(count: int) -> Generator[None, None, None]:
    """Python's recursion limit lowered, for the block, to count frames above the caller's: what
    builds here within it builds for an importer whose own stack takes the rest of the default."""
    depth, frame = 0, inspect.currentframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(min(limit, depth + count))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def models_standin(package: str) -> dict[str, str]:
    """A stand-in for the spec models package a tools package imports (`package`, such as
    acme._mcp.v2026_07_28), for when it cannot be imported where the generator runs (it is
    generated later, or lives in the user's source tree). A tools package takes only
    `CallToolResult`, `models.CallToolRequestParams`, `tool_calls.ToolCallParams` and
    `narrowing.narrow` from it, in annotations
    and function bodies, so these stand in for them: the import check then runs everything the
    tools package does at import (its models' and its output adapters' validators). The stand-in
    is never written."""
    parts = package.split(".")
    files = {"/".join(parts[: i + 1]) + "/__init__.py": "" for i in range(len(parts) - 1)}
    files["/".join(parts) + "/__init__.py"] = (
        "from pydantic import BaseModel\n\n\nclass CallToolResult(BaseModel):\n    pass\n"
    )
    files["/".join(parts) + "/models.py"] = (
        "from pydantic import BaseModel\n\n\nclass CallToolRequestParams(BaseModel):\n    pass\n"
    )
    files["/".join(parts) + "/tool_calls.py"] = (
        "from typing import TypedDict\n\n\nclass ToolCallParams(TypedDict, total=False):\n    pass\n"
    )
    files["/".join(parts) + "/narrowing.py"] = (
        "def narrow(result: object, target: object) -> object:\n"
        "    raise NotImplementedError('the import check stand-in of the spec models')\n"
    )
    return files


@contextmanager
def _importable(files: Mapping[str, str], standins: Mapping[str, str]) -> Generator[str, None, None]:
    """The files as an importable package under a fresh private name (and the stand-ins beside it),
    gone again afterwards."""
    name = f"_mcp_codegen_smoke_{next(_names)}"
    roots = {path.split("/", 1)[0] for path in standins} | {name}
    before = set(sys.modules)
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-smoke-") as scratch:
        purpose = "the scratch copy imported before writing"
        safeio.write_scratch(Path(scratch) / name, files, purpose=purpose)
        if standins:
            safeio.write_scratch(Path(scratch), standins, purpose=purpose)
        sys.path.insert(0, scratch)
        try:
            yield name
        finally:
            sys.path.remove(scratch)
            # only what this check imported: a real package of the same root stays loaded
            for module in [m for m in set(sys.modules) - before if m.split(".", 1)[0] in roots]:
                del sys.modules[module]
            importlib.invalidate_caches()


def _modules(name: str, optional: tuple[str, ...]) -> Iterator[ModuleType]:
    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # the scratch folder goes away; no caches beside it
    try:
        package = _load(name, optional)
        if package is None:
            return
        yield package
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            if not any(skipped in info.name for skipped in _SKIPPED):
                module = _load(info.name, optional)
                if module is not None:
                    yield module
    finally:
        sys.dont_write_bytecode = dont_write


def _load(name: str, optional: tuple[str, ...]) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in optional:
            return None
        raise


def standin_bases(files: Mapping[str, str], revisions: Sequence[ir.Revision], root: Path) -> dict[str, str]:
    """_base.py of each revision package with pydantic's BaseModel in place of a user base class
    that cannot be imported where the generator runs (a src/ layout): the import check then runs
    the rest of the package as written. The written files keep the user's base class."""
    standins: dict[str, str] = {}
    for revision in revisions:
        base = revision.options.base_class
        if base and not importable(base.rpartition(".")[0]):
            _locate_base_module(base, root)
            in_root = f"{revision.package}/_base.py" in files
            where = f"{revision.package}/_base.py" if in_root else "_base.py"
            plain = render.base_module(
                replace(revision.options, base_class=None),
                header(revision.revision, revision.sha256),
                most_specific=f"{where[: -len('_base.py')]}_specific.py" in files,
                runtime=IN_ROOT if in_root else INSIDE,
            )
            standins[where] = plain
    return standins


def check_base_class(base: str, out: Path) -> None:
    """MCG010 unless base names a subclass of pydantic.BaseModel: every model inherits from it, so
    anything else (typing.Any, object, a function, pathlib.Path) would give a package whose models
    are not pydantic models. A base importable here is imported and checked; one in the project's
    own tree that is not installed here (a src/ layout) must at least define or import that name in
    its module file."""
    from pydantic import BaseModel

    module, _, name = base.rpartition(".")
    if not importable(module):
        _locate_base_module(base, out)
        return
    try:
        found = getattr(importlib.import_module(module), name)
    except AttributeError:
        raise fail("MCG010", f"base-class {base}: module {module} has no {name}", hint=_BASE_HINT) from None
    except Exception as exc:  # noqa: BLE001 - the user's module failed on import: said in one line
        raise fail("MCG010", f"base-class {base}: importing {module} failed ({type(exc).__name__})", hint=_BASE_HINT) from None
    if not isinstance(found, type):
        raise fail("MCG010", f"base-class: expected a subclass of pydantic.BaseModel, got {base} (not a class)", hint=_BASE_HINT)
    if not issubclass(found, BaseModel):
        raise fail(
            "MCG010", f"base-class: expected a subclass of pydantic.BaseModel, got {base} (a class that is not)", hint=_BASE_HINT
        )


_BASE_HINT = "base-class names your own class deriving from pydantic.BaseModel, as module.Class"


def _locate_base_module(base: str, out: Path) -> None:
    """A base class whose module cannot be imported where mcp-codegen runs must at least exist in
    the project the package goes into (a src/ layout not installed here): its module file under a
    folder above the output. Otherwise the package would fail at its first import: MCG010 now."""
    module = base.rpartition(".")[0]
    relative = Path(*module.split("."))
    for folder in [p for p in Path(os.path.abspath(out)).parents][:8]:
        for top in (folder, folder / "src"):
            for candidate in ((top / relative).with_suffix(".py"), top / relative / "__init__.py"):
                if candidate.is_file():
                    _check_defines(candidate, base)
                    return
    raise fail(
        "MCG010",
        f"base-class {base}: module {module} cannot be imported here, and no {relative}.py is in a folder above {out}",
        hint="install the package that defines it, or fix base-class (a dotted path: module.Class)",
    )


def _check_defines(module_file: Path, base: str) -> None:
    """MCG010 unless the module file binds the base class's name at its top level (a class, or a
    name imported or assigned there): read, never run, as the generator does not import the project."""
    import ast

    name = base.rpartition(".")[2]
    try:
        tree = ast.parse(safeio.read_regular(module_file, 8 * 1024 * 1024))
    except (OSError, SyntaxError, ValueError, safeio.NotRegular, safeio.TooLarge):
        return  # not ours to judge: the package's first import will say
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return
        if isinstance(node, ast.Import | ast.ImportFrom) and any((a.asname or a.name.split(".")[0]) == name for a in node.names):
            return
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return
    raise fail("MCG010", f"base-class {base}: {module_file} defines no {name}", hint=_BASE_HINT)


def importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False
