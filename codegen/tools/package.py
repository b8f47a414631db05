"""`mcp-codegen tools`: a typed module for one MCP server's tools, from its `tools/list` result.

Each tool's `inputSchema` becomes `<Tool>Input` and its `outputSchema` `<Tool>Output` (an object
model, or a type alias for an array, a primitive or a composition), through the same pipeline as
the spec models: the schemas are gathered under `$defs` of one document, each tool's own `#...`
references rebased into its entry, and a remote `$ref` is refused, never fetched.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO, TypeVar, cast

from codegen.analysis import analyze, ir, naming
from codegen.schema import budget, load, pointers, schemas
from codegen.emit import render, runtime
from codegen.errors import CodegenError, Diagnostic, fail, flat
from codegen.emit.format import format_files
from codegen.limits import Limits
from codegen.emit.pipeline import build_models
from codegen.emit.stamp import first_sentence, header
from codegen.emit.unenforced import docstring_note, unenforced
from codegen.tools import relay as _relay
from codegen.schema.jsontypes import is_array, is_object

LABEL = "tools/list"
_NAMES_HINT = "each tool has its own non-empty `name` (the MCP spec requires unique names)"


@dataclass(frozen=True)
class ToolTypes:
    name: str  # the tool's own name, "get-sum"
    stem: str  # its class-name stem, "GetSum"
    input: str  # class of its arguments
    output: str | None  # type of its structured output, when it declares an outputSchema
    output_is_class: bool  # the output is a model class (else a type alias)
    input_is_class: bool = True  # the input is a model class (else a type alias: a composition)

    @property
    def function(self) -> str:
        """The snake_case name of its helpers."""
        return naming.field_name(self.stem)


def read_tools(data: bytes, limits: Limits) -> list[dict[str, Any]]:
    """The tool definitions of a tools/list result (bare, as a JSON-RPC response, or a list).

    Every pointer in an error is into the result, whichever form was given: `#/tools/0/inputSchema`.
    """
    if data.lstrip()[:1] == b"[":  # a bare list of tools
        data = b'{"tools": ' + data + b"}"
    document: Any = load.parse_json(data, LABEL, limits)
    container = document.get("result", document) if is_object(document) else dict[str, Any]()
    tools = container.get("tools") if is_object(container) else None
    if not is_array(tools):
        raise fail(
            "MCG701",
            "no `tools` list found (expected a tools/list result)",
            revision=LABEL,
            pointer="#",
            hint="give the tools/list response, its `result`, or the list of tools",
        )
    check_tools(tools, limits)
    return tools


def check_tools(tools: Sequence[Any], limits: Limits) -> None:
    """Tools as the generator needs them, from a file or a live server alike: bounded, each an
    object with its own non-empty name and an `inputSchema` object."""
    if not tools:
        raise fail(
            "MCG701", "the tools/list result lists no tools", revision=LABEL, pointer="#/tools", hint="nothing to generate"
        )
    load.check_shape({"tools": list(tools)}, LABEL, limits)
    names: set[str] = set()
    for index, tool in enumerate(tools):
        where = f"#/tools/{index}"
        if not is_object(tool) or not isinstance(tool.get("name"), str) or not tool["name"]:
            raise fail(
                "MCG702", "a tool must be an object with a non-empty `name`", revision=LABEL, pointer=where, hint=_NAMES_HINT
            )
        if tool["name"] in names:
            raise fail(
                "MCG702", f"two tools are named {tool['name']!r}", revision=LABEL, pointer=where, hint=_NAMES_HINT
            )
        names.add(tool["name"])
        if not isinstance(tool.get("inputSchema"), dict):
            raise fail(
                "MCG702",
                f"tool {tool['name']!r} has no `inputSchema` object",
                revision=LABEL,
                pointer=where,
                hint="every tool declares its arguments as an object schema",
            )
        if "outputSchema" in tool and not isinstance(tool["outputSchema"], dict | bool):
            raise fail(
                "MCG702",
                f"tool {tool['name']!r} has an `outputSchema` that is not a schema",
                revision=LABEL,
                pointer=where,
                hint="an `outputSchema` is a JSON Schema object (or true/false)",
            )
    # before the tools are copied into one document: what every later stage costs follows this count
    load.check_members(
        {},
        LABEL,
        limits,
        definitions=(
            (f"#/tools/{index}/{key}", tool[key])
            for index, tool in enumerate(tools)
            for key in ("inputSchema", "outputSchema")
            if key in tool
        ),
    )


def stems(tools: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Class-name stems per tool name: PascalCase, made distinct (in name order) where two collide,
    also as snake_case helper names after case folding."""
    taken: set[str] = set()
    result: dict[str, str] = {}
    for name in sorted(t["name"] for t in tools):
        stem = naming.base_name(naming.pascal(name) or "Tool")
        candidate, index = stem, 0
        # distinct as classes and as helper functions: `HTTPServer` and `HttpServer` are both
        # `http_server_output`, so the second becomes `HttpServerVariantA`
        while _folded(candidate) in taken:
            candidate = stem + "Variant" + naming.variant_letter(index)
            index += 1
        taken.add(_folded(candidate))
        result[name] = candidate
    return result


