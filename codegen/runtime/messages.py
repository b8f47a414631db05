"""The message routing engine of every revision's messages.py: `Routes`, built once per revision
from that revision's method table, its four JSON-RPC envelopes and its base model, does what the
revision's `parse_message`, `parse_result`, `parse_error` and `parse_envelope` do. The revision
module holds the table, its types and its typed signatures; nothing here knows a revision.

Each message is read in one validation pass where its text says which class it is (the class of its
`method`, the response class of the request it answers, the class of its error code): the class's
own JSON validator reads the bytes, and the guess is kept only where the exact rule (the envelope
kinds, then the tables) chooses the same class; otherwise that rule decides. Only the chosen class
validates the message, so an error names what is wrong with that message, not why every other
class did not fit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeAlias, TypeVar, cast

from pydantic import BaseModel, Tag, TypeAdapter, ValidationError

from . import reading
from .reading import MessageError, RawJSON

if TYPE_CHECKING:
    # at run time imported on the first tolerant parse
    from .tolerant import DroppedItem, Tolerated

__all__ = ["KINDS", "Pending", "Routes", "result_classes"]

Pending: TypeAlias = Mapping[int, str] | Mapping[str, str] | Mapping[str | int, str]
"""The methods of the requests awaiting a response, by request id (a `dict[int, str]` will do)."""

KINDS = ("request", "notification", "result", "error")
"""The four JSON-RPC envelopes, in the order a revision names its envelope classes."""

ModelT = TypeVar("ModelT", bound=BaseModel)
Senders: TypeAlias = tuple[str, ...]
RequestRow: TypeAlias = tuple[type[ModelT], Any, Any, Senders]
"""A request's row: its class, its params type (None without one), its result type (a pair
`(own, task)` where the request may ask for a task instead), who sends it."""
NotificationRow: TypeAlias = tuple[type[ModelT], Any, Senders]
"""A notification's row: its class, its params type (None without one), who sends it."""
_MethodRoute: TypeAlias = tuple[Callable[[bytes], Any], Callable[[bytes], Any] | None, bool]

# The value of the first `"method"` key, when it is a string written without escapes; a JSON-RPC id
# (number or string without escapes) right after an `"id"` key; an error's `"code"`. Whatever is
# written with escapes is not matched: the general path reads it.
_METHOD_VALUE = re.compile(rb'"method"\s*:\s*"([^"\\]*)"').search
_ID_VALUE = re.compile(rb'"id"\s*:\s*(-?[0-9]{1,20}|"[^"\\]*")').search
_CODE_VALUE = re.compile(rb'"code"\s*:\s*(-?\d{1,20})').search


@cache
def _validate_json(model: type[BaseModel]) -> Callable[[bytes], Any]:
    """The JSON validator of a model class. The models build their validators on first use (that
    keeps the import fast), so it is looked up once, the first time it is needed."""
    return model.__pydantic_validator__.validate_json


def _has_extra(model: BaseModel, *keys: str) -> bool:
    extra = model.__pydantic_extra__
    return not extra.keys().isdisjoint(keys) if extra else False


def result_classes(result: Any) -> tuple[type[BaseModel], ...]:
    """The model classes a result type may be, in its union's order: an alias read through, an
    `Annotated` through its type, a union arm by arm."""
    value = getattr(result, "__value__", result)  # a TypeAliasType
    if isinstance(value, type):
        return (value,) if issubclass(value, BaseModel) else ()
    args: tuple[Any, ...] = getattr(value, "__args__", ())
    if getattr(value, "__metadata__", None) is not None:  # Annotated[T, ...]: T
        args = args[:1]
    return tuple(dict.fromkeys(cls for arg in args for cls in result_classes(arg)))


