"""Naming rules as tested tables: field escaping, class stems, hoisted-object names."""

from __future__ import annotations

import keyword

import pytest
from pydantic import BaseModel

from codegen.analysis import naming
@pytest.mark.parametrize(
    ("wire", "python"),
    [
        ("inputSchema", "input_schema"),
        ("_meta", "meta"),
        ("$schema", "schema_"),  # BaseModel.schema
        ("mimeType", "mime_type"),
        ("isError", "is_error"),
        ("URLElicitation", "url_elicitation"),
        ("class", "class_"),
        ("from", "from_"),
        ("type", "type"),  # a soft keyword is a fine attribute name
        ("model_config", "model_config_"),
        ("model_dump", "field_model_dump"),  # a `model_dump…` attribute would trip pydantic's namespace guard
        ("model_validate_thing", "field_model_validate_thing"),
        ("modelPreferences", "model_preferences"),  # not a protected pydantic namespace
        ("json", "json_"),
        ("copy", "copy_"),
        ("dict", "dict_"),
        ("str", "str_"),
        ("x-mcp-header", "x_mcp_header"),
        ("io.modelcontextprotocol/related-task", "io_modelcontextprotocol_related_task"),
        ("2fa", "field_2fa"),
        ("", "field"),
        ("__dunder__", "dunder"),
        ("ünïcode", "unicode"),
        ("日本", "field"),
        ("MISSING", "missing"),
    ],
)
def test_field_names(wire: str, python: str) -> None:
    assert naming.field_name(wire) == python


def test_field_names_never_shadow_basemodel_or_keywords() -> None:
    reserved = {n for n in dir(BaseModel) if not n.startswith("_")}
    for name in sorted(reserved | set(keyword.kwlist)):
        escaped = naming.field_name(name)
        assert escaped not in reserved and not keyword.iskeyword(escaped), name
        assert escaped.isidentifier()


@pytest.mark.parametrize(
    ("definition", "cls"),
    [
        ("CallToolRequest", "CallToolRequest"),
        ("Annotated", "AnnotatedModel"),  # 2024-11-05 has a definition named Annotated
        ("Field", "FieldModel"),
        ("str", "Str"),  # CapWords, as the engine would spell it
        ("foo_bar", "FooBar"),
        ("class", "Class"),
        ("MCPModel", "MCPModelModel"),  # the base class of every model
        ("None", "NoneModel"),
        ("json-value", "JsonValueModel"),  # pydantic exports a JsonValue: the models module may import it
        ("9lives", "Definition9lives"),
    ],
)
def test_class_names(definition: str, cls: str) -> None:
    assert naming.class_name(naming.base_name(definition)) == cls


def test_variant_letters_never_end_in_a_digit() -> None:
    assert [naming.variant_letter(i) for i in (0, 1, 25, 26, 27, 701, 702)] == ["A", "B", "Z", "AA", "AB", "ZZ", "AAA"]
