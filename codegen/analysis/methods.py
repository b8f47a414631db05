"""Method tables, derived from the schema: which message model carries each method, its params and
result types, and who sends it; JSON-RPC envelopes and error codes.

- A request or notification is a definition whose required `method` property is a string `const`;
  `*Request` / `*Notification` is the schema's own naming of the two.
- Who sends it comes from the unions that hold it: `Client*` unions for the client, `Server*` for
  the server.
- A request `FooRequest` is answered by the `result` of `FooResultResponse` when the revision has
  one (it may add InputRequiredResult), else by `FooResult`, else by `EmptyResult`/`Result`.
- Error definitions pin `code` with a `const`: full responses (with `error`) and error objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from codegen.analysis import discriminate, ir
from codegen.schema import pointers, schemas
from codegen.schema.load import SchemaDoc
from codegen.schema.jsontypes import is_object


def has_message_tables(tables: ir.Methods, entities: Sequence[ir.Entity]) -> bool:
    """Whether the revision has the four JSON-RPC envelopes and a generic Result to dispatch with:
    its package then has a messages module (emit/render.py)."""
    generic_result = any(e.export_name == "Result" and e.is_definition for e in entities)
    return {"request", "notification", "result", "error"} <= dict(tables.envelopes).keys() and generic_result


def method_tables(doc: SchemaDoc, entities: tuple[ir.Entity, ...]) -> ir.Methods:
    document = doc.document
    by_pointer = {e.pointer: e for e in entities}
    names = {e.export_name for e in entities if e.is_definition}

    def resolve(ref: str) -> Mapping[str, Any]:
        node = pointers.resolve(document, ref)
        return node if is_object(node) else {}

    flattened: schemas.Flattened = {}

    def flat(entity: ir.Entity) -> Mapping[str, Any]:
        return schemas.flatten_all_of(dict(resolve(entity.pointer)), resolve, flattened)

    # Who sends what: the Client*/Server* unions. A revision where such a union has one arm
    # publishes it as a model of its own (2026-07-28's ClientNotification): it marks its method.
    senders: dict[str, set[str]] = {}
    side_models: list[tuple[ir.Entity, str]] = []
    for union in entities:
        side = _side(union.export_name)
        if side is None or not union.is_definition:
            continue
        if union.kind is ir.Kind.UNION:
            for arm in union.arms:
                senders.setdefault(arm, set()).add(side)
        elif union.kind is ir.Kind.MODEL:
            side_models.append((union, side))
    side_by_method: dict[str, set[str]] = {}
    for model, side in side_models:
        method = _const((flat(model).get("properties") or dict[str, Any]()).get("method"), resolve)
        if isinstance(method, str):
            side_by_method.setdefault(method, set()).add(side)
    side_model_pointers = {model.pointer for model, _ in side_models}

    # The JSON-RPC envelopes (the arms of JSONRPCMessage) are every request's possible answers.
    message_union = next((e for e in entities if e.export_name == "JSONRPCMessage" and e.is_definition), None)
    generic = frozenset(message_union.arms if message_union else ())
    methods: list[ir.Method] = []
    error_responses: list[tuple[int, str]] = []
    error_objects: list[tuple[int, str]] = []
    envelopes: dict[str, str] = {}
    for entity in entities:
        if entity.kind is not ir.Kind.MODEL or not entity.is_definition:
            continue
        shape = flat(entity)
        properties: Mapping[str, Any] = shape.get("properties") or {}
        required: set[str] = set(shape.get("required") or ())
        method = _const(properties.get("method"), resolve)
        name = entity.export_name
        if isinstance(method, str) and "method" in required:
            kind = "request" if name.endswith("Request") else "notification" if name.endswith("Notification") else None
            if kind is None or entity.pointer in side_model_pointers:
                continue
            methods.append(
                ir.Method(
                    method=method,
                    kind=kind,
                    message=entity.name,
                    params=_property_type(entity, properties.get("params"), by_pointer),
                    result=_result_type(name, names, entities, flat, generic) if kind == "request" else None,
                    response=_response_type(name, entities) if kind == "request" else None,
                    senders=tuple(sorted(senders.get(entity.pointer, set()) | side_by_method.get(method, set()))),
                    wire="jsonrpc" in required,
                )
            )
            continue
        code = _const(
            _error_shape(properties.get("error"), resolve).get("properties", dict[str, Any]()).get("code"), resolve
        )
        if isinstance(code, int) and "error" in required:
            error_responses.append((code, entity.name))
            continue
        own_code = _const(properties.get("code"), resolve)
        if isinstance(own_code, int) and "message" in properties:
            error_objects.append((own_code, entity.name))
    # The JSON-RPC envelopes are the arms of JSONRPCMessage, told apart by their required keys.
    for arm in message_union.arms if message_union else ():
        target = by_pointer.get(arm)
        if target is None or target.kind is not ir.Kind.MODEL:
            continue
        shape = flat(target)
        envelope = _envelope_kind(shape.get("properties") or {}, set(shape.get("required") or ()))
        if envelope and envelope not in envelopes:
            envelopes[envelope] = target.name
    methods = _with_task_results(methods, entities, resolve, flat)
    methods = _with_list_results(methods, entities, flat)
    methods, envelope_fields = _with_wire_classes(methods, entities, envelopes, flat)
    request_id = None
    if "result" in envelopes:
        result_envelope = next(e for e in entities if e.name == envelopes["result"])
        id_ref = ((flat(result_envelope).get("properties") or dict[str, Any]()).get("id") or dict[str, Any]()).get(
            "$ref"
        )
        if isinstance(id_ref, str) and id_ref in by_pointer:
            request_id = by_pointer[id_ref].name
    error_id_required, error_object = True, None
    if "error" in envelopes:
        error_envelope = next(e for e in entities if e.name == envelopes["error"])
        error_shape = flat(error_envelope)
        error_id_required = "id" in set[str](error_shape.get("required") or ())
        error_object = member_type(error_envelope, "error", (error_shape.get("properties") or dict[str, Any]()).get("error"), by_pointer)
    return ir.Methods(
        methods=tuple(sorted(methods, key=lambda m: (m.kind, m.method, m.message))),
        error_responses=tuple(sorted(_first_per_code(error_responses))),
        error_objects=tuple(sorted(_first_per_code(error_objects))),
        envelopes=tuple(sorted(envelopes.items())),
        request_id=request_id,
        error_id_required=error_id_required,
        error_object=error_object,
        envelope_fields=tuple(sorted(envelope_fields.items())),
    )


def _with_task_results(
    methods: list[ir.Method], entities: tuple[ir.Entity, ...], resolve: Any, flat: Any
) -> list[ir.Method]:
    """Requests whose params carry the property of `TaskAugmentedRequestParams` (the same `$ref`)
    may be answered by `CreateTaskResult` instead of their own result: such a request's result is
    the union of both, told apart structurally."""
    by_export = {e.export_name: e for e in entities if e.is_definition}
    by_name = {e.name: e for e in entities}
    augmented, task_result = by_export.get("TaskAugmentedRequestParams"), by_export.get("CreateTaskResult")
    if augmented is None or task_result is None:
        return methods
    marker = (flat(augmented).get("properties") or dict[str, Any]()).get("task")
    if not is_object(marker) or not isinstance(marker.get("$ref"), str):
        return methods
    by_pointer = {e.pointer: e for e in entities}

    def carries_task(params: ir.Entity | None) -> bool:
        if params is None:
            return False
        if params.kind is ir.Kind.UNION:  # elicitation's form / URL params: every arm must carry it
            arms = [by_pointer.get(arm) for arm in params.arms]
            return bool(arms) and all(arm is not None and carries_task(arm) for arm in arms)
        task = (flat(params).get("properties") or dict[str, Any]()).get("task")
        return is_object(task) and task.get("$ref") == marker["$ref"]

    updated: list[ir.Method] = []
    for method in methods:
        result = by_name.get(method.result or "")
        if result is not None and carries_task(by_name.get(method.params or "")):
            dispatch = discriminate.structural_dispatch([result.pointer, task_result.pointer], resolve)
            if isinstance(dispatch, ir.Dispatch):
                method = dataclasses.replace(method, task_result=task_result.name, task_dispatch=dispatch)
        updated.append(method)
    return updated


# The schema's enumerations are the `*/list` methods (tools/list, prompts/list, resources/list,
# resources/templates/list, roots/list, tasks/list where a revision has it).
LIST_SUFFIX = "/list"


def _with_list_results(methods: list[ir.Method], entities: tuple[ir.Entity, ...], flat: Any) -> list[ir.Method]:
    """A `*/list` request whose result holds exactly one required array of objects is a list
    result: each item stands alone (a tool, a prompt, a root), so a tolerant parse may drop an
    invalid one and keep the others. Other results holding arrays (tools/call `content`,
    prompts/get `messages`, resources/read `contents`) are one answer in parts, where dropping a
    part would change what the answer says: they are never list results."""
    by_name = {e.name: e for e in entities}
    by_pointer = {e.pointer: e for e in entities}
    updated: list[ir.Method] = []
    for method in methods:
        result = by_name.get(method.result or "")
        if method.kind == "request" and method.method.endswith(LIST_SUFFIX) and result is not None:
            found = _listed_items(result, flat, by_pointer)
            if len(found) == 1:
                (key, item), = found
                method = dataclasses.replace(method, list_key=key, list_item=item)
        updated.append(method)
    return updated


def _listed_items(result: ir.Entity, flat: Any, by_pointer: Mapping[str, ir.Entity]) -> set[tuple[str, str]]:
    """(wire key, item class) of each required array of objects the result holds: in its model, or
    in the models among its arms (a result union: InputRequiredResult or the method's own)."""
    candidates = [result] if result.kind is ir.Kind.MODEL else [by_pointer.get(arm) for arm in result.arms]
    found: set[tuple[str, str]] = set()
    for candidate in candidates:
        if candidate is None or candidate.kind is not ir.Kind.MODEL:
            continue
        shape = flat(candidate)
        properties: Mapping[str, Any] = shape.get("properties") or {}
        for key in shape.get("required") or ():
            schema = properties.get(key)
            if not is_object(schema) or schema.get("type") != "array" or not is_object(schema.get("items")):
                continue
            items: Mapping[str, Any] = schema["items"]
            inline = pointers.join(candidate.pointer, "properties", key, "items")
            ref = items.get("$ref")
            item = by_pointer.get(inline) or (by_pointer.get(ref) if isinstance(ref, str) else None)
            if item is not None and item.kind is not ir.Kind.ALIAS:  # a model or a union of them
                found.add((key, item.name))
    return found


def _with_wire_classes(
    methods: list[ir.Method], entities: tuple[ir.Entity, ...], envelopes: Mapping[str, str], flat: Any
) -> tuple[list[ir.Method], dict[str, tuple[ir.EnvelopeField, ...]]]:
    """Before 2025-11-25 no request (no notification) definition carries `jsonrpc` / `id`: the schema
    leaves them to the generic JSONRPCRequest / JSONRPCNotification, so the definition alone is not
    a message one can send. Each such method gets a wire class (`<Definition>Message`) adding the
    envelope's required properties the definitions of its kind lack. A revision where some
    definition of the kind carries `jsonrpc` has none: its others travel embedded (2026-07-28)."""
    by_name = {e.name: e for e in entities}
    by_pointer = {e.pointer: e for e in entities}
    taken = {e.name for e in entities} | {e.export_name for e in entities}
    wire_kinds = {m.kind for m in methods if m.wire}
    fields: dict[str, tuple[ir.EnvelopeField, ...]] = {}
    for kind in ("request", "notification"):
        mine = [m for m in methods if m.kind == kind]
        if mine and kind not in wire_kinds and kind in envelopes:
            declared = {key for m in mine for key in flat(by_name[m.message]).get("properties") or ()}
            fields[kind] = _envelope_fields(by_name[envelopes[kind]], declared, flat, by_pointer)
    names: dict[str, str] = {}
    for method in sorted(methods, key=lambda m: m.message):
        if fields.get(method.kind) and method.message not in names:
            name = method.message + "Message"
            while name in taken:  # never so far; a schema defining such a name keeps its own
                name += "_"
            taken.add(name)
            names[method.message] = name
    updated = [dataclasses.replace(m, wire_class=names[m.message]) if m.message in names else m for m in methods]
    return updated, {kind: found for kind, found in fields.items() if found}


def _envelope_fields(
    envelope: ir.Entity, declared: set[str], flat: Any, by_pointer: Mapping[str, ir.Entity]
) -> tuple[ir.EnvelopeField, ...]:
    """The envelope's required properties the definitions do not declare, each a constant or of a
    named type; () when one is neither (no wire class can carry it)."""
    properties: Mapping[str, Any] = flat(envelope).get("properties") or {}
    found: list[ir.EnvelopeField] = []
    for field in envelope.fields:
        if not field.required or field.wire_name in declared:
            continue
        type_ = None if field.constant else member_type(envelope, field.wire_name, properties.get(field.wire_name), by_pointer)
        if not field.constant and type_ is None:
            return ()
        found.append(ir.EnvelopeField(field.wire_name, field.python_name, field.constant, type_))
    return tuple(found)


def _side(name: str) -> str | None:
    if name.startswith("Client"):
        return "client"
    if name.startswith("Server"):
        return "server"
    return None


def _const(schema: Any, resolve: Any) -> Any:
    if not is_object(schema):
        return None
    if "$ref" in schema and "const" not in schema:
        schema = resolve(schema["$ref"])
    return schema.get("const")


def _error_shape(schema: Any, resolve: Any) -> Mapping[str, Any]:
    if not is_object(schema):
        return {}
    if "$ref" in schema and set(schema) <= {"$ref", "description"}:
        schema = resolve(schema["$ref"])
    flat: Mapping[str, Any] = schemas.flatten_all_of(dict(schema), resolve)
    return flat


def _property_type(entity: ir.Entity, schema: Any, by_pointer: Mapping[str, ir.Entity]) -> str | None:
    return member_type(entity, "params", schema, by_pointer)


def member_type(entity: ir.Entity, name: str, schema: Any, by_pointer: Mapping[str, ir.Entity]) -> str | None:
    """The class or alias of property `name` of entity: hoisted in place, or named by `$ref`."""
    if not is_object(schema):
        return None
    inline = pointers.join(entity.pointer, "properties", name)
    if inline in by_pointer:
        return by_pointer[inline].name
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref in by_pointer:
        return by_pointer[ref].name
    return None


def _result_type(
    request: str, names: set[str], entities: tuple[ir.Entity, ...], flat: Any, generic: frozenset[str]
) -> str | None:
    stem = request[: -len("Request")]
    by_export = {e.export_name: e for e in entities if e.is_definition}
    by_pointer = {e.pointer: e for e in entities}
    response = by_export.get(stem + "ResultResponse")
    found = _response_result(response, flat, by_pointer, generic) if response is not None else None
    if found is not None:
        return found
    for candidate in (stem + "Result", "EmptyResult", "Result"):
        if candidate in names:
            return by_export[candidate].name
    return None


def _response_result(
    response: ir.Entity,
    flat: Any,
    by_pointer: Mapping[str, ir.Entity],
    generic: frozenset[str],
    seen: frozenset[str] = frozenset(),
) -> str | None:
    """The type of a response's `result` (its own property, or one its `allOf` brings).

    A response that is a union of envelopes (the draft of February 2026: GetTaskPayloadResultResponse,
    the generic JSONRPCIncompleteResultResponse or this method's own) is answered by the result of its
    own arm: the generic envelopes are alternatives every request has, handled as for every method."""
    if response.kind is ir.Kind.MODEL:
        properties: Mapping[str, Any] = flat(response).get("properties") or {}
        return member_type(response, "result", properties.get("result"), by_pointer)
    if response.kind is not ir.Kind.UNION or response.pointer in seen:  # seen: a union that holds itself
        return None
    own = [by_pointer.get(arm) for arm in response.arms if arm not in generic]
    inside = seen | {response.pointer}
    results = {_response_result(arm, flat, by_pointer, generic, inside) for arm in own if arm is not None} - {None}
    return results.pop() if len(results) == 1 else None


def _response_type(request: str, entities: tuple[ir.Entity, ...]) -> str | None:
    """The class of the whole success response: a definition that is a model (a union of envelopes
    is no class: such a method's response is the generic one, typed by its result)."""
    stem = request[: -len("Request")]
    return next(
        (
            e.name
            for e in entities
            if e.is_definition and e.export_name == stem + "ResultResponse" and e.kind is ir.Kind.MODEL
        ),
        None,
    )


def _envelope_kind(properties: Mapping[str, Any], required: set[str]) -> str | None:
    """JSON-RPC envelopes: `jsonrpc` required and `method` (if any) not pinned."""
    if "jsonrpc" not in required:
        return None
    if {"id", "method"} <= required:
        return "request"
    if "method" in required and "id" not in properties:
        return "notification"
    if "result" in required:
        return "result"
    if "error" in required:
        return "error"
    return None


def _first_per_code(pairs: list[tuple[int, str]]) -> list[tuple[int, str]]:
    seen: dict[int, str] = {}
    for code, name in sorted(pairs, key=lambda p: (p[0], p[1])):
        seen.setdefault(code, name)
    return list(seen.items())



