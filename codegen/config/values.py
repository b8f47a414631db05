"""What each `[tool.mcp-codegen]` setting takes, checked on the TOML value as written, before the
settings model reads it: a wrong type is refused, never coerced (`max-depth = "64"`, `surface =
"false"`, `3000.0`, `true` for an integer), and every refusal is one line naming the key, what it
expects and what it got. The same table is the reference docs/configuration.md gives.
"""

from __future__ import annotations

import ast
import datetime
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from codegen.limits import DEPTH_CEILING


@dataclass(frozen=True)
class Kind:
    expected: str  # what the key takes, as a line and the docs say it
    accepts: Callable[[Any], bool]


def _text(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(_text(item) for item in cast("list[object]", value))


def _integer(low: int, high: int | None = None) -> Callable[[Any], bool]:
    def accepts(value: Any) -> bool:
        is_int = isinstance(value, int) and not isinstance(value, bool)
        return is_int and value >= low and (high is None or value <= high)

    return accepts


def _one_of(*choices: str) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and value in choices


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _choices(*choices: str) -> str:
    return "one of " + ", ".join(f'"{c}"' for c in choices)


KINDS: dict[str, Kind] = {
    "revisions": Kind("an array of revision names (strings)", _texts),
    "out": Kind("a non-empty string: a folder, relative to this pyproject.toml", _text),
    "package": Kind("a non-empty string: a dotted import path", _text),
    "field-naming": Kind(_choices("snake", "wire"), _one_of("snake", "wire")),
    "extra-keys": Kind(_choices("lossless", "ignore", "sieve"), _one_of("lossless", "ignore", "sieve")),
    "open-definitions": Kind("an array of definition names or JSON pointers (strings)", _texts),
    "inbound": Kind(_choices("strict", "lenient"), _one_of("strict", "lenient")),
    "base-class": Kind("a non-empty string: module.Class", _text),
    "pydantic-config": Kind("a table of pydantic ConfigDict entries", lambda value: isinstance(value, dict)),
    "spec-source": Kind("a non-empty string: a folder or an https URL", _text),
    "docs-source": Kind("a non-empty string: a folder", _text),
    "errata": Kind("an array of file paths (strings), relative to this pyproject.toml", _texts),
    "disable-errata": Kind("an array of erratum ids (strings)", _texts),
    "pins": Kind("a non-empty string: a file path, relative to this pyproject.toml", _text),
    "formatter": Kind(_choices("black", "ruff"), _one_of("black", "ruff")),
    "line-length": Kind("an integer from 79 to 320", _integer(79, 320)),
    "absolute-links": Kind("a boolean (true or false)", _boolean),
    "surface": Kind("a boolean (true or false)", _boolean),
    "prune": Kind("a boolean (true or false)", _boolean),
    "max-schema-bytes": Kind("an integer of at least 1", _integer(1)),
    "max-depth": Kind(f"an integer from 1 to {DEPTH_CEILING}", _integer(1, DEPTH_CEILING)),
    "max-definitions": Kind("an integer of at least 1", _integer(1)),
    "max-subschemas": Kind("an integer of at least 1", _integer(1)),
    "max-members": Kind("an integer of at least 1", _integer(1)),
    "tools": Kind(
        "a table of named entries ([tool.mcp-codegen.tools.<name>]), each a table",
        lambda value: isinstance(value, dict) and all(isinstance(v, dict) for v in cast("dict[str, object]", value).values()),
    ),
}

# The keys of one `tools` entry: a partner server's typed tools, generated and checked bare.
TOOLS_KINDS: dict[str, Kind] = {
    "from": Kind("a non-empty string: a tools/list file, relative to this pyproject.toml", _text),
    "server": Kind("a non-empty string: a command that starts an MCP server over stdio", _text),
    "out": Kind("a non-empty string: a folder, relative to this pyproject.toml", _text),
    "models": Kind("a non-empty string: a dotted import path", _text),
}


def check_tools_entry(key: str, value: Any) -> str | None:
    """As check, for a key of one `tools` entry."""
    kind = TOOLS_KINDS.get(key)
    if kind is None or kind.accepts(value):
        return None
    return f"expected {kind.expected}, got {described(value)}"


def check(key: str, value: Any) -> str | None:
    """What is wrong with value for key ("expected ..., got ..."), or None; an unknown key is the
    settings model's to report (with its likely fix)."""
    kind = KINDS.get(key)
    if kind is None or kind.accepts(value):
        return None
    return f"expected {kind.expected}, got {described(value)}"


def described(value: Any) -> str:
    """A TOML value as a reader recognises it: its text, and its type where the text alone could mislead."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int):
        return f"{value} (an integer)"
    if isinstance(value, float):
        return f"{value!r} (a float)"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f"{_quoted(shown)} (a string)" if value else '"" (an empty string)'
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return "a date or time"
    return type(value).__name__


def _quoted(text: str) -> str:
    """text in double quotes, escaped as JSON would (no control character reaches a message)."""
    import json

    return json.dumps(text)


# -- package names -------------------------------------------------------------------------------

# Top-level names the generated packages import, beside the standard library's.
_IMPORTED = frozenset({"pydantic", "pydantic_core", "typing_extensions", "annotated_types"})


def package_problem(package: str) -> str | None:
    """Why a generated package could not be imported under this dotted path, or None: a top-level
    name that is a module of the standard library or of what the package imports would shadow it
    (or be shadowed), and a dunder part (`__main__`) is a name Python gives its own meaning."""
    top = package.split(".")[0]
    if any(part.startswith("__") and part.endswith("__") for part in package.split(".")):
        return f"{package!r} has a part Python reserves (a __dunder__ name)"
    if top in sys.stdlib_module_names:
        return f"{package!r} would shadow {top!r}, a module of Python's standard library"
    if top in _IMPORTED:
        return f"{package!r} would shadow {top!r}, which the generated models import"
    return None


# -- pydantic-config -----------------------------------------------------------------------------

# Entries other settings, or the wire, decide: the reason each is refused.
OWNED = {
    "extra": "set by the generator itself (see extra-keys)",
    "validate_by_name": "set by the generator itself: keys are read by their wire names",
    "validate_by_alias": "set by the generator itself: keys are read by their wire names",
    "serialize_by_alias": "set by the generator itself: models dump their wire names",
    "strict": 'set by the generator itself (inbound = "lenient" reads pydantic\'s lax scalars)',
    "allow_inf_nan": "set by the generator itself: JSON has no NaN or Infinity, and the models refuse them",
    "defer_build": "set by the generator itself: validators are built on first use",
}


def config_problem(key: str, value: Any) -> str | None:
    """What is wrong with one `pydantic-config` entry, or None. The types are pydantic's own
    ConfigDict annotations, read as written: an entry whose type takes Python objects (a callable,
    a class) cannot come from TOML."""
    from pydantic import ConfigDict

    annotations: Mapping[str, Any] = ConfigDict.__annotations__
    if key not in annotations:
        return "not a pydantic ConfigDict key"
    if key in OWNED:
        return OWNED[key]
    annotation = annotations[key]
    text = getattr(annotation, "__forward_arg__", annotation if isinstance(annotation, str) else None)
    accepts = _from_annotation(text) if isinstance(text, str) else None
    if accepts is None:
        return f"takes Python objects (pydantic: {text}), which a TOML value cannot be"
    expected, test = accepts
    if not test(value):
        return f"expected {expected}, got {described(value)}"
    return None


_Accepts = tuple[str, Callable[[Any], bool]]


def _from_annotation(text: str) -> _Accepts | None:
    """(what it expects, a test) for a ConfigDict annotation a TOML value can satisfy, else None."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    return _node(node)


def _node(node: ast.expr) -> _Accepts | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = [p for p in (_node(node.left), _node(node.right)) if p is not None]
        if _is_none(node.left) or _is_none(node.right):  # `X | None`: None has no TOML spelling
            return parts[0] if len(parts) == 1 else None
        if len(parts) != 2:
            return None
        (first, test_first), (second, test_second) = parts
        return f"{first} or {second}", lambda v: test_first(v) or test_second(v)
    if isinstance(node, ast.Name):
        simple: dict[str, _Accepts] = {
            "bool": ("a boolean", _boolean),
            "int": ("an integer of at least 0", _integer(0)),
            "str": ("a string", lambda v: isinstance(v, str)),
            "float": ("a number", lambda v: isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)),
        }
        return simple.get(node.id)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        values = [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if not values:
            return None
        return _choices(*values), lambda v: isinstance(v, str) and v in values
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
