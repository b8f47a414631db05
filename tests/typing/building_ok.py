"""Building messages by keyword in every revision: must type-check cleanly under mypy --strict and pyright strict.

Each `build_<revision>()` returns (model, wire JSON) pairs: the model built by keyword with attribute
names and no constant spelled out (no `jsonrpc=`, `method=`, `type=`, fixed error `code=`), and the JSON
written by hand that `model.model_dump(mode="json")` must give (checked in tests/test_building_typing.py).
The only `type=` keywords left are NumberSchema's: its `type` allows two values ("integer" or "number"),
so it is a choice, not a constant; likewise 2026-07-28's `result_type="complete"` is a free string in its
schema (only InputRequiredResult's is a constant, and it is left out).
"""
# Building is what is checked here, deprecated classes included (2026-07-28 deprecates sampling,
# logging and roots): their deprecation is tests/typing/deprecated_*.py's.
# pyright: reportDeprecated=false

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from typing_extensions import assert_type

from mcp_models import draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28

Pairs = list[tuple[BaseModel, dict[str, Any]]]

# A JSON Schema property map: plain dicts, as a tool author writes them.
WEATHER_PROPERTIES: dict[str, dict[str, Any]] = {
    "city": {"type": "string", "description": "City name"},
    "days": {"type": "integer", "minimum": 1, "maximum": 7},
}


