"""The typed intermediate representation: plain frozen dataclasses, keyed by JSON pointer.

Built by analyze.py from a SchemaDoc, read by lower.py, dcg.py and render.py. It knows nothing
about datamodel-code-generator or jinja2. Collections are tuples sorted at construction.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


class Kind(enum.Enum):
    MODEL = "model"  # an object with properties -> a pydantic model class
    UNION = "union"  # anyOf/oneOf of alternatives -> a type alias of a union
    ALIAS = "alias"  # anything else (a $ref, a scalar, a map, an array) -> a type alias


@dataclass(frozen=True)
class Field:
    wire_name: str
    python_name: str
    required: bool
    # The one value a required property allows (`const`, or an `enum` of one): built in Python
    # without it, the model fills it in; read from the wire, it must be there.
    constant: tuple[str | int | bool, ...] = ()
    # The strings an `enum` (or `const`) property allows, in schema order: what a form may choose
    # (StringSchema `format`, NumberSchema `type`). Empty when the property is not a string enum.
    choices: tuple[str, ...] = ()
    # What the spec says an absence of this required property means (analysis/absence.py): built in
    # Python without it, the model fills it in; read from the wire, it must be there.
    absent_means: str | None = None
    # The spec's `@deprecated` text for this property (schema.ts; schema.json has none), or None.
    deprecated: str | None = None


@dataclass(frozen=True)
class Tag:
    """A union whose arms each carry a distinct `const` value in the same required property."""

    property: str
    values: tuple[tuple[str, str], ...]  # (tag value, arm pointer), sorted by value


JSONScalar = str | int | float | bool | None


@dataclass(frozen=True, order=True)
class Predicate:
    """A test on a value: `is` a JSON type, `has` a key path (holding one of the JSON types in values, when
    there are values), `eq` one of values there, or `eq_or_absent`."""

    op: str  # "is" | "has" | "eq" | "eq_or_absent"
    path: tuple[str, ...]
    values: tuple[JSONScalar, ...] = ()


@dataclass(frozen=True)
class Rule:
    arm: str  # arm pointer
    predicates: tuple[Predicate, ...]


@dataclass(frozen=True)
class Dispatch:
    """A structural discriminator: the first rule whose predicates all hold names the arm."""

    rules: tuple[Rule, ...]  # in evaluation order
    closed_keys: tuple[tuple[str, tuple[JSONScalar, ...]], ...]  # keys whose every value is known


@dataclass(frozen=True)
class ShapeKey:
    """A key an object model declares: a signature of what validates its value (equal
    signatures validate alike) and, for an object model's own keys, that model's shape."""

    key: str
    signature: int
    nested: Shape | None = None


@dataclass(frozen=True)
class Shape:
    """The keys an object model requires and declares (specific.py)."""

    required: tuple[str, ...]
    keys: tuple[ShapeKey, ...]


@dataclass(frozen=True)
class Specificity:
    """A union of models left to pydantic's smart mode, with each arm's shape, in union order: the
    generated package predicts the smart union's winner from a value's keys (specific.py)."""

    arms: tuple[tuple[str, Shape], ...]


@dataclass(frozen=True)
class Entity:
    """One generated top-level name: a spec definition or an inline object hoisted out of one."""

    pointer: str  # where it is in the (normalised) schema: "#/$defs/Tool/properties/inputSchema"
    name: str  # the Python name it gets in the models module
    export_name: str  # the name the package exports it under: the spec's own name for a definition
    kind: Kind
    is_definition: bool  # True for a `$defs` entry, False for a hoisted inline object
    closed: bool = False  # additionalProperties: false
    open: bool = False  # additionalProperties true, {} or a schema, or named in Options.open_definitions
    fields: tuple[Field, ...] = ()
    arms: tuple[str, ...] = ()  # union arms, as pointers (a `$ref` target or the arm's own pointer)
    tag: Tag | None = None
    dispatch: Dispatch | None = None
    smart_reason: str | None = None  # why a union is left to pydantic's smart mode
    specific: Specificity | None = None  # a smart union of models: its arms' shapes
    same_as: str | None = None  # an alias that only names a model (EmptyResult): that model's pointer
    # The spec's `@deprecated` text for this definition (schema.ts), also for an inline object
    # hoisted out of a deprecated definition or property; None when it is not deprecated.
    deprecated: str | None = None
    # Deprecated keys of this object the schema declares no property for: (key path, text).
    deprecated_keys: tuple[tuple[str, str], ...] = ()

    @property
    def pointer_in_engine_input(self) -> str:
        """Where lower.py puts this entity in the engine's schema: `$defs` under its class name."""
        return "#/$defs/" + self.name

    @property
    def wire_names(self) -> dict[str, str]:
        """Attribute name -> wire name of each field whose two names differ, in field order."""
        return {f.python_name: f.wire_name for f in self.fields if f.python_name != f.wire_name}

    @property
    def arm_order(self) -> tuple[str, ...]:
        """Arm pointers in the order their tags are first tried (an arm may have several rules)."""
        return tuple(dict.fromkeys(rule.arm for rule in self.dispatch.rules)) if self.dispatch else self.arms

    @property
    def definition_name(self) -> str:
        """The spec's own name of the definition this entity is or belongs to."""
        return self.pointer.split("/")[2].replace("~1", "/").replace("~0", "~")


