"""The surface's send and receive engine: `Surface`, built once by the surface package's wire.py
from its tables (`_tables.py`: the revisions it spans, their packages, SHAPES, WIRE_SHAPES,
WIDENED, RENAMED, ABSENT_MEANS, METHODS), its models and messages modules and its own package name
(the revision packages are its siblings), does what the public functions of `surface.wire` do; the
wire module holds their typed signatures and binds them to its Surface's methods. Nothing here
knows a revision. What the functions do, for their callers, is said in wire.py's docstring and
docs/surface.md; the walks that need only model classes are in fields.py.

Receive: the revision's own parse first (its errors propagate, explained where another revision
defines the key or value it refused), then the surface's class of what it read, then `remember`.
Send: the object's dump fitted to the revision (`_fit`: keys it lacks dropped, widened values
downgraded, spec-stated values and constants filled in), validated by the revision's class; where
the fit would give the dump back as it is (`_left_as_dumped`), the revision validates the dump's
text itself.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType, UnionType
from typing import Annotated, Any, Literal, TypeAlias, Union, cast, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import MISSING, from_json, to_json

from .base import union_arms
from .fields import (
    Foreign,
    arrived,
    classes_in,
    declared_foreign,
    holds_objects,
    is_array,
    remember,
    walked_keys,
    walks_below,
    wire_names,
)
from .reading import MessageError, NotJSONError, RawJSON, json_numbers_only, load_any_depth
from .tolerant import DroppedItem, Tolerated

__all__ = [
    "Change",
    "ChangeKind",
    "DowngradeMode",
    "MethodAcross",
    "RevisionError",
    "Shape",
    "Surface",
    "Widened",
]


@dataclass(frozen=True)
class Shape:
    """One surface class as one revision has it."""

    model: str | None
    keys: frozenset[str]
    required: frozenset[str]
    open: bool
    envelope: str | None = None
    """Set for a wire class (`model` is then in the revision's messages module): the generic
    envelope (models module) the definition leaves `jsonrpc` / `id` to."""


@dataclass(frozen=True)
class Widened:
    """A property SEP-2106 widened: what send does where a revision cannot carry its value."""

    fallback: str | None
    """The sibling array of content blocks that gets a TextContent holding the value's JSON (unless
    one already holds it); None: the value is only left out."""


@dataclass(frozen=True)
class MethodAcross:
    """One method across the revisions: derived from their schemas, not kept by hand."""

    method: str
    kind: str
    """"request" or "notification"."""
    revisions: tuple[str, ...]
    """The revisions that have the method, oldest first."""
    senders: dict[str, tuple[str, ...]]
    """Per revision: who sends it ("client", "server")."""
    message: dict[str, str]
    """Per revision: the class of the whole message in that revision's models."""
    params: dict[str, str | None]
    """Per revision: the class of its params."""
    result: dict[str, str | None]
    """Per revision: the class of the result answering it (requests)."""
    surface: tuple[str, str | None, str | None]
    """The surface's classes: message, params, result."""


class RevisionError(ValueError):
    """A surface object a revision cannot carry, a protocol version this surface does not span, or a
    received message the session's revision refuses for a key or value another revision defines
    (`defined_in`: the pinned revisions that define it; the revision's ValidationError is the
    `__cause__`).

    Its message is one line of at most 300 characters (control characters escaped; a long one
    keeps its start, which names the place, and its end, which says what to do)."""

    def __init__(
        self, message: str, *, revision: str, path: str = "", defined_in: tuple[str, ...] = ()
    ) -> None:
        # a path is the peer's keys: bounded on its own, so it cannot crowd out what the line says
        line = f"{_one_line(path, _PATH_LIMIT)}: {message}" if path else message
        super().__init__(_one_line(line))
        self.revision = revision
        self.path = path
        self.defined_in = defined_in


_MESSAGE_LIMIT = 300
_PATH_LIMIT = 100