def build_2024_11_05() -> Pairs:
    r = v2024_11_05
    ping = r.PingRequest(params=r.PingRequestParams(meta=r.PingRequestParamsMeta(progress_token="ping-1")))
    call = r.CallToolRequest(params=r.CallToolRequestParams(name="get_weather", arguments={"city": "Paris", "days": 3}))
    initialize = r.InitializeRequest(
        params=r.InitializeRequestParams(
            protocol_version="2024-11-05",
            capabilities=r.ClientCapabilities(
                roots=r.ClientCapabilitiesRoots(list_changed=True), sampling={}, experimental={"tracing": {"on": True}}
            ),
            client_info=r.Implementation(name="example-client", version="1.0.0"),
        )
    )
    roots = r.ListRootsRequest(params=r.ListRootsRequestParams(meta=r.ListRootsRequestParamsMeta(progress_token=7)))
    progress = r.ProgressNotification(
        params=r.ProgressNotificationParams(progress_token="ping-1", progress=50, total=100)
    )
    cancelled = r.CancelledNotification(params=r.CancelledNotificationParams(request_id=3, reason="timeout"))
    # Whole JSON-RPC messages: the schema leaves `jsonrpc` and `id` to JSONRPCRequest / JSONRPCNotification.
    call_message = r.CallToolRequestMessage(id=7, params=r.CallToolRequestParams(name="get_weather"))
    assert_type(call_message.id, str | int)
    progress_message = r.ProgressNotificationMessage(params=r.ProgressNotificationParams(progress_token=7, progress=1))
    text = r.TextContent(text="Sunny", annotations=r.TextContentAnnotations(audience=["user"], priority=0.5))
    image = r.ImageContent(data="aW1n", mime_type="image/png")
    embedded_text = r.EmbeddedResource(
        resource=r.TextResourceContents(uri="file:///notes.txt", text="notes", mime_type="text/plain")
    )
    embedded_blob = r.EmbeddedResource(resource=r.BlobResourceContents(uri="file:///a.bin", blob="AAE="))
    result = r.CallToolResult(content=[text, image, embedded_text, embedded_blob], is_error=False, meta={"trace": "t1"})
    error = r.JSONRPCError(
        id=2, error=r.JSONRPCErrorError(code=-32601, message="Method not found", data={"method": "x/y"})
    )
    tool = r.Tool(
        name="get_weather",
        description="Weather by city",
        input_schema=r.ToolInputSchema(properties=WEATHER_PROPERTIES, required=["city"]),
    )
    tools_response = r.ResultResponse(id=1, result=r.ListToolsResult(tools=[tool], next_cursor="c2"))
    assert_type(tools_response, v2024_11_05.ResultResponse[v2024_11_05.ListToolsResult])
    assert_type(tools_response.result.tools, list[v2024_11_05.Tool])
    call_response = r.ResultResponse(id="call-1", result=result)
    assert_type(call_response, v2024_11_05.ResultResponse[v2024_11_05.CallToolResult])
    sampled = r.CreateMessageResult(content=image, model="claude", role="assistant", stop_reason="endTurn")

    text_json = {"type": "text", "text": "Sunny", "annotations": {"audience": ["user"], "priority": 0.5}}
    image_json = {"type": "image", "data": "aW1n", "mimeType": "image/png"}
    embedded_text_json = {
        "type": "resource",
        "resource": {"uri": "file:///notes.txt", "text": "notes", "mimeType": "text/plain"},
    }
    embedded_blob_json = {"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAE="}}
    result_json = {
        "_meta": {"trace": "t1"},
        "content": [text_json, image_json, embedded_text_json, embedded_blob_json],
        "isError": False,
    }
    tool_json = {
        "name": "get_weather",
        "description": "Weather by city",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
            },
            "required": ["city"],
        },
    }
    return [
        (ping, {"method": "ping", "params": {"_meta": {"progressToken": "ping-1"}}}),
        (
            call,
            {"method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}},
        ),
        (
            initialize,
            {
                "method": "initialize",
                "params": {
                    "protocolVersion": "2024-11-05",
                    "capabilities": {
                        "roots": {"listChanged": True},
                        "sampling": {},
                        "experimental": {"tracing": {"on": True}},
                    },
                    "clientInfo": {"name": "example-client", "version": "1.0.0"},
                },
            },
        ),
        (roots, {"method": "roots/list", "params": {"_meta": {"progressToken": 7}}}),
        (
            progress,
            {"method": "notifications/progress", "params": {"progressToken": "ping-1", "progress": 50, "total": 100}},
        ),
        (cancelled, {"method": "notifications/cancelled", "params": {"requestId": 3, "reason": "timeout"}}),
        (call_message, {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_weather"}}),
        (
            progress_message,
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 7, "progress": 1}},
        ),
        (text, text_json),
        (image, image_json),
        (embedded_text, embedded_text_json),
        (embedded_blob, embedded_blob_json),
        (result, result_json),
        (
            error,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "error": {"code": -32601, "message": "Method not found", "data": {"method": "x/y"}},
            },
        ),
        (tool, tool_json),
        (tools_response, {"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool_json], "nextCursor": "c2"}}),
        (call_response, {"jsonrpc": "2.0", "id": "call-1", "result": result_json}),
        (sampled, {"content": image_json, "model": "claude", "role": "assistant", "stopReason": "endTurn"}),
    ]


def build_2025_03_26() -> Pairs:
    r = v2025_03_26
    ping = r.PingRequest(params=r.PingRequestParams(meta=r.PingRequestParamsMeta(progress_token=11)))
    call = r.CallToolRequest(params=r.CallToolRequestParams(name="get_weather", arguments={"city": "Oslo"}))
    progress = r.ProgressNotification(
        params=r.ProgressNotificationParams(progress_token=11, progress=0.25, message="fetching")
    )
    listed = r.ToolListChangedNotification()
    ping_message = r.PingRequestMessage(id="p-1")
    assert_type(ping_message.id, str | int)
    listed_message = r.ToolListChangedNotificationMessage()
    call_message = r.CallToolRequestMessage(id=0, params=r.CallToolRequestParams(name="get_weather"))
    progress_message = r.ProgressNotificationMessage(params=r.ProgressNotificationParams(progress_token="t", progress=2))
    annotations = r.Annotations(audience=["assistant"], priority=1)
    text = r.TextContent(text="Cold", annotations=annotations)
    image = r.ImageContent(data="aW1n", mime_type="image/jpeg")
    audio = r.AudioContent(data="UklGRg==", mime_type="audio/wav")
    embedded = r.EmbeddedResource(resource=r.TextResourceContents(uri="mem://forecast", text="-3C"))
    read = r.ReadResourceResult(
        contents=[
            r.TextResourceContents(uri="file:///a.txt", text="A", mime_type="text/plain"),
            r.BlobResourceContents(uri="file:///b.bin", blob="AAE="),
        ]
    )
    result = r.CallToolResult(content=[text, image, audio, embedded])
    error = r.JSONRPCError(id="req-9", error=r.JSONRPCErrorError(code=-32602, message="Invalid params"))
    tool = r.Tool(
        name="get_weather",
        input_schema=r.ToolInputSchema(properties=WEATHER_PROPERTIES),
        annotations=r.ToolAnnotations(read_only_hint=True, open_world_hint=False, title="Weather"),
    )
    tools_response = r.ResultResponse(id=5, result=r.ListToolsResult(tools=[tool]))
    assert_type(tools_response, v2025_03_26.ResultResponse[v2025_03_26.ListToolsResult])
    call_response = r.ResultResponse(id=6, result=result)
    assert_type(call_response, v2025_03_26.ResultResponse[v2025_03_26.CallToolResult])

    text_json = {"type": "text", "text": "Cold", "annotations": {"audience": ["assistant"], "priority": 1}}
    image_json = {"type": "image", "data": "aW1n", "mimeType": "image/jpeg"}
    audio_json = {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
    embedded_json = {"type": "resource", "resource": {"uri": "mem://forecast", "text": "-3C"}}
    read_json = {
        "contents": [
            {"uri": "file:///a.txt", "text": "A", "mimeType": "text/plain"},
            {"uri": "file:///b.bin", "blob": "AAE="},
        ]
    }
    result_json = {"content": [text_json, image_json, audio_json, embedded_json]}
    tool_json = {
        "name": "get_weather",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
            },
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False, "title": "Weather"},
    }
    return [
        (ping, {"method": "ping", "params": {"_meta": {"progressToken": 11}}}),
        (call, {"method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}),
        (
            progress,
            {
                "method": "notifications/progress",
                "params": {"progressToken": 11, "progress": 0.25, "message": "fetching"},
            },
        ),
        (listed, {"method": "notifications/tools/list_changed"}),
        (ping_message, {"jsonrpc": "2.0", "id": "p-1", "method": "ping"}),
        (listed_message, {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
        (call_message, {"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": {"name": "get_weather"}}),
        (
            progress_message,
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 2}},
        ),
        (text, text_json),
        (image, image_json),
        (audio, audio_json),
        (embedded, embedded_json),
        (read, read_json),
        (result, result_json),
        (error, {"jsonrpc": "2.0", "id": "req-9", "error": {"code": -32602, "message": "Invalid params"}}),
        (tool, tool_json),
        (tools_response, {"jsonrpc": "2.0", "id": 5, "result": {"tools": [tool_json]}}),
        (call_response, {"jsonrpc": "2.0", "id": 6, "result": result_json}),
    ]


def build_2025_06_18() -> Pairs:
    r = v2025_06_18
    ping = r.PingRequest(params=r.PingRequestParams(meta=r.PingRequestParamsMeta(progress_token="p-18")))
    call = r.CallToolRequest(params=r.CallToolRequestParams(name="get_weather", arguments={"city": "Rome", "days": 2}))
    elicit = r.ElicitRequest(
        params=r.ElicitRequestParams(
            message="Where to?",
            requested_schema=r.ElicitRequestParamsRequestedSchema(
                properties={
                    "city": r.StringSchema(title="City", min_length=2, max_length=40),
                    "email": r.StringSchema(format="email"),
                    "days": r.NumberSchema(type="integer", minimum=1, maximum=7),
                    "budget": r.NumberSchema(type="number", description="EUR"),
                    "flexible": r.BooleanSchema(default=False),
                    "size": r.EnumSchema(enum=["s", "m", "l"], enum_names=["Small", "Medium", "Large"]),
                    "color": r.EnumSchema(enum=["red", "blue"], title="Color"),
                },
                required=["city"],
            ),
        )
    )
    logged = r.LoggingMessageNotification(
        params=r.LoggingMessageNotificationParams(level="info", data={"step": 1}, logger="weather")
    )
    call_message = r.CallToolRequestMessage(
        id="call-18", params=r.CallToolRequestParams(name="get_weather", arguments={"city": "Rome"})
    )
    assert_type(call_message.id, str | int)
    assert_type(call_message.params, v2025_06_18.CallToolRequestParams)
    logged_message = r.LoggingMessageNotificationMessage(params=r.LoggingMessageNotificationParams(level="info", data=1))
    progress_message = r.ProgressNotificationMessage(params=r.ProgressNotificationParams(progress_token=-1, progress=0))
    text = r.TextContent(text="Warm", meta={"lang": "en"})
    image = r.ImageContent(data="aW1n", mime_type="image/png")
    audio = r.AudioContent(data="UklGRg==", mime_type="audio/mpeg")
    link = r.ResourceLink(uri="https://example.com/rome", name="rome", title="Rome forecast", size=2048)
    embedded = r.EmbeddedResource(
        resource=r.BlobResourceContents(uri="file:///chart.png", blob="iVBO", mime_type="image/png"),
        annotations=r.Annotations(last_modified="2025-06-18T00:00:00Z"),
    )
    result = r.CallToolResult(
        content=[text, image, audio, link, embedded], structured_content={"temperature": 24, "unit": "C"}
    )
    read = r.ReadResourceResult(
        contents=[
            r.TextResourceContents(uri="file:///a.txt", text="A", mime_type="text/plain"),
            r.BlobResourceContents(uri="file:///b.bin", blob="AAE="),
        ]
    )
    progress = r.ProgressNotification(params=r.ProgressNotificationParams(progress_token="p-18", progress=9.5))
    elicited = r.ElicitResult(action="accept", content={"city": "Rome", "days": 2, "flexible": True})
    error = r.JSONRPCError(id=12, error=r.JSONRPCErrorError(code=-32603, message="Internal error", data="boom"))
    tool = r.Tool(
        name="get_weather",
        title="Weather",
        input_schema=r.ToolInputSchema(properties=WEATHER_PROPERTIES, required=["city"]),
        output_schema=r.ToolOutputSchema(properties={"temperature": {"type": "number"}}),
    )
    call_response = r.ResultResponse(id=13, result=result)
    assert_type(call_response, v2025_06_18.ResultResponse[v2025_06_18.CallToolResult])
    elicit_response = r.ResultResponse(id=14, result=elicited)
    assert_type(elicit_response, v2025_06_18.ResultResponse[v2025_06_18.ElicitResult])

    text_json = {"type": "text", "text": "Warm", "_meta": {"lang": "en"}}
    image_json = {"type": "image", "data": "aW1n", "mimeType": "image/png"}
    audio_json = {"type": "audio", "data": "UklGRg==", "mimeType": "audio/mpeg"}
    link_json = {
        "type": "resource_link",
        "uri": "https://example.com/rome",
        "name": "rome",
        "title": "Rome forecast",
        "size": 2048,
    }
    embedded_json = {
        "type": "resource",
        "resource": {"uri": "file:///chart.png", "blob": "iVBO", "mimeType": "image/png"},
        "annotations": {"lastModified": "2025-06-18T00:00:00Z"},
    }
    result_json = {
        "content": [text_json, image_json, audio_json, link_json, embedded_json],
        "structuredContent": {"temperature": 24, "unit": "C"},
    }
    elicited_json = {"action": "accept", "content": {"city": "Rome", "days": 2, "flexible": True}}
    read_json = {
        "contents": [
            {"uri": "file:///a.txt", "text": "A", "mimeType": "text/plain"},
            {"uri": "file:///b.bin", "blob": "AAE="},
        ]
    }
    return [
        (ping, {"method": "ping", "params": {"_meta": {"progressToken": "p-18"}}}),
        (call, {"method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Rome", "days": 2}}}),
        (
            elicit,
            {
                "method": "elicitation/create",
                "params": {
                    "message": "Where to?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "city": {"type": "string", "title": "City", "minLength": 2, "maxLength": 40},
                            "email": {"type": "string", "format": "email"},
                            "days": {"type": "integer", "minimum": 1, "maximum": 7},
                            "budget": {"type": "number", "description": "EUR"},
                            "flexible": {"type": "boolean", "default": False},
                            "size": {
                                "type": "string",
                                "enum": ["s", "m", "l"],
                                "enumNames": ["Small", "Medium", "Large"],
                            },
                            "color": {"type": "string", "enum": ["red", "blue"], "title": "Color"},
                        },
                        "required": ["city"],
                    },
                },
            },
        ),
        (
            logged,
            {"method": "notifications/message", "params": {"level": "info", "data": {"step": 1}, "logger": "weather"}},
        ),
        (
            call_message,
            {
                "jsonrpc": "2.0",
                "id": "call-18",
                "method": "tools/call",
                "params": {"name": "get_weather", "arguments": {"city": "Rome"}},
            },
        ),
        (
            logged_message,
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": 1}},
        ),
        (
            progress_message,
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": -1, "progress": 0}},
        ),
        (text, text_json),
        (image, image_json),
        (audio, audio_json),
        (link, link_json),
        (embedded, embedded_json),
        (result, result_json),
        (elicited, elicited_json),
        (read, read_json),
        (progress, {"method": "notifications/progress", "params": {"progressToken": "p-18", "progress": 9.5}}),
        (
            error,
            {"jsonrpc": "2.0", "id": 12, "error": {"code": -32603, "message": "Internal error", "data": "boom"}},
        ),
        (
            tool,
            {
                "name": "get_weather",
                "title": "Weather",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "description": "City name"},
                        "days": {"type": "integer", "minimum": 1, "maximum": 7},
                    },
                    "required": ["city"],
                },
                "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}},
            },
        ),
        (call_response, {"jsonrpc": "2.0", "id": 13, "result": result_json}),
        (elicit_response, {"jsonrpc": "2.0", "id": 14, "result": elicited_json}),
    ]


