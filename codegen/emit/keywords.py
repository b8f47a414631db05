"""The keyword parameters of a generated model class, read back from the models module's source.

A per-revision helper offers them as typed keywords (tool_calls.py: what a typed tool call's
`.params(...)` takes beside the tool's name and arguments). They are taken from the engine's
output, not rebuilt from the schema, so the helper's annotations are the class's own, whatever the
settings made of them (attribute names, strict types, `MISSING` or `None` for what may be left out).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Collection
from dataclasses import dataclass

from codegen.errors import fail

_BUILTINS = frozenset(dir(builtins))


@dataclass(frozen=True)
class Keyword:
    name: str  # the attribute name, as the class's constructor takes it
    annotation: str  # its annotation's source, in the models module's names
    required: bool  # no default: the constructor needs it


@dataclass(frozen=True)
class Keywords:
    keywords: tuple[Keyword, ...]
    # (module as the models module imports it, names): what the annotations need; ".models" for
    # the models module's own names
    imports: tuple[tuple[str, tuple[str, ...]], ...]


def class_keywords(models_source: str, class_name: str, leave_out: Collection[str] = ()) -> Keywords:
    """The keywords of class_name's constructor in models_source, in field order, less leave_out."""
    tree = ast.parse(models_source)
    origins = _origins(tree)
    found = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if found is None:
        raise fail("MCG403", f"the models module defines no class {class_name!r}")
    keywords: list[Keyword] = []
    needed: dict[str, set[str]] = {}
    for node in found.body:
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            continue
        name = node.target.id
        if name in leave_out or _is_class_variable(node.annotation):
            continue
        keywords.append(Keyword(name, ast.unparse(node.annotation), node.value is None))
        for used in _names(node.annotation):
            if used in origins:
                needed.setdefault(origins[used], set()).add(used)
            elif used not in _BUILTINS:
                raise fail("MCG403", f"{class_name}.{name}: its annotation names {used!r}, which the models module does not bind")
    return Keywords(tuple(keywords), tuple((module, tuple(sorted(names))) for module, names in sorted(needed.items())))


def _origins(tree: ast.Module) -> dict[str, str]:
    """Each module-level name of the models module -> the module to import it from."""
    origins: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                origins[alias.asname or alias.name] = module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                origins[alias.asname or alias.name.split(".")[0]] = ""
        elif isinstance(node, ast.ClassDef):
            origins[node.name] = ".models"
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    origins[target.id] = ".models"
    return origins


def _names(annotation: ast.expr) -> set[str]:
    """The top-level names an annotation uses (`typing.Any` uses `typing`)."""
    return {node.id for node in ast.walk(annotation) if isinstance(node, ast.Name)}


def _is_class_variable(annotation: ast.expr) -> bool:
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return isinstance(head, ast.Name) and head.id == "ClassVar"
