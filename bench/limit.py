"""The "limit" contender of bench/parse.py: what plain pydantic does at best on the same corpus.

Hand-written models of what the 2026-07-28 spec examples carry, configured as ours are (strict,
unknown keys kept, wire names), every union told apart in pydantic-core by a `const` tag
(`Field(discriminator=...)`: `method`, `type`) and, where the schema has none, by the smallest
callable that can decide (the envelope by its keys, a result by `resultType`, resource contents by
`text`, an error object by `code`). No fast paths, no exactness for inputs other than JSON: a
bound, not a drop-in.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter


class M(BaseModel):
    model_config = ConfigDict(
        extra="allow", strict=True, validate_by_name=False, validate_by_alias=True,
        serialize_by_alias=True, allow_inf_nan=False,
    )  # fmt: skip


def tagged(arms: dict[str, Any], pick: Any) -> Any:
    """A union told apart by a callable returning one of the arms' tags."""
    return Annotated[Union[tuple(Annotated[arm, Tag(tag)] for tag, arm in arms.items())], Discriminator(pick)]  # noqa: UP007


def by_key(key: str, tags: dict[object, str], default: str) -> Any:
    return lambda v: tags.get(v.get(key), default) if isinstance(v, dict) else type(v).__name__


# --- shared pieces
class Implementation(M):
    name: str
    version: str
    title: str | None = None


class Icon(M):
    src: str
    mime_type: str | None = Field(None, alias="mimeType")
    sizes: list[str] | None = None


class RequestMeta(M):
    protocol_version: str = Field(alias="io.modelcontextprotocol/protocolVersion")
    client_info: Implementation = Field(alias="io.modelcontextprotocol/clientInfo")
    client_capabilities: dict[str, Any] = Field(alias="io.modelcontextprotocol/clientCapabilities")


class NotificationMeta(M):
    subscription_id: str | None = Field(None, alias="io.modelcontextprotocol/subscriptionId")


class RequestParams(M):
    meta: RequestMeta = Field(alias="_meta")


class NotificationParams(M):
    meta: NotificationMeta | None = Field(None, alias="_meta")


class TextContent(M):
    type: Literal["text"]
    text: str


class ImageContent(M):
    type: Literal["image"]
    data: str
    mime_type: str = Field(alias="mimeType")


class ResourceLink(M):
    type: Literal["resource_link"]
    uri: str
    name: str


class TextResourceContents(M):
    uri: str
    mime_type: str | None = Field(None, alias="mimeType")
    text: str


class BlobResourceContents(M):
    uri: str
    mime_type: str | None = Field(None, alias="mimeType")
    blob: str


Contents = tagged({"TextResourceContents": TextResourceContents, "BlobResourceContents": BlobResourceContents},
                  lambda v: ("TextResourceContents" if "text" in v else "BlobResourceContents") if isinstance(v, dict) else type(v).__name__)  # fmt: skip


class EmbeddedResource(M):
    type: Literal["resource"]
    resource: Contents


ContentBlock = Annotated[Union[TextContent, ImageContent, ResourceLink, EmbeddedResource], Field(discriminator="type")]  # noqa: UP007


# --- requests and notifications, by method
def request(method: str, params: type[M] = RequestParams) -> type[M]:
    fields: dict[str, Any] = {"jsonrpc": Literal["2.0"], "id": str | int, "method": Literal[method], "params": params}
    return type(method, (M,), {"__annotations__": fields})


def notification(method: str, params: type[M] = NotificationParams) -> type[M]:
    fields: dict[str, Any] = {"jsonrpc": Literal["2.0"], "method": Literal[method], "params": params}
    return type(method, (M,), {"__annotations__": fields})


class CallToolParams(RequestParams):
    name: str
    arguments: dict[str, Any] | None = None


class CompleteParams(RequestParams):
    ref: dict[str, Any]
    argument: dict[str, str]