def build_2025_11_25() -> Pairs:
    r = v2025_11_25
    call = r.CallToolRequest(
        id=21,
        params=r.CallToolRequestParams(
            name="get_weather",
            arguments={"city": "Lima"},
            meta=r.CallToolRequestParamsMeta(progress_token="tok-21"),
            task=r.TaskMetadata(ttl=60000),
        ),
    )
    elicit = r.ElicitRequest(
        id=22,
        params=r.ElicitRequestFormParams(
            message="Your order",
            meta=r.ElicitRequestFormParamsMeta(progress_token=22),
            requested_schema=r.ElicitRequestFormParamsRequestedSchema(
                properties={
                    "name": r.StringSchema(min_length=1, default="Ada"),
                    "quantity": r.NumberSchema(type="integer", minimum=1, default=1),
                    "gift": r.BooleanSchema(title="Gift wrap"),
                    "color": r.UntitledSingleSelectEnumSchema(enum=["red", "green"], default="red"),
                    "size": r.TitledSingleSelectEnumSchema(
                        one_of=[
                            r.TitledSingleSelectEnumSchemaOneOfItem(const="s", title="Small"),
                            r.TitledSingleSelectEnumSchemaOneOfItem(const="l", title="Large"),
                        ]
                    ),
                    "toppings": r.UntitledMultiSelectEnumSchema(
                        items=r.UntitledMultiSelectEnumSchemaItems(enum=["nuts", "cream"]), min_items=0, max_items=2
                    ),
                    "extras": r.TitledMultiSelectEnumSchema(
                        items=r.TitledMultiSelectEnumSchemaItems(
                            any_of=[r.TitledMultiSelectEnumSchemaItemsAnyOfItem(const="bag", title="Paper bag")]
                        ),
                        default=["bag"],
                    ),
                    "speed": r.LegacyTitledEnumSchema(enum=["std", "exp"], enum_names=["Standard", "Express"]),
                },
                required=["name", "quantity"],
            ),
        ),
    )
    progress = r.ProgressNotification(params=r.ProgressNotificationParams(progress_token="tok-21", progress=3, total=4))
    completed = r.ElicitationCompleteNotification(params=r.ElicitationCompleteNotificationParams(elicitation_id="el-1"))
    text = r.TextContent(text="Mild")
    image = r.ImageContent(data="aW1n", mime_type="image/webp")
    audio = r.AudioContent(data="T2dn", mime_type="audio/ogg")
    link = r.ResourceLink(
        uri="https://example.com/lima",
        name="lima",
        mime_type="text/html",
        icons=[r.Icon(src="https://example.com/i.png", sizes=["16x16"], theme="dark")],
    )
    embedded = r.EmbeddedResource(resource=r.TextResourceContents(uri="mem://lima", text="19C", meta={"v": 2}))
    read = r.ReadResourceResult(
        contents=[
            r.TextResourceContents(uri="file:///a.txt", text="A", mime_type="text/plain"),
            r.BlobResourceContents(uri="file:///b.bin", blob="AAE="),
        ]
    )
    tool_use = r.ToolUseContent(id="use-1", name="get_weather", input={"city": "Lima"})
    tool_result = r.ToolResultContent(
        tool_use_id="use-1", content=[text], structured_content={"temperature": 19}, is_error=False
    )
    result = r.CallToolResult(content=[text, image, audio, link, embedded], structured_content={"temperature": 19})
    sampling = r.CreateMessageRequest(
        id="s-1",
        params=r.CreateMessageRequestParams(
            max_tokens=200,
            messages=[
                r.SamplingMessage(role="assistant", content=tool_use),
                r.SamplingMessage(role="user", content=tool_result),
            ],
            tool_choice=r.ToolChoice(mode="auto"),
        ),
    )
    sampled = r.CreateMessageResult(content=tool_use, model="claude", role="assistant", stop_reason="toolUse")
    error = r.JSONRPCErrorResponse(id=23, error=r.Error(code=-32602, message="Unknown tool", data={"tool": "x"}))
    url_error = r.URLElicitationRequiredError(
        id=24,
        error=r.URLElicitationRequiredErrorError(
            message="Authorization required",
            data=r.URLElicitationRequiredErrorErrorData(
                elicitations=[
                    r.ElicitRequestURLParams(elicitation_id="el-1", message="Sign in", url="https://example.com/login")
                ]
            ),
        ),
    )
    tool = r.Tool(
        name="get_weather",
        input_schema=r.ToolInputSchema(properties=WEATHER_PROPERTIES, required=["city"]),
        execution=r.ToolExecution(task_support="optional"),
    )
    call_response = r.ResultResponse(id=21, result=result)
    assert_type(call_response, v2025_11_25.ResultResponse[v2025_11_25.CallToolResult])
    sampled_response = r.ResultResponse(id="s-1", result=sampled)
    assert_type(sampled_response, v2025_11_25.ResultResponse[v2025_11_25.CreateMessageResult])

    text_json = {"type": "text", "text": "Mild"}
    image_json = {"type": "image", "data": "aW1n", "mimeType": "image/webp"}
    audio_json = {"type": "audio", "data": "T2dn", "mimeType": "audio/ogg"}
    link_json = {
        "type": "resource_link",
        "uri": "https://example.com/lima",
        "name": "lima",
        "mimeType": "text/html",
        "icons": [{"src": "https://example.com/i.png", "sizes": ["16x16"], "theme": "dark"}],
    }
    embedded_json = {"type": "resource", "resource": {"uri": "mem://lima", "text": "19C", "_meta": {"v": 2}}}
    read_json = {
        "contents": [
            {"uri": "file:///a.txt", "text": "A", "mimeType": "text/plain"},
            {"uri": "file:///b.bin", "blob": "AAE="},
        ]
    }
    tool_use_json = {"type": "tool_use", "id": "use-1", "name": "get_weather", "input": {"city": "Lima"}}
    tool_result_json = {
        "type": "tool_result",
        "toolUseId": "use-1",
        "content": [text_json],
        "structuredContent": {"temperature": 19},
        "isError": False,
    }
    result_json = {
        "content": [text_json, image_json, audio_json, link_json, embedded_json],
        "structuredContent": {"temperature": 19},
    }
    sampled_json = {"content": tool_use_json, "model": "claude", "role": "assistant", "stopReason": "toolUse"}
    return [
        (
            call,
            {
                "jsonrpc": "2.0",
                "id": 21,
                "method": "tools/call",
                "params": {
                    "_meta": {"progressToken": "tok-21"},
                    "name": "get_weather",
                    "arguments": {"city": "Lima"},
                    "task": {"ttl": 60000},
                },
            },
        ),
        (
            elicit,
            {
                "jsonrpc": "2.0",
                "id": 22,
                "method": "elicitation/create",
                "params": {
                    "_meta": {"progressToken": 22},
                    "message": "Your order",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "default": "Ada"},
                            "quantity": {"type": "integer", "minimum": 1, "default": 1},
                            "gift": {"type": "boolean", "title": "Gift wrap"},
                            "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
                            "size": {
                                "type": "string",
                                "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}],
                            },
                            "toppings": {
                                "type": "array",
                                "items": {"type": "string", "enum": ["nuts", "cream"]},
                                "minItems": 0,
                                "maxItems": 2,
                            },
                            "extras": {
                                "type": "array",
                                "items": {"anyOf": [{"const": "bag", "title": "Paper bag"}]},
                                "default": ["bag"],
                            },
                            "speed": {"type": "string", "enum": ["std", "exp"], "enumNames": ["Standard", "Express"]},
                        },
                        "required": ["name", "quantity"],
                    },
                },
            },
        ),
        (
            progress,
            {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": "tok-21", "progress": 3, "total": 4},
            },
        ),
        (
            completed,
            {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "el-1"}},
        ),
        (text, text_json),
        (image, image_json),
        (audio, audio_json),
        (link, link_json),
        (embedded, embedded_json),
        (read, read_json),
        (tool_use, tool_use_json),
        (tool_result, tool_result_json),
        (result, result_json),
        (
            sampling,
            {
                "jsonrpc": "2.0",
                "id": "s-1",
                "method": "sampling/createMessage",
                "params": {
                    "maxTokens": 200,
                    "messages": [
                        {"role": "assistant", "content": tool_use_json},
                        {"role": "user", "content": tool_result_json},
                    ],
                    "toolChoice": {"mode": "auto"},
                },
            },
        ),
        (sampled, sampled_json),
        (
            error,
            {"jsonrpc": "2.0", "id": 23, "error": {"code": -32602, "message": "Unknown tool", "data": {"tool": "x"}}},
        ),
        (
            url_error,
            {
                "jsonrpc": "2.0",
                "id": 24,
                "error": {
                    "code": -32042,
                    "message": "Authorization required",
                    "data": {
                        "elicitations": [
                            {
                                "mode": "url",
                                "elicitationId": "el-1",
                                "message": "Sign in",
                                "url": "https://example.com/login",
                            }
                        ]
                    },
                },
            },
        ),
        (
            tool,
            {
                "name": "get_weather",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "description": "City name"},
                        "days": {"type": "integer", "minimum": 1, "maximum": 7},
                    },
                    "required": ["city"],
                },
                "execution": {"taskSupport": "optional"},
            },
        ),
        (call_response, {"jsonrpc": "2.0", "id": 21, "result": result_json}),
        (sampled_response, {"jsonrpc": "2.0", "id": "s-1", "result": sampled_json}),
    ]