def _one_line(text: str, limit: int = _MESSAGE_LIMIT) -> str:
    """text on one line of at most limit characters: what is not printable (a peer's key
    with a newline, an escape sequence, a bidi control) as its escape."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) <= limit:
        return text
    head = limit // 2 - 3
    tail = limit - head - 1
    return f"{text[:head]}…{text[-tail:]}"


DowngradeMode: TypeAlias = Literal["fallback", "refuse"]
"""What send does with a value the revision cannot carry that a later revision can (SEP-2106):
"fallback" leaves it out and, for structured content, keeps its JSON in a TextContent;
"refuse" raises RevisionError."""
_DOWNGRADE_MODES: tuple[str, ...] = get_args(DowngradeMode)

ChangeKind: TypeAlias = Literal["dropped", "downgraded", "added", "filled"]
""""dropped": a key the revision does not define; "downgraded": a value it cannot carry that a later
revision can, left out (SEP-2106); "added": a TextContent holding a downgraded value's JSON;
"filled": a required key whose absence the spec gives a meaning (`ABSENT_MEANS`)."""


@dataclass(frozen=True)
class Change:
    """One change `send` / `to_revision` made so that the revision carries the object."""

    kind: ChangeKind
    path: str
    """JSON pointer of the key (or of the added block) in what is sent (`/result/...` in a
    response). "dropped" and "downgraded" paths are the ones `dropped` lists."""
    reason: str
    """One line saying why."""
    fallback: str | None = None
    """For "downgraded" structured content: the pointer of the TextContent holding its JSON (added
    by send, or one the object already had)."""


@dataclass
class _Sending:
    """One send: the revision, what to do with widened values, and where changes are reported."""

    revision: str
    downgrade: DowngradeMode
    dropped: list[str] | None
    changes: list[Change] | None

    @property
    def reporting(self) -> bool:
        return self.dropped is not None or self.changes is not None

    def note(self, change: Change) -> None:
        if self.dropped is not None and change.kind in ("dropped", "downgraded"):
            self.dropped.append(change.path)
        if self.changes is not None:
            self.changes.append(change)


@dataclass(frozen=True)
class _Plan:
    """How `_fit` treats a surface class at a revision that widened none of its keys: absent, the
    keys the class declares that the revision does not (an instance must have none of them for
    nothing to be dropped); holds, the keys an instance must have for nothing to be filled in
    either (a constant or `resultType` the revision requires); walk, the (wire key, attribute) of
    the fields that may hold something `_fit` changes, walked as `_fit` walks them. The other
    fields are left as dumped: the classes their types hold need no change at any depth."""

    absent: tuple[str, ...]
    holds: tuple[str, ...]
    walk: tuple[tuple[str, str], ...]
    unset: tuple[str, ...]
    """The attributes of `absent`: what `_left_as_dumped` reads on an instance."""
    held: tuple[tuple[str, str], ...]
    """(key, attribute) of `holds`; the attribute "" where the class does not declare the key (an
    instance then has it as an unknown key or not at all)."""


# isinstance's classes on the hot paths as tuples: `a | b` there builds a union on every call.
_TEXT = (bytes, bytearray, str)
_CONTAINERS = (dict, list)
_SEQUENCES = (list, tuple)

# (the revision's history module, a ValidationError) -> its Explanation, or None
_Explain: TypeAlias = Callable[[Any, ValidationError], Any]


class Surface:
    """The send and receive engine of one surface package (see the module's docstring).

    package: the surface package's name (its revision packages are its siblings: `..<package>`);
    models, messages: its models and messages modules; the rest: its tables (`_tables.py`)."""

    def __init__(
        self,
        package: str | None,
        models: ModuleType,
        messages: ModuleType,
        *,
        revisions: tuple[str, ...],
        packages: Mapping[str, str],
        renamed: Mapping[str, str],
        absent_means: Mapping[str, str],
        shapes: Mapping[str, Mapping[str, Shape]],
        wire_shapes: Mapping[str, Mapping[str, Shape]],
        widened: Mapping[str, Mapping[str, Widened]],
        methods: Mapping[str, MethodAcross],
    ) -> None:
        self.package = package
        self.models = models
        self.messages = messages
        self.revisions = revisions
        self.packages = packages
        self.renamed = renamed
        self.absent_means = absent_means
        self.shapes = shapes
        self.wire_shapes = wire_shapes
        self.widened = widened
        self.methods = methods
        # (revision, wire class) -> the surface class it is received as
        self._sent_as: dict[tuple[str, str], str] = {
            (revision, cast(str, shape.model)): name
            for name, per_revision in wire_shapes.items()
            for revision, shape in per_revision.items()
        }
        # _left_as_dumped's plans by revision, then by class, filled in as classes are met
        self._plans: dict[str, dict[type[BaseModel], _Plan | Literal[False] | None]] = {}
        # looked up once per argument; a method's @cache would key on the Surface and keep it
        self._package = cache(self._find_package)
        self._history = cache(self._find_history)
        self._models = cache(self._find_models)
        self._messages = cache(self._find_messages)
        self._class_of = cache(self._find_class_of)
        self._constants = cache(self._find_constants)
        self._surface_class = cache(self._find_surface_class)
        self._surface_class_of = cache(self._find_surface_class_of)
        self._own_class = cache(self._find_own_class)
        self._fit_plan = cache(self._find_fit_plan)
        self._carries_any = cache(self._find_carries_any)
        self._unchanged = cache(self._find_unchanged)
        self._introduced = cache(self._find_introduced)
        self._property_adapter = cache(self._find_property_adapter)
        self._foreign = cache(self._find_foreign)
        # parse_message's common case, per revision: (its package's parse_message, per revision
        # class read so far its surface class's validator and whether remember walks there, the
        # note rule)
        self._receiving: dict[
            str, tuple[Callable[..., Any], dict[type[object], tuple[Any, bool]], Foreign]
        ] = {}

    # -- the revisions -----------------------------------------------------------------------------

    def revision_of(self, protocol_version: str) -> str:
        """The revision of a negotiated protocol version string (the same string, if spanned)."""
        if protocol_version in self.packages:
            return protocol_version
        raise RevisionError(
            f"protocol version {protocol_version!r} is not one this surface spans "
            f"({', '.join(self.revisions)})",
            revision=protocol_version,
        )

    def _find_package(self, revision: str) -> ModuleType:
        return importlib.import_module(f"..{self.packages[revision]}", self.package)

    def _find_history(self, revision: str) -> ModuleType:
        """The revision's history module: imported only to explain a refusal."""
        return importlib.import_module(f"..{self.packages[revision]}.history", self.package)

    def _find_models(self, revision: str) -> ModuleType:
        return importlib.import_module(f"..{self.packages[revision]}.models", self.package)

    def _find_messages(self, revision: str) -> ModuleType:
        return importlib.import_module(f"..{self.packages[revision]}.messages", self.package)

    def _find_class_of(self, revision: str, shape: Shape) -> type[BaseModel]:
        """The revision's class of a shape: a wire class in its messages module, else in its
        models."""
        module = self._messages(revision) if shape.envelope else self._models(revision)
        return cast("type[BaseModel]", getattr(module, cast(str, shape.model)))

    def _find_constants(self, revision: str, shape: Shape) -> dict[str, Any]:
        """Wire key -> value of each constant the revision's class requires, which its own models
        fill in when building (the surface's may be optional: `jsonrpc` is absent before
        2025-11-25)."""
        if shape.model is None:
            return {}
        constants: dict[str, Any] = getattr(
            self._class_of(revision, shape), "__mcp_constants__", {}
        )
        return constants

    def _find_surface_class(self, name: str) -> object:
        """A class of the surface's models module (looked up at run time: wire.py names no model
        class)."""
        return getattr(self.models, name)

    def revision_classes(self, method: str, protocol_version: str) -> tuple[Any, Any, Any]:
        """(message class, params type, result type) of a method in that revision's models; a
        method the revision does not have is a RevisionError."""
        revision = self.revision_of(protocol_version)
        row = self.methods.get(method)
        if row is None or revision not in row.message:
            raise RevisionError(
                f"method {method!r} does not exist in revision {revision}", revision=revision
            )
        models = self._models(revision)
        params, result = row.params[revision], row.result[revision]
        return (
            getattr(models, row.message[revision]),
            getattr(models, params) if params else None,
            getattr(models, result) if result else None,
        )

    # -- receive -----------------------------------------------------------------------------------

    def parse_message(
        self,
        raw: RawJSON,
        *,
        protocol_version: str,
        pending: Any = None,
        tolerant: bool = False,
    ) -> Any:
        """One JSON-RPC message received in a session at protocol_version, as the surface's object.

        It is validated by that revision's own `parse_message` first (its errors propagate), so the
        wire is exactly what that revision allows; pending: the methods of requests awaiting a
        response, by id (a response to one comes back typed by its method). tolerant: a
        `Tolerated[Message]`, where a response to a pending list request leaves out the items that
        revision cannot read (`/result/tools/3`) instead of failing."""
        receiving = self._receiving.get(protocol_version)
        if receiving is not None and not tolerant:
            # the common case written out (a tenth of a receive was calls between these steps):
            # anything else, a refusal included, takes the general path below, which explains it
            parse, readers, foreign = receiving
            try:
                exact: object = parse(raw, pending)
            except ValueError:
                exact = None
            found = readers.get(type(exact)) if exact is not None else None
            if found is not None:
                reader, walks = found
                if reader is None:  # a typed response: the surface's dispatch reads it
                    return self._received(exact, raw, protocol_version, pending)
                try:
                    message = _read(reader, raw)
                except ValidationError:
                    pass
                else:
                    if walks or cast("BaseModel", exact).__pydantic_extra__:
                        remember(exact, message, protocol_version, foreign)
                    return message
        if protocol_version in self.packages:
            revision = protocol_version
        else:
            revision = self.revision_of(protocol_version)
        if tolerant:
            return self._tolerant_message(raw, revision, pending)
        read: object = self._exact_message(raw, revision, pending)
        received = self._received(read, raw, revision, pending)
        self._learn_reader(revision, type(read))
        return received

    def _learn_reader(self, revision: str, exact: type[object]) -> None:
        """Let parse_message's common case read the revision's class exact as `_as_surface` does:
        (its surface class's validator, whether `remember` walks below that pair of classes); a
        typed response, which has none, (None, False): `_received` reads it without a second parse
        of the revision's."""
        receiving = self._receiving.get(revision)
        if receiving is None:
            readers: dict[type[object], tuple[Any, bool]] = {}
            parse = cast("Callable[..., Any]", self._package(revision).parse_message)
            self._receiving[revision] = (parse, readers, self._foreign(revision))
        else:
            readers = receiving[1]
        if exact not in readers and issubclass(exact, BaseModel):
            model = self._surface_class_of(revision, exact.__name__)
            if model is None:
                readers[exact] = (None, False)
            else:
                walks = walks_below(exact, model, self._foreign(revision))
                readers[exact] = (model.__pydantic_validator__, walks)

    def _exact_message(
        self, raw: RawJSON, revision: str, pending: Any, *, tolerant: bool = False
    ) -> Any:
        """The revision's own parse of a message; its MessageError becomes the surface's."""
        package = self._package(revision)
        try:
            if tolerant:
                return package.parse_message(raw, pending, tolerant=True)
            return package.parse_message(raw, pending)
        except ValidationError as exc:
            self._explain_refusal(
                exc, revision, lambda history, error: history.explain_message(error, raw, pending)
            )
            raise
        except package.MessageError as exc:  # an except clause's class is looked up only on one
            own_parse_error: type[Exception] = package.NotJSONError
            kind = NotJSONError if isinstance(exc, own_parse_error) else MessageError
            raise kind(str(exc)) from exc

    def _tolerant_message(self, raw: RawJSON, revision: str, pending: Any) -> Tolerated[Any]:
        """parse_message(..., tolerant=True), read from the value decoded where the text is nested
        deeper than pydantic-core's parser reads (_deeply_nested)."""
        try:
            return self._tolerant_message_of(raw, revision, pending)
        except ValueError:
            decoded = _deeply_nested(raw)
            if decoded is None:
                raise
        return self._tolerant_message_of(decoded, revision, pending)

    def _tolerant_message_of(self, raw: RawJSON, revision: str, pending: Any) -> Tolerated[Any]:
        """parse_message(..., tolerant=True): the revision's tolerant parse first; where the
        surface then refuses an item the revision kept, the surface's own tolerant parse names the
        items it refuses, and both parses run again without every item either left out."""
        own = cast("Tolerated[object]", self._exact_message(raw, revision, pending, tolerant=True))
        try:
            received = self._received(own.value, _without(raw, own.dropped), revision, pending)
            return Tolerated(received, own.dropped)
        except RevisionError as exc:
            refused = exc
        parse_any = self.messages.parse_message
        dropped = _also_refused(own.dropped, lambda: parse_any(raw, pending, tolerant=True).dropped)
        if dropped is None:
            raise refused
        kept = _without(raw, dropped)
        exact = self._exact_message(kept, revision, pending)
        return Tolerated(self._received(exact, kept, revision, pending), dropped)

    def _received(self, exact: object, raw: RawJSON, revision: str, pending: Any) -> Any:
        """The surface's object of a message the revision's own parse gave as exact."""
        try:  # the surface holds it, written out: a context manager costs a tenth of a read
            message = (
                self._as_surface(exact, raw, revision)
                or self._typed_result(exact, raw, pending)
                or self.messages.parse_message(raw, pending)
            )
        except ValidationError as exc:
            raise self._surface_refused(
                exc, revision, lambda history, error: history.explain(error, type(exact))
            ) from exc
        remember(exact, message, revision, self._foreign(revision))
        return message

    def _typed_result(self, exact: object, raw: RawJSON, pending: Any) -> Any:
        """A success response the revision typed by a result class the surface's response for
        that method does not offer (2025-11-25 answers a task-augmented `tools/call` with
        CreateTaskResult, which later revisions dropped): the surface's ResultResponse typed by the
        surface class of that result. None for any other message (the surface's own dispatch then
        agrees with the revision)."""
        result = getattr(exact, "result", None)
        request_id = getattr(exact, "id", None)
        lookup = cast("Mapping[str | int, str] | None", pending)
        if lookup is not None and isinstance(request_id, str | int):
            method = lookup.get(request_id)
        else:
            method = None
        if method is None or not isinstance(result, BaseModel):
            return None
        name = self.renamed.get(type(result).__name__, type(result).__name__)
        model = getattr(self.models, name, None)
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        response = cast("Mapping[str, type[BaseModel]]", self.messages.RESPONSES).get(method)
        if response is None or model in _result_classes(response):
            return None
        # a class known only at run time
        typed = cast("type[BaseModel]", self.messages.ResultResponse[model])
        return typed.model_validate(_object_of(raw))

    def _explain_refusal(self, error: ValidationError, revision: str, explain: _Explain) -> None:
        """A RevisionError naming the key or value another revision defines, where that explains
        why the session's revision refused the message (explain: the revision's history module and
        the error -> its Explanation or None); otherwise nothing, and the caller re-raises the
        ValidationError."""
        found = explain(self._history(revision), error)
        if found is not None:
            raise RevisionError(
                f"{found.subject} is {found.span}; this session negotiated {revision}",
                revision=revision,
                path=found.path,
                defined_in=found.defined_in,
            ) from error

    def _surface_refused(
        self, exc: ValidationError, revision: str, explain: _Explain
    ) -> RevisionError:
        """The surface's refusal exc of what the revision accepted. It refuses only a key the
        revision does not define, kept by it as an unknown key, that another revision defines with
        a type this value does not fit (`icons: null` received at 2025-06-18): a RevisionError
        naming it and the revisions that define it, never a raw ValidationError (the revision's own
        models read such a message; parse it with them). explain: (the revision's history module,
        the surface's error) -> an Explanation, from the revision's type the message was read as,
        or None."""
        path, message = _first_problem(exc)
        found = explain(self._history(revision), exc)
        if found is not None:
            return RevisionError(
                f"{found.subject} is {found.span}; this session negotiated {revision}, which keeps "
                f"it as an unknown key, but no revision's type for it takes this value ({message})",
                revision=revision,
                path=found.path,
                defined_in=found.defined_in,
            )
        return RevisionError(
            f"{message}: received at {revision} as a key that revision does not define, it is "
            "another revision's property, and the surface's type for it refuses this value",
            revision=revision,
            path=path,
        )

    def _as_surface(self, exact: object, raw: RawJSON, revision: str) -> Any:
        """raw as the surface class of the revision's own class for it: a method the revision does
        not define stays a plain JSON-RPC request or notification, as that revision read it; a
        wire class is its definition's surface class. None for another class of the revision's
        messages module (a typed response): the surface's dispatch agrees."""
        model = self._surface_class_of(revision, type(exact).__name__)
        if model is None:
            return None
        # the class's validator itself: model_validate_json adds a frame and its options' checks
        return _read(model.__pydantic_validator__, raw)

    def _find_foreign(self, revision: str) -> Foreign:
        """The keys receive notes on a pair of classes at revision (`remember`): the keys the
        surface's class declares that the revision's beside it does not, less those that sending
        treats alike noted or not. Those are where the revision's definition of the surface's
        class is open: `_fit_object` keeps an unknown key there as dumped, as it keeps a noted one,
        unless the class's revision declares it or SEP-2106 widened it."""
        shapes, widened, wire_shapes = self.shapes, self.widened, self.wire_shapes

        @cache
        def foreign(exact: type[BaseModel], surface: type[BaseModel]) -> frozenset[str]:
            keys = declared_foreign(exact, surface)
            name = surface.__name__
            shape = shapes.get(name, {}).get(revision)
            if not keys or shape is None or not shape.open or revision in wire_shapes.get(name, {}):
                return keys
            kept = widened.get(name, {})
            return frozenset(key for key in keys if key in kept or key in shape.keys)

        return foreign

    def _find_surface_class_of(self, revision: str, exact: str) -> type[BaseModel] | None:
        """_as_surface's class for the revision's class named exact (looked up once per name)."""
        name = self._sent_as.get((revision, exact)) or self.renamed.get(exact, exact)
        model = getattr(self.models, name, None)
        if not (isinstance(model, type) and issubclass(model, BaseModel)) or "[" in name:
            return None
        return model

    def parse_result(
        self,
        method: str,
        raw: RawJSON | BaseModel,
        *,
        protocol_version: str,
        tolerant: bool = False,
    ) -> Any:
        """The result of a request for method, received in a session at protocol_version:
        validated by that revision's own `parse_result`, returned as the surface's result.
        tolerant (a list method): a `Tolerated` result without the list items that revision cannot
        read."""
        revision = self.revision_of(protocol_version)
        if tolerant:
            return self._tolerant_result(method, raw, revision)
        try:
            exact: object = self._package(revision).parse_result(method, raw)
        except ValidationError as exc:
            self._explain_refusal(
                exc, revision, lambda history, error: history.explain_result(error, method)
            )
            raise
        return self._surface_result(method, exact, raw, revision)

    def _surface_result(
        self, method: str, exact: object, raw: RawJSON | BaseModel, revision: str
    ) -> Any:
        """The surface's result of what the revision's own parse gave as exact."""
        try:
            result = self.messages.parse_result(method, raw)
        except ValidationError as exc:
            raise self._surface_refused(
                exc, revision, lambda history, error: history.explain_result(error, method)
            ) from exc
        remember(exact, result, revision, self._foreign(revision))
        return result

    def _tolerant_result(
        self, method: str, raw: RawJSON | BaseModel, revision: str
    ) -> Tolerated[Any]:
        """parse_result(..., tolerant=True), read from the value decoded where the text is nested
        deeper than pydantic-core's parser reads (_deeply_nested)."""
        try:
            return self._tolerant_result_of(method, raw, revision)
        except ValueError:
            decoded = _deeply_nested(raw)
            if decoded is None:
                raise
        return self._tolerant_result_of(method, decoded, revision)

    def _tolerant_result_of(
        self, method: str, raw: RawJSON | BaseModel, revision: str
    ) -> Tolerated[Any]:
        """parse_result(..., tolerant=True), as _tolerant_message_of does it."""
        package = self._package(revision)
        own = cast("Tolerated[object]", package.parse_result(method, raw, tolerant=True))
        try:
            kept_raw = _without(raw, own.dropped)
            return Tolerated(
                self._surface_result(method, own.value, kept_raw, revision), own.dropped
            )
        except RevisionError as exc:
            refused = exc
        parse_any = self.messages.parse_result  # any other method's tolerant parse drops nothing
        dropped = _also_refused(own.dropped, lambda: parse_any(method, raw, tolerant=True).dropped)
        if dropped is None:
            raise refused
        kept = _without(raw, dropped)
        exact = package.parse_result(method, kept)
        return Tolerated(self._surface_result(method, exact, kept, revision), dropped)

    def parse_as(self, model: Any, raw: RawJSON, *, protocol_version: str) -> Any:
        """raw (JSON text or decoded) as a surface class or type alias (a union such as
        ContentBlock), validated first by that revision's own type of the same name; one the
        revision does not have is a RevisionError."""
        revision = self.revision_of(protocol_version)
        target: Any = model  # kept apart: the checks below narrow `model`
        name = str(getattr(model, "__name__", model))
        if isinstance(model, type) and issubclass(model, BaseModel):
            shape = self.shapes.get(name, {}).get(revision)
            own: object = (
                getattr(self._models(revision), shape.model) if shape and shape.model else None
            )
        else:
            own = getattr(self._models(revision), name, None)
        if own is None:
            raise RevisionError(f"{name} does not exist in revision {revision}", revision=revision)
        try:
            if isinstance(raw, _TEXT):
                json_numbers_only(raw)
            exact = _read(_adapter(own), raw)
        except ValidationError as exc:
            self._explain_refusal(exc, revision, lambda history, error: history.explain(error, own))
            raise
        try:
            parsed = _read(_adapter(target), raw)
        except ValidationError as exc:
            raise self._surface_refused(
                exc, revision, lambda history, error: history.explain(error, own)
            ) from exc
        remember(exact, parsed, revision, self._foreign(revision))
        return parsed

    # -- send --------------------------------------------------------------------------------------

    def send(
        self,
        obj: BaseModel,
        protocol_version: str,
        *,
        dropped: list[str] | None = None,
        changes: list[Change] | None = None,
        downgrade: DowngradeMode = "fallback",
    ) -> str:
        """The wire JSON of a surface object in a session at protocol_version (`to_revision`,
        dumped)."""
        sent = self.to_revision(
            obj, protocol_version, dropped=dropped, changes=changes, downgrade=downgrade
        )
        return sent.model_dump_json()

    def to_revision(
        self,
        obj: BaseModel,
        protocol_version: str,
        *,
        dropped: list[str] | None = None,
        changes: list[Change] | None = None,
        downgrade: DowngradeMode = "fallback",
    ) -> BaseModel:
        """That revision's exact model of a surface object (see wire.py's docstring).

        dropped, when given, receives the JSON pointer of every key left out; changes, every
        `Change`. downgrade: what to do with a value a later revision widened that this one cannot
        carry (SEP-2106): "fallback" leaves it out (a non-object structuredContent's JSON goes into
        a TextContent, unless one already holds it); "refuse" raises RevisionError naming it."""
        if downgrade not in _DOWNGRADE_MODES:
            modes = ", ".join(map(repr, _DOWNGRADE_MODES))
            shown = _one_line(repr(downgrade))[:60]
            raise ValueError(f"downgrade must be one of {modes}, not {shown}")
        revision = self.revision_of(protocol_version)
        name = type(obj).__name__
        own = self._own_class(name, revision)
        if own is not None and self._left_as_dumped(obj, revision):
            # `_fit` would give its dump back as it is: the revision's class validates that JSON
            # text itself (the same text, the same validation, without decoding it and walking it)
            return _validated_text(own, obj.__pydantic_serializer__.to_json(obj), revision, name)
        sending = _Sending(revision, downgrade, dropped, changes)
        shape = self.shapes.get(name, {}).get(revision)
        if shape is None or shape.model is None:
            # asked only here: an attribute a model lacks costs pydantic's __getattr__ and an
            # exception
            result = getattr(obj, "result", None)
            if isinstance(result, BaseModel):
                return self._response(obj, result, sending)
            raise RevisionError(f"{name} does not exist in revision {revision}", revision=revision)
        sent = self.wire_shapes.get(name, {}).get(revision)
        if sent is not None:
            # the definition leaves jsonrpc / id to the envelope: the revision sends its wire
            # class, and the envelope's rules hold too (params `_meta`: the params Shape has the
            # envelope's keys, which the definition's class keeps only as unknown ones)
            wire = self._fit(obj, _wire(obj), "", sending, sent)
            envelope = getattr(self._models(revision), cast(str, sent.envelope))
            _validated(cast("type[BaseModel]", envelope), wire, revision, name)
            return _validated(self._class_of(revision, sent), wire, revision, name)
        wire = self._fit(obj, _wire(obj), "", sending)
        return _validated(self._class_of(revision, shape), wire, revision, name)

    def _find_own_class(self, name: str, revision: str) -> type[BaseModel] | None:
        """The revision's class that a surface class name is sent as, where it is its definition's
        own (not a wire class, not a typed response), else None."""
        shape = self.shapes.get(name, {}).get(revision)
        if shape is None or shape.model is None or revision in self.wire_shapes.get(name, {}):
            return None
        return self._class_of(revision, shape)

    def _response(self, obj: BaseModel, result: BaseModel, sending: _Sending) -> BaseModel:
        """A success response whose class the revision lacks (the surface's
        `CallToolResultResponse` at 2025-11-25, or its generic ResultResponse[...]): the revision's
        own typed response, its envelope fitted like the result envelope and its result like the
        result's own class."""
        revision = sending.revision
        envelope = self.shapes.get("JSONRPCResultResponse", {}).get(revision)
        result_shape = self.shapes.get(type(result).__name__, {}).get(revision)
        if envelope is None or result_shape is None or result_shape.model is None:
            raise RevisionError(
                f"{type(result).__name__} does not exist in revision {revision}",
                revision=revision,
                path="/result",
            )
        wire: dict[str, Any] = _wire(obj)
        declared = wire_names(type(obj))
        fitted = {
            key: value for key, value in wire.items() if key in envelope.keys or key not in declared
        }
        fitted["result"] = self._fit(result, wire["result"], "/result", sending)
        result_model = getattr(self._models(revision), result_shape.model)
        typed = cast("type[BaseModel]", self._package(revision).ResultResponse[result_model])
        return _validated(typed, fitted, revision, type(obj).__name__)

    def _fit(
        self, value: object, wire: Any, path: str, sending: _Sending, shape: Shape | None = None
    ) -> Any:
        """The wire JSON of value (wire: its dump) with only what the revision defines, walked
        beside the objects so that each object's own class says which keys its revision has
        (shape: the top object's, when it is sent as another class than its definition's: a wire
        class)."""
        revision = sending.revision
        if isinstance(value, BaseModel) and isinstance(wire, dict):
            name = type(value).__name__
            shapes = self.shapes.get(name)
            if shapes is None:  # an inline union arm's class: the revision's validation decides
                return cast("dict[str, Any]", wire)
            plan = None if shape is not None else self._fit_plan(name, revision)
            if (
                plan is not None
                and all(key in wire for key in plan.holds)
                and not any(key in wire for key in plan.absent)
            ):
                return self._fit_as_planned(
                    value, cast("dict[str, Any]", wire), plan, path, sending
                )
            shape = shape or shapes.get(revision)
            if shape is None:
                raise RevisionError(
                    f"{name} does not exist in revision {revision}", revision=revision, path=path
                )
            return self._fit_object(value, cast("dict[str, Any]", wire), path, sending, shape)
        if isinstance(value, _SEQUENCES) and is_array(wire):
            items = cast("list[object]", value)
            return [
                (
                    self._fit(item, dumped, f"{path}/{index}", sending)
                    if isinstance(dumped, _CONTAINERS)
                    else dumped
                )
                for index, (item, dumped) in enumerate(zip(items, wire, strict=False))
            ]
        if isinstance(value, dict) and isinstance(wire, dict):
            members = cast("dict[str, object]", value)
            return {
                key: (
                    self._fit(members.get(key), dumped, _step(path, key), sending)
                    if isinstance(dumped, _CONTAINERS)
                    else dumped
                )
                for key, dumped in cast("dict[str, Any]", wire).items()
            }
        return wire

    def _fit_object(
        self, value: BaseModel, wire: dict[str, Any], path: str, sending: _Sending, shape: Shape
    ) -> dict[str, Any]:
        """_fit of one object, key by key, as shape says the revision has its class."""
        revision = sending.revision
        name = type(value).__name__
        attributes = wire_names(type(value))
        walked = walked_keys(type(value))
        came = arrived(value, revision)
        widened = self.widened.get(name)
        beyond: dict[str, tuple[Any, str]] = {}
        fitted: dict[str, Any] = {}
        for key, item in wire.items():
            if key in came:
                # came so at this revision, an unknown key to its class (another revision's
                # property, or params `_meta` left to the envelope): sent back as it came
                fitted[key] = item
            elif (
                widened is not None
                and key in widened
                and (problem := self._beyond(name, key, item, revision))
            ):
                beyond[key] = (
                    item,
                    problem,
                )  # SEP-2106: downgraded below, once `content` is fitted
            elif key in shape.keys:
                if key in walked and isinstance(item, _CONTAINERS):
                    inside = getattr(value, attributes[key])
                    fitted[key] = self._fit(inside, item, _step(path, key), sending)
                else:
                    fitted[key] = item
            elif shape.open or key not in attributes:
                fitted[key] = item  # allowed here, or no revision's key
            elif sending.reporting:
                reason = f"revision {revision} does not define {key} here"
                sending.note(Change("dropped", _step(path, key), reason))
        for key, (item, problem) in beyond.items():
            rule = cast("Mapping[str, Widened]", widened)[key]
            self._downgrade(fitted, path, key, item, problem, rule, sending)
        for key, meaning in self.absent_means.items():
            if key in shape.required and key not in fitted:
                fitted[key] = meaning
                if sending.reporting:
                    reason = f"revision {revision} requires {key}; the spec says its absence means "
                    reason += repr(meaning)
                    sending.note(Change("filled", _step(path, key), reason))
        for key, constant in self._constants(revision, shape).items():
            fitted.setdefault(key, constant)
        return fitted

    # -- what `_fit` leaves as it is: most of a message sent at the revision it came from ----------

    def _fit_as_planned(
        self, value: BaseModel, wire: dict[str, Any], plan: _Plan, path: str, sending: _Sending
    ) -> Any:
        if not plan.walk:
            return wire
        came = arrived(value, sending.revision)
        fitted = dict(wire)
        for key, attribute in plan.walk:
            item = fitted.get(key)
            if isinstance(item, _CONTAINERS) and key not in came:
                fitted[key] = self._fit(getattr(value, attribute), item, _step(path, key), sending)
        return fitted

    def _left_as_dumped(self, value: BaseModel, revision: str) -> bool:
        """Whether `_fit` gives value's dump back as it is at revision, read from the objects
        instead of their dump: every object it walks takes its class's _Plan (no key the revision
        lacks is set, every key it would fill in is), walked where `_fit_as_planned` walks."""
        plans = self._plans.get(revision)
        if plans is None:
            plans = self._plans[revision] = {}
        pending: list[object] = [value]
        while pending:
            item = pending.pop()
            if isinstance(item, BaseModel):
                kind = type(item)
                if kind in plans:
                    plan = plans[kind]
                else:
                    plan = plans.setdefault(kind, self._class_plan(kind, revision))
                if plan is None:
                    continue  # a class `_fit` leaves to the revision's validation
                if plan is False:
                    return False
                stored = vars(item)
                for attribute in plan.unset:
                    if stored.get(attribute, MISSING) is not MISSING:
                        return False
                for key, attribute in plan.held:
                    if not _dumps(item, stored, key, attribute):
                        return False
                for _, attribute in plan.walk:
                    inside: object = stored.get(attribute)
                    if holds_objects(inside):
                        pending.append(inside)
            elif isinstance(item, _SEQUENCES):
                pending.extend(cast("list[object]", item))
            elif isinstance(item, dict):
                pending.extend(cast("dict[str, object]", item).values())
        return True

    def _class_plan(self, kind: type[BaseModel], revision: str) -> _Plan | Literal[False] | None:
        """The _Plan `_fit` takes for a class at revision; None where `_fit` leaves the class to the
        revision's validation (not a class of the schemas), False where it has no plan."""
        name = kind.__name__
        if name not in self.shapes:
            return None
        plan = self._fit_plan(name, revision)
        return False if plan is None else plan

    def _find_fit_plan(self, name: str, revision: str) -> _Plan | None:
        """The class's _Plan at revision, or None where `_fit` must look at every key. A key
        SEP-2106 widened that the revision may not carry counts as absent: an instance without it
        has nothing to downgrade (a tool without an outputSchema)."""
        shape = self._modelled(name, revision)
        if shape is None:
            return None
        unchanged = self._unchanged(revision)
        model = cast("type[BaseModel]", self._surface_class(name))
        walk: list[tuple[str, str]] = []
        for attribute, field in model.model_fields.items():
            key = field.alias or attribute
            classes = classes_in(field.annotation)
            if key in shape.keys and (classes is None or not classes <= unchanged):
                walk.append((key, attribute))
        declared = wire_names(model)
        absent = () if shape.open else tuple(key for key in declared if key not in shape.keys)
        if name in self.widened and not self._carries_any(name, revision):
            absent += tuple(
                key for key in self.widened[name] if key in declared and key not in absent
            )
        holds = self._holds(name, revision)
        unset = tuple(declared[key] for key in absent)
        held = tuple((key, declared.get(key, "")) for key in holds)
        return _Plan(absent, holds, tuple(walk), unset, held)

    def _keeps_every_key(self, name: str, revision: str) -> Shape | None:
        """The class's Shape at revision when the revision has every key it declares (or takes
        any) and widened none of them, else None."""
        shape = self._unwidened(name, revision)
        if shape is None:
            return None
        model = cast("type[BaseModel]", self._surface_class(name))
        return shape if shape.open or wire_names(model).keys() <= shape.keys else None

    def _unwidened(self, name: str, revision: str) -> Shape | None:
        """The class's Shape at revision where the revision has its own class for it and widened
        none of its keys, else None."""
        shape = self._modelled(name, revision)
        if shape is None:
            return None
        return None if name in self.widened and not self._carries_any(name, revision) else shape

    def _modelled(self, name: str, revision: str) -> Shape | None:
        """The class's Shape at revision where the revision has its own class for it, else None."""
        shape = self.shapes.get(name, {}).get(revision)
        model = self._surface_class(name) if shape is not None and shape.model is not None else None
        if shape is None or not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        return shape

    def _find_carries_any(self, name: str, revision: str) -> bool:
        """Whether the revision types each key of the class that SEP-2106 widened as any JSON, so
        that `_beyond` finds nothing to downgrade there whatever the value (2026-07-28's
        structuredContent)."""
        shape = self.shapes[name][revision]
        for key in self.widened[name]:
            if key not in shape.keys or shape.model is None:
                return False
            model = self._class_of(revision, shape)
            field = model.model_fields[wire_names(model)[key]]
            annotation = field.annotation
            united = get_origin(annotation) in (Union, UnionType)
            arms = get_args(annotation) if united else (annotation,)
            if field.metadata or Any not in arms:
                return False
        return True

    def _holds(self, name: str, revision: str) -> tuple[str, ...]:
        """The keys the revision requires that `_fit` fills in when absent, less those every dump
        of the surface class has (a required field, a constant's default)."""
        shape = self.shapes[name][revision]
        fields = cast("type[BaseModel]", self._surface_class(name)).model_fields.items()
        dumped = {
            field.alias or attribute for attribute, field in fields if field.default is not MISSING
        }
        spec_stated = (key for key in self.absent_means if key in shape.required)
        needed = (*spec_stated, *self._constants(revision, shape))
        return tuple(key for key in needed if key not in dumped)

    def _find_unchanged(self, revision: str) -> frozenset[str]:
        """The classes `_fit` leaves as dumped at revision, whatever their instances hold: they
        keep every key, need nothing filled in, and hold only such classes (or classes `_fit`
        leaves to the revision's validation); a class found to hold another takes its holders out
        with it."""
        held: dict[str, frozenset[str]] = {}
        for name in self.shapes:
            if self._keeps_every_key(name, revision) is not None and not self._holds(
                name, revision
            ):
                fields = cast("type[BaseModel]", self._surface_class(name)).model_fields.values()
                found = [classes_in(field.annotation) for field in fields]
                if all(classes is not None for classes in found):
                    inside = frozenset[str]().union(*cast("list[frozenset[str]]", found))
                    held[name] = inside & self.shapes.keys()
        kept = set(held)
        while gone := {name for name in kept if not held[name] <= kept}:
            kept -= gone
        return frozenset(kept)

    # -- SEP-2106: values a later revision widened, sent to one that cannot carry them -------------

    def _beyond(self, name: str, key: str, item: Any, revision: str) -> str:
        """Why the revision cannot carry item as the widened key of class name ("" if it can), in
        the words of the revision's own model of that property; a revision without the key asks
        the oldest revision that has it (an object structuredContent is dropped there as any
        unknown key is, an array is beyond every revision before SEP-2106)."""
        shape = self.shapes[name].get(revision)
        where = revision if shape is not None and key in shape.keys else self._introduced(name, key)
        adapter = self._property_adapter(where, name, key)
        if adapter is None:
            return ""
        try:
            adapter.validate_python(item)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            location, message = ".".join(str(part) for part in first["loc"]), first["msg"]
            checked = "" if where == revision else f"it has no {key}; in {where}: "
            return f"{checked}{location + ': ' if location else ''}{message}"
        return ""

    def _find_introduced(self, name: str, key: str) -> str:
        """The oldest revision whose class name has key."""
        return next(revision for revision, shape in self.shapes[name].items() if key in shape.keys)

    def _find_property_adapter(self, revision: str, name: str, key: str) -> TypeAdapter[Any] | None:
        """The revision's own type of a class's property, as its model validates it (None: a plain
        map)."""
        shape = self.shapes[name][revision]
        if shape.model is None:
            return None
        model = self._class_of(revision, shape)
        field = model.model_fields[wire_names(model)[key]]
        annotation: Any = field.annotation
        annotated: Any = Annotated[annotation, *field.metadata] if field.metadata else annotation
        return TypeAdapter(annotated)

    def _downgrade(
        self,
        fitted: dict[str, Any],
        path: str,
        key: str,
        item: Any,
        problem: str,
        rule: Widened,
        sending: _Sending,
    ) -> None:
        """Leave out a value the revision cannot carry; where the rule names a fallback, make sure
        a TextContent there holds its JSON (SEP-2106: servers MUST also emit one for older
        clients)."""
        where = _step(path, key)
        revision = sending.revision
        if rule.fallback:
            fallback_hint = f", its JSON in a TextContent in {_step(path, rule.fallback)}"
        else:
            fallback_hint = ""
        if sending.downgrade == "refuse":
            raise RevisionError(
                f"revision {revision} cannot carry {_described(item)} here "
                f"({problem}; SEP-2106 allows it later); "
                f'downgrade="fallback" leaves it out{fallback_hint}',
                revision=revision,
                path=where,
            )
        cannot = f"revision {revision} cannot carry {_described(item)} here ({problem})"
        if rule.fallback is None:
            if sending.reporting:
                sending.note(Change("downgraded", where, f"{cannot}: left out"))
            return
        blocks = fitted.setdefault(rule.fallback, [])
        index, added = self._text_holding(blocks, item)
        carrier = f"{_step(path, rule.fallback)}/{index}"
        if sending.reporting:
            reason = f"{cannot}: left out, its JSON in {carrier}"
            sending.note(Change("downgraded", where, reason, carrier))
            if added:
                reason = (
                    f"a TextContent with the JSON of {where}, for peers of {revision} (SEP-2106)"
                )
                sending.note(Change("added", carrier, reason))

    def _text_holding(self, blocks: list[Any], item: Any) -> tuple[int, bool]:
        """The index of a text block of blocks whose text is item's JSON (any spacing or key
        order), or of one appended; and whether it was appended."""
        wanted = _canonical(item)
        for index, block in enumerate(blocks):
            fields = cast("dict[str, object]", block) if isinstance(block, dict) else {}
            text = fields.get("text") if fields.get("type") == "text" else None
            if isinstance(text, str) and _canonical_text(text) == wanted:
                return index, False
        text_content = cast("type[BaseModel]", self._surface_class("TextContent"))
        blocks.append(_wire(text_content(text=to_json(item).decode())))
        return len(blocks) - 1, True


# -- what needs no table ---------------------------------------------------------------------------


def _deeply_nested(raw: object) -> Mapping[str, Any] | None:
    """raw decoded, where it is JSON text nested deeper than pydantic-core's parser reads, which
    the surface's readers then fail on (after the revision's tolerant parse read it); else None.
    Looked at only once a tolerant parse has failed: valid input costs nothing more."""
    if not isinstance(raw, _TEXT):
        return None
    try:
        data, deep = load_any_depth(raw)
    except MessageError:
        return None
    return cast("Mapping[str, Any]", data) if deep else None


def _also_refused(
    own: tuple[DroppedItem, ...], surface_dropped: Callable[[], tuple[DroppedItem, ...]]
) -> tuple[DroppedItem, ...] | None:
    """The revision's dropped items and those the surface's tolerant parse drops, in list order
    (the revision's reason where both drop one); None when the surface drops no other item, or
    fails on more than list items."""
    try:
        theirs = surface_dropped()
    except ValidationError:
        return None
    merged = {item.pointer: item for item in theirs} | {item.pointer: item for item in own}
    if merged.keys() == {item.pointer for item in own}:
        return None
    ordered = sorted(
        merged.values(), key=lambda item: (item.pointer.rpartition("/")[0], item.index)
    )
    return tuple(ordered)


def _result_classes(response: type[BaseModel]) -> tuple[object, ...]:
    """The classes a response class's `result` may hold."""
    annotation = response.model_fields["result"].annotation
    if getattr(annotation, "__value__", None) is not None:
        return union_arms(annotation)
    return (annotation,)


def _read(reader: Any, raw: object) -> Any:
    """raw read by a validator or TypeAdapter: the validation of its JSON text, or of the value."""
    if isinstance(raw, _TEXT):
        return reader.validate_json(raw)
    return reader.validate_python(raw)


def _object_of(raw: object) -> object:
    return from_json(raw, allow_inf_nan=False) if isinstance(raw, _TEXT) else raw


def _without(raw: Any, dropped: tuple[DroppedItem, ...]) -> Any:
    """raw, decoded, without the list items a tolerant parse dropped (raw itself when none was)."""
    if not dropped:
        return raw
    data: Any = raw.model_dump(mode="json") if isinstance(raw, BaseModel) else _object_of(raw)
    by_list: dict[str, set[int]] = {}
    for item in dropped:
        by_list.setdefault(item.pointer.rpartition("/")[0], set()).add(item.index)
    for pointer, indices in by_list.items():
        tokens = [token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:]]
        data = _without_items(data, tokens, indices)
    return data