class GetPromptParams(RequestParams):
    name: str
    arguments: dict[str, str] | None = None


class ReadResourceParams(RequestParams):
    uri: str


class Subscriptions(M):
    tools_list_changed: bool | None = Field(None, alias="toolsListChanged")
    resource_subscriptions: list[str] | None = Field(None, alias="resourceSubscriptions")


class ListenParams(RequestParams):
    notifications: Subscriptions


class CancelledParams(NotificationParams):
    request_id: str | int = Field(alias="requestId")
    reason: str | None = None


class LoggingParams(NotificationParams):
    level: Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
    logger: str | None = None
    data: Any


class ProgressParams(NotificationParams):
    progress_token: str | int = Field(alias="progressToken")
    progress: float
    total: float | None = None
    message: str | None = None


class UpdatedParams(NotificationParams):
    uri: str


class AcknowledgedParams(NotificationParams):
    notifications: Subscriptions


REQUESTS = [
    request("tools/call", CallToolParams), request("completion/complete", CompleteParams), request("server/discover"),
    request("prompts/get", GetPromptParams), request("prompts/list"), request("resources/templates/list"),
    request("resources/list"), request("tools/list"), request("resources/read", ReadResourceParams),
    request("subscriptions/listen", ListenParams),
]  # fmt: skip
NOTIFICATIONS = [
    notification("notifications/cancelled", CancelledParams), notification("notifications/message", LoggingParams),
    notification("notifications/progress", ProgressParams), notification("notifications/prompts/list_changed"),
    notification("notifications/resources/list_changed"), notification("notifications/resources/updated", UpdatedParams),
    notification("notifications/subscriptions/acknowledged", AcknowledgedParams),
    notification("notifications/tools/list_changed"),
]  # fmt: skip
REQUEST = TypeAdapter(Annotated[Union[tuple(REQUESTS)], Field(discriminator="method")])  # noqa: UP007
NOTIFICATION = TypeAdapter(Annotated[Union[tuple(NOTIFICATIONS)], Field(discriminator="method")])  # noqa: UP007


# --- results, by the method they answer
class Result(M):
    result_type: str = Field(alias="resultType")
    meta: dict[str, Any] | None = Field(None, alias="_meta")


class Cached(Result):
    ttl_ms: int = Field(alias="ttlMs")
    cache_scope: Literal["public", "private"] = Field(alias="cacheScope")


class InputRequiredResult(Result):
    input_requests: dict[str, Any] | None = Field(None, alias="inputRequests")
    request_state: str | None = Field(None, alias="requestState")


class CallToolResult(Result):
    content: list[ContentBlock]
    structured_content: dict[str, Any] | None = Field(None, alias="structuredContent")
    is_error: bool | None = Field(None, alias="isError")


class Completion(M):
    values: list[str]
    total: int | None = None
    has_more: bool | None = Field(None, alias="hasMore")


class CompleteResult(Result):
    completion: Completion


class DiscoverResult(Cached):
    supported_versions: list[str] = Field(alias="supportedVersions")
    capabilities: dict[str, Any]


class PromptMessage(M):
    role: Literal["user", "assistant"]
    content: ContentBlock


class GetPromptResult(Result):
    description: str | None = None
    messages: list[PromptMessage]


class PromptArgument(M):
    name: str
    description: str | None = None
    required: bool | None = None


class Described(M):
    name: str
    title: str | None = None
    description: str | None = None
    icons: list[Icon] | None = None


class Prompt(Described):
    arguments: list[PromptArgument] | None = None


class Resource(Described):
    uri: str
    mime_type: str | None = Field(None, alias="mimeType")


class ResourceTemplate(Described):
    uri_template: str = Field(alias="uriTemplate")
    mime_type: str | None = Field(None, alias="mimeType")


class ToolInputSchema(M):
    type: Literal["object"]
    properties: dict[str, Any] | None = None
    required: list[str] | None = None


