"""Python names for schema things, assigned in one deterministic pass.

- Spec definitions keep their names (escaped only if they are not usable as a class name).
- Inline objects are named from their owner and the path to them: CompleteRequestParams ->
  properties/argument -> `CompleteRequestParamsArgument`; `items` -> `Item`,
  `additionalProperties` -> `Value`; a union arm by what it is (arms.py), never by its position.
- Fields are snake_case with the wire name as alias; Python keywords, builtins used in
  annotations, pydantic BaseModel attributes and names the class body reads get a trailing underscore.
- A class never takes a name a generated module binds itself (`Model` appended); a definition is
  never exported under a name the package binds itself, a dunder among them (its class name instead).
- A collision is an error, found here, before anything is rendered.
"""

from __future__ import annotations

import builtins
import importlib
import keyword
import re
import unicodedata
from functools import cache

# What the package's own modules give the models module (templates/package/_base.py.jinja2,
# _structural.py.jinja2): emit/dcg.py tells the engine to import them from there.
BASE_CLASS = "MCPModel"
CONSTANT_DEFAULT = "const"  # the default type checkers see on a constant property
STRUCTURAL = "structural"  # the callable discriminator of a structural union
NUMBER = "JSONNumber"  # a JSON number: int or float, bounded exactly (emit/lower.py)
# The libraries a generated module imports from: the engine writes annotations with typing,
# typing_extensions, pydantic and pydantic_core names, the package's helpers use collections.abc and
# pydantic.fields too. Which of their names a module imports depends on the schema, so all of them
# are taken.
_LIBRARIES = ("typing", "typing_extensions", "collections.abc", "pydantic", "pydantic.fields", "pydantic_core")
# A class is not named like a builtin either (a helper raises `ValueError`); a field is, unless an
# annotation uses it (BUILTIN_TYPE_NAMES): `id` and `type` are fine attribute names.
_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))
# Names the package's helper modules that import model classes by their class names define
# (messages, narrowing, elicitation, forms), besides the libraries': a class must not take one.
# tests/test_hardening_r3_names.py parses every generated module to keep this list complete.
HELPER_NAMES = frozenset({
    BASE_CLASS, CONSTANT_DEFAULT, STRUCTURAL, NUMBER, "union_arms", "AS_ANY", "LEFT_TO_RIGHT", "most_specific",
    # messages.py
    "AnyError", "AnyResult", "EMBEDDED_REQUESTS", "ERROR_OBJECTS", "ERROR_RESPONSES", "Envelope", "ErrorResponse",
    "Message", "MessageError", "NotJSONError", "NOTIFICATIONS", "PARAMS", "REQUESTS", "RESPONSES", "RESULTS", "RESULT_CLASSES",
    "Pending", "RawJSON", "ResultResponse", "SENDERS", "AnyListResult", "DroppedItem", "LIST_RESULTS", "ListMethod",
    "Routes", "Tolerated",
    # narrowing.py, elicitation.py, forms.py
    "JSONSource", "NarrowingError", "Structured", "T", "ToolReportedError", "AnswerProblem", "EnumChoice",
    "EnumOption", "Accepted", "AnswerError", "Cancelled", "Declined", "F", "FORMATS", "FormError", "Format",
    "NUMBER_TYPES", "REVISION", "Titles",
    # a tools package's __init__ (templates/package/tools_init.py.jinja2)
    "INPUTS", "OUTPUTS", "NoOutputSchema", "ToolCall", "ToolCallWithOutput",
    # tool_calls.py
    "ToolCallParams",
})  # fmt: skip
# A revision package's __init__ binds these itself (templates/package/revision_init.py.jinja2), and
# its submodules become its attributes once imported: a definition is never exported under one.
# MISSING: readers test `x is not MISSING`; no export of a package may stand for something else.
PACKAGE_NAMES = frozenset({
    "TYPE_CHECKING", "annotations", "lazy_names", "MISSING",
    "models", "messages", "narrowing", "elicitation", "forms", "history", "tests", "wire", "tool_calls",
    "_base", "_structural", "_specific", "_tolerant", "_examples", "_jsonc", "_tables", "_runtime",
})  # fmt: skip
# What a revision package exports from messages.py besides its models (and its wire classes).
MESSAGES_API = (
    "AnyError", "AnyListResult", "AnyResult", "DroppedItem", "Envelope", "ErrorResponse", "LIST_RESULTS", "ListMethod",
    "Message", "MessageError", "NotJSONError", "Pending", "ResultResponse", "Tolerated",
    "parse_envelope", "parse_error", "parse_message", "parse_result", "union_arms",
)  # fmt: skip


@cache
def library_names() -> frozenset[str]:
    """The public names of the libraries the generated modules import from."""
    names: set[str] = set()
    for library in _LIBRARIES:
        module = importlib.import_module(library)
        public: list[str] = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
        names.update(public)
    return frozenset(names)