def _folded(stem: str) -> str:
    """What two stems must not share: their helper function's name, compared case-folded."""
    return naming.field_name(stem).casefold()


def tools_document(tools: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[ToolTypes]]:
    by_stem = stems(tools)
    defs: dict[str, Any] = {}
    types: list[ToolTypes] = []
    for tool in sorted(tools, key=lambda t: by_stem[t["name"]]):
        stem = by_stem[tool["name"]]
        defs[stem + "Input"] = _as_class(_noted(_rebased(tool["inputSchema"], stem + "Input"), tool["inputSchema"]))
        output = tool.get("outputSchema")
        if output is not None:
            defs[stem + "Output"] = _noted(_rebased(output, stem + "Output"), output) if is_object(output) else output
        types.append(
            ToolTypes(
                name=tool["name"],
                stem=stem,
                input=stem + "Input",
                output=stem + "Output" if output is not None else None,
                output_is_class=isinstance(output, dict) and ("properties" in output or "allOf" in output),
            )
        )
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}, types


@dataclass(frozen=True)
class Loose:
    """A keyword of a tool's schema its generated model does not enforce (emit/unenforced.py)."""

    tool: str
    model: str  # the class: GetSumInput
    keyword: str
    pointers: tuple[str, ...]  # into the tools/list result

    def warning(self) -> str:
        where = ", ".join(self.pointers[:3]) + (f" and {len(self.pointers) - 3} more" if len(self.pointers) > 3 else "")
        return (
            f"warning: tool {self.tool!r}: {self.model} does not enforce {self.keyword} (at {where}); "
            "check_output or jsonschema checks it"
        )


def loose_keywords(tools: Sequence[Mapping[str, Any]]) -> list[Loose]:
    """Per tool and keyword, what its generated models accept that its schemas refuse."""
    by_stem = stems(tools)
    found: list[Loose] = []
    for index, tool in enumerate(tools):
        for key, suffix in (("inputSchema", "Input"), ("outputSchema", "Output")):
            schema = tool.get(key)
            if not is_object(schema):
                continue
            for keyword, where in unenforced(schema).items():
                base = f"#/tools/{index}/{key}"
                pointers_in_list = tuple(base + pointer[1:] for pointer in where)
                found.append(Loose(tool["name"], by_stem[tool["name"]] + suffix, keyword, pointers_in_list))
    return found


def _as_class(schema: dict[str, Any]) -> dict[str, Any]:
    """An object schema that declares no properties (a tool without parameters) still becomes a
    `<Tool>Input` class, as every other tool's does: one with no fields (open unless the schema
    closes it), built with keywords like the rest (load keeps `properties: {}` for inputs)."""
    shapes = ("properties", "allOf", "anyOf", "oneOf", "$ref", "patternProperties", "additionalProperties")
    if schema.get("type") == "object" and not any(key in schema for key in shapes):
        return {**schema, "properties": {}}
    return schema