@dataclass(frozen=True)
class Method:
    method: str  # "tools/call"
    kind: str  # "request" | "notification"
    message: str  # class of the whole message
    params: str | None  # type of its params
    result: str | None  # type of the result answering a request
    response: str | None  # class of the whole success response, where the revision defines one
    senders: tuple[str, ...]  # "client" and/or "server", from the Client*/Server* unions
    wire: bool  # a JSON-RPC message of its own (has `jsonrpc`), not only embedded in a result
    # A task-augmented request (its params carry the schema's task-augmentation property) may be
    # answered by the task result instead (2025-11-25: CreateTaskResult); told apart by shape.
    task_result: str | None = None
    task_dispatch: Dispatch | None = None
    # Where the definition leaves `jsonrpc` and `id` to the generic envelope (JSONRPCRequest /
    # JSONRPCNotification: before 2025-11-25), the class messages.py adds to carry them: what is
    # sent and received. None where the definition is the message itself (or travels embedded).
    wire_class: str | None = None
    # A list result (a `*/list` method, the schema's enumerations): the wire key of the one required
    # array of objects its result holds, and the class or alias of one item. A tolerant parse drops
    # the invalid items of that array only. None for every other method.
    list_key: str | None = None
    list_item: str | None = None


@dataclass(frozen=True)
class EnvelopeField:
    """A property the generic envelope requires that a bare message definition leaves to it."""

    wire_name: str
    python_name: str
    constant: tuple[str | int | bool, ...] = ()  # its single value, as in Field.constant
    type: str | None = None  # else the class or alias of its value (RequestId)


@dataclass(frozen=True)
class Methods:
    methods: tuple[Method, ...] = ()
    error_responses: tuple[tuple[int, str], ...] = ()  # error code -> class of the whole response
    error_objects: tuple[tuple[int, str], ...] = ()  # error code -> class of the `error` member
    envelopes: tuple[tuple[str, str], ...] = ()  # "request"|"notification"|"result"|"error" -> class
    request_id: str | None = None  # the type of a response's `id` (the result envelope's, by `$ref`)
    error_id_required: bool = True  # whether the error envelope requires `id` (2025-11-25 on: optional)
    error_object: str | None = None  # the type of the error envelope's `error` member
    # "request" | "notification" -> what a Method.wire_class of that kind adds to its definition
    envelope_fields: tuple[tuple[str, tuple[EnvelopeField, ...]], ...] = ()


@dataclass(frozen=True)
class Options:
    """How to shape the output, beyond what the schema says (from config or flags)."""

    field_naming: str = "snake"  # "snake" | "wire"
    # "lossless" (keep unknown keys) | "ignore" (drop them) | "sieve" (drop the keys the revision does
    # not define, keep them where the schema allows more keys or the definition is in open_definitions)
    extra_keys: str = "lossless"
    open_definitions: tuple[str, ...] = ()  # definition names or JSON pointers kept open by the sieve
    inbound: str = "strict"  # "strict" | "lenient" (null as absent for optional fields, lax scalars)
    base_class: str | None = None  # import path of a user base class for every model
    pydantic_config: tuple[tuple[str, object], ...] = ()  # extra ConfigDict entries, sorted
    package: str = "mcp_models"  # import path of the output package (docs and examples only)
    formatter: str = "black"  # "black" | "ruff": the formatter after ruff's safe fixes
    absolute_links: bool = False  # the spec site's relative links in descriptions made absolute
    line_length: int | None = None  # None: the formatter's own (black's 100 here, ruff's 88)
    first_party: tuple[str, ...] = ()  # top-level packages the project's import sorting calls its own

    @property
    def width(self) -> int:
        """The line length the files are formatted and their docstrings wrapped to."""
        return self.line_length or (100 if self.formatter == "black" else 88)


@dataclass(frozen=True)
class Elsewhere:
    """What the other pinned revisions define at this revision's places that it does not: the
    tables of a package's history.py (surface/history.py derives them from every pinned schema)."""

    revisions: tuple[str, ...] = ()  # every pinned revision, oldest first
    # object place (pointer) -> key it lacks -> the revisions that declare the key there
    keys: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict[str, Mapping[str, tuple[str, ...]]])
    # (object place, property key; "" for a union or enum definition itself) ->
    # (discriminator: "" for the value itself, JSON text of a value it lacks) -> the revisions allowing it
    values: Mapping[tuple[str, str], Mapping[tuple[str, str], tuple[str, ...]]] = field(
        default_factory=dict[tuple[str, str], Mapping[tuple[str, str], tuple[str, ...]]]
    )


@dataclass(frozen=True)
class Revision:
    revision: str
    package: str
    sha256: str
    dialect: str
    entities: tuple[Entity, ...]  # sorted by pointer
    definitions: tuple[str, ...] = field(default=())  # spec definition names, sorted
    methods: Methods = field(default_factory=Methods)
    options: Options = field(default_factory=Options)
    # Union arms written out in place that are another entity (an inline copy of a definition, the
    # same `XList` as another union's): (arm pointer, that entity's pointer). lower.py writes a `$ref`.
    same_arms: tuple[tuple[str, str], ...] = ()

    def by_pointer(self) -> dict[str, Entity]:
        return {e.pointer: e for e in self.entities}

    def name_of(self, pointer: str) -> str:
        return self.by_pointer()[pointer].name