def module_names() -> frozenset[str]:
    """Every name a generated module may bind besides the schema's: the libraries' and the
    package's own. A class spelt like one would shadow it where it is imported."""
    return library_names() | HELPER_NAMES


BUILTIN_TYPE_NAMES = frozenset({"bool", "bytes", "dict", "float", "int", "list", "object", "set", "str", "tuple"})
# Public and semi-public attributes of pydantic.BaseModel (v2) a field must not shadow.
BASEMODEL_ATTRIBUTES = frozenset(
    {
        "construct", "copy", "dict", "from_orm", "json", "model_computed_fields", "model_config",
        "model_construct", "model_copy", "model_dump", "model_dump_json", "model_extra",
        "model_fields", "model_fields_set", "model_json_schema", "model_parametrized_name",
        "model_post_init", "model_rebuild", "model_validate", "model_validate_json",
        "model_validate_strings", "parse_file", "parse_obj", "parse_raw", "schema", "schema_json",
        "update_forward_refs", "validate",
    }
)  # fmt: skip

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-zA-Z_]+")
_UNDERSCORES = re.compile(r"_+")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def ascii_words(text: str) -> list[str]:
    """Words of an arbitrary string: camelCase, snake_case, kebab-case, dotted, non-ASCII folded."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    spaced = _CAMEL_BOUNDARY.sub("_", folded)
    return [w for w in _NON_WORD.sub("_", spaced).split("_") if w]


def pascal(text: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in ascii_words(text))


def base_name(definition: str) -> str:
    """A definition's name as a class-name stem: its own when it is already a CapWords identifier
    (as every MCP definition is), else a PascalCase spelling of its words."""
    usable = definition.isidentifier() and definition.isascii() and definition[:1].isupper() and "_" not in definition
    name = definition if usable else pascal(definition)
    if not name:
        name = "Definition"
    if name[0].isdigit():
        name = "Definition" + name
    return name


def class_name(stem: str) -> str:
    """The class name for a stem inside a generated module: `Model` appended where it would shadow
    a name the module uses (the package still exports the definition under its spec name)."""
    name = stem
    while keyword.iskeyword(name) or name in module_names() or name in _BUILTINS:
        name += "Model"
    return name


def export_name(definition: str, class_name: str, taken: frozenset[str]) -> str:
    """The name the package exports a definition under: its spec name where Python can spell it and
    the package does not use it itself (taken, or a dunder), else its class name."""
    usable = definition.isidentifier() and not keyword.iskeyword(definition) and definition not in taken
    return definition if usable and not _dunder(definition) else class_name


def _dunder(name: str) -> bool:
    """A `__name__` is Python's: the interpreter binds some on every module (`__name__`, `__file__`,
    `__spec__`, ...) and a revision package's __init__ others (`__all__`, `__getattr__`, `__dir__`),
    which an export under that name would be read as."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def variant_letter(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (names must not end in a digit): a tools package's second tool
    whose name meets another's (codegen/tools/package.py). Schema members never get one (arms.py)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = _LETTERS[rest] + letters
    return letters


def field_name(wire: str, style: str = "snake", *, beside_constants: bool = False) -> str:
    """The attribute name of a wire property name: snake_case, or with style "wire" the wire name
    itself wherever it is a usable attribute name. beside_constants: the class has a constant
    property, whose default calls `const(...)` in the class body."""
    taken = _CLASS_BODY_NAMES | {CONSTANT_DEFAULT} if beside_constants else _CLASS_BODY_NAMES
    if style == "wire" and wire.isidentifier() and wire.isascii() and not wire.startswith("_") and not _reserved(wire, taken):
        return wire
    words = ascii_words(wire)
    name = _UNDERSCORES.sub("_", "_".join(w.lower() for w in words)).strip("_")
    if not name:
        name = "field"
    if name[0].isdigit():
        name = "field_" + name
    if name.startswith(("model_validate", "model_dump")):  # pydantic's protected namespaces
        return "field_" + name
    if _reserved(name, taken):
        name += "_"
    return name


def is_import_path(text: str) -> bool:
    """Whether text is a dotted Python import path (`acme._mcp`): ASCII identifiers, no keywords.
    Values of settings and flags reach generated source only when they pass this."""
    parts = text.split(".")
    return all(p.isascii() and p.isidentifier() and not keyword.iskeyword(p) for p in parts)


# A field with a default binds its name in the class body, and type checkers read any field's name
# there: it must not be a name the body reads after it. Annotations read the libraries' names
# (library_names), builtin types and the number type; the helpers' names never.
_CLASS_BODY_NAMES = frozenset({NUMBER}) | BUILTIN_TYPE_NAMES


def _reserved(name: str, taken: frozenset[str]) -> bool:
    return (
        keyword.iskeyword(name)
        or name in BASEMODEL_ATTRIBUTES
        or name in taken
        or name in library_names()
        or name.startswith(("model_validate", "model_dump"))  # pydantic's protected namespaces
    )