def _without_items(data: Any, tokens: list[str], indices: set[int]) -> Any:
    """A copy of data whose list at tokens (a path of object keys) lacks the items at indices."""
    if not tokens:
        items = cast("list[Any]", data)
        return [item for index, item in enumerate(items) if index not in indices]
    members = cast("dict[str, Any]", data)
    return {**members, tokens[0]: _without_items(members[tokens[0]], tokens[1:], indices)}


@cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    return adapter


def _validated(target: type[BaseModel], wire: Any, revision: str, name: str) -> BaseModel:
    try:
        return target.model_validate(wire)
    except ValidationError as exc:
        raise _cannot_carry(exc, revision, name) from exc


def _validated_text(target: type[BaseModel], text: bytes, revision: str, name: str) -> BaseModel:
    """_validated of the text decoded. The models are strict and hold only JSON's types (no tuple,
    date or bytes field, where strict Python and JSON validation differ), so the text's validation
    takes what the decoded value's does, as the same object; their errors' words differ ("an
    object" / "a valid dictionary"), so a refused text is refused as _validated refuses it."""
    try:
        return target.model_validate_json(text)
    except ValidationError:
        pass
    return _validated(target, from_json(text), revision, name)


def _cannot_carry(exc: ValidationError, revision: str, name: str) -> RevisionError:
    path, message = _first_problem(exc)
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return RevisionError(
        f"{message}: revision {revision} cannot carry this {name}{more}",
        revision=revision,
        path=path,
    )


def _first_problem(exc: ValidationError) -> tuple[str, str]:
    """(JSON pointer, message) of a validation error's first problem."""
    first = exc.errors()[0]
    return "".join(f"/{part}" for part in first["loc"]), first["msg"]


def _dumps(value: BaseModel, stored: dict[str, Any], key: str, attribute: str) -> bool:
    """Whether value's dump has key: its field's value set, or (attribute "") an unknown key."""
    if attribute:
        return stored.get(attribute, MISSING) is not MISSING
    extra = value.__pydantic_extra__
    return extra is not None and key in extra


def _canonical(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and true from 1, keys sorted: equal for equal JSON values."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _canonical_text(text: str) -> str | None:
    try:
        return _canonical(from_json(text, allow_inf_nan=False))
    except ValueError:
        return None


def _described(value: object) -> str:
    if isinstance(value, dict):
        return "this object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def _wire(obj: BaseModel) -> Any:
    """obj's wire JSON, decoded (its JSON dump read back: faster than a Python-mode dump of
    unions)."""
    return from_json(obj.__pydantic_serializer__.to_json(obj))


def _step(path: str, key: str) -> str:
    """path extended by one JSON pointer token."""
    return f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
