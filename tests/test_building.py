"""Building messages in Python: every spec example, taken apart into attributes and rebuilt by keyword.

For each example of every revision, the parsed model is rebuilt recursively from its attributes
(keywords by attribute name, constants left out, unknown keys passed as they were), and the rebuilt
model must dump to the same wire JSON: construction reaches every field of every definition the
examples use, under its Python name.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel, TypeAdapter
from pydantic_core import MISSING

from codegen import api
from codegen.checks import agreement
from codegen.schema import errata
from . import suite
from .conftest import GENERATED, REVISIONS, SPEC

PACKAGES = ("v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "v2026_07_28", "draft")


def _constant(model: type[BaseModel], name: str) -> bool:
    info = model.model_fields[name]
    return info.is_required() and get_origin(info.annotation) is Literal and len(get_args(info.annotation)) == 1


def rebuild(value: Any) -> Any:
    """The same value built again through keyword constructors, constants omitted."""
    if isinstance(value, BaseModel):
        model = type(value)
        keywords = {
            name: rebuild(getattr(value, name))
            for name in model.model_fields
            if getattr(value, name) is not MISSING and not _constant(model, name)
        }
        extras = {key: rebuild(item) for key, item in (value.__pydantic_extra__ or {}).items()}
        return model(**keywords, **extras)
    if isinstance(value, list):
        return [rebuild(item) for item in value]
    if isinstance(value, dict):
        return {key: rebuild(item) for key, item in value.items()}
    return value


def _examples(package: str) -> list[Any]:
    if not (GENERATED / "mcp_models" / package / "_examples.py").exists():
        return []
    module = importlib.import_module(f"mcp_models.{package}._examples")
    return [e for e in module.all_examples() if e.target is not None]


def _parse(revision: ModuleType, example: Any) -> Any:
    if example.target == "message":
        return revision.parse_message(example.value)
    if example.target.startswith("result of "):
        return revision.parse_result(example.target.removeprefix("result of "), example.value)
    return TypeAdapter(getattr(revision, example.target)).validate_python(example.value)


def _dump(value: Any) -> Any:
    return TypeAdapter(Any).dump_python(value, mode="json")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_example_rebuilt_by_keyword_gives_the_same_wire_json(package: str) -> None:
    revision = importlib.import_module(f"mcp_models.{package}")
    examples = _examples(package)
    rebuilt_count = 0
    for example in examples:
        try:
            parsed = _parse(revision, example)
        except ValueError:
            continue  # an example its own schema rejects (reported by tests/test_examples.py)
        if not isinstance(parsed, BaseModel | list | dict):
            continue
        rebuilt = rebuild(parsed)
        assert rebuilt is not parsed
        assert _dump(rebuilt) == _dump(parsed) == example.value, example.origin
        rebuilt_count += 1
    if package in ("v2025_11_25", "v2026_07_28", "draft"):
        assert rebuilt_count >= 30, rebuilt_count


def test_rebuilding_reaches_every_model_field_the_examples_use() -> None:
    """The rebuild walks the attributes: a field it skipped would dump differently (checked above).
    Here: the examples exercise many classes, so the rebuild is not a handful of cases."""
    seen: set[str] = set()

    def classes(value: Any) -> None:
        if isinstance(value, BaseModel):
            seen.add(f"{type(value).__module__}.{type(value).__name__}")
            for name in type(value).model_fields:
                classes(getattr(value, name))
        elif isinstance(value, list | tuple):
            for item in value:
                classes(item)
        elif isinstance(value, dict):
            for item in value.values():
                classes(item)

    for package in PACKAGES:
        revision = importlib.import_module(f"mcp_models.{package}")
        for example in _examples(package):
            try:
                classes(_parse(revision, example))
            except ValueError:
                continue
    assert len(seen) >= 150, len(seen)


def test_the_reported_bad_case_is_mended() -> None:
    from mcp_models.v2025_11_25 import CallToolResult, TextContent

    result = CallToolResult(content=[TextContent(text="x")], is_error=True)
    assert result.is_error is True
    wire = result.model_dump(mode="json")
    assert wire == {"content": [{"type": "text", "text": "x"}], "isError": True}
    assert json.loads(result.model_dump_json()) == wire


def test_constants_are_filled_in_when_building_and_required_when_reading() -> None:
    from mcp_models.v2025_11_25 import CallToolRequest, CallToolRequestParams

    request = CallToolRequest(id=1, params=CallToolRequestParams(name="t"))
    assert request.model_dump(mode="json") == {
        "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"},
    }  # fmt: skip
    with pytest.raises(ValueError, match="jsonrpc"):
        CallToolRequest.model_validate_json(b'{"id": 1, "method": "tools/call", "params": {"name": "t"}}')
    with pytest.raises(ValueError, match="method"):
        CallToolRequest.model_validate({"jsonrpc": "2.0", "id": 1, "params": {"name": "t"}})
    with pytest.raises(ValueError, match="literal_error|Input should be 'tools/call'"):
        CallToolRequest(id=1, method="tools/list", params=CallToolRequestParams(name="t"))


def test_a_keyword_under_its_wire_name_lands_in_the_field_and_both_names_is_an_error() -> None:
    from mcp_models.v2025_11_25 import CallToolResult

    by_wire = CallToolResult(content=[], **{"isError": True})
    assert by_wire.is_error is True and not by_wire.__pydantic_extra__
    with pytest.raises(TypeError, match="is_error"):
        CallToolResult(content=[], is_error=True, **{"isError": False})


def test_reading_stays_by_wire_name_only() -> None:
    from mcp_models.v2025_11_25 import CallToolResult

    read = CallToolResult.model_validate_json(b'{"content": [], "is_error": true, "structured_content": 1}')
    assert read.is_error is MISSING and read.structured_content is MISSING
    assert read.__pydantic_extra__ == {"is_error": True, "structured_content": 1}
    assert read.model_dump(mode="json") == {"content": [], "is_error": True, "structured_content": 1}


def test_namespaced_meta_keys_are_built_by_attribute_name() -> None:
    from mcp_models.v2026_07_28 import (
        CallToolRequest, CallToolRequestParams, ClientCapabilities, Implementation, RequestMetaObject,
    )  # fmt: skip

    meta = RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=ClientCapabilities(),
        io_modelcontextprotocol_client_info=Implementation(name="c", version="1"),
    )
    request = CallToolRequest(id=3, params=CallToolRequestParams(name="t", meta=meta))
    assert request.model_dump(mode="json")["params"]["_meta"] == {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
    }
    assert CallToolRequest.model_validate_json(request.model_dump_json()) == request


def test_open_objects_without_declared_keys_take_plain_dicts() -> None:
    from mcp_models.v2025_11_25 import ClientCapabilities, Tool, ToolInputSchema

    tool = Tool(name="t", input_schema=ToolInputSchema(properties={"city": {"type": "string"}}))
    assert tool.model_dump(mode="json") == {
        "name": "t", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }  # fmt: skip
    caps = ClientCapabilities(sampling={"context": {}}, experimental={"acme/x": {"on": True}})
    assert caps.model_dump(mode="json") == {"sampling": {"context": {}}, "experimental": {"acme/x": {"on": True}}}


@pytest.mark.parametrize("package", PACKAGES)
def test_result_responses_carry_any_result_with_all_its_fields(package: str) -> None:
    revision = importlib.import_module(f"mcp_models.{package}")
    required = {"result_type": "complete", "ttl_ms": 0, "cache_scope": "public"}  # 2026-07-28 on
    more = {k: v for k, v in required.items() if k in revision.ListToolsResult.model_fields}
    result = revision.ListToolsResult(tools=[revision.Tool(name="t", input_schema=revision.ToolInputSchema())], **more)
    response = revision.ResultResponse(id=9, result=result)
    wire = response.model_dump(mode="json")
    assert wire["result"]["tools"] == [{"name": "t", "inputSchema": {"type": "object"}}]
    typed = revision.ResultResponse[revision.ListToolsResult].model_validate_json(response.model_dump_json())
    assert type(typed.result) is revision.ListToolsResult and typed.model_dump(mode="json") == wire


def test_tool_inputs_are_built_by_keyword(tmp_path: Path) -> None:
    tools = [
        {
            "name": "forecast",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "cityName": {"type": "string"},
                    "days": {"type": "integer"},
                    "units": {"const": "metric"},
                    "options": {"type": "object"},
                },
                "required": ["cityName", "units"],
            },
        }
    ]
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": tools}))
    api.generate_tools(out=tmp_path / "weather_tools", tools_file=listing, models_package="mcp_models.v2025_11_25")
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("weather_tools")
        arguments = module.ForecastInput(city_name="Oslo", days=3, options={"hourly": True})
        assert arguments.model_dump(mode="json") == {
            "cityName": "Oslo", "days": 3, "units": "metric", "options": {"hourly": True},
        }  # fmt: skip
        with pytest.raises(ValueError, match="units"):
            module.ForecastInput.model_validate({"cityName": "Oslo"})
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "weather_tools" or m.startswith("weather_tools.")]:
            del sys.modules[name]


REBUILD_PER_DEFINITION = suite.examples(6)


@pytest.mark.slow
@pytest.mark.parametrize("revision", list(REVISIONS))
def test_every_definition_rebuilt_by_keyword_from_drawn_instances(revision: str) -> None:
    """Instances drawn from each definition's schema (the agreement strategies), read, taken apart
    and rebuilt by keyword, dump to the same wire JSON: construction reaches every definition, also
    in the revisions that publish no examples (2024-11-05, 2025-03-26)."""
    import jsonschema
    from hypothesis import HealthCheck, given, settings

    document = errata.apply_errata(json.loads((SPEC / revision / "schema.json").read_text()), errata.load_errata(revision), revision)
    defs = "$defs" if "$defs" in document else "definitions"
    package = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
    validator_class = jsonschema.validators.validator_for(document)
    rebuilt = definitions = 0
    for name in sorted(document[defs]):
        schema = {"$ref": f"#/{defs}/{name}"}
        validator = validator_class({**document, **schema})
        adapter: TypeAdapter[Any] = TypeAdapter(getattr(package, name))
        drawn: list[Any] = []

        @settings(max_examples=REBUILD_PER_DEFINITION,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(agreement.strategy(document, schema))
        def collect(value: Any) -> None:
            drawn.append(value)

        collect()
        for value in drawn:
            if not validator.is_valid(value):
                continue
            parsed = adapter.validate_python(value)
            again = rebuild(parsed)
            assert adapter.dump_python(again, mode="json") == adapter.dump_python(parsed, mode="json") == value, name
            rebuilt += 1
        definitions += 1
    assert rebuilt >= definitions * 4, (rebuilt, definitions)
