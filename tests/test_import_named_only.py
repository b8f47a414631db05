"""Import builds nothing the caller did not name (issue 23, point 4).

In a fresh interpreter per package (the suite's own imports would hide what an import loads):
- `from <package> import CallToolRequest` loads the models module and what it stands on (its
  _base and the runtime's base machinery), not messages, narrowing, forms, ...; it builds no validator and generates no core schema;
- making the models module evaluates at most each class's own annotations, nothing of its bases
  (pydantic evaluates every base's annotations again for each class it makes: two `ClassVar`
  strings on the base class once cost a quarter of the import);
- the first `parse_message` of a tools/call request builds the class it returns and the envelope it
  is checked against, and generates no more core schemas than building exactly those classes does
  in another fresh interpreter (a module-level TypeAdapter or parametrised generic would); it does
  not make what only a tolerant parse gives (`Tolerated`, `DroppedItem`), which naming makes.
The surface is probed alike: its parse goes through the revision package it names.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import GENERATED, REVISIONS, SPEC

CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {}}}

# Counts core schemas generated and the annotations pydantic evaluates, from here on.
COUNTERS = r"""
import json, sys
sys.path.insert(0, {generated!r})
from pydantic._internal import _generate_schema, _typing_extra

counts = {{"schemas": 0, "evaluated": 0}}
_generate = _generate_schema.GenerateSchema.generate_schema
_evaluate = _typing_extra.try_eval_type

def generate_schema(self, obj, *args, **kwargs):
    counts["schemas"] += 1
    return _generate(self, obj, *args, **kwargs)

def try_eval_type(*args, **kwargs):
    counts["evaluated"] += 1
    return _evaluate(*args, **kwargs)

_generate_schema.GenerateSchema.generate_schema = generate_schema
_typing_extra.try_eval_type = try_eval_type

def built():
    found = set()
    for name, module in list(sys.modules.items()):
        if name.startswith("mcp_models."):
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == name and value.__dict__.get("__pydantic_complete__"):
                    found.add(f"{{name}}.{{value.__qualname__}}")
    return sorted(found)
"""

PROBE = COUNTERS + r"""
import importlib
package = importlib.import_module("mcp_models.{package}")
from mcp_models.{package} import CallToolRequest
models = sys.modules["mcp_models.{package}.models"]
classes = [v for v in vars(models).values() if isinstance(v, type) and v.__module__ == models.__name__ and hasattr(v, "model_fields")]
named = {{
    "modules": sorted(m for m in sys.modules if m.startswith("mcp_models.")),
    "built": built(),
    "schemas": counts["schemas"],
    "evaluated": counts["evaluated"],
    "own_annotations": sum(len(vars(cls).get("__annotations__", {{}})) for cls in classes),
    "defer": importlib.import_module("mcp_models.{package}._base")._DEFER_BUILD,
}}
counts["schemas"] = 0
{parse}
after = {{"built": built(), "schemas": counts["schemas"]}}
tolerant = "mcp_models._runtime.tolerant"  # the output root's shared runtime
after["tolerant_after_parse"] = tolerant in sys.modules
after["tolerant_when_named"] = getattr(package, "Tolerated").__module__ == tolerant and tolerant in sys.modules

def needed(cls, messages):  # the class a parse returns and the envelope it is checked against
    envelope = messages._routes.envelope_of.get(cls)
    return [f"{{c.__module__}}.{{c.__qualname__}}" for c in (cls, envelope) if c is not None]

revision = importlib.import_module("mcp_models.{revision_package}")
allowed = needed(type(parsed), importlib.import_module(f"{{type(parsed).__module__.rpartition('.')[0]}}.messages"))
allowed += needed(type(revision.parse_message({raw!r})), revision.messages)  # what the surface reads through
print(json.dumps({{"named": named, "parsed": type(parsed).__name__, "allowed": allowed, **after}}))
"""

PARSE = {
    "revision": "from mcp_models.{package} import parse_message\nparsed = parse_message({raw!r})",
    "surface": "parsed = package.parse_message({raw!r}, protocol_version={revision!r})",
}

# Builds exactly the given classes: what the parse may cost at most.
REFERENCE = COUNTERS + r"""
import importlib
for qualified in {classes!r}:
    module, _, name = qualified.rpartition(".")
    getattr(importlib.import_module(module), name).model_rebuild()
print(json.dumps({{"built": built(), "schemas": counts["schemas"]}}))
"""


def _request(revision: str) -> bytes:
    example = SPEC / revision / "examples" / "CallToolRequest" / "call-tool-request.json"
    return example.read_bytes() if example.is_file() else json.dumps(CALL).encode()


def _run(code: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


CASES = [(revision, package, "revision") for revision, package in REVISIONS.items()]
CASES.append(("2026-07-28", "surface", "surface"))


@pytest.mark.parametrize(("revision", "package", "kind"), CASES, ids=[case[1] for case in CASES])
def test_a_name_loads_and_builds_only_what_it_names(revision: str, package: str, kind: str) -> None:
    parse = PARSE[kind].format(package=package, raw=_request(revision), revision=revision)
    code = PROBE.format(
        generated=str(GENERATED), package=package, parse=parse, revision_package=REVISIONS[revision], raw=_request(revision)
    )
    result = _run(code)
    named = result["named"]
    assert isinstance(named, dict)
    prefix = f"mcp_models.{package}"
    stands_on = [f"{prefix}{suffix}" for suffix in ("", "._base", "._structural", ".models")]
    stands_on += [f"mcp_models._runtime{suffix}" for suffix in ("", ".base", ".lazy", ".structural")]  # base, names on use, rules
    assert named["modules"] == sorted(stands_on)
    if not named["defer"]:
        pytest.skip("pydantic < 2.14 builds every model when it is defined")
    assert named["evaluated"] <= named["own_annotations"], "annotations evaluated beyond the classes' own"
    assert named["built"] == [] and named["schemas"] == 0, named

    built, allowed = result["built"], result["allowed"]
    assert isinstance(built, list) and isinstance(allowed, list)
    assert str(result["parsed"]).startswith("CallToolRequest"), result["parsed"]
    assert set(built) <= set(allowed), f"built beyond the class parsed and its envelope: {sorted(set(built) - set(allowed))}"
    reference = _run(REFERENCE.format(generated=str(GENERATED), classes=built))
    assert reference["built"] == built
    schemas, at_most = result["schemas"], reference["schemas"]
    assert isinstance(schemas, int) and isinstance(at_most, int)
    assert schemas <= at_most, f"the first parse generated {schemas} core schemas; building what it returns takes {at_most}"
    # what only a tolerant parse gives is made when named, not by a strict parse (the surface's
    # reader names it when it loads)
    assert result["tolerant_when_named"] is True
    if kind == "revision":
        assert result["tolerant_after_parse"] is False
