"""What an elicitation form may hold in one revision, read from its IR (for templates/package/forms.py.jinja2).

Every fact comes from the schema's own definitions: the arms of `PrimitiveSchemaDefinition` (told
apart by the keys they declare, not by their names), the keys each arm declares (`default`,
`minItems`, ...), the formats `StringSchema.format` lists, and how `elicitation/create` travels (a
request of its own, with or without `id`, or inside an `InputRequiredResult`). A revision without
`PrimitiveSchemaDefinition` or without an `elicitation/create` request has no forms module.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.analysis import ir
from codegen.schema import pointers

ELICIT_METHOD = "elicitation/create"


@dataclass(frozen=True)
class Arm:
    """One usable kind of form field: its class, and the optional keys its class declares."""

    name: str
    default: bool  # the class declares `default`
    option: str = ""  # the class of one titled option (`{const, title}`), for titled selects
    items: str = ""  # the class of `items`, for multi-selects
    bounds: bool = False  # minLength/maxLength (strings) or minItems/maxItems (multi-selects)


@dataclass(frozen=True)
class FormFacts:
    string: Arm | None
    number: Arm | None
    boolean: Arm | None
    untitled_single: Arm | None  # `enum`
    titled_single: Arm | None  # `oneOf` of {const, title}
    legacy_titled: Arm | None  # `enum` + `enumNames`
    untitled_multi: Arm | None  # type array, `items.enum`
    titled_multi: Arm | None  # type array, `items.anyOf` of {const, title}
    formats: tuple[str, ...]  # what StringSchema.format allows
    number_types: tuple[str, ...]  # what NumberSchema.type allows ("integer", "number")
    requested_schema: str  # the class of `requestedSchema`
    params: str  # the class of the form request's params
    params_mode: bool  # params declare `mode` (the form/url split, 2025-11-25 on)
    request: str  # the ElicitRequest class, or its wire class
    wire_request: bool  # request is a wire class of messages.py (it carries `jsonrpc` and `id`)
    request_id: bool  # the request carries its own required `id`
    request_id_optional: bool  # the request may carry an `id` (the surface: sent alone, or embedded)
    result: str  # the ElicitResult class
    input_required: str  # InputRequiredResult, where elicitation travels inside a result ("" if not)
    request_id_type: str  # the type of `id`, when request_id

    def view(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def form_facts(revision: ir.Revision) -> FormFacts | None:
    by_export = {e.export_name: e for e in revision.entities if e.is_definition}
    by_pointer = revision.by_pointer()
    union = by_export.get("PrimitiveSchemaDefinition")
    method = next((m for m in revision.methods.methods if m.method == ELICIT_METHOD and m.kind == "request"), None)
    if union is None or method is None or method.result is None:
        return None
    arms: dict[str, Arm] = {}
    formats: tuple[str, ...] = ()
    number_types: tuple[str, ...] = ()
    for pointer in union.arms:
        entity = by_pointer.get(pointer)
        if entity is None or entity.kind is not ir.Kind.MODEL:
            continue
        fields = {f.wire_name: f for f in entity.fields}
        if not {"title", "description"} <= fields.keys() or "type" not in fields:
            continue
        kind = fields["type"].choices
        default = "default" in fields
        if kind == ("array",) and "items" in fields:
            items = by_pointer.get(pointers.join(pointer, "properties", "items"))
            item_fields = {f.wire_name for f in items.fields} if items else set[str]()
            bounds = {"minItems", "maxItems"} <= fields.keys()
            if items is not None and "anyOf" in item_fields:
                option = by_pointer.get(pointers.join(pointer, "properties", "items", "properties", "anyOf", "items"))
                if option is not None:
                    arms.setdefault("titled_multi", Arm(entity.name, default, option.name, items.name, bounds))
            elif items is not None and "enum" in item_fields:
                arms.setdefault("untitled_multi", Arm(entity.name, default, items=items.name, bounds=bounds))
        elif kind == ("string",) and "oneOf" in fields:
            option = by_pointer.get(pointers.join(pointer, "properties", "oneOf", "items"))
            if option is not None:
                arms.setdefault("titled_single", Arm(entity.name, default, option.name))
        elif kind == ("string",) and "enum" in fields:
            if "enumNames" in fields:
                arms.setdefault("legacy_titled", Arm(entity.name, default))
            arms.setdefault("untitled_single", Arm(entity.name, default))
        elif kind == ("string",):
            arms.setdefault("string", Arm(entity.name, default, bounds={"minLength", "maxLength"} <= fields.keys()))
            formats = fields["format"].choices if "format" in fields else ()
        elif kind == ("boolean",):
            arms.setdefault("boolean", Arm(entity.name, default))
        elif kind and set(kind) <= {"integer", "number"} and {"minimum", "maximum"} <= fields.keys():
            arms.setdefault("number", Arm(entity.name, default))
            number_types = kind
    by_name = {e.name: e for e in revision.entities}
    message = by_name.get(method.message)
    params = _form_params(revision, method)
    if message is None or params is None:
        return None
    requested = by_pointer.get(pointers.join(params.pointer, "properties", "requestedSchema"))
    if requested is None:
        return None
    message_fields = {f.wire_name: f for f in message.fields}
    # the wire class (messages.py) where the definition leaves `jsonrpc` and `id` to the envelope
    # (before 2025-11-25): elicit_request gives a message ready to send at every revision
    request_id = bool(method.wire_class) or ("id" in message_fields and message_fields["id"].required)
    # the surface spans revisions that send it with an id and one that embeds it in a result
    request_id_optional = "id" in message_fields and not message_fields["id"].required
    input_required = by_export.get("InputRequiredResult")
    embedded = not method.wire and input_required is not None
    return FormFacts(
        string=arms.get("string"),
        number=arms.get("number"),
        boolean=arms.get("boolean"),
        untitled_single=arms.get("untitled_single"),
        titled_single=arms.get("titled_single"),
        legacy_titled=arms.get("legacy_titled"),
        untitled_multi=arms.get("untitled_multi"),
        titled_multi=arms.get("titled_multi"),
        formats=formats,
        number_types=number_types,
        requested_schema=requested.name,
        params=params.name,
        params_mode="mode" in {f.wire_name for f in params.fields},
        request=method.wire_class or message.name,
        wire_request=bool(method.wire_class),
        request_id=request_id,
        request_id_optional=request_id_optional,
        result=method.result,
        input_required=input_required.name if embedded and input_required else "",
        request_id_type=revision.methods.request_id or "int | str",
    )


def _form_params(revision: ir.Revision, method: ir.Method) -> ir.Entity | None:
    """The params class of a form request: the one declaring `requestedSchema`, among the method's
    params or the arms of its params union (2025-11-25 on: form and URL params)."""
    by_name = {e.name: e for e in revision.entities}
    by_pointer = revision.by_pointer()
    params = by_name.get(method.params or "")
    candidates = [params]
    if params is not None and params.kind is ir.Kind.UNION:
        candidates = [by_pointer.get(arm) for arm in params.arms]
    for entity in candidates:
        if entity is not None and any(f.wire_name == "requestedSchema" for f in entity.fields):
            return entity
    return None
