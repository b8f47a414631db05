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
