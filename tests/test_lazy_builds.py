"""Nothing is built that the caller did not name (issue 23).

Importing a revision package and naming `CallToolRequest, parse_message` builds no validator and
generates no core schema (the models defer their builds; messages.py parametrises ResultResponse
only when a response class is first needed: pydantic rebuilds a generic class, validators of every
result of the revision, the first time it is parametrised). The first typed parse of a tools/call
request then builds the class it returns (and the envelope a wire class is checked against) only.
Each revision is probed in a fresh interpreter.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from .conftest import GENERATED, REVISIONS, SPEC

CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {}}}

PROBE = r"""
import json, sys
sys.path.insert(0, {generated!r})
from pydantic import BaseModel
from pydantic._internal import _generate_schema

generated = [0]
original = _generate_schema.GenerateSchema.generate_schema

def counting(self, obj, *args, **kwargs):
    generated[0] += 1
    return original(self, obj, *args, **kwargs)

_generate_schema.GenerateSchema.generate_schema = counting

from mcp_models.{package} import CallToolRequest, parse_message
from mcp_models.{package} import _base, messages

def built():
    found, pending = [], [_base.MCPModel]
    while pending:  # every model class of the package, parametrised ones included
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("mcp_models.{package}.") and cls.__dict__.get("__pydantic_complete__"):
            found.append(cls.__name__)
    return sorted(found)

names = {{"built": built(), "schemas": generated[0], "defer": _base._DEFER_BUILD}}
parsed = parse_message({raw!r})
envelope = messages._routes.envelope_of.get(type(parsed))
needed = sorted({{type(parsed).__name__, CallToolRequest.__name__}} | ({{envelope.__name__}} if envelope else set()))
print(json.dumps({{"names": names, "parse": built(), "needed": needed}}))
"""


def _request(revision: str) -> bytes:
    """A tools/call request of the revision: its spec example where it has one."""
    example = SPEC / revision / "examples" / "CallToolRequest" / "call-tool-request.json"
    return example.read_bytes() if example.is_file() else json.dumps(CALL).encode()


def _probe(revision: str, package: str) -> dict[str, object]:
    code = PROBE.format(generated=str(GENERATED), package=package, raw=_request(revision))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(("revision", "package"), list(REVISIONS.items()))
def test_naming_two_names_builds_nothing_and_a_parse_builds_what_it_returns(revision: str, package: str) -> None:
    result = _probe(revision, package)
    names = result["names"]
    assert isinstance(names, dict)
    if not names["defer"]:
        pytest.skip("pydantic < 2.14 builds every model when it is defined")
    assert names["built"] == [] and names["schemas"] == 0, names
    parse = result["parse"]
    needed = result["needed"]
    assert isinstance(parse, list) and isinstance(needed, list)
    assert set(parse) <= set(needed), f"built beyond what the parse returns: {sorted(set(parse) - set(needed))}"


@pytest.mark.parametrize("package", list(REVISIONS.values()))
def test_response_classes_are_made_on_first_use_and_stay_the_same(package: str) -> None:
    messages = importlib.import_module(f"mcp_models.{package}.messages")
    responses = messages.RESPONSES
    assert type(responses) is dict and messages.RESPONSES is responses
    assert list(responses) == list(messages.RESULTS)  # every request method, in the same order
    for method, cls in responses.items():
        assert messages._routes.response_class(method) is cls
        if issubclass(cls, messages.ResultResponse):  # the documented parametrisation, the same class
            assert cls is messages.ResultResponse[messages.RESULTS[method]]
    typed = [cls for cls in responses.values() if issubclass(cls, messages.ResultResponse)]
    for cls in typed:  # what parse_message returns for them is a Message, at run time too
        assert isinstance(cls.model_construct(), messages.Message)
    if not typed:
        assert package in ("v2026_07_28", "draft") or responses == {}
