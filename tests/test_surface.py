"""The version-spanning surface (issue 17): one class per definition over every revision, and send
and receive that keep each session's wire exactly its revision's.

- Shape: a class per definition name of any revision (renamed ones once, the old name an alias),
  every property of every revision, required only where every revision requires it.
- Receive -> send at the same revision gives back the identical wire JSON for every example of
  every revision, at every revision whose JSON Schema accepts it.
- Send at an older revision of what the newest one built: what is dropped is what the revision
  diff reports as added after that revision; what cannot be carried is a RevisionError.
- Method tables: each revision's method set and senders, as computed here from the raw schemas.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from typing_extensions import TypeAliasType

from . import suite
from . import surface_support as support
from .surface_support import NEWEST_RELEASED, SPANNED, accepts, canonical, document, own_name, surface, surface_name


def _models() -> Any:
    import importlib

    return importlib.import_module("mcp_models.surface.models")


def _model_classes() -> dict[str, type[BaseModel]]:
    """Surface definitions that are model classes, by definition name."""
    out: dict[str, type[BaseModel]] = {}
    for revision in SPANNED:
        for name in document(revision)["$defs"]:
            value = getattr(surface(), surface_name(name), None)
            if isinstance(value, type) and issubclass(value, BaseModel):
                out[surface_name(name)] = value
    return out


def _wire_keys(model: type[BaseModel]) -> set[str]:
    return {field.alias or name for name, field in model.model_fields.items()}


def _required(model: type[BaseModel]) -> set[str]:
    """The wire keys a model requires when reading (constants included)."""
    try:
        model.model_validate({})
    except ValidationError as exc:
        return {str(error["loc"][0]) for error in exc.errors() if error["type"] == "missing" and len(error["loc"]) == 1}
    return set()


# -- shape ---------------------------------------------------------------------------------------


def test_one_name_per_definition_of_any_revision_renamed_ones_once_with_the_old_name_an_alias() -> None:
    s = surface()
    names = {name for revision in SPANNED for name in document(revision)["$defs"]}
    missing = sorted(name for name in names if not hasattr(s, name))
    assert not missing, missing
    assert s.JSONRPCError is s.JSONRPCErrorResponse
    assert s.ResourceReference is s.ResourceTemplateReference
    assert "JSONRPCError" in s.__all__ and "ResourceReference" in s.__all__


def test_every_property_of_every_revision_and_required_only_where_all_require_it() -> None:
    checked = 0
    for name, model in _model_classes().items():
        keys = _wire_keys(model)
        native = []  # the revisions that have the definition by name, as an object
        for revision in SPANNED:
            own = own_name(revision, name)
            schema = document(revision)["$defs"].get(own) if own else None
            if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
                native.append(schema)
                assert set(schema["properties"]) <= keys, (name, revision, set(schema["properties"]) - keys)
        if not native:
            continue
        checked += 1
        everywhere = set.intersection(*(set(schema.get("required") or ()) for schema in native))
        # a revision that wrote the object inline (hoisted into this class) can only lower the set
        assert _required(model) <= everywhere, (name, _required(model) - everywhere)
    assert checked > 150


def test_required_only_where_every_revision_requires_it_examples() -> None:
    s = surface()
    assert _required(s.CallToolResult) == {"content"}  # resultType: 2026-07-28 on only
    assert "resultType" in _wire_keys(s.CallToolResult) and "structuredContent" in _wire_keys(s.CallToolResult)
    # requests carry jsonrpc and id themselves from 2025-11-25 on; earlier, the envelope did
    assert {"jsonrpc", "id"} & _required(s.CallToolRequest) == set()
    assert {"method", "params"} <= _required(s.CallToolRequest)


def _field_docs(model: type[BaseModel]) -> dict[str, str]:
    """Attribute -> the docstring under it in the generated class."""
    import ast
    import inspect

    body = ast.parse(inspect.getsource(model)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for node, after in zip(body.body, body.body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                docs[node.target.id] = after.value.value
    return docs


def test_docstrings_say_in_which_revisions_a_property_exists() -> None:
    s = surface()
    docs = _field_docs(s.CallToolResult)
    assert "exists in revisions 2025-06-18, 2025-11-25, 2026-07-28, draft." in docs["structured_content"]
    assert "exists in revisions 2026-07-28, draft." in docs["result_type"]
    assert "exists in" not in docs["content"]  # in every revision: no note
    assert "exists in revisions 2025-06-18, 2025-11-25, 2026-07-28, draft." in (s.ElicitRequest.__doc__ or "")


def test_widest_types() -> None:
    s = surface()
    array = {"content": [], "structuredContent": [1, 2.5, "x", None]}
    assert s.CallToolResult.model_validate(array).structured_content == [1, 2.5, "x", None]
    assert s.CallToolResult.model_validate({"content": [], "structuredContent": {"a": 1}})


# -- receive and send ----------------------------------------------------------------------------


def _receive_and_send(sample: support.Sample, revision: str) -> tuple[str, Any] | None:
    """(what was checked, the JSON sent back), or None where the revision's schema does not accept
    the sample (or has no such definition)."""
    s = surface()
    if _contradiction(revision, sample):
        return None
    if sample.target == "message":
        if not _message_accepted(revision, sample.value):
            return None
        message = s.parse_message(json.dumps(sample.value), protocol_version=revision)
        return "message", json.loads(s.send(message, revision))
    if sample.target.startswith("result of "):
        method = sample.target.removeprefix("result of ")
        row = s.METHODS.get(method)
        if row is None or revision not in row.message:
            return None
        own = own_name(revision, row.message[revision].removesuffix("Request") + "Result")
        if own is None or not accepts(revision, own, sample.value):
            return None
        result = s.parse_result(method, json.dumps(sample.value), protocol_version=revision)
        assert isinstance(result, BaseModel)
        return "result", s.to_revision(result, revision).model_dump(mode="json")
    name = surface_name(sample.target)
    own = own_name(revision, name)
    if own is None or not accepts(revision, own, sample.value):
        return None
    if _leaves_the_envelope(revision, own) and not accepts(revision, "JSONRPCMessage", sample.value):
        return None  # such a definition travels only as a whole JSON-RPC message: send refuses less
    parsed = s.parse_as(getattr(s, name), json.dumps(sample.value), protocol_version=revision)
    if not isinstance(parsed, BaseModel):  # an alias of a scalar or an array (a bare value)
        return "value", json.loads(json.dumps(parsed, default=lambda m: m.model_dump(mode="json")))
    return "definition", s.to_revision(parsed, revision).model_dump(mode="json")


def _leaves_the_envelope(revision: str, own: str) -> bool:
    """A request or notification definition without `jsonrpc` in a revision where none has it
    (before 2025-11-25): the revision sends it inside JSONRPCRequest / JSONRPCNotification only."""
    definitions = document(revision)["$defs"]
    methods = [d for d in definitions.values() if "const" in d.get("properties", {}).get("method", {})]
    is_method = "const" in definitions[own].get("properties", {}).get("method", {})
    return is_method and not any("jsonrpc" in d.get("properties", {}) for d in methods)


def _contradiction(revision: str, sample: support.Sample) -> bool:
    """An example the revision's errata record as contradicting its schema (valid JSON Schema only
    through an arm the example's own `resultType` rules out): the models reject it by design."""
    from codegen.schema import errata

    origin = sample.origin.split(":", 1)[1]
    return any(origin == "examples/" + c.example for c in errata.load_contradictions(revision))


