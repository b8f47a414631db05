"""Who sends each definition of a revision, derived from the schema itself.

Roots, each with the side(s) sending it:
- the message unions `ClientRequest`/`ClientNotification`/`ClientResult` (client) and the `Server*`
  ones (server), whichever the revision has (2026-07-28 has no ServerRequest and its
  ClientNotification is a single model);
- each method's message, sent by the method table's senders, and its result and response, sent by
  the other side. A method carried inside another message (2026-07-28's `elicitation/create` in an
  InputRequiredResult) has no senders in the table: it is sent by whoever sends what carries it;
- error definitions (a pinned `code`), sent by the side(s) that receive wire requests;
- the JSON-RPC envelopes, by the sides sending requests, notifications or answers.

Every definition reachable from a root through `$ref` is sent by that root's side(s); the side
receiving it is the other one. A union none of whose arms is left unattributed (JSONRPCMessage)
is sent by whoever sends its arms. Definitions reached from nothing are on no wire.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen.analysis import ir
from codegen.schema import pointers, schemas
from codegen.diff.source import Side, definition_of
from codegen.schema.jsontypes import is_array, is_object
CLIENT = "client"
SERVER = "server"
SIDES = (CLIENT, SERVER)
OTHER = {CLIENT: SERVER, SERVER: CLIENT}
_MESSAGE_UNION = re.compile(r"^(Client|Server)(Request|Notification|Result)$")


def receivers_of(senders: Iterable[str]) -> frozenset[str]:
    return frozenset(OTHER[s] for s in senders)


@dataclass(frozen=True)
class MethodInfo:
    method: str
    kind: str  # "request" | "notification"
    senders: frozenset[str]  # including a method carried inside other messages
    wire: bool  # a message of its own (an arm of a Client*/Server* union), not carried inside another
    message: str  # definition of the whole message
    results: frozenset[str]  # definitions a request may be answered with
    definitions: frozenset[str]  # everything its message and result reach


@dataclass(frozen=True)
class Directions:
    senders: Mapping[str, frozenset[str]]  # definition -> sides sending it
    methods: Mapping[str, MethodInfo] = field(default_factory=dict[str, MethodInfo])

    def sides(self, definition: str) -> frozenset[str]:
        return self.senders.get(definition, frozenset())


def references(side: Side) -> dict[str, frozenset[str]]:
    """For each definition, the definitions its schema refers to directly."""
    graph: dict[str, frozenset[str]] = {}
    for name, node in side.defs.items():
        targets = {
            definition_of(sub["$ref"])
            for _, sub in schemas.all_subschemas(node, pointers.join("#", "$defs", name), revision=side.label)
            if isinstance(sub.get("$ref"), str)
        }
        graph[name] = frozenset(t for t in targets if t is not None and t in side.defs)
    return graph


def closure(graph: Mapping[str, frozenset[str]], starts: Iterable[str]) -> frozenset[str]:
    seen: set[str] = set()
    stack = [s for s in starts if s in graph]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        stack.extend(graph[name] - seen)
    return frozenset(seen)


def directions(side: Side) -> Directions:
    graph = references(side)
    tables = side.revision.methods
    entities = side.entities
    roots: dict[str, set[str]] = {}

    def root(name: str | None, sides: Iterable[str]) -> None:
        if name is not None and name in side.defs:
            roots.setdefault(name, set()).update(sides)

    for name in side.defs:
        match = _MESSAGE_UNION.match(name)
        if match:
            root(name, (match.group(1).lower(),))

    def results(method: ir.Method) -> frozenset[str]:
        """Definitions answering a request: its result's definition, or the arms of a result union."""
        names: set[str] = set()
        entity = entities.get(method.result or "")
        if entity is not None:
            if entity.kind is ir.Kind.UNION and not entity.is_definition:
                names.update(d for d in (definition_of(a) for a in entity.arms) if d is not None)
            else:
                names.add(entity.definition_name)
        return frozenset(n for n in names if n in side.defs)

    def definition(name: str | None) -> str | None:
        entity = entities.get(name or "")
        return entity.definition_name if entity is not None else None

    senders = {m.method: set(m.senders) for m in tables.methods}
    for method in tables.methods:
        root(definition(method.message), method.senders)
        for answer in (*results(method), definition(method.response)):
            root(answer, receivers_of(method.senders))
    # The table's senders come from the message unions: a method carried inside other messages has none.
    wire_requests = {s for m in tables.methods if m.kind == "request" for s in m.senders}
    for _, name in (*tables.error_responses, *tables.error_objects):
        root(definition(name), receivers_of(wire_requests))
    by_kind = {
        "request": wire_requests,
        "notification": {s for m in tables.methods if m.kind == "notification" for s in m.senders},
        "result": receivers_of(wire_requests),
        "error": receivers_of(wire_requests),
    }
    for kind, name in tables.envelopes:
        root(definition(name), by_kind.get(kind, ()))

    attributed = _spread(graph, roots)
    # A method carried inside other messages is sent by whoever sends its message; its result
    # comes back from the other side.
    for _ in range(3):
        grew = False
        for method in tables.methods:
            if method.senders:
                continue
            found = attributed.get(definition(method.message) or "", frozenset())
            if found - senders[method.method]:
                senders[method.method] |= found
                for answer in results(method):
                    root(answer, receivers_of(found))
                grew = True
        if not grew:
            break
        attributed = _spread(graph, roots)
    attributed = _unions_of_attributed(side, graph, attributed)

    methods: dict[str, MethodInfo] = {}
    for method in tables.methods:
        message = definition(method.message) or method.message
        answers = results(method)
        reach = closure(graph, [message, *answers, *(d for d in [definition(method.response)] if d)])
        methods[method.method] = MethodInfo(
            method=method.method,
            kind=method.kind,
            senders=frozenset(senders[method.method]),
            wire=bool(method.senders),
            message=message,
            results=answers,
            definitions=reach,
        )
    return Directions(attributed, methods)


def _spread(graph: Mapping[str, frozenset[str]], roots: Mapping[str, set[str]]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for name, sides in roots.items():
        for reached in closure(graph, [name]):
            found.setdefault(reached, set()).update(sides)
    return {name: frozenset(sides) for name, sides in found.items()}


def _unions_of_attributed(
    side: Side, graph: Mapping[str, frozenset[str]], attributed: dict[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """Unions reached from no root but whose arms all are (JSONRPCMessage, JSONRPCResponse): sent by
    whoever sends the arms."""
    result = dict(attributed)
    changed = True
    while changed:
        changed = False
        for name, node in side.defs.items():
            if name in result or not _is_union(node):
                continue
            arms = graph[name]
            if arms and all(arm in result for arm in arms):
                result[name] = frozenset().union(*(result[arm] for arm in arms))
                changed = True
    return result


def _is_union(node: Any) -> bool:
    return is_object(node) and any(is_array(node.get(key)) for key in ("anyOf", "oneOf"))


def enveloped_messages(side: Side) -> dict[str, str]:
    """Messages the revision writes without their JSON-RPC envelope (`jsonrpc`, `id`): before
    2025-11-25 a request was JSONRPCRequest and ClientRequest at once. Message -> envelope."""
    tables = side.revision.methods
    envelopes = {kind: side.entities[name].definition_name for kind, name in tables.envelopes if name in side.entities}
    found: dict[str, str] = {}
    for method in tables.methods:
        entity = side.entities.get(method.message)
        envelope = envelopes.get(method.kind)
        if entity is None or envelope is None or not method.senders or method.wire:
            continue
        found[entity.definition_name] = envelope
    return found