class Tool(Described):
    input_schema: ToolInputSchema = Field(alias="inputSchema")


class Page(Cached):
    next_cursor: str | None = Field(None, alias="nextCursor")


class ListPromptsResult(Page):
    prompts: list[Prompt]


class ListResourcesResult(Page):
    resources: list[Resource]


class ListResourceTemplatesResult(Page):
    resource_templates: list[ResourceTemplate] = Field(alias="resourceTemplates")


class ListToolsResult(Page):
    tools: list[Tool]


class ReadResourceResult(Cached):
    contents: list[Contents]


def or_input_required(result: type[Result]) -> Any:
    return tagged({result.__name__: result, "InputRequiredResult": InputRequiredResult},
                  by_key("resultType", {"input_required": "InputRequiredResult"}, result.__name__))  # fmt: skip


R = TypeVar("R")


class Response(M, Generic[R]):
    jsonrpc: Literal["2.0"]
    id: str | int
    result: R


RESPONSES: dict[str, type[M]] = {
    "tools/call": Response[or_input_required(CallToolResult)],
    "completion/complete": Response[CompleteResult],
    "server/discover": Response[DiscoverResult],
    "prompts/get": Response[or_input_required(GetPromptResult)],
    "prompts/list": Response[ListPromptsResult],
    "resources/templates/list": Response[ListResourceTemplatesResult],
    "resources/list": Response[ListResourcesResult],
    "tools/list": Response[ListToolsResult],
    "resources/read": Response[or_input_required(ReadResourceResult)],
    "subscriptions/listen": Response[Result],
}


# --- errors, by code
class Error(M):
    code: int
    message: str
    data: Any = None


class MissingCapabilityData(M):
    required_capabilities: dict[str, Any] = Field(alias="requiredCapabilities")


class MissingCapabilityError(Error):
    data: MissingCapabilityData


class UnsupportedVersionData(M):
    supported: list[str]
    requested: str


class UnsupportedVersionError(Error):
    data: UnsupportedVersionData


class ErrorResponse(M):
    jsonrpc: Literal["2.0"]
    id: str | int | None = None
    error: tagged({"Error": Error, "MissingCapabilityError": MissingCapabilityError, "UnsupportedVersionError": UnsupportedVersionError},
                  by_key("code", {-32021: "MissingCapabilityError", -32022: "UnsupportedVersionError"}, "Error"))  # type: ignore[valid-type]  # fmt: skip


ERROR = TypeAdapter(ErrorResponse)


# --- the envelope: no const tag, so the keys decide
class Envelope(M):
    jsonrpc: Literal["2.0"]


class JSONRPCRequest(Envelope):
    id: str | int
    method: str
    params: dict[str, Any] | None = None


class JSONRPCNotification(Envelope):
    method: str
    params: dict[str, Any] | None = None


class JSONRPCResultResponse(Envelope):
    id: str | int
    result: dict[str, Any]


class JSONRPCErrorResponse(Envelope):
    id: str | int | None = None
    error: Error


def _envelope(v: Any) -> str:
    if not isinstance(v, dict):
        return type(v).__name__
    if "method" in v:
        return "JSONRPCRequest" if "id" in v else "JSONRPCNotification"
    return "JSONRPCResultResponse" if "result" in v else "JSONRPCErrorResponse"


ENVELOPE = TypeAdapter(
    tagged({c.__name__: c for c in (JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse, JSONRPCErrorResponse)}, _envelope)
)


def typed(kind: str, method: str | None, raw: bytes) -> Any:
    """The typed model of one message of the corpus; a response typed by the pending request's method."""
    if kind == "request":
        return REQUEST.validate_json(raw)
    if kind == "notification":
        return NOTIFICATION.validate_json(raw)
    if kind == "response":
        return RESPONSES[method or ""].model_validate_json(raw)
    return ERROR.validate_json(raw)