def _message_accepted(revision: str, value: Any) -> bool:
    """The revision's JSONRPCMessage accepts it and, for a method the revision defines, so does
    that method's own definition (JSONRPCMessage alone takes any method with any params)."""
    if not accepts(revision, "JSONRPCMessage", value):
        return False
    method = value.get("method") if isinstance(value, dict) else None
    row = surface().METHODS.get(method) if isinstance(method, str) else None
    if row is None or revision not in row.message:
        return True
    own = own_name(revision, row.message[revision])
    return own is None or accepts(revision, own, value)


def test_receive_then_send_at_the_same_revision_is_the_identical_wire_json() -> None:
    """Every example of every revision, at every revision whose schema accepts it."""
    checked: Counter[str] = Counter()
    failures: list[str] = []
    samples = list(support.samples())
    assert len(samples) > 150
    for sample in samples:
        for revision in SPANNED:
            try:
                outcome = _receive_and_send(sample, revision)
            except (ValueError, ValidationError) as exc:
                failures.append(f"{sample.origin} at {revision}: {type(exc).__name__}: {str(exc)[:200]}")
                continue
            if outcome is None:
                continue
            kind, sent = outcome
            checked[revision] += 1
            if canonical(sent) != canonical(sample.value):
                failures.append(f"{sample.origin} at {revision} ({kind}): {canonical(sent)[:200]}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:20])
    print("receive -> send, identical, per revision:", dict(checked))
    assert all(checked[revision] > 0 for revision in SPANNED), checked
    assert sum(checked.values()) > 600


def test_a_revision_rejects_what_it_does_not_allow_even_where_another_allows_it() -> None:
    s = surface()
    array_result = {"jsonrpc": "2.0", "id": 7, "result": {"content": [], "structuredContent": [1], "resultType": "complete"}}
    with pytest.raises(ValidationError):
        s.parse_message(json.dumps(array_result), protocol_version="2025-11-25", pending={7: "tools/call"})
    received = s.parse_message(json.dumps(array_result), protocol_version="2026-07-28", pending={7: "tools/call"})
    assert received.result.structured_content == [1]
    discover = json.dumps(_discover_request())  # a 2026-07-28 method: elsewhere a plain request
    assert type(s.parse_message(discover, protocol_version="2026-07-28")) is s.DiscoverRequest
    plain = s.parse_message(discover, protocol_version="2025-11-25")
    assert type(plain) is s.JSONRPCRequest and json.loads(s.send(plain, "2025-11-25")) == json.loads(discover)
    with pytest.raises((ValidationError, ValueError)):
        s.parse_message(json.dumps({"jsonrpc": "1.0", "id": 5, "method": "ping"}), protocol_version="2025-03-26")
    with pytest.raises(s.RevisionError, match="not one this surface spans"):
        s.parse_message("{}", protocol_version="1999-01-01")


def test_keys_that_arrived_at_a_revision_go_back_as_they_came_and_not_elsewhere() -> None:
    s = surface()
    raw = {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "hi"}], "resultType": "complete"}}
    received = s.parse_message(json.dumps(raw), protocol_version="2025-11-25", pending={7: "tools/call"})
    assert json.loads(s.send(received, "2025-11-25")) == raw  # an extension key at 2025-11-25, kept
    dropped: list[str] = []
    older = json.loads(s.send(received, "2025-06-18", dropped=dropped))
    assert "resultType" not in older["result"] and dropped == ["/result/resultType"]