class Routes(Generic[ModelT]):
    """What a revision's messages.py routes by: its tables, derived once at import from the one
    table the revision writes (a row per method), and the readers built on them.

    envelopes: the request, notification, result and error envelope classes (KINDS' order);
    generic: the generic Result and error object, what a method or code the schema does not
    define is read as; response: the revision's ResultResponse, parametrised by a method's result
    where the schema has no response class of its own (`responses`); module: the revision's
    messages module, whose own request and notification classes are wire classes, checked against
    the generic envelope too; kinds: the envelope arms a message's structural rules hold, in
    order, where the revision has such rules; structural: the discriminator of a result that may
    be a task instead (a request row's result `(own, task)`).
    """

    def __init__(
        self,
        envelopes: tuple[type[ModelT], type[ModelT], type[ModelT], type[ModelT]],
        generic: tuple[Any, type[ModelT]],
        response: type[ModelT],
        module: str,
        *,
        requests: Mapping[str, RequestRow[ModelT]],
        notifications: Mapping[str, NotificationRow[ModelT]],
        embedded: Mapping[str, RequestRow[ModelT]],
        responses: Mapping[str, type[ModelT]],
        lists: Mapping[str, tuple[str, Any]],
        error_responses: Mapping[int, type[ModelT]],
        error_objects: Mapping[int, type[ModelT]],
        kinds: Callable[[Mapping[str, object]], Iterable[str]] | None = None,
        structural: Callable[[str], Any] | None = None,
    ) -> None:
        self.module = module
        self.envelopes: dict[str, type[ModelT]] = dict(zip(KINDS, envelopes, strict=True))
        self.generic_result, self.generic_error = generic
        self.result_response = response
        self.requests: dict[str, type[ModelT]] = {
            method: row[0] for method, row in requests.items()
        }
        """Requests sent as JSON-RPC messages, by method: each class carries `jsonrpc` and `id`."""
        self.notifications: dict[str, type[ModelT]] = {
            m: row[0] for m, row in notifications.items()
        }
        """Notifications sent as JSON-RPC messages, by method: each a class carrying `jsonrpc`."""
        self.embedded: dict[str, type[ModelT]] = {
            method: row[0] for method, row in embedded.items()
        }
        """Requests whose class has no `jsonrpc` and `id`: they travel inside another message."""
        rows: dict[str, tuple[Any, Senders]] = {
            m: (row[1], row[2]) for m, row in notifications.items()
        }
        answered = {**requests, **embedded}
        rows.update((method, (row[1], row[3])) for method, row in answered.items())
        self.params: dict[str, Any] = {
            m: params for m, (params, _) in rows.items() if params is not None
        }
        """The params type of each method."""
        self.senders: dict[str, Senders] = {
            method: senders for method, (_, senders) in rows.items()
        }
        """Who sends each method ("client", "server"), from the schema's Client*/Server* unions."""
        self.results: dict[str, Any] = {
            m: self._result(m, row[2], structural) for m, row in answered.items()
        }
        """The type of the result answering each request method."""
        self.result_classes: dict[str, tuple[type[ModelT], ...]] = {
            method: cast("tuple[type[ModelT], ...]", result_classes(result))
            for method, result in self.results.items()
        }
        """The classes a result answering each method may be (what `results` types as one)."""
        self.lists = lists
        self.error_responses = error_responses
        self.error_objects = error_objects
        self._responses: dict[str, type[ModelT] | None] = {
            m: responses.get(m) for m in self.results
        }
        self._response_validators: dict[str, Callable[[bytes], Any]] = {}
        self._result_adapters: dict[str, TypeAdapter[Any]] = {}
        self._item_validators: dict[str, Callable[[object], object]] = {}
        self._holding = kinds
        self._kind_of_arm = {cls.__name__: kind for kind, cls in self.envelopes.items()}
        self.envelope_of: dict[type[ModelT], type[ModelT]] = {
            cls: self.envelopes[kind]
            for kind, table in (("request", self.requests), ("notification", self.notifications))
            for cls in table.values()
            if cls.__module__ == module
        }
        """The generic envelope each wire class also satisfies on the wire: the class checks the
        envelope's `jsonrpc` and `id`, and the envelope its `params` (a `_meta` the definition may
        not declare)."""
        pinned = [*self.requests.items(), *self.notifications.items(), *self.embedded.items()]
        by_method = {method.encode(): cls for method, cls in pinned}
        if len(set(pinned)) != len(by_method):
            by_method = {}  # a method carried by two classes: `method` alone cannot decide
        self._by_method = by_method
        self._notification_classes = frozenset(self.notifications.values()) - frozenset(
            self.embedded.values()
        )
        self._method_routes: dict[bytes, _MethodRoute] = {}

    @staticmethod
    def _result(method: str, result: Any, structural: Callable[[str], Any] | None) -> Any:
        """A row's result type: a pair `(own, task)` is the union of both, told apart by shape."""
        if isinstance(result, tuple) and structural is not None:
            own, task = cast("tuple[Any, Any]", result)
            annotated: Any = Annotated  # subscripted with values, which type checkers do not follow
            arms = annotated[own, Tag(own.__name__)] | annotated[task, Tag(task.__name__)]
            return annotated[arms, structural(f"{method} result")]
        return cast(Any, result)

    def message_union(self) -> Any:
        """Everything parse_message returns, as one union (a ResultResponse of any result among it:
        each ResultResponse[...] is a subclass of the generic one)."""
        sent = [*self.requests.values(), *self.notifications.values(), *self.embedded.values()]
        own = [cls for cls in self._responses.values() if cls is not None]
        classes = [
            *sent,
            *own,
            *self.error_responses.values(),
            *self.envelopes.values(),
            self.result_response,
        ]
        union: Any = classes[0]
        for cls in dict.fromkeys(classes[1:]):
            union = union | cls
        return union

    def module_attribute(self, name: str, namespace: dict[str, Any]) -> object:
        """A messages module's attribute made on first use (its `__getattr__`): RESPONSES, and
        what a tolerant parse gives."""
        if name == "RESPONSES":  # every response class: made on the first look-up
            made: object = {method: self.response_class(method) for method in self._responses}
        elif name in ("DroppedItem", "Tolerated"):
            from . import tolerant

            made = getattr(tolerant, name)
        else:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}")
        namespace[name] = made
        return made

    def response_class(self, method: str) -> type[ModelT] | None:
        """The class of the whole success response to a request method, or None: the schema's own,
        else a ResultResponse typed by the method's result, parametrised the first time it is needed
        (pydantic builds the validators of every result of the revision when it first is)."""
        found = self._responses.get(method)
        if found is None and method in self._responses:
            generic: Any = (
                self.result_response
            )  # parametrised by a value, which type checkers do not follow
            found = self._responses[method] = generic[self.results[method]]
        return found

    def _response_validator(self, method: str) -> Callable[[bytes], Any] | None:
        response = self.response_class(method)
        if response is None:
            return None
        validate = self._response_validators[method] = _validate_json(response)
        return validate

    def _method_route(self, method: bytes) -> _MethodRoute | None:
        """How parse_message reads, in one validation pass, a message whose text names `method`:
        the JSON validator of the class that pins the method, the generic envelope's too where that
        class is a wire class, and whether an `id` beside the method makes the message another kind
        (a notification's). None for a method no class pins: the general path then decides (and
        reports), so both paths always agree.

        Made on a method's first message, when the class builds its validator (that keeps the
        import fast), and kept for the known methods only. The class validates `method` itself (it
        pins it), so a method read from a nested object that comes first picks a class whose
        validation fails, or no class. Routing is one dict look-up: measured against a tagged union
        of every method class in pydantic-core, it costs the same per message, and builds only the
        class the message needs (the union builds them all on the first read: +18% memory after it,
        and a first read three times as long).
        """
        model = self._by_method.get(method)
        if model is None:
            return None
        envelope = self.envelope_of.get(model)
        route = self._method_routes[method] = (
            _validate_json(model),
            _validate_json(envelope) if envelope is not None else None,
            model in self._notification_classes,
        )
        return route

    def _error_response(self, raw: bytes) -> BaseModel | None:
        """An error response in one validation pass, or None to take the general path. The class of
        a fixed code pins that code, so a successful validation confirms the code read from the
        text."""
        found = _CODE_VALUE(raw)
        response = self.error_responses.get(int(found.group(1))) if found is not None else None
        try:
            if response is not None:
                parsed = cast(BaseModel, _validate_json(response)(raw))
            else:
                parsed = cast(BaseModel, _validate_json(self.envelopes["error"])(raw))
                code = cast(Any, parsed).error.code
                if type(code) is int and code in self.error_responses:
                    return None  # the text's first "code" was not the error's own
        except ValidationError:
            return None
        return None if _has_extra(parsed, "method", "result") else parsed

    def _validated_message(self, model: type[ModelT], message: Mapping[str, object]) -> ModelT:
        """message as model, and as the generic envelope too where the model is a wire class."""
        parsed = model.model_validate(message)
        envelope = self.envelope_of.get(model)
        if envelope is not None:
            envelope.model_validate(message)
        return parsed

    def parse_message(
        self, raw: RawJSON, pending: Pending | None = None, *, tolerant: bool = False
    ) -> Any:
        """The concrete model of one JSON-RPC message, chosen by its `method`, `result` or `error`.

        pending: the methods of requests awaiting a response, by request id. A success response to
        one of them is parsed as that method's response class where the schema defines one.
        tolerant: a `Tolerated[Message]`, where a response to a pending list request (LIST_RESULTS)
        leaves out the list items it cannot read (`/result/tools/3`) instead of failing.
        """
        if tolerant:
            return self._tolerant_message(raw, pending)
        if type(raw) is str:
            raw = reading.utf8(raw)
        if type(raw) is bytes:
            if reading.may_hold_non_finite(raw):
                reading.refuse_non_finite(raw)  # the exact check, for the rare text that needs it
            # the fast paths: the text names the kind, then the class (a `method` the text does not
            # spell plainly is an extra key of the response classes, which they refuse: the general
            # path reads it)
            found = _METHOD_VALUE(raw) if self._by_method else None
            if found is not None:
                # a request or notification, by its `method`
                method = found.group(1)
                route = self._method_routes.get(method) or self._method_route(method)
                if route is not None:
                    validate, envelope, notification = route
                    try:
                        parsed: BaseModel = validate(raw)
                        if envelope is not None:
                            envelope(raw)
                    except ValidationError:
                        pass
                    else:
                        extra = parsed.__pydantic_extra__
                        # a `result` or `error` beside the method, or a notification's method
                        # with an id: which kind the message is, the schema's rules say (the
                        # general path)
                        if not extra or not (
                            "result" in extra
                            or "error" in extra
                            or (notification and "id" in extra)
                        ):
                            return parsed
            elif raw.find(b'"result"') >= 0:
                if pending:
                    # a response to a pending request, typed by the request's method (inlined: a
                    # call here cost a response ~0.15 us). The id is read from the text at the
                    # first `"id"` key; one inside the result is caught by comparing it with the id
                    # validation finds at the top level.
                    found = _ID_VALUE(raw)
                    if found is not None:
                        text = found.group(1)
                        # a string as written (the pattern takes none with escapes; bytes that are
                        # not UTF-8 make a guess no id equals), else an integer
                        guessed: str | int = (
                            text[1:-1].decode("utf-8", "replace") if text[:1] == b'"' else int(text)
                        )
                        answered = cast("Mapping[str | int, str]", pending).get(guessed)
                        validate_response = (
                            (
                                self._response_validators.get(answered)
                                or self._response_validator(answered)
                            )
                            if answered is not None
                            else None
                        )
                        if validate_response is not None:
                            try:
                                response: BaseModel = validate_response(raw)
                            except ValidationError:
                                pass
                            else:
                                extra = response.__pydantic_extra__
                                if getattr(response, "id", None) == guessed and not (
                                    extra and ("method" in extra or "error" in extra)
                                ):
                                    return response
            elif raw.find(b'"error"') >= 0:
                typed = self._error_response(raw)
                if typed is not None:
                    return typed
        elif isinstance(raw, bytes | bytearray | str):  # a bytearray, a subclass of bytes or str
            reading.json_numbers_only(raw)
        lookup = cast(
            "Mapping[str | int, str] | None", pending
        )  # read by key only: any of the three will do
        message = reading.json_object(raw)
        first: ValidationError | None = None
        for kind in self._kinds(message):
            try:
                return self._validated_message(self.message_class(message, lookup, kind), message)
            except ValidationError as exc:
                if self.envelopes[kind].__pydantic_validator__.isinstance_python(message):
                    raise  # the envelope holds: the message is a bad one of its kind
                first = first or exc
        assert first is not None
        raise first

    def _kinds(self, message: Mapping[str, object]) -> tuple[str, ...]:
        """The envelopes a message may be, in the order a reader tries them: each whose structural
        rule holds, in the rules' order, where the revision has such rules (a message may hold
        several: an error response with an extra `result` is valid as one, and read as one first);
        else by its keys, as the one its keys point to, for the error."""
        if self._holding is not None:
            arms = self._kind_of_arm
            kinds = tuple(arms[tag] for tag in self._holding(message) if tag in arms)
            if kinds:
                return kinds
        if "method" in message:
            return ("request",) if "id" in message else ("notification",)
        for kind in ("error", "result"):  # an error response first, whatever else it holds
            if kind in message:
                return (kind,)
        raise MessageError("not a JSON-RPC message: it has no `method`, `result` or `error`")

    def message_class(
        self,
        message: Mapping[str, object],
        pending: Mapping[str | int, str] | None,
        kind: str | None = None,
    ) -> type[ModelT]:
        """The typed class of a decoded message as one envelope kind it may be (by default the
        first, which history.py reads too): by method, by the pending request's method, or by the
        error code; the envelope itself where none is more specific."""
        kind = kind or self._kinds(message)[0]
        envelope = self.envelopes[kind]
        if kind == "request" or kind == "notification":
            method = message["method"]
            known = method if isinstance(method, str) else ""
            if kind == "request":
                return self.requests.get(known) or self.embedded.get(known) or envelope
            # a request embedded in a result carries no id; with an id that is not one, the message
            # is a notification holding an extra key
            embedded = self.embedded.get(known) if "id" not in message else None
            return self.notifications.get(known) or embedded or envelope
        if kind == "result":
            request_id = message.get("id")
            answered = (
                pending.get(request_id)
                if pending is not None and isinstance(request_id, str | int)
                else None
            )
            return (self.response_class(answered) or envelope) if answered is not None else envelope
        error = message["error"]
        code = (
            cast("Mapping[str, object]", error).get("code") if isinstance(error, Mapping) else None
        )
        return self.error_responses.get(code, envelope) if isinstance(code, int) else envelope

    def _envelope_from_text(self, raw: bytes) -> BaseModel | None:
        """The envelope guessed from the text, or None. Each envelope requires the keys that mark
        it, so a successful validation leaves only escaped keys to contradict the guess."""
        envelopes = self.envelopes
        try:
            if raw.find(b'"method"') >= 0:
                # a `result` or `error` beside the method: which kind the message is, the rules say
                if raw.find(b'"id"') >= 0:
                    request: BaseModel = _validate_json(envelopes["request"])(raw)
                    return None if _has_extra(request, "result", "error") else request
                notification: BaseModel = _validate_json(envelopes["notification"])(raw)
                return None if _has_extra(notification, "id", "result", "error") else notification
            if raw.find(b'"result"') >= 0:
                result: BaseModel = _validate_json(envelopes["result"])(raw)
                return None if _has_extra(result, "method", "error") else result
            if raw.find(b'"error"') >= 0:
                error: BaseModel = _validate_json(envelopes["error"])(raw)
                return None if _has_extra(error, "method", "result") else error
        except ValidationError:
            return None
        return None

    def parse_envelope(self, raw: RawJSON) -> Any:
        """The JSON-RPC envelope of one message: requests have `method` and `id`, notifications
        `method` only, responses `result`, error responses `error`."""
        if type(raw) is str:
            raw = reading.utf8(raw)
        if type(raw) is bytes:
            if reading.may_hold_non_finite(raw):
                reading.refuse_non_finite(raw)  # the exact check, for the rare text that needs it
            guessed = self._envelope_from_text(raw)
            if guessed is not None:
                return guessed
        elif isinstance(raw, bytes | bytearray | str):  # a bytearray, a subclass of bytes or str
            reading.json_numbers_only(raw)
        message = reading.json_object(raw)
        first: ValidationError | None = None
        for kind in self._kinds(message):
            try:
                return self.envelopes[kind].model_validate(message)
            except ValidationError as exc:
                first = first or exc
        assert first is not None
        raise first

    def result_type(self, method: str) -> Any:
        """The type parse_result validates a result of method with (history.py reads it too)."""
        return self.results.get(method, self.generic_result)

    def _result_adapter(self, method: str) -> TypeAdapter[Any]:
        adapter = self._result_adapters.get(method)
        if adapter is None:
            adapter = self._result_adapters[method] = TypeAdapter(self.result_type(method))
        return adapter

    def parse_result(self, method: str, raw: RawJSON | BaseModel, *, tolerant: bool = False) -> Any:
        """The typed result answering a `method` request, from JSON text, a dict, or a model already
        parsed (such as the generic `result` of an envelope): a model is re-read from its wire form.

        For a method the schema does not define, the generic Result (typed `object`: a method only
        known at run time has no static result type).
        tolerant (a list method: LIST_RESULTS): a `Tolerated` result, whose list leaves out the
        items it cannot read (`/tools/3`) instead of failing; anything else invalid fails as strict
        does."""
        if tolerant:
            return self._tolerant_result(method, raw)
        adapter = self._result_adapter(method)
        if isinstance(raw, BaseModel):
            return adapter.validate_python(raw.model_dump(mode="json"))
        if isinstance(raw, bytes | bytearray | str):
            reading.json_numbers_only(raw)
            return adapter.validate_json(raw)
        return adapter.validate_python(raw)

    def parse_error(self, raw: RawJSON) -> ModelT:
        """An `error` member as the class of its code when the schema defines one, else the generic
        error object."""
        if isinstance(raw, bytes | bytearray | str):
            reading.json_numbers_only(raw)
        data = reading.load(raw)
        code = cast("Mapping[str, object]", data).get("code") if isinstance(data, Mapping) else None
        generic = self.generic_error
        error = self.error_objects.get(code, generic) if isinstance(code, int) else generic
        return error.model_validate(data)

    # Tolerant parsing. The strict parse runs first, unchanged: valid input costs nothing more and
    # gives exactly the strict value. Only when it fails are the list's items validated one by one;
    # the invalid ones are left out and the rest validated again as a whole. Whatever still fails
    # (the envelope, a field beside the list, the list itself) raises the strict parse's own error.
    def _tolerant_result(self, method: str, raw: RawJSON | BaseModel) -> Tolerated[Any]:
        from .tolerant import Tolerated  # made on the first tolerant parse

        try:
            return Tolerated(self.parse_result(method, raw))
        except ValidationError as exc:
            strict = exc
        data: object
        if isinstance(raw, BaseModel):
            data = raw.model_dump(mode="json")
        else:
            data, deep = reading.load_any_depth(raw)
            if deep:  # text the strict parse could not read: read as the same value decoded is
                return self._tolerant_result(method, cast("Mapping[str, Any]", data))
        sifted = self._sifted(method, data, "")
        if sifted is None:
            raise strict
        kept, dropped = sifted
        try:
            return Tolerated(self._result_adapter(method).validate_python(kept), dropped)
        except ValidationError:
            raise strict from None

    def _tolerant_message(self, raw: RawJSON, pending: Pending | None) -> Tolerated[Any]:
        from .tolerant import Tolerated  # made on the first tolerant parse

        try:
            return Tolerated(self.parse_message(raw, pending))
        except ValidationError as exc:
            strict = exc
        except MessageError:
            if not isinstance(raw, bytes | bytearray | str):
                raise
            data, deep = reading.load_any_depth(
                raw
            )  # raises again where the text is no JSON at all
            if not deep:
                raise
            return self._tolerant_message(
                cast("Mapping[str, Any]", data), pending
            )  # as the same value decoded
        sifted = self._sifted_response(raw, pending)
        if sifted is None:
            raise strict
        kept, dropped = sifted
        try:
            return Tolerated(self.parse_message(kept, pending), dropped)
        except ValidationError:
            raise strict from None

    def _sifted_response(
        self, raw: RawJSON, pending: Pending | None
    ) -> tuple[dict[str, object], tuple[DroppedItem, ...]] | None:
        """A success response to a pending list request without the items of its list that fail to
        validate, and those items; None when it is no such response or no item fails."""
        if pending is None:
            return None
        message = reading.json_object(raw)
        request_id = message.get("id")
        lookup = cast("Mapping[str | int, str]", pending)
        method = lookup.get(request_id) if isinstance(request_id, str | int) else None
        if method is None or "method" in message or "result" not in message:
            return None
        sifted = self._sifted(method, message["result"], "/result")
        if sifted is None:
            return None
        kept, dropped = sifted
        return {**message, "result": kept}, dropped

    def _sifted(
        self, method: str, data: object, where: str
    ) -> tuple[dict[str, object], tuple[DroppedItem, ...]] | None:
        """data (a method's result) without the items of its list that fail to validate, and those
        items; None when the method has no such list (LIST_RESULTS) or no item fails."""
        from .tolerant import sifted  # on the first tolerant parse

        listed = self.lists.get(method)
        if listed is None or reading.holds_non_finite(data):
            return None  # NaN and infinity are never tolerated: left to the strict parse's refusal
        return sifted(data, listed[0], self._item_validator(method), where)

    def _item_validator(self, method: str) -> Callable[[object], object]:
        """The validator of one item of a list result (LIST_RESULTS), built on first use."""
        validate = self._item_validators.get(method)
        if validate is None:
            adapter: TypeAdapter[Any] = TypeAdapter(self.lists[method][1])
            validate = self._item_validators[method] = adapter.validate_python
        return validate
