"""Python names for schema things, assigned in one deterministic pass.

- Spec definitions keep their names (escaped only if they are not usable as a class name).
- Inline objects are named from their owner and the path to them: CompleteRequestParams ->
  properties/argument -> `CompleteRequestParamsArgument`; `items` -> `Item`,
  `additionalProperties` -> `Value`; a union arm by its `const` tag, else `Variant` + letter.
- Fields are snake_case with the wire name as alias; Python keywords, builtins used in
  annotations and pydantic BaseModel attributes get a trailing underscore.
- A collision is an error, found here, before anything is rendered.
"""

from __future__ import annotations

import keyword
import re
import unicodedata

# Names a generated module imports or uses in annotations: a class or field with such a name would shadow them.
MODULE_NAMES = frozenset(
    {
        "Annotated", "Any", "AwareDatetime", "BaseModel", "ConfigDict", "Discriminator", "Field",
        "Literal", "MISSING", "MCPModel", "Optional", "RootModel", "SerializeAsAny", "Tag", "TypeAdapter",
        "TypeAliasType", "Union", "structural",
    }
)  # fmt: skip
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
    if keyword.iskeyword(stem) or stem in MODULE_NAMES or stem in BUILTIN_TYPE_NAMES:
        return stem + "Model"
    return stem


def variant_letter(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (names must not end in a digit)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = _LETTERS[rest] + letters
    return letters


def field_name(wire: str, style: str = "snake") -> str:
    """The attribute name of a wire property name: snake_case, or with style "wire" the wire name
    itself wherever it is a usable attribute name."""
    if style == "wire" and wire.isidentifier() and wire.isascii() and not wire.startswith("_") and not _reserved(wire):
        return wire
    words = ascii_words(wire)
    name = _UNDERSCORES.sub("_", "_".join(w.lower() for w in words)).strip("_")
    if not name:
        name = "field"
    if name[0].isdigit():
        name = "field_" + name
    if name.startswith(("model_validate", "model_dump")):  # pydantic's protected namespaces
        return "field_" + name
    if _reserved(name):
        name += "_"
    return name


def is_import_path(text: str) -> bool:
    """Whether text is a dotted Python import path (`acme._mcp`): ASCII identifiers, no keywords.
    Values of settings and flags reach generated source only when they pass this."""
    parts = text.split(".")
    return all(p.isascii() and p.isidentifier() and not keyword.iskeyword(p) for p in parts)


def _reserved(name: str) -> bool:
    return (
        keyword.iskeyword(name)
        or name in BASEMODEL_ATTRIBUTES
        or name in BUILTIN_TYPE_NAMES
        or name in MODULE_NAMES
        or name.startswith(("model_validate", "model_dump"))  # pydantic's protected namespaces
    )
