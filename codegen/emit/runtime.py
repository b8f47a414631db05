"""The shared runtime (codegen/runtime/) as files of the output, once per output root: its modules
read as text, each behind the generated-file header (so `output` knows it wrote them), never
imported by the generator."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from codegen.resources import runtime_dir

FOLDER = "_runtime"
IN_ROOT = f"..{FOLDER}"  # how a package of an output root imports it: the root holds it
INSIDE = f".{FOLDER}"  # how a package generated on its own (generate_schema) imports it: it holds it


def runtime_files(stamp: str, only: Iterable[str] | None = None) -> dict[str, str]:
    """The runtime's modules by path from the folder that holds FOLDER, unformatted: stamp, then
    the module's text as the repository has it. only: the module names to write (with the package's
    `__init__`); every module when None."""
    wanted = None if only is None else {"__init__", *only}
    modules = sorted(path for path in runtime_dir().glob("*.py") if wanted is None or path.stem in wanted)
    return {f"{FOLDER}/{path.name}": f"{stamp}\n{path.read_text(encoding='utf-8')}" for path in modules}


def needed_by(sources: Mapping[str, str]) -> frozenset[str]:
    """The runtime modules that the given package sources import, with every sibling those import
    in turn: what a package that holds its own runtime has to carry (a tools package needs the base
    model, not the message or surface engines)."""
    texts = {path.stem: path.read_text(encoding="utf-8") for path in runtime_dir().glob("*.py")}
    wanted: set[str] = set()
    for text in sources.values():
        wanted |= _imported(text, inside=False)
    todo = list(wanted)
    while todo:
        for module in _imported(texts[todo.pop()], inside=True) - wanted:
            wanted.add(module)
            todo.append(module)
    return frozenset(wanted & texts.keys())


def _imported(source: str, *, inside: bool) -> set[str]:
    """The runtime modules a source imports relatively: from a runtime module itself (inside: its
    siblings, `from .reading import ...`, `from . import jsonc`) or from a package that reaches the
    runtime through FOLDER (`from ._runtime.base import ...`, `from .._runtime import forms`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        parts = (node.module or "").split(".") if node.module else []
        if not inside:
            if not parts or parts[0] != FOLDER:
                continue
            parts = parts[1:]
        found |= {parts[0]} if parts else {alias.name for alias in node.names}
    return found