def test_send_builds_the_revisions_exact_model_and_names_what_it_cannot_carry() -> None:
    s = surface()
    result = s.CallToolResult(content=[s.TextContent(text="x")], is_error=True, structured_content={"a": 1})
    dropped: list[str] = []
    assert json.loads(s.send(result, "2025-03-26", dropped=dropped)) == {"content": [{"type": "text", "text": "x"}], "isError": True}
    assert dropped == ["/structuredContent"]
    at_2025 = s.to_revision(result, "2025-11-25")
    assert type(at_2025) is s.revision_classes("tools/call", "2025-11-25")[2]
    # the spec says an absent resultType means "complete": applied where the revision requires it
    assert json.loads(s.send(result, "2026-07-28"))["resultType"] == "complete"
    array = s.CallToolResult(content=[], structured_content=[1, 2])
    with pytest.raises(s.RevisionError, match=r"^/structuredContent: .*revision 2025-11-25 cannot carry"):
        s.to_revision(array, "2025-11-25", downgrade="refuse")  # SEP-2106's fallback: tests/test_sep2106_downgrade.py
    link = s.CallToolResult(content=[s.ResourceLink(name="n", uri="file:///x")])
    with pytest.raises(s.RevisionError, match="ResourceLink does not exist in revision 2025-03-26"):
        s.to_revision(link, "2025-03-26")
    with pytest.raises(s.RevisionError, match="does not exist in revision 2025-11-25"):
        s.to_revision(s.DiscoverRequest.model_validate(_discover_request()), "2025-11-25")


def _error_kind(message: str) -> str:
    """A RevisionError's message without the values: "X does not exist in revision R" -> "X missing"."""
    if " does not exist in revision " in message:
        return message.rsplit(": ", 1)[-1].split(" does not exist", 1)[0] + " missing"
    path, _, rest = message.partition(": ")
    return f"{path}: {rest.split(':', 1)[0]}"


