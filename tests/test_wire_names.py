"""Wire names live in each model class's config (`wire_names`), not in a `Field(alias=...)` per field.

Checked here: every field of every generated model class reads and writes exactly the wire name
the analysis gave it (and a field whose two names agree has no alias at all), a subclass keeps
them, and a subclass whose own alias generator would rename them is refused when it is made.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import pytest
from pydantic import AliasGenerator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from codegen.analysis import ir
from codegen.emit import pipeline
from codegen.limits import DEFAULT_LIMITS
from codegen.schema import spec

from .conftest import REVISIONS


@cache
def _analysed(revision: str) -> ir.Revision:
    pin = next(p for p in spec.select(None) if p.revision == revision)
    data = spec.fetch(pin, spec.resolve_source(None)).data
    return pipeline.analyse(pin.revision, pin.package, data, pin.sha256, limits=DEFAULT_LIMITS).model


@pytest.mark.parametrize("revision", sorted(REVISIONS))
def test_every_field_reads_and_writes_its_wire_name(revision: str) -> None:
    models = importlib.import_module(f"mcp_models.{REVISIONS[revision]}.models")
    checked = renamed = 0
    for entity in _analysed(revision).entities:
        if entity.kind is not ir.Kind.MODEL:
            continue
        cls = getattr(models, entity.name)
        assert issubclass(cls, BaseModel)
        for field in entity.fields:
            info = cls.model_fields[field.python_name]
            if field.python_name == field.wire_name:
                assert info.alias is None, (entity.name, field.python_name, info.alias)
            else:
                assert info.alias == field.wire_name, (entity.name, field.python_name, info.alias)
                renamed += 1
            checked += 1
    assert checked > 100 and renamed > 10, (checked, renamed)


def _models(revision: str = "2026-07-28") -> Any:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}.models")


def test_a_renamed_field_is_read_and_written_under_its_wire_name_only() -> None:
    completion = _models().CompleteResultCompletion
    read = completion.model_validate_json(b'{"hasMore": true, "values": ["a"]}')
    assert read.has_more is True
    assert read.model_dump(mode="json") == {"hasMore": True, "values": ["a"]}
    # the attribute name on the wire is an unknown key, kept as such (reading is by wire name)
    other = completion.model_validate_json(b'{"has_more": true, "values": []}')
    assert other.model_extra == {"has_more": True}
    # building takes the attribute name (or the wire name)
    assert completion(has_more=False, values=[]).model_dump(mode="json") == {"hasMore": False, "values": []}
    assert completion(hasMore=False, values=[]).model_dump(mode="json") == {"hasMore": False, "values": []}


def test_a_subclass_keeps_the_wire_names_and_its_own_fields_have_none() -> None:
    meta = _models().ResultMetaObject

    class Traced(meta):  # type: ignore[misc, valid-type]
        trace_id: str = "t"

    assert Traced.model_fields["io_modelcontextprotocol_server_info"].alias == "io.modelcontextprotocol/serverInfo"
    assert Traced.model_fields["trace_id"].alias is None
    dumped = Traced(io_modelcontextprotocol_server_info={"name": "s", "version": "1"}).model_dump(mode="json")
    assert dumped == {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}, "trace_id": "t"}


def test_a_subclass_alias_generator_that_renames_a_wire_name_is_refused() -> None:
    meta = _models().ResultMetaObject
    with pytest.raises(TypeError, match=r"io_modelcontextprotocol_server_info.*Field\(alias=\.\.\.\)"):

        class Camel(meta):  # type: ignore[misc, valid-type]
            model_config = ConfigDict(alias_generator=to_camel)

    # a generator on a class that renames nothing, or one that keeps every wire name, may stay
    class Camel2(_models().BooleanSchema):  # type: ignore[misc, valid-type]
        model_config = ConfigDict(alias_generator=to_camel)
        extra_note: str = "x"

    assert Camel2.model_fields["extra_note"].alias == "extraNote"

    class Noted(_models().Implementation):  # type: ignore[misc, valid-type]
        model_config = ConfigDict(
            alias_generator=AliasGenerator(alias=lambda n: {"website_url": "websiteUrl", "extra_note": "NOTE"}.get(n))
        )
        extra_note: str = Field(default="x")

    assert Noted.model_fields["extra_note"].alias == "NOTE"
    assert Noted.model_fields["website_url"].alias == "websiteUrl"


def test_a_class_of_two_generated_bases_keeps_both_bases_wire_names() -> None:
    models = _models("2025-06-18")

    class Both(models.CompleteResultCompletion, models.Resource):  # type: ignore[misc, valid-type]
        pass

    assert Both.model_fields["has_more"].alias == "hasMore"
    assert Both.model_fields["mime_type"].alias == "mimeType"
    dumped = Both(values=[], has_more=True, name="n", uri="u", mime_type="text/plain").model_dump(mode="json")
    assert dumped["hasMore"] is True and dumped["mimeType"] == "text/plain"
    assert "has_more" not in dumped and "mime_type" not in dumped
    read = Both.model_validate_json(b'{"values": [], "hasMore": true, "name": "n", "uri": "u"}')
    assert read.has_more is True and not read.model_extra

    with pytest.raises(TypeError, match="meta"):

        class Camel(models.CompleteResultCompletion, models.Resource):  # type: ignore[misc, valid-type]
            model_config = ConfigDict(alias_generator=to_camel)


def test_a_field_given_its_own_alias_may_leave_the_wire_name() -> None:
    class Renamed(_models().CompleteResultCompletion):  # type: ignore[misc, valid-type]
        model_config = ConfigDict(alias_generator=to_camel)
        has_more: bool = Field(default=True, alias="more")

    assert Renamed.model_fields["has_more"].alias == "more"
    assert Renamed.model_validate({"more": False, "values": []}).has_more is False


def _generated(tmp_path: Any, schema: dict[str, Any]) -> Any:
    """The models module generated from a one-off schema, imported under a name of its own."""
    import json
    import sys

    from codegen import generate_schema

    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    name = f"wire_case_{abs(hash(json.dumps(schema, sort_keys=True))) % 10**8}"
    generate_schema(path, out=tmp_path / name, name=name)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(f"{name}.models")
    finally:
        sys.path.remove(str(tmp_path))


def test_wire_names_and_constants_past_the_basic_plane_stay_exact(tmp_path: Any) -> None:
    models = _generated(
        tmp_path,
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {
                "Tagged": {
                    "type": "object",
                    "properties": {"label🏷": {"type": "string"}, "kind": {"const": "tag🏷"}},
                    "required": ["kind"],
                }
            },
        },
    )
    tagged = models.Tagged
    assert tagged.model_fields["label"].alias == "label🏷"
    assert tagged(label="x").model_dump(mode="json") == {"label🏷": "x", "kind": "tag🏷"}
    assert tagged.model_validate_json('{"label🏷": "y", "kind": "tag🏷"}'.encode()).label == "y"


def test_a_required_key_that_is_no_property_requires_nothing_renamed(tmp_path: Any) -> None:
    models = _generated(
        tmp_path,
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {"Shadow": {"type": "object", "properties": {"mimeType": {"type": "string"}}, "required": ["mime_type"]}},
        },
    )
    shadow = models.Shadow
    assert not shadow.model_fields["mime_type"].is_required()
    assert shadow.model_validate_json(b'{"mime_type": "x"}').model_extra == {"mime_type": "x"}