def build_2026_07_28() -> Pairs:
    r = v2026_07_28
    meta = r.RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=r.ClientCapabilities(
            elicitation=r.ClientCapabilitiesElicitation(form={}),
            sampling=r.ClientCapabilitiesSampling(tools={}),
            roots={},
            extensions={"io.example/trace": {"level": 2}},
        ),
        io_modelcontextprotocol_client_info=r.Implementation(name="example-client", version="2.0.0"),
        io_modelcontextprotocol_log_level="warning",
        progress_token="tok-31",
    )
    bare_meta = r.RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=r.ClientCapabilities(),
    )
    call = r.CallToolRequest(
        id=31, params=r.CallToolRequestParams(meta=meta, name="get_weather", arguments={"city": "Kyoto"})
    )
    answered = r.ElicitResult(action="accept", content={"city": "Kyoto", "days": 3, "units": ["c"], "alerts": True})
    retry = r.CallToolRequest(
        id=32,
        params=r.CallToolRequestParams(
            meta=bare_meta, name="get_weather", input_responses={"ask-city": answered}, request_state="opaque-1"
        ),
    )
    discover = r.DiscoverRequest(id=33, params=r.RequestParams(meta=bare_meta))
    list_tools = r.ListToolsRequest(id=34, params=r.PaginatedRequestParams(meta=bare_meta, cursor="c1"))
    progress = r.ProgressNotification(
        params=r.ProgressNotificationParams(
            progress_token="tok-31",
            progress=1,
            total=2,
            meta=r.NotificationMetaObject(io_modelcontextprotocol_subscription_id=9),
        )
    )
    logged = r.LoggingMessageNotification(params=r.LoggingMessageNotificationParams(level="warning", data="slow"))
    listed = r.ToolListChangedNotification()
    text = r.TextContent(text="Clear")
    image = r.ImageContent(data="aW1n", mime_type="image/png", meta={"alt": "sun"})
    audio = r.AudioContent(data="T2dn", mime_type="audio/ogg")
    link = r.ResourceLink(uri="https://example.com/kyoto", name="kyoto", description="Kyoto forecast")
    embedded = r.EmbeddedResource(
        resource=r.TextResourceContents(uri="mem://kyoto", text="{}", mime_type="application/json"),
        annotations=r.Annotations(audience=["user", "assistant"], priority=0.9),
    )
    read = r.ReadResourceResult(
        contents=[r.TextResourceContents(uri="mem://a", text="A"), r.BlobResourceContents(uri="mem://b", blob="AAE=")],
        result_type="complete",
        cache_scope="private",
        ttl_ms=0,
    )
    tool_use = r.ToolUseContent(id="use-2", name="get_weather", input={"city": "Kyoto"})
    tool_result = r.ToolResultContent(tool_use_id="use-2", content=[text, link], structured_content=[21, 22])
    result = r.CallToolResult(
        content=[text, image, audio, link, embedded],
        result_type="complete",
        structured_content=[21, 22],
        is_error=False,
        meta=r.ResultMetaObject(io_modelcontextprotocol_server_info=r.Implementation(name="srv", version="1")),
    )
    elicit = r.ElicitRequest(
        params=r.ElicitRequestFormParams(
            message="Plan the trip",
            requested_schema=r.ElicitRequestFormParamsRequestedSchema(
                properties={
                    "city": r.StringSchema(description="Destination"),
                    "days": r.NumberSchema(type="integer", minimum=1, maximum=14),
                    "alerts": r.BooleanSchema(default=True),
                    "region": r.UntitledSingleSelectEnumSchema(enum=["kansai", "kanto"]),
                    "hotel": r.TitledSingleSelectEnumSchema(
                        one_of=[r.TitledSingleSelectEnumSchemaOneOfItem(const="ryokan", title="Ryokan")],
                        default="ryokan",
                    ),
                    "units": r.UntitledMultiSelectEnumSchema(
                        items=r.UntitledMultiSelectEnumSchemaItems(enum=["c", "f"]), max_items=1
                    ),
                    "sights": r.TitledMultiSelectEnumSchema(
                        items=r.TitledMultiSelectEnumSchemaItems(
                            any_of=[
                                r.TitledMultiSelectEnumSchemaItemsAnyOfItem(const="temple", title="Temples"),
                                r.TitledMultiSelectEnumSchemaItemsAnyOfItem(const="garden", title="Gardens"),
                            ]
                        ),
                        min_items=1,
                    ),
                    "pace": r.LegacyTitledEnumSchema(
                        enum=["slow", "fast"], enum_names=["Slow", "Fast"], default="slow"
                    ),
                },
                required=["city"],
            ),
        )
    )
    sample = r.CreateMessageRequest(
        params=r.CreateMessageRequestParams(
            max_tokens=100,
            messages=[
                r.SamplingMessage(role="assistant", content=tool_use),
                r.SamplingMessage(role="user", content=tool_result),
            ],
            tools=[r.Tool(name="noop", input_schema=r.ToolInputSchema())],
        )
    )
    input_required = r.InputRequiredResult(
        input_requests={"ask-city": elicit, "sample": sample, "roots": r.ListRootsRequest()},
        request_state="opaque-1",
        result_type="input_required",  # an open string in the schema: no constant to fill in
    )
    error = r.JSONRPCErrorResponse(id=35, error=r.Error(code=-32602, message="Unknown tool: x"))
    unsupported = r.UnsupportedProtocolVersionError(
        id=36,
        error=r.UnsupportedProtocolVersionErrorError(
            message="Unsupported protocol version",
            data=r.UnsupportedProtocolVersionErrorErrorData(requested="1999-01-01", supported=["2026-07-28"]),
        ),
    )
    missing = r.MissingRequiredClientCapabilityError(
        id=37,
        error=r.MissingRequiredClientCapabilityErrorError(
            message="Sampling required",
            data=r.MissingRequiredClientCapabilityErrorErrorData(
                required_capabilities=r.ClientCapabilities(sampling=r.ClientCapabilitiesSampling())
            ),
        ),
    )
    mismatch = r.HeaderMismatchError(error=r.HeaderMismatchErrorError(message="Mcp-Method header mismatch"))
    invalid_params = r.InvalidParamsError(message="Invalid params", data={"field": "city"})
    invalid_response = r.ErrorResponse(id=36, error=invalid_params)
    # 2026-07-28's inputSchema declares only `$schema` and `type`: keys it leaves undeclared (`properties`)
    # have no keyword, so a whole JSON Schema body is read with model_validate (typed as ToolInputSchema).
    tool = r.Tool(
        name="get_weather",
        input_schema=r.ToolInputSchema.model_validate(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {"city": {"type": "string"}},
            }
        ),
        output_schema=r.ToolOutputSchema(),
        icons=[r.Icon(src="https://example.com/w.svg", mime_type="image/svg+xml")],
    )
    tools = r.ListToolsResult(tools=[tool], result_type="complete", cache_scope="public", ttl_ms=60000)
    call_response = r.ResultResponse(id=31, result=result)
    assert_type(call_response, v2026_07_28.ResultResponse[v2026_07_28.CallToolResult])
    assert_type(call_response.result.content, list[v2026_07_28.ContentBlock])
    input_response = r.ResultResponse(id=32, result=input_required)
    assert_type(input_response, v2026_07_28.ResultResponse[v2026_07_28.InputRequiredResult])
    tools_response = r.ResultResponse(id=34, result=tools)
    assert_type(tools_response, v2026_07_28.ResultResponse[v2026_07_28.ListToolsResult])

    bare_meta_json: dict[str, Any] = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    text_json = {"type": "text", "text": "Clear"}
    image_json = {"type": "image", "data": "aW1n", "mimeType": "image/png", "_meta": {"alt": "sun"}}
    audio_json = {"type": "audio", "data": "T2dn", "mimeType": "audio/ogg"}
    link_json = {
        "type": "resource_link",
        "uri": "https://example.com/kyoto",
        "name": "kyoto",
        "description": "Kyoto forecast",
    }
    embedded_json = {
        "type": "resource",
        "resource": {"uri": "mem://kyoto", "text": "{}", "mimeType": "application/json"},
        "annotations": {"audience": ["user", "assistant"], "priority": 0.9},
    }
    tool_use_json = {"type": "tool_use", "id": "use-2", "name": "get_weather", "input": {"city": "Kyoto"}}
    tool_result_json = {
        "type": "tool_result",
        "toolUseId": "use-2",
        "content": [text_json, link_json],
        "structuredContent": [21, 22],
    }
    result_json = {
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "1"}},
        "content": [text_json, image_json, audio_json, link_json, embedded_json],
        "resultType": "complete",
        "structuredContent": [21, 22],
        "isError": False,
    }
    elicit_json = {
        "method": "elicitation/create",
        "params": {
            "message": "Plan the trip",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "Destination"},
                    "days": {"type": "integer", "minimum": 1, "maximum": 14},
                    "alerts": {"type": "boolean", "default": True},
                    "region": {"type": "string", "enum": ["kansai", "kanto"]},
                    "hotel": {"type": "string", "oneOf": [{"const": "ryokan", "title": "Ryokan"}], "default": "ryokan"},
                    "units": {"type": "array", "items": {"type": "string", "enum": ["c", "f"]}, "maxItems": 1},
                    "sights": {
                        "type": "array",
                        "items": {
                            "anyOf": [{"const": "temple", "title": "Temples"}, {"const": "garden", "title": "Gardens"}]
                        },
                        "minItems": 1,
                    },
                    "pace": {
                        "type": "string",
                        "enum": ["slow", "fast"],
                        "enumNames": ["Slow", "Fast"],
                        "default": "slow",
                    },
                },
                "required": ["city"],
            },
        },
    }
    sample_json = {
        "method": "sampling/createMessage",
        "params": {
            "maxTokens": 100,
            "messages": [
                {"role": "assistant", "content": tool_use_json},
                {"role": "user", "content": tool_result_json},
            ],
            "tools": [{"name": "noop", "inputSchema": {"type": "object"}}],
        },
    }
    input_required_json = {
        "resultType": "input_required",
        "inputRequests": {"ask-city": elicit_json, "sample": sample_json, "roots": {"method": "roots/list"}},
        "requestState": "opaque-1",
    }
    tool_json = {
        "name": "get_weather",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"city": {"type": "string"}},
        },
        "outputSchema": {},
        "icons": [{"src": "https://example.com/w.svg", "mimeType": "image/svg+xml"}],
    }
    tools_json = {"tools": [tool_json], "resultType": "complete", "cacheScope": "public", "ttlMs": 60000}
    return [
        (
            call,
            {
                "jsonrpc": "2.0",
                "id": 31,
                "method": "tools/call",
                "params": {
                    "_meta": {
                        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities": {
                            "elicitation": {"form": {}},
                            "sampling": {"tools": {}},
                            "roots": {},
                            "extensions": {"io.example/trace": {"level": 2}},
                        },
                        "io.modelcontextprotocol/clientInfo": {"name": "example-client", "version": "2.0.0"},
                        "io.modelcontextprotocol/logLevel": "warning",
                        "progressToken": "tok-31",
                    },
                    "name": "get_weather",
                    "arguments": {"city": "Kyoto"},
                },
            },
        ),
        (
            retry,
            {
                "jsonrpc": "2.0",
                "id": 32,
                "method": "tools/call",
                "params": {
                    "_meta": bare_meta_json,
                    "name": "get_weather",
                    "inputResponses": {
                        "ask-city": {
                            "action": "accept",
                            "content": {"city": "Kyoto", "days": 3, "units": ["c"], "alerts": True},
                        }
                    },
                    "requestState": "opaque-1",
                },
            },
        ),
        (discover, {"jsonrpc": "2.0", "id": 33, "method": "server/discover", "params": {"_meta": bare_meta_json}}),
        (
            list_tools,
            {"jsonrpc": "2.0", "id": 34, "method": "tools/list", "params": {"_meta": bare_meta_json, "cursor": "c1"}},
        ),
        (
            progress,
            {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {
                    "_meta": {"io.modelcontextprotocol/subscriptionId": 9},
                    "progressToken": "tok-31",
                    "progress": 1,
                    "total": 2,
                },
            },
        ),
        (logged, {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "warning", "data": "slow"}}),
        (listed, {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
        (text, text_json),
        (image, image_json),
        (audio, audio_json),
        (link, link_json),
        (embedded, embedded_json),
        (
            read,
            {
                "contents": [{"uri": "mem://a", "text": "A"}, {"uri": "mem://b", "blob": "AAE="}],
                "resultType": "complete",
                "cacheScope": "private",
                "ttlMs": 0,
            },
        ),
        (tool_use, tool_use_json),
        (tool_result, tool_result_json),
        (result, result_json),
        (elicit, elicit_json),
        (sample, sample_json),
        (input_required, input_required_json),
        (error, {"jsonrpc": "2.0", "id": 35, "error": {"code": -32602, "message": "Unknown tool: x"}}),
        (
            unsupported,
            {
                "jsonrpc": "2.0",
                "id": 36,
                "error": {
                    "code": -32022,
                    "message": "Unsupported protocol version",
                    "data": {"requested": "1999-01-01", "supported": ["2026-07-28"]},
                },
            },
        ),
        (
            missing,
            {
                "jsonrpc": "2.0",
                "id": 37,
                "error": {
                    "code": -32021,
                    "message": "Sampling required",
                    "data": {"requiredCapabilities": {"sampling": {}}},
                },
            },
        ),
        (mismatch, {"jsonrpc": "2.0", "error": {"code": -32020, "message": "Mcp-Method header mismatch"}}),
        (invalid_params, {"code": -32602, "message": "Invalid params", "data": {"field": "city"}}),
        (
            invalid_response,
            {
                "jsonrpc": "2.0",
                "id": 36,
                "error": {"code": -32602, "message": "Invalid params", "data": {"field": "city"}},
            },
        ),
        (tool, tool_json),
        (tools, tools_json),
        (call_response, {"jsonrpc": "2.0", "id": 31, "result": result_json}),
        (input_response, {"jsonrpc": "2.0", "id": 32, "result": input_required_json}),
        (tools_response, {"jsonrpc": "2.0", "id": 34, "result": tools_json}),
    ]


def build_draft() -> Pairs:
    """The draft builds the same messages as 2026-07-28 and must give the same wire JSON."""
    r = draft
    meta = r.RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=r.ClientCapabilities(
            elicitation=r.ClientCapabilitiesElicitation(form={}),
            sampling=r.ClientCapabilitiesSampling(tools={}),
            roots={},
            extensions={"io.example/trace": {"level": 2}},
        ),
        io_modelcontextprotocol_client_info=r.Implementation(name="example-client", version="2.0.0"),
        io_modelcontextprotocol_log_level="warning",
        progress_token="tok-31",
    )
    bare_meta = r.RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=r.ClientCapabilities(),
    )
    call = r.CallToolRequest(
        id=31, params=r.CallToolRequestParams(meta=meta, name="get_weather", arguments={"city": "Kyoto"})
    )
    answered = r.ElicitResult(action="accept", content={"city": "Kyoto", "days": 3, "units": ["c"], "alerts": True})
    retry = r.CallToolRequest(
        id=32,
        params=r.CallToolRequestParams(
            meta=bare_meta, name="get_weather", input_responses={"ask-city": answered}, request_state="opaque-1"
        ),
    )
    discover = r.DiscoverRequest(id=33, params=r.RequestParams(meta=bare_meta))
    list_tools = r.ListToolsRequest(id=34, params=r.PaginatedRequestParams(meta=bare_meta, cursor="c1"))
    progress = r.ProgressNotification(
        params=r.ProgressNotificationParams(
            progress_token="tok-31",
            progress=1,
            total=2,
            meta=r.NotificationMetaObject(io_modelcontextprotocol_subscription_id=9),
        )
    )
    logged = r.LoggingMessageNotification(params=r.LoggingMessageNotificationParams(level="warning", data="slow"))
    listed = r.ToolListChangedNotification()
    text = r.TextContent(text="Clear")
    image = r.ImageContent(data="aW1n", mime_type="image/png", meta={"alt": "sun"})
    audio = r.AudioContent(data="T2dn", mime_type="audio/ogg")
    link = r.ResourceLink(uri="https://example.com/kyoto", name="kyoto", description="Kyoto forecast")
    embedded = r.EmbeddedResource(
        resource=r.TextResourceContents(uri="mem://kyoto", text="{}", mime_type="application/json"),
        annotations=r.Annotations(audience=["user", "assistant"], priority=0.9),
    )
    read = r.ReadResourceResult(
        contents=[r.TextResourceContents(uri="mem://a", text="A"), r.BlobResourceContents(uri="mem://b", blob="AAE=")],
        result_type="complete",
        cache_scope="private",
        ttl_ms=0,
    )
    tool_use = r.ToolUseContent(id="use-2", name="get_weather", input={"city": "Kyoto"})
    tool_result = r.ToolResultContent(tool_use_id="use-2", content=[text, link], structured_content=[21, 22])
    result = r.CallToolResult(
        content=[text, image, audio, link, embedded],
        result_type="complete",
        structured_content=[21, 22],
        is_error=False,
        meta=r.ResultMetaObject(io_modelcontextprotocol_server_info=r.Implementation(name="srv", version="1")),
    )
    elicit = r.ElicitRequest(
        params=r.ElicitRequestFormParams(
            message="Plan the trip",
            requested_schema=r.ElicitRequestFormParamsRequestedSchema(
                properties={
                    "city": r.StringSchema(description="Destination"),
                    "days": r.NumberSchema(type="integer", minimum=1, maximum=14),
                    "alerts": r.BooleanSchema(default=True),
                    "region": r.UntitledSingleSelectEnumSchema(enum=["kansai", "kanto"]),
                    "hotel": r.TitledSingleSelectEnumSchema(
                        one_of=[r.TitledSingleSelectEnumSchemaOneOfItem(const="ryokan", title="Ryokan")],
                        default="ryokan",
                    ),
                    "units": r.UntitledMultiSelectEnumSchema(
                        items=r.UntitledMultiSelectEnumSchemaItems(enum=["c", "f"]), max_items=1
                    ),
                    "sights": r.TitledMultiSelectEnumSchema(
                        items=r.TitledMultiSelectEnumSchemaItems(
                            any_of=[
                                r.TitledMultiSelectEnumSchemaItemsAnyOfItem(const="temple", title="Temples"),
                                r.TitledMultiSelectEnumSchemaItemsAnyOfItem(const="garden", title="Gardens"),
                            ]
                        ),
                        min_items=1,
                    ),
                    "pace": r.LegacyTitledEnumSchema(
                        enum=["slow", "fast"], enum_names=["Slow", "Fast"], default="slow"
                    ),
                },
                required=["city"],
            ),
        )
    )
    sample = r.CreateMessageRequest(
        params=r.CreateMessageRequestParams(
            max_tokens=100,
            messages=[
                r.SamplingMessage(role="assistant", content=tool_use),
                r.SamplingMessage(role="user", content=tool_result),
            ],
            tools=[r.Tool(name="noop", input_schema=r.ToolInputSchema())],
        )
    )
    input_required = r.InputRequiredResult(
        input_requests={"ask-city": elicit, "sample": sample, "roots": r.ListRootsRequest()},
        request_state="opaque-1",
        result_type="input_required",  # an open string in the schema: no constant to fill in
    )
    error = r.JSONRPCErrorResponse(id=35, error=r.Error(code=-32602, message="Unknown tool: x"))
    unsupported = r.UnsupportedProtocolVersionError(
        id=36,
        error=r.UnsupportedProtocolVersionErrorError(
            message="Unsupported protocol version",
            data=r.UnsupportedProtocolVersionErrorErrorData(requested="1999-01-01", supported=["2026-07-28"]),
        ),
    )
    missing = r.MissingRequiredClientCapabilityError(
        id=37,
        error=r.MissingRequiredClientCapabilityErrorError(
            message="Sampling required",
            data=r.MissingRequiredClientCapabilityErrorErrorData(
                required_capabilities=r.ClientCapabilities(sampling=r.ClientCapabilitiesSampling())
            ),
        ),
    )
    mismatch = r.HeaderMismatchError(error=r.HeaderMismatchErrorError(message="Mcp-Method header mismatch"))
    invalid_params = r.InvalidParamsError(message="Invalid params", data={"field": "city"})
    invalid_response = r.ErrorResponse(id=36, error=invalid_params)
    # 2026-07-28's inputSchema declares only `$schema` and `type`: keys it leaves undeclared (`properties`)
    # have no keyword, so a whole JSON Schema body is read with model_validate (typed as ToolInputSchema).
    tool = r.Tool(
        name="get_weather",
        input_schema=r.ToolInputSchema.model_validate(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {"city": {"type": "string"}},
            }
        ),
        output_schema=r.ToolOutputSchema(),
        icons=[r.Icon(src="https://example.com/w.svg", mime_type="image/svg+xml")],
    )
    tools = r.ListToolsResult(tools=[tool], result_type="complete", cache_scope="public", ttl_ms=60000)
    call_response = r.ResultResponse(id=31, result=result)
    assert_type(call_response, draft.ResultResponse[draft.CallToolResult])
    assert_type(call_response.result.content, list[draft.ContentBlock])
    input_response = r.ResultResponse(id=32, result=input_required)
    assert_type(input_response, draft.ResultResponse[draft.InputRequiredResult])
    tools_response = r.ResultResponse(id=34, result=tools)
    assert_type(tools_response, draft.ResultResponse[draft.ListToolsResult])

    built: list[BaseModel] = [
        call,
        retry,
        discover,
        list_tools,
        progress,
        logged,
        listed,
        text,
        image,
        audio,
        link,
        embedded,
        read,
        tool_use,
        tool_result,
        result,
        elicit,
        sample,
        input_required,
        error,
        unsupported,
        missing,
        mismatch,
        invalid_params,
        invalid_response,
        tool,
        tools,
        call_response,
        input_response,
        tools_response,
    ]
    return list(zip(built, [wire for _, wire in build_2026_07_28()], strict=True))