def _discover_request() -> dict[str, Any]:
    for sample in support.samples():
        if sample.target == "DiscoverRequest":
            value: dict[str, Any] = sample.value
            return value
    raise AssertionError("no DiscoverRequest example")


def test_what_send_drops_at_an_older_revision_is_what_the_diff_says_was_added_after_it() -> None:
    """The newest revision's examples sent at every older revision: per pair, what is dropped, what
    errors and what the spec's mapping fills in; every dropped key is one `mcp-codegen diff`
    reports as added after that revision (to its definition, or with a definition new since)."""
    from codegen.diff import diff

    s = surface()
    newest = [sample for sample in support.samples() if sample.origin.startswith(f"{NEWEST_RELEASED}:examples/")]
    table: dict[str, Counter[str]] = {}
    keys_dropped: dict[str, Counter[str]] = {}
    why_refused: dict[str, Counter[str]] = {}
    for revision in SPANNED[: SPANNED.index(NEWEST_RELEASED)]:
        report = diff(revision, NEWEST_RELEASED, python_api=False).as_dict()
        added_keys = {c["path"][-1] for c in report["changes"] if c["kind"] == "property-added"}
        added_defs = set(report["definitions"]["added"])
        row: Counter[str] = Counter()
        for sample in newest:
            if sample.target in ("message",) or sample.target.startswith("result of "):
                continue
            name = surface_name(sample.target)
            model = getattr(s, name, None)
            if not (isinstance(model, type) and issubclass(model, BaseModel)):
                continue
            obj = model.model_validate(sample.value)
            changes: list[Any] = []
            try:
                sent = s.to_revision(obj, revision, changes=changes).model_dump(mode="json")
            except s.RevisionError as exc:
                row["errors"] += 1
                why_refused.setdefault(revision, Counter())[_error_kind(str(exc))] += 1
                assert own_name(revision, name) is None or exc.path, exc  # names where, or the class is new
                continue
            row["sent"] += 1
            for change in changes:
                if change.kind == "downgraded":  # SEP-2106: a property the diff says widened since
                    assert any(
                        c["path"][-1:] == [change.path.rsplit("/", 1)[-1]] and "widened" in c["summary"]
                        for c in report["changes"]
                    ) or change.path.rsplit("/", 1)[-1] in added_keys, (revision, sample.origin, change)
                    row["downgraded"] += 1
            dropped = [change.path for change in changes if change.kind == "dropped"]
            row["dropped"] += len(dropped)
            if "resultType" in sent and "resultType" not in sample.value:
                row["filled"] += 1
            for pointer in dropped:
                key = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
                keys_dropped.setdefault(revision, Counter())[key] += 1
                tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:] if not t.isdigit()]
                # the diff names the key added, or a retype of an object above it whose new shape
                # lists the key, or the key sits in an object whose definition is new since
                retyped = any(
                    c["kind"] in ("property-retyped", "type-changed")
                    and 0 < len(c["path"]) < len(tokens)
                    and tokens[-len(c["path"]) - 1 : -1] == c["path"]
                    and key in c["summary"]
                    for c in report["changes"]
                )
                assert key in added_keys or retyped or _under_added_definition(obj, pointer, added_defs), (
                    revision,
                    sample.origin,
                    pointer,
                )
            assert _valid_at(revision, obj, sent, name), (revision, sample.origin)
        table[revision] = row
    print(f"send at an older revision of {NEWEST_RELEASED} examples:")
    for revision, row in table.items():
        print(
            f"  {revision}: sent {row['sent']}, keys dropped {row['dropped']}, downgraded {row['downgraded']}, "
            f"errors {row['errors']}, filled {row['filled']}"
        )
        print(f"    dropped: {', '.join(f'{k} x{n}' for k, n in sorted(keys_dropped.get(revision, Counter()).items()))}")
        print(f"    errors: {', '.join(f'{k} x{n}' for k, n in sorted(why_refused.get(revision, Counter()).items()))}")
    assert all(row["sent"] > 0 for row in table.values())
    assert table["2024-11-05"]["dropped"] > table["2025-11-25"]["dropped"] > 0


