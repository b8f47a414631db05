"""The message routing engine (codegen/runtime/messages.py) on a revision made by hand: the tables it
derives from the one table a revision writes, and the readers routing by them (the fast paths on
bytes agree with the general path on the decoded message)."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

import pytest
from pydantic import BaseModel, ConfigDict, Discriminator, ValidationError

from codegen.runtime import reading, tolerant
from codegen.runtime.messages import Routes, result_classes


class Model(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class Request(Model):
    jsonrpc: Literal["2.0"]
    id: int | str
    method: str
    params: dict[str, Any] | None = None


class Notification(Model):
    jsonrpc: Literal["2.0"]
    method: str
    params: dict[str, Any] | None = None


class Response(Model):
    jsonrpc: Literal["2.0"]
    id: int | str
    result: dict[str, Any]


class ErrorObject(Model):
    code: int
    message: str


class ErrorEnvelope(Model):
    jsonrpc: Literal["2.0"]
    id: int | str | None = None
    error: ErrorObject


class Result(Model):
    pass


class Tool(Model):
    name: str


class ListToolsParams(Model):
    cursor: str | None = None


class ListToolsRequest(Model):  # a definition leaving `jsonrpc` and `id` to the envelope
    method: Literal["tools/list"]
    params: ListToolsParams | None = None


class ListToolsRequestMessage(ListToolsRequest):  # its wire class, made in this module
    id: int | str
    jsonrpc: Literal["2.0"]


class ListToolsResult(Model):
    tools: list[Tool]


class Task(Model):
    task: dict[str, Any]


class CallRequest(Request):
    method: Literal["tools/call"]


class CallResult(Model):
    content: list[Any]


class PingNotification(Notification):
    method: Literal["ping/note"]


class NotFound(ErrorObject):
    code: Literal[-32601]


class NotFoundResponse(ErrorEnvelope):
    error: NotFound


R = TypeVar("R")


class ResultResponse(Model, Generic[R]):
    jsonrpc: Literal["2.0"] = "2.0"
    id: int | str
    result: R


def _by_shape(label: str) -> Discriminator:
    def pick(value: object) -> str:
        return "Task" if isinstance(value, dict) and "task" in value else "CallResult"

    return Discriminator(pick, custom_error_message=f"cannot tell {label}")


def routes(**changed: Any) -> Routes[Model]:
    tables: dict[str, Any] = {
        "requests": {
            "tools/list": (ListToolsRequestMessage, ListToolsParams, ListToolsResult, ("client",)),
            "tools/call": (CallRequest, None, (CallResult, Task), ("client",)),
        },
        "notifications": {"ping/note": (PingNotification, None, ("client", "server"))},
        "embedded": {},
        "responses": {},
        "lists": {"tools/list": ("tools", Tool)},
        "error_responses": {-32601: NotFoundResponse},
        "error_objects": {-32601: NotFound},
        "structural": _by_shape,
    }
    tables.update(changed)
    envelopes = (Request, Notification, Response, ErrorEnvelope)
    return Routes[Model](envelopes, (Result, ErrorObject), ResultResponse, __name__, **tables)


def test_the_tables_are_derived_from_the_rows() -> None:
    routed = routes()
    assert routed.requests == {"tools/list": ListToolsRequestMessage, "tools/call": CallRequest}
    assert routed.notifications == {"ping/note": PingNotification}
    assert routed.params == {"tools/list": ListToolsParams}  # a method without params has none
    assert routed.senders == {"ping/note": ("client", "server"), "tools/list": ("client",), "tools/call": ("client",)}
    assert routed.results["tools/list"] is ListToolsResult
    assert routed.result_classes == {"tools/list": (ListToolsResult,), "tools/call": (CallResult, Task)}
    # the classes this module defines are wire classes: checked against the generic envelope too
    assert routed.envelope_of == {
        ListToolsRequestMessage: Request,
        CallRequest: Request,
        PingNotification: Notification,
    }
    elsewhere = routes()
    elsewhere.__init__((Request, Notification, Response, ErrorEnvelope), (Result, ErrorObject), ResultResponse, "x",
                       requests={}, notifications={}, embedded={}, responses={}, lists={}, error_responses={},
                       error_objects={})  # fmt: skip
    assert elsewhere.envelope_of == {}


def test_result_classes_read_aliases_annotations_and_unions() -> None:
    assert result_classes(Tool) == (Tool,)
    assert result_classes(int) == ()
    assert result_classes(routes().results["tools/call"]) == (CallResult, Task)
    assert result_classes(Tool | CallResult | Tool) == (Tool, CallResult)


def test_a_task_result_is_told_apart_by_shape() -> None:
    routed = routes()
    assert type(routed.parse_result("tools/call", b'{"content": []}')) is CallResult
    assert type(routed.parse_result("tools/call", {"task": {}})) is Task
    discriminator = routed.results["tools/call"].__metadata__[0]  # made by the revision's rules
    assert discriminator.custom_error_message == "cannot tell tools/call result"


@pytest.mark.parametrize("as_text", [True, False])
def test_parse_message_routes_by_method_response_and_code(as_text: bool) -> None:
    routed = routes()

    def read(message: str, pending: dict[int, str] | None = None) -> Any:
        return routed.parse_message(message if as_text else reading.json_object(message), pending)

    listed = read('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')
    assert type(listed) is ListToolsRequestMessage
    assert type(read('{"jsonrpc": "2.0", "method": "ping/note"}')) is PingNotification
    assert type(read('{"jsonrpc": "2.0", "method": "other"}')) is Notification
    response = read('{"jsonrpc": "2.0", "id": 7, "result": {"tools": []}}', {7: "tools/list"})
    assert type(response).__name__ == "ResultResponse[ListToolsResult]"
    assert routed.response_class("tools/list") is type(response)  # made once, kept
    assert type(read('{"jsonrpc": "2.0", "id": 8, "result": {}}', {7: "tools/list"})) is Response
    assert type(read('{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "m"}}')) is NotFoundResponse
    assert type(read('{"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "m"}}')) is ErrorEnvelope
    # a notification's method with an id: a request of that method, which no class pins
    assert type(read('{"jsonrpc": "2.0", "id": 1, "method": "ping/note"}')) is Request
    with pytest.raises(reading.MessageError):
        read('{"jsonrpc": "2.0"}')


def test_the_wire_class_is_checked_against_the_envelope_too() -> None:
    routed = routes()
    with pytest.raises(ValidationError):  # the wire class holds, the envelope's `params` does not
        routed.parse_message(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": []}')


def test_a_method_carried_by_two_classes_leaves_routing_by_method_to_the_rules() -> None:
    routed = routes(notifications={"tools/call": (PingNotification, None, ())})
    assert not routed._by_method  # pyright: ignore[reportPrivateUsage]
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}'
    assert type(routed.parse_message(message)) is CallRequest


def test_parse_error_envelope_and_the_module_attributes() -> None:
    routed = routes()
    assert type(routed.parse_error(b'{"code": -32601, "message": "m"}')) is NotFound
    assert type(routed.parse_error({"code": 3, "message": "m"})) is ErrorObject
    assert type(routed.parse_envelope(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')) is Request
    namespace: dict[str, Any] = {}
    assert routed.module_attribute("Tolerated", namespace) is tolerant.Tolerated
    responses = routed.module_attribute("RESPONSES", namespace)
    assert namespace == {"Tolerated": tolerant.Tolerated, "RESPONSES": responses}
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        routed.module_attribute("nothing", namespace)


def test_tolerant_parsing_leaves_out_the_items_it_cannot_read() -> None:
    routed = routes()
    raw = b'{"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "a"}, {"name": 5}]}}'
    with pytest.raises(ValidationError):
        routed.parse_message(raw, {3: "tools/list"})
    read = routed.parse_message(raw, {3: "tools/list"}, tolerant=True)
    assert [tool.name for tool in read.value.result.tools] == ["a"]
    assert [(d.index, d.pointer) for d in read.dropped] == [(1, "/result/tools/1")]
    result = routed.parse_result("tools/list", {"tools": [{"name": 1}, {"name": "b"}]}, tolerant=True)
    assert [tool.name for tool in result.value.tools] == ["b"] and result.dropped[0].pointer == "/tools/0"
    with pytest.raises(ValidationError):  # not a list method: as strict
        routed.parse_result("tools/call", {"content": 1}, tolerant=True)
