"""Property-based fuzzing of loader -> analysis -> rendering (hypothesis), in process.

Two sources of input: random JSON Schemas (a strategy over the keywords the generator reads, with
wrong-typed values mixed in), and random mutations (remove, replace, add, retarget a `$ref`, graft
a subtree elsewhere) of small pieces of the real MCP schemas: one definition and the definitions it
references. For every input, generation must either succeed or raise CodegenError (one-line
diagnostics); any other exception is a bug. A success must be deterministic (generated twice,
byte-identical) and must work: the package imports and every model and alias builds its validator.

CI runs a fixed budget with a fixed seed. Maintainers run longer, random searches (ten times the
examples, a new seed each run, printed with any failure):

    .venv/bin/pytest -p no:cacheprovider tests/test_fuzz.py --long

Each test asserts on its own outcomes (the summary line each prints is a report, not a test), so
they pass alone, in any order and on any xdist worker. A failure prints the input; add it to
tests/cases/bad_input/.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen.emit import pipeline
from codegen.schema import pointers, schemas
from codegen.errors import CodegenError
from codegen.limits import DEFAULT_LIMITS

from . import suite
from .conftest import SPEC

pytestmark = pytest.mark.slow
EXAMPLES = suite.examples(150)

OUTCOMES: Counter[str] = Counter()  # the outcomes of the test running now (see _outcomes)


def _settings(test: Any) -> Any:
    return settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))(test)


@contextmanager
def _outcomes(name: str) -> Iterator[Counter[str]]:
    """The outcomes one test's examples add up to, printed as its summary line."""
    OUTCOMES.clear()
    SLOWEST.clear()
    mine: Counter[str] = Counter()
    yield mine
    mine.update(OUTCOMES)
    print(f"\nfuzz {name}: {sum(mine.values())} cases: " + ", ".join(f"{k} {v}" for k, v in sorted(mine.items())))
    if SLOWEST:
        print(f"fuzz {name}: slowest CPU s: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(SLOWEST.items())))


# -- random schemas -------------------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "Item", "class", "model_dump", "__init__", "x-y", "ünï", "", "$ref", "A B", "1st"])
DEF_NAMES = ["A", "B", "C"]
OBJECT_SCHEMA = {"type": "object"}
JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.text(max_size=4)
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
TYPES = st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null"])


def _schema(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    keywords: dict[str, st.SearchStrategy[Any]] = {
        "type": TYPES | st.lists(TYPES, min_size=1, max_size=3) | JSON,
        "properties": st.dictionaries(NAMES, children, max_size=3),
        "required": st.lists(NAMES, max_size=2) | JSON,
        "additionalProperties": st.booleans() | children,
        "items": children | st.lists(children, max_size=2),
        "prefixItems": st.lists(children, min_size=1, max_size=2),
        "anyOf": st.lists(children, min_size=1, max_size=3),
        "oneOf": st.lists(children, min_size=1, max_size=3),
        "allOf": st.lists(children, min_size=1, max_size=2),
        "not": children,
        "enum": st.lists(JSON_SCALARS, max_size=4) | JSON,
        "const": JSON,
        "$ref": st.sampled_from(
            [f"#/$defs/{n}" for n in DEF_NAMES] + ["#", "#/$defs", "#/$defs/Nope", "http://x.test/s"]
        ),
        "description": st.text(max_size=10) | JSON,
        "title": st.text(max_size=6),
        "format": st.sampled_from(["uri", "date-time", "byte", "email"]),
        "pattern": st.sampled_from(["^a", "[0-9]+", "(", "^(?!x)", "\\d{2,}", "\\w{190}N", "a{99999999999}", "\\p{L}+"]),
        "minLength": st.integers(-1, 3),
        "maximum": st.integers(-5, 5) | st.floats(-1, 1, width=16),
        "minItems": st.integers(0, 2),
        "default": JSON,
        "$anchor": st.sampled_from(["here", "there"]),
        "x-python-type": st.sampled_from(["os.PathLike", "__import__('os')"]),
        "customTypePath": st.just("subprocess.Popen"),
    }
    return st.dictionaries(st.sampled_from(sorted(keywords)), st.none(), max_size=4).flatmap(
        lambda chosen: st.fixed_dictionaries({k: keywords[k] for k in chosen})
    )


SCHEMA = st.recursive(st.booleans() | _schema(st.builds(dict)), _schema, max_leaves=8)
DOCUMENT = st.dictionaries(st.sampled_from(DEF_NAMES), SCHEMA, min_size=1, max_size=3).map(lambda defs: {"$defs": defs})


@_settings
@given(document=DOCUMENT)
def _random_schemas_property(document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> None:
    _check(document, tmp_path_factory)

def test_random_schemas(tmp_path_factory: pytest.TempPathFactory) -> None:
    with _outcomes("random_schemas") as outcomes:
        _random_schemas_property(tmp_path_factory=tmp_path_factory)
    assert outcomes["ok"] > 0 and sum(outcomes.values()) > outcomes["ok"], outcomes


def _shared(levels: int, shapes: list[str], patterns_: list[str], width: int) -> dict[str, Any]:
    """A chain of definitions, each using the next one twice or more (through allOf, anyOf, oneOf,
    properties, items, patternProperties): 2**levels paths over `levels` definitions."""

    def ref(i: int) -> dict[str, str]:
        return {"$ref": f"#/$defs/S{i}"}

    def level(i: int) -> dict[str, Any]:
        shape = shapes[i % len(shapes)]
        own = {f"p{i}_{j}": {"type": "string", "pattern": patterns_[(i + j) % len(patterns_)]} for j in range(width)}
        if shape == "allOf":
            return {"allOf": [ref(i + 1), ref(i + 1)], "properties": own}
        if shape in ("anyOf", "oneOf"):
            return {shape: [ref(i + 1), {"type": "array", "items": ref(i + 1)}]}
        if shape == "items":
            return {"type": "array", "items": {"anyOf": [ref(i + 1), {"type": "array", "items": ref(i + 1)}]}}
        if shape == "patternProperties":
            return {"type": "object", "patternProperties": {"^a": ref(i + 1), "^b": ref(i + 1)}}
        return {"type": "object", "properties": {"a": ref(i + 1), "b": ref(i + 1), **own}}

    defs = {f"S{i}": level(i) for i in range(levels)}
    defs[f"S{levels}"] = {"type": "object", "properties": {"leaf": {"type": "string"}}}
    return {"$defs": defs}


SHARED = st.builds(
    _shared,
    st.integers(1, 30),
    st.lists(st.sampled_from(["allOf", "anyOf", "oneOf", "items", "properties", "patternProperties"]), min_size=1, max_size=4),
    st.lists(st.sampled_from(["^a", "[0-9]{2,4}", "\\w{3}", "\\w{60}", "\\w{190}N", "(?i)x+", "\\p{Greek}"]), min_size=1, max_size=3),
    st.integers(0, 40),
)


@_settings
@given(document=SHARED)
def _schemas_sharing_parts_and_patterns_property(document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> None:
    """Diamonds of references with patterns: either generated or refused, at a cost bounded by size."""
    started = time.process_time()
    _check(document, tmp_path_factory)
    _slowest("shared", time.process_time() - started)

def test_schemas_sharing_parts_and_patterns(tmp_path_factory: pytest.TempPathFactory) -> None:
    with _outcomes("schemas_sharing_parts_and_patterns") as outcomes:
        _schemas_sharing_parts_and_patterns_property(tmp_path_factory=tmp_path_factory)
    assert outcomes["ok"] > 0, outcomes


@_settings
@given(document=SHARED, value=JSON)
def _check_output_on_shared_parts_property(document: dict[str, Any], value: Any) -> None:
    from codegen.checks.outputschema import check_output

    started = time.process_time()
    try:
        check_output({**document, "$ref": "#/$defs/S0"}, value, budget_seconds=0.5)
        OUTCOMES["check_output shared ok"] += 1
    except CodegenError as exc:
        OUTCOMES[f"check_output shared refused {exc.diagnostics[0].code}"] += 1
    _slowest("check_output shared", time.process_time() - started)

def test_check_output_on_shared_parts() -> None:
    with _outcomes("check_output_on_shared_parts") as outcomes:
        _check_output_on_shared_parts_property()
    assert outcomes["check_output shared ok"] > 0, outcomes


@_settings
@given(value=JSON | st.floats() | st.lists(st.floats(), max_size=3), text=st.text(max_size=12) | st.sampled_from(["[NaN]", "Infinity", "{\"a\": -Infinity}"]))
def _narrow_on_random_content_property(value: Any, text: str) -> None:
    """narrow never returns a float JSON cannot carry, and fails only with NarrowingError."""
    import math

    from mcp_models.v2026_07_28 import CallToolResult
    from mcp_models.v2026_07_28.narrowing import NarrowingError, narrow

    for result in (
        CallToolResult.model_validate({"resultType": "complete", "content": [], "structuredContent": value}),
        CallToolResult.model_validate({"resultType": "complete", "content": [{"type": "text", "text": text}]}),
    ):
        try:
            narrowed = narrow(result, Any)  # type: ignore[arg-type]
        except NarrowingError:
            OUTCOMES["narrow refused"] += 1
            continue
        stack = [narrowed]
        while stack:
            item = stack.pop()
            assert not (isinstance(item, float) and not math.isfinite(item)), narrowed
            stack.extend(item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
        OUTCOMES["narrow ok"] += 1

def test_narrow_on_random_content() -> None:
    with _outcomes("narrow_on_random_content") as outcomes:
        _narrow_on_random_content_property()
    assert outcomes["narrow ok"] > 0 and outcomes["narrow refused"] > 0, outcomes


SLOWEST: dict[str, float] = {}


def _slowest(kind: str, seconds: float) -> None:
    SLOWEST[kind] = max(SLOWEST.get(kind, 0.0), seconds)


# -- mutations of the real MCP schemas -----------------------------------------------------------


def _real_definitions() -> dict[str, dict[str, Any]]:
    found = {}
    for path in sorted(SPEC.glob("*/schema.json")):
        document = json.loads(path.read_bytes())
        defs = document.get("$defs") or document.get("definitions") or {}
        legacy = "definitions" in document
        for name, schema in defs.items():
            found[f"{path.parent.name}:{name}"] = {"legacy": legacy, "defs": defs, "name": name}
    return found


REAL = _real_definitions()
MAX_PIECE = 6  # definitions in a piece: small enough to build in well under a second


def _piece(key: str) -> dict[str, Any]:
    """A definition and (breadth first, up to MAX_PIECE) those it references; references to the
    rest become `{}` so the piece stands alone."""
    entry = REAL[key]
    defs, prefix = entry["defs"], "#/definitions/" if entry["legacy"] else "#/$defs/"
    chosen = [entry["name"]]
    for name in chosen:
        for _, node in schemas.all_subschemas(defs[name]):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix) and len(chosen) < MAX_PIECE:
                target = ref[len(prefix) :]
                if target not in chosen and target in defs:
                    chosen.append(target)
    piece = {name: copy.deepcopy(defs[name]) for name in chosen}
    for schema in piece.values():
        for _, node in schemas.all_subschemas(schema):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix) and ref[len(prefix) :] not in piece:
                del node["$ref"]
    return {"definitions" if entry["legacy"] else "$defs": piece}


def _locations(document: Any) -> list[str]:
    """Every pointer below the root, schema or not."""
    found = []
    stack: list[tuple[str, Any]] = [("#", document)]
    while stack:
        pointer, node = stack.pop()
        if pointer != "#":
            found.append(pointer)
        if isinstance(node, dict):
            stack.extend((pointers.join(pointer, k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((pointers.join(pointer, i), v) for i, v in enumerate(node))
    return sorted(found)


def _parent(document: Any, pointer: str) -> tuple[Any, str | int]:
    tokens = pointers.split(pointer)
    parent = pointers.resolve(document, pointers.from_tokens(tokens[:-1]))
    return parent, int(tokens[-1]) if isinstance(parent, list) else tokens[-1]


KEYWORDS = st.sampled_from(["type", "properties", "required", "items", "anyOf", "oneOf", "allOf", "enum", "const",
                            "$ref", "additionalProperties", "description", "pattern", "minLength", "not", "$id",
                            "$dynamicRef", "discriminator", "default", "format", "x-extension", "x-python-type",
                            "x-python-import", "customTypePath", "nullable"])  # fmt: skip


def _mutate(document: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = _locations(document)
        if not places:
            break
        where = data.draw(st.sampled_from(places), label="at")
        parent, key = _parent(document, where)
        operation = data.draw(st.sampled_from(["remove", "replace", "add", "retarget", "graft"]), label="operation")
        if operation == "remove":
            del parent[key]
        elif operation == "replace":
            parent[key] = copy.deepcopy(data.draw(JSON | SCHEMA, label="value"))
        elif operation == "add":
            target = parent[key] if isinstance(parent[key], dict) else parent
            if isinstance(target, dict):
                target[data.draw(KEYWORDS, label="keyword")] = copy.deepcopy(data.draw(JSON | SCHEMA, label="value"))
        elif operation == "retarget":
            parent[key] = {
                "$ref": data.draw(st.sampled_from(["#", *(p for p in places if p.count("/") <= 4)]), label="ref")
            }
        else:  # graft: a copy of another subtree here (loops, repeats, misplaced parts)
            parent[key] = copy.deepcopy(pointers.resolve(document, data.draw(st.sampled_from(places), label="from")))
    return document


@_settings
@given(key=st.sampled_from(sorted(REAL)), data=st.data())
def _mutated_mcp_schemas_property(key: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    _check(_mutate(_piece(key), data), tmp_path_factory)

def test_mutated_mcp_schemas(tmp_path_factory: pytest.TempPathFactory) -> None:
    with _outcomes("mutated_mcp_schemas") as outcomes:
        _mutated_mcp_schemas_property(tmp_path_factory=tmp_path_factory)
    assert outcomes["ok"] > 0 and sum(outcomes.values()) > outcomes["ok"], outcomes


TOOL_NAMES = st.text(min_size=0, max_size=8) | st.sampled_from(
    ["get-sum", "get_sum", "GetSum", "class", "__init__", "ｇｅｔ"]
)
TOOL = st.fixed_dictionaries(
    {
        "name": st.one_of(TOOL_NAMES, TOOL_NAMES, TOOL_NAMES, JSON),
        "inputSchema": st.one_of(st.builds(lambda: dict(OBJECT_SCHEMA)), SCHEMA, SCHEMA, JSON),
    },
    optional={"outputSchema": SCHEMA | JSON, "description": st.text(max_size=8) | JSON},
)


WELL_FORMED_TOOL = st.fixed_dictionaries(
    {"name": TOOL_NAMES.filter(bool), "inputSchema": st.builds(lambda: dict(OBJECT_SCHEMA)) | _schema(SCHEMA)},
    optional={"outputSchema": SCHEMA},
)
TOOLS = st.one_of(
    st.lists(WELL_FORMED_TOOL, min_size=1, max_size=3, unique_by=lambda t: t["name"]),
    st.lists(WELL_FORMED_TOOL, min_size=1, max_size=3, unique_by=lambda t: t["name"]),
    st.lists(TOOL, max_size=4, unique_by=lambda t: json.dumps(t["name"])),
    JSON,
)


@_settings
@given(tools=TOOLS, wrapped=st.booleans())
def _random_tools_lists_property(tools: Any, wrapped: bool, tmp_path_factory: pytest.TempPathFactory) -> None:
    from codegen.tools import package as server_tools
    listing = {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}} if wrapped else {"tools": tools}
    data = json.dumps(listing).encode()

    def build() -> dict[str, str]:
        listed = server_tools.read_tools(data, DEFAULT_LIMITS)
        return server_tools.generate_tools_package(
            listed, models_package="mcp_models.v2026_07_28", limits=DEFAULT_LIMITS
        )

    started = time.process_time()
    try:
        files = build()
        _slowest("tools (one build)", time.process_time() - started)
    except CodegenError as exc:
        OUTCOMES[f"tools error {exc.diagnostics[0].code}"] += 1
        assert all("\n" not in d.one_line() for d in exc.diagnostics)
        return
    assert build() == files, "two generations of one tools/list differ"
    _load(files, tmp_path_factory, whole=True)
    OUTCOMES["tools ok"] += 1

def test_random_tools_lists(tmp_path_factory: pytest.TempPathFactory) -> None:
    with _outcomes("random_tools_lists") as outcomes:
        _random_tools_lists_property(tmp_path_factory=tmp_path_factory)
    assert outcomes["tools ok"] > 0 and sum(outcomes.values()) > outcomes["tools ok"], outcomes


@_settings
@given(schema=SCHEMA, value=JSON)
def _check_output_on_random_schemas_and_values_property(schema: Any, value: Any) -> None:
    from codegen.checks.outputschema import check_output

    try:
        problems = check_output(schema, value, budget_seconds=0.5)
    except CodegenError as exc:
        OUTCOMES[f"check_output refused {exc.diagnostics[0].code}"] += 1
        return
    assert all(isinstance(p.message, str) for p in problems)
    OUTCOMES["check_output " + ("problems" if problems else "valid")] += 1

def test_check_output_on_random_schemas_and_values() -> None:
    with _outcomes("check_output_on_random_schemas_and_values") as outcomes:
        _check_output_on_random_schemas_and_values_property()
    assert outcomes["check_output valid"] > 0 and outcomes["check_output problems"] > 0, outcomes


def test_unmutated_pieces_generate(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The pieces themselves are valid: mutations start from something that works."""
    for key in sorted(REAL)[:: max(1, len(REAL) // 25)]:
        assert _check(_piece(key), tmp_path_factory) == "ok", key


# -- the property ---------------------------------------------------------------------------------


def _check(document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> str:
    data = json.dumps(document).encode()
    started = time.process_time()
    try:
        built = _build(data)
        _slowest("generate (one build)", time.process_time() - started)
    except CodegenError as exc:
        for diagnostic in exc.diagnostics:
            line = diagnostic.one_line()
            assert "\n" not in line and line.startswith(f"error[{diagnostic.code}]")
        OUTCOMES[f"error {exc.diagnostics[0].code}"] += 1
        return exc.diagnostics[0].code
    again = _build(data)
    assert again.files == built.files, "two generations of one schema differ"
    _load(built.files, tmp_path_factory)
    OUTCOMES["ok"] += 1
    return "ok"


def _build(data: bytes) -> pipeline.BuiltRevision:
    # a package of its own (no output root above it): it holds the shared runtime
    return pipeline.build_revision(
        "fuzz", "fuzzed", data, "0" * 64, limits=DEFAULT_LIMITS, use_errata=False, standalone=True
    )


def _load(files: dict[str, str], tmp_path_factory: pytest.TempPathFactory, *, whole: bool = False) -> None:
    """Import the models module (with whole, the package too) and build every model's and alias's
    validator (they are built lazily)."""
    from pydantic import BaseModel, TypeAdapter

    root = tmp_path_factory.mktemp("fuzzed")
    package = f"fuzzed_{root.name.replace('-', '_')}"
    for name, text in {**files, **pipeline.runtime_files()}.items():
        (root / package / name).parent.mkdir(parents=True, exist_ok=True)
        (root / package / name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        if whole:
            importlib.import_module(package)
        models = importlib.import_module(f"{package}.models")
        for name in models.__all__:
            value = getattr(models, name)
            if isinstance(value, type) and issubclass(value, BaseModel):
                value.model_rebuild(force=True)
                value.model_json_schema()
            else:
                TypeAdapter(value).json_schema()
    finally:
        sys.path.remove(str(root))
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