def _valid_at(revision: str, obj: BaseModel, sent: Any, definition: str) -> bool:
    """Whether the revision's JSON Schema accepts what was sent for obj: at the place of obj's
    definition there, or, for a response whose class the revision lacks (sent as its own typed
    response), the revision's result envelope with the result at its definition's place."""
    where = support.place(revision, definition)
    own = own_name(revision, definition)
    if where is not None and own is not None and _leaves_the_envelope(revision, own):
        return accepts(revision, where, sent) and accepts(revision, "JSONRPCMessage", sent)  # a whole message
    if where is not None:
        return accepts(revision, where, sent)
    result = getattr(obj, "result", None)
    envelope = support.place(revision, "JSONRPCResultResponse")
    inner = support.place(revision, type(result).__name__) if isinstance(result, BaseModel) else None
    return bool(envelope and inner and accepts(revision, envelope, sent) and accepts(revision, inner, sent["result"]))


def _under_added_definition(obj: BaseModel, pointer: str, added: set[str]) -> bool:
    """Whether the key at pointer sits in an object whose class is a definition the diff adds."""
    node: Any = obj
    for token in pointer.strip("/").split("/")[:-1]:
        if isinstance(node, BaseModel):
            by_wire = {field.alias or name: name for name, field in type(node).model_fields.items()}
            node = getattr(node, by_wire.get(token, token), None) if token in by_wire else (node.model_extra or {}).get(token)
        elif isinstance(node, list):
            node = node[int(token)]
        elif isinstance(node, dict):
            node = node.get(token)
    return isinstance(node, BaseModel) and type(node).__name__ in added


def test_received_at_an_older_revision_and_sent_at_the_newest_gets_the_spec_stated_result_type() -> None:
    s = surface()
    raw = {"content": [{"type": "text", "text": "hi"}]}
    received = s.parse_result("tools/call", json.dumps(raw), protocol_version="2025-06-18")
    assert json.loads(s.to_revision(received, "2026-07-28").model_dump_json()) == {**raw, "resultType": "complete"}
    assert s.to_revision(received, "2025-06-18").model_dump(mode="json") == raw