def _noted(rebased: dict[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """rebased with a paragraph in its description (the class docstring) naming the keywords of
    schema its model does not enforce."""
    found = unenforced(schema)
    if not found:
        return rebased
    description = rebased.get("description")
    own = f"{description}\n\n" if isinstance(description, str) and description.strip() else ""
    return {**rebased, "description": own + docstring_note(found)}


def _rebased(schema: Mapping[str, Any], entry: str) -> dict[str, Any]:
    """A copy of one tool's schema whose own references (`#...`, `#anchor`) point into its `$defs` entry."""
    base = pointers.join("#", "$defs", entry)
    copied: dict[str, Any] = json.loads(json.dumps(schema))
    copied.pop("$schema", None)
    anchors = {
        node["$anchor"]: pointer
        for pointer, node in schemas.all_subschemas(copied, base)
        if isinstance(node.get("$anchor"), str)
    }
    for _, node in schemas.all_subschemas(copied, base):
        node.pop("$id", None)  # an $id would re-root references; tool schemas are one document each
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            node["$ref"] = anchors.get(ref[1:], base + ref[1:]) if not ref.startswith("#/") and ref != "#" else base + ref[1:]
    return copied


def generate_tools_package(
    tools: Sequence[Mapping[str, Any]], *, models_package: str, limits: Limits, style: ir.Options | None = None
) -> dict[str, str]:
    """The files of a package typing these tools: models.py, _base.py and __init__.py (helpers)."""
    check_tools(tools, limits)  # again: tools from a live server come here unchecked
    document, types = tools_document(tools)
    origins = _origins(tools)
    data = json.dumps(document, sort_keys=True).encode()
    digest = hashlib.sha256(data).hexdigest()
    try:
        with budget.scope(schemas.count_subschemas(document), LABEL):
            inputs = frozenset(f"#/$defs/{t.input}" for t in types)  # a tool without parameters: a class too
            doc = load.to_schema_doc(document, LABEL, limits, classes=inputs)
            shaped = ir.Options(
                formatter=style.formatter, line_length=style.line_length, first_party=style.first_party
            ) if style is not None else None
            model = analyze.analyze(doc, package="tools", sha256=digest, options=shaped)
            origin = f"From one MCP server's tools/list result, sha256 {digest}; spec models: {models_package}."
            stamp = header(origin=origin)
            models, order = build_models(doc, model, stamp, limits)
        classes = {entity.pointer for entity in model.entities if entity.kind is ir.Kind.MODEL}
        types = [replace(t, input_is_class=f"#/$defs/{t.input}" in classes) for t in types]
        files = {
            "models.py": models,
            "_base.py": render.base_module(model.options, stamp, runtime=runtime.INSIDE),
            "__init__.py": render.render(
                "tools_init.py.jinja2",
                header=stamp,
                tools=types,
                has_outputs=any(t.output for t in types),
                models_package=models_package,
                exports=[name for name in order],
            ),
        }
        structural = render.structural_module(model, stamp, runtime.INSIDE)
        if structural is not None:  # its engine: the runtime's, in a copy the package holds
            files["_structural.py"] = structural
        # a package of its own holds the runtime modules it imports, behind the plain header: they
        # depend on no listing
        files.update(runtime.runtime_files(header(), only=runtime.needed_by(files)))
        formatted = format_files(files, options=model.options, where="tools", revision=LABEL)
    except CodegenError as exc:
        raise _relocated(exc.with_revision(LABEL), origins) from exc
    return {**formatted, "py.typed": "", RECORD: record(tools, models_package)}


# The tools a package was generated from, kept in it: `tools --check` says per tool what changed.
RECORD = "tools.json"
# what the generator reads of a tool, and what the model reads: a new description is a new prompt,
# which `tools --check` reports though the classes stay the same
_RECORDED = ("name", "title", "description", "inputSchema", "outputSchema")


def record(tools: Sequence[Mapping[str, Any]], models_package: str) -> str:
    """The RECORD file: each tool's name and schemas (tools sorted by name, keys as listed), and the
    spec models imported. Its first line carries the generator's marker, as every file it writes does."""
    kept = [{key: tool[key] for key in _RECORDED if key in tool} for tool in sorted(tools, key=lambda t: str(t["name"]))]
    comment = first_sentence() + " The tools/list this package types; `mcp-codegen tools --check` compares with it."
    document = {"$comment": comment, "models": models_package, "tools": kept}
    # keys in the order listed: the order of a schema's properties is the order of the fields
    return json.dumps(document, indent=1, ensure_ascii=True) + "\n"


def read_record(data: bytes, limits: Limits) -> tuple[str | None, list[dict[str, Any]]]:
    """The spec models and the tools a RECORD file holds, checked as a tools/list file is (it is
    read from an output folder: anything may be there)."""
    tools = read_tools(data, limits)
    document: Any = json.loads(data)  # parsed once already, under the limits
    models = document.get("models") if is_object(document) else None
    return (models if isinstance(models, str) else None), tools


def _origins(tools: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Where each `$defs` entry of the tools document came from in the tools/list input."""
    by_stem = stems(tools)
    origins: dict[str, str] = {}
    for index, tool in enumerate(tools):
        stem = by_stem[tool["name"]]
        origins[stem + "Input"] = f"#/tools/{index}/inputSchema"
        origins[stem + "Output"] = f"#/tools/{index}/outputSchema"
    return origins


def _relocated(exc: CodegenError, origins: Mapping[str, str]) -> CodegenError:
    """The same errors, their pointers (and pointers in their text) into the tools/list input
    rather than into the document built from it."""
    pattern = re.compile(
        r"#/\$defs/(" + "|".join(re.escape(pointers.escape(e)) for e in sorted(origins, key=len, reverse=True)) + r")(?=[/\s),:]|$)"
    )

    def move(text: str | None) -> str | None:
        return pattern.sub(lambda m: origins[pointers.unescape(m.group(1))], text) if text else text

    return CodegenError(
        *(Diagnostic(d.code, move(d.message) or d.message, d.revision, move(d.pointer), d.hint) for d in exc.diagnostics)
    )


_R = TypeVar("_R")


class UnreadableMessage(Exception):
    """The server sent a message the client library could not parse (and dropped): the answer
    awaited may have been that message, so the call fails now rather than at its timeout."""


async def _call(awaitable: Awaitable[_R], timeout: float, unreadable: asyncio.Event) -> _R:
    """awaitable within timeout, or UnreadableMessage as soon as the library drops one."""
    call = asyncio.ensure_future(awaitable)
    dropped = asyncio.ensure_future(unreadable.wait())
    done, _ = await asyncio.wait({call, dropped}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for pending in (call, dropped):
        if pending not in done:
            pending.cancel()
    if call in done:
        return call.result()
    if dropped in done:
        raise UnreadableMessage("the server sent a message the client library cannot read")
    raise TimeoutError(f"no answer within {timeout:.0f} s")


async def _list_from_server(
    command: Sequence[str], timeout: float, errlog: TextIO, log: _LastRecord
) -> tuple[list[dict[str, Any]], str, int]:
    try:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
    except ImportError as exc:
        raise fail(
            "MCG704",
            "talking to a live server needs the official MCP client library",
            revision=LABEL,
            hint="pip install 'mcp-models-codegen[live]'",
        ) from exc

    params = StdioServerParameters(command=command[0], args=list(command[1:]))
    unreadable = log.unreadable = asyncio.Event()
    # Declare every client capability (sampling, elicitation, roots): servers list the tools that
    # need one only to a client that has it. Listing never asks for any; a request that comes
    # anyway is answered with an error.
    declined = _declining_callbacks()
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write, **declined) as session:
        initialized = await _call(session.initialize(), timeout, unreadable)
        listed = await _call(session.list_tools(), timeout, unreadable)
    version = str(getattr(initialized, "protocol_version", None) or getattr(initialized, "protocolVersion", ""))
    dumped = listed.model_dump(mode="json", by_alias=True, exclude_none=True)
    size = len(json.dumps(dumped, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass"))
    return list(dumped["tools"]), version, size


def _declining_callbacks() -> dict[str, Any]:
    """Callbacks that make the client library declare sampling, elicitation and roots, and answer
    such a request, should a server send one while its tools are listed, with an error."""
    from mcp import types

    def refusal() -> Any:
        return types.ErrorData(code=-32601, message="mcp-codegen only lists tools")

    async def sampling(context: Any, params: Any) -> Any:
        return refusal()

    async def elicitation(context: Any, params: Any) -> Any:
        return refusal()

    async def roots(context: Any) -> Any:
        return refusal()

    return {"sampling_callback": sampling, "elicitation_callback": elicitation, "list_roots_callback": roots}


# What a JSON-RPC response adds around a tools/list result ({"jsonrpc":"2.0","id":..,"result":..}).
_ENVELOPE_BYTES = 4096


def list_from_server(
    command: Sequence[str], *, timeout: float = 30.0, limits: Limits | None = None
) -> tuple[list[dict[str, Any]], str]:
    """The tools of a live server started over stdio, and the protocol version it negotiated.

    Held to limits.max_schema_bytes like a tools/list file: the server runs behind a relay
    (codegen/tools/relay.py) that ends it as soon as one message grows past the limit, before the
    client library buffers or parses more; the result it sent is measured again as compact JSON.
    The server's stderr and the client library's log are kept apart: only their last words are
    quoted (escaped) when listing fails, so nothing a server writes reaches the terminal raw.
    """
    limit = limits.max_schema_bytes if limits is not None else DEFAULT_SERVER_BYTES
    log = _LastRecord()
    library_log = logging.getLogger("mcp")
    library_log.addHandler(log)
    propagate, library_log.propagate = library_log.propagate, False
    try:
        with tempfile.TemporaryDirectory() as scratch, tempfile.TemporaryFile(
            "w+", encoding="utf-8", errors="replace"
        ) as errlog:
            report = Path(scratch) / "relay"
            relayed = [sys.executable, str(Path(_relay.__file__)), str(limit + _ENVELOPE_BYTES), str(report), *command]
            try:
                tools, version, size = asyncio.run(_list_from_server(relayed, timeout, errlog, log))
            except CodegenError:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure of a foreign process becomes one clear error
                if report.exists():  # the relay cut the server off
                    raise _over_limit(f"more than {limit:,} bytes", limit) from exc
                said = _last_line(errlog)
                reason = _innermost(exc)
                raise fail(
                    "MCG703",
                    f"cannot list the tools of `{shlex.join(command)}`: {type(reason).__name__}: {flat(str(reason))}"
                    + (f" ({flat(log.last)})" if log.last else "")
                    + (f" (the server said: {said})" if said else ""),
                    revision=LABEL,
                    hint="check that the command starts an MCP server speaking stdio",
                ) from exc
    finally:
        library_log.removeHandler(log)
        library_log.propagate = propagate
    if limits is not None and size > limits.max_schema_bytes:
        raise _over_limit(f"{size:,} bytes (as compact JSON)", limits.max_schema_bytes)
    return tools, version


DEFAULT_SERVER_BYTES = 64 * 1024 * 1024  # without limits: still not unbounded


def _over_limit(size: str, limit: int) -> CodegenError:
    return fail(
        "MCG101",
        f"the server's tools/list result is {size}, over the limit of {limit:,}",
        revision=LABEL,
        pointer="#",
        hint="raise --max-schema-bytes if this server is trusted",
    )


def _innermost(exc: BaseException) -> BaseException:
    """The first leaf of an exception group (anyio wraps a transport's failure in one)."""
    if isinstance(exc, BaseExceptionGroup):
        group = cast("BaseExceptionGroup[BaseException]", exc)
        return _innermost(group.exceptions[0]) if group.exceptions else group
    return exc


class _LastRecord(logging.Handler):
    """Keeps the last message the client library logged (its parse errors), instead of printing it."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.last = ""
        self.unreadable: asyncio.Event | None = None  # set when the library drops a server message

    def emit(self, record: logging.LogRecord) -> None:
        detail = f": {record.exc_info[1]}" if record.exc_info and record.exc_info[1] else ""
        self.last = (record.getMessage() + detail)[:300]
        if record.levelno >= logging.ERROR and "parse" in record.getMessage().lower() and self.unreadable is not None:
            self.unreadable.set()  # emitted on the event loop's thread: the client's receive loop


def _last_line(errlog: TextIO, limit: int = 300) -> str:
    """The last non-empty line the server wrote on stderr (read from the end, at most limit characters)."""
    fd = errlog.fileno()
    end = os.fstat(fd).st_size
    tail = os.pread(fd, 4 * limit, max(0, end - 4 * limit)).decode("utf-8", "replace")
    lines = [line.strip() for line in tail.split("\n") if line.strip()]
    return lines[-1][:limit] if lines else ""