# -- drawn instances -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("revision", SPANNED)
def test_drawn_instances_survive_receive_and_send_and_send_is_valid_or_a_clear_error(revision: str) -> None:
    """Instances drawn from the revision's schema (the agreement strategies), kept when jsonschema
    accepts them: receive-at-R -> send-at-R gives them back; sent at every other revision, they are
    valid there (jsonschema) or a RevisionError, never an invalid message."""

    from hypothesis import HealthCheck, given, settings

    from codegen.checks.agreement import strategy

    s = surface()
    doc = document(revision)
    per_definition = suite.examples(4)
    counts: Counter[str] = Counter()
    for name in sorted(doc["$defs"]):
        model = getattr(s, surface_name(name), None)
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            continue
        drawn: list[Any] = []

        @settings(max_examples=per_definition,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(strategy(doc, {"$ref": f"#/$defs/{name}"}))
        def collect(value: Any) -> None:
            drawn.append(value)

        collect()
        for value in drawn:
            if _leaves_the_envelope(revision, name):  # the revision sends it only as a whole message
                value = {"jsonrpc": "2.0", **({"id": 1} if name.endswith("Request") else {}), **value}
                # inside the envelope it is sent in: a request drawn with an `id` a request cannot
                # have (`{}`) is no request, though JSONRPCMessage takes it as a notification
                envelope = "JSONRPCRequest" if name.endswith("Request") else "JSONRPCNotification"
                if not accepts(revision, envelope, value):
                    continue
            if not accepts(revision, name, value):
                continue
            try:
                received = s.parse_as(model, value, protocol_version=revision)
            except s.RevisionError as refused:
                # another revision's property name, as an unknown key here, with a value its type
                # refuses: a clear error naming a key this revision does not define
                key = next((part for part in reversed(refused.path.split("/")) if not part.isdigit()), "")
                assert key and key not in _defined_keys(revision), (name, refused.path, value)
                counts["received, not representable"] += 1
                continue
            assert canonical(s.to_revision(received, revision).model_dump(mode="json")) == canonical(value), (name, value)
            counts["round trips"] += 1
            for other in SPANNED:
                try:
                    sent = s.to_revision(received, other).model_dump(mode="json")
                except s.RevisionError:
                    counts["clear errors"] += 1
                    continue
                assert _valid_at(other, received, sent, surface_name(name)), (name, other, value, sent)
                counts["valid elsewhere"] += 1
    print(revision, dict(counts))
    assert counts["round trips"] > 100


def _defined_keys(revision: str) -> set[str]:
    """Every property name any schema object of the revision declares."""
    from codegen.schema.schemas import all_subschemas

    return {key for _, node in all_subschemas(document(revision)) if isinstance(node.get("properties"), dict) for key in node["properties"]}


# -- method tables -------------------------------------------------------------------------------


def _raw_methods(revision: str) -> dict[str, set[str]]:
    """method -> senders, from the raw schema: a *Request / *Notification definition pins `method`;
    the Client*/Server* unions (or a lone model of that name) say who sends it."""
    defs = document(revision)["$defs"]

    def method_of(schema: Any) -> str | None:
        if isinstance(schema, dict) and "$ref" in schema:
            schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
        method = ((schema or {}).get("properties") or {}).get("method") or {}
        return method.get("const") if isinstance(method, dict) else None

    methods: dict[str, set[str]] = {}
    for name, schema in defs.items():
        if name.endswith(("Request", "Notification")) and "method" in (schema.get("required") or ()):
            method = method_of(schema)
            if isinstance(method, str) and not name.startswith(("Client", "Server")):
                methods.setdefault(method, set())
    for side, prefix in (("client", "Client"), ("server", "Server")):
        for union in (f"{prefix}Request", f"{prefix}Notification"):
            schema = defs.get(union)
            if schema is None:
                continue
            arms = schema.get("anyOf") or schema.get("oneOf") or [schema]
            for arm in arms:
                method = method_of(arm)
                if isinstance(method, str):
                    methods.setdefault(method, set()).add(side)
    return methods


@pytest.mark.parametrize("revision", SPANNED)
def test_method_tables_reproduce_each_revisions_methods_and_senders(revision: str) -> None:
    s = surface()
    expected = _raw_methods(revision)
    tabled = {m: set(row.senders[revision]) for m, row in s.METHODS.items() if revision in row.revisions}
    assert tabled == expected


def test_method_tables_name_classes_that_exist() -> None:
    s = surface()
    for method, row in s.METHODS.items():
        for revision in row.revisions:
            message, params, result = s.revision_classes(method, revision)
            assert message is not None and (row.kind == "notification" or result is not None), (method, revision)
            del params
        assert getattr(_models(), row.surface[0]) is not None
    assert s.METHODS["initialize"].revisions[-1] == "2025-11-25"  # gone in 2026-07-28
    assert s.METHODS["server/discover"].revisions[0] == "2026-07-28"


def test_surface_aliases_are_type_alias_objects_of_the_union_arms() -> None:
    s = surface()
    assert isinstance(s.ContentBlock, TypeAliasType)
    parsed = s.parse_as(s.ContentBlock, {"type": "text", "text": "x"}, protocol_version="2025-06-18")
    with pytest.raises(s.RevisionError, match="ContentBlock does not exist in revision 2024-11-05"):
        s.parse_as(s.ContentBlock, {"type": "text", "text": "x"}, protocol_version="2024-11-05")
    assert type(parsed) is s.TextContent


def test_the_docs_page_example_runs() -> None:
    from .conftest import REPO

    text = (REPO / "docs" / "surface.md").read_text(encoding="utf-8")
    blocks = [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/surface.md", "exec", dont_inherit=True), {"__name__": "docs_surface"})


def test_another_revisions_property_the_surface_cannot_hold_is_a_clear_error() -> None:
    """`icons` is no property at 2025-06-18 (an unknown key, kept); its value there may be anything,
    where the surface's `icons` is a list: receiving it is a RevisionError naming the key, not a raw
    ValidationError; the revision's own models read the same message."""
    s = surface()
    message = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "a", "version": "1", "icons": None}},
    }  # fmt: skip
    with pytest.raises(s.RevisionError) as refused:
        s.parse_message(json.dumps(message), protocol_version="2025-06-18")
    assert refused.value.path == "/params/clientInfo/icons" and refused.value.revision == "2025-06-18"
    import mcp_models.v2025_06_18 as exact

    assert exact.parse_message(json.dumps(message)).model_dump(mode="json") == message
