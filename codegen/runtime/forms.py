"""Elicitation forms declared as Pydantic models: what a form is declared with and fails with, and
the builder of its `requestedSchema`, the same in every revision package and the surface. A form
declared once, with `Titles` and `Format` from any of them, serves every revision's
`requested_schema` and `elicit_request`, and `except FormError` catches them all.

    class Feedback(BaseModel):
        rating: int = Field(ge=1, le=5, title="Rating")
        comment: str | None = Field(None, max_length=500)

- A form is a plain `BaseModel`. Its fields may be `bool`; `int` / `float` with `ge`/`le` (and, for
  `int` only, `gt`/`lt`, which are the same inclusive bounds one step in); `str` with
  `min_length`/`max_length` and a `Format(...)` the revision's StringSchema lists; `datetime.date`,
  `datetime.datetime`, `pydantic.AnyUrl` (formats date, date-time, uri); a choice: `Literal` of
  strings or a string `Enum`, with display titles through `Annotated[..., Titles({...})]`; a list or
  set of choices (a multi-select; `min_length`/`max_length` give `minItems`/`maxItems`), where the
  revision has one. `title` and `description` are carried, and a `default` where the revision's
  schema class has one; fields without a default are required; `X | None = None` is optional, with
  no default.
- Anything else is refused by `requested_schema` with one `FormError` naming the form, the field
  and why.
- `read_answer` gives `Accepted[F]` (the validated form), `Declined` or `Cancelled`, and raises
  `AnswerError` listing each field's problem for an accepted answer that does not fit the form.
- Clients: `answer(requested_schema, values)` and `answer_with(form_instance)` build a checked
  `ElicitResult`; `decline()` and `cancel()` the other two.

What a revision's schema allows in a form (its field schema classes, the keys each declares, its
formats) is that revision's forms.py's `Forms(...)`; the models are built by wire-name keywords,
which every generated model takes whatever its attribute names.
"""

from __future__ import annotations

import datetime
import enum
import math
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypeVar, Union, cast, get_args, get_origin

from pydantic import (
    AfterValidator,
    AnyUrl,
    BaseModel,
    PydanticUndefinedAnnotation,
    Strict,
    ValidationError,
)
from pydantic.fields import FieldInfo
from pydantic_core import MISSING

from .elicitation import AnswerProblem

__all__ = [
    "Accepted",
    "AnswerError",
    "Arm",
    "Cancelled",
    "Declined",
    "FormError",
    "Format",
    "Forms",
    "Titles",
    "choice_value",
]

F = TypeVar("F", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)  # a revision's requestedSchema class
R = TypeVar("R", bound=BaseModel)  # a revision's ElicitResult class
_A = TypeVar("_A")
_D = TypeVar("_D")
_C = TypeVar("_C")


class FormError(ValueError):
    """A form field MCP elicitation cannot carry (in the revision whose `requested_schema` said
    so)."""

    def __init__(self, form: type[BaseModel], field: str, reason: str) -> None:
        super().__init__(f"{form.__name__}.{field}: {reason}")
        self.form = form
        self.field = field
        self.reason = reason


class AnswerError(ValueError):
    """An accepted answer that does not fit its form: one problem per field."""

    def __init__(self, form: str, problems: list[AnswerProblem]) -> None:
        listed = "; ".join(f"{p.field}: {p.message}" for p in problems)
        super().__init__(f"the answer to {form} does not fit: {listed}")
        self.form = form
        self.problems = problems


class Titles:
    """Display titles of a choice field's values: `Annotated[Color, Titles({Color.RED: "Red"})]`.

    A value without a title shows as itself. One class for every revision package and the surface:
    a form is declared once and read by each of them."""

    __mcp_form_marker__ = "titles"

    def __init__(self, titles: Mapping[str, str]) -> None:
        self.titles = {choice_value(value): title for value, title in titles.items()}


class Format:
    """The StringSchema `format` of a `str` field: `Annotated[str, Format("email")]`."""

    __mcp_form_marker__ = "format"

    def __init__(self, name: str) -> None:
        self.name = name


def choice_value(value: object) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


@dataclass(frozen=True)
class Accepted(Generic[F, R]):
    """The user submitted the form: `value` is the validated form."""

    value: F
    result: R
    action: Literal["accept"] = "accept"


@dataclass(frozen=True)
class Declined(Generic[R]):
    """The user explicitly declined."""

    result: R
    action: Literal["decline"] = "decline"


@dataclass(frozen=True)
class Cancelled(Generic[R]):
    """The user dismissed the form without choosing."""

    result: R
    action: Literal["cancel"] = "cancel"


@dataclass(frozen=True)
class Arm:
    """One kind of form field a revision's schema has: its schema class, whether that class declares
    `default`, and for a titled select the class of one option (`{const, title}`), for a
    multi-select the class of `items`."""

    schema: type[BaseModel]
    default: bool
    option: type[BaseModel] | None = None
    items: type[BaseModel] | None = None


@dataclass(frozen=True)
class Forms(Generic[S, R]):
    """What one revision's schema allows in a form, and its forms built and answered with it. Its
    forms.py makes one and gives its methods as the module's functions."""

    revision: str
    requested: type[S]  # the class of `requestedSchema`
    result: type[R]  # ElicitResult
    check: Callable[
        [object, Mapping[str, Any]], list[AnswerProblem]
    ]  # its elicitation.check_answer
    formats: tuple[str, ...]  # what StringSchema `format` allows
    number_types: tuple[str, ...]  # what NumberSchema `type` allows
    string: Arm | None = None
    number: Arm | None = None
    boolean: Arm | None = None
    untitled_single: Arm | None = None  # `enum`
    titled_single: Arm | None = None  # `oneOf` of {const, title}
    legacy_titled: Arm | None = None  # `enum` + `enumNames`, where there is no titled single-select
    untitled_multi: Arm | None = None  # type array, `items.enum`
    titled_multi: Arm | None = None  # type array, `items.anyOf` of {const, title}

    def requested_schema(self, form: type[BaseModel]) -> S:
        """The `requestedSchema` of a form, in this revision's models; FormError for what it cannot
        carry."""
        if not form.__pydantic_complete__:  # annotations naming classes defined after the form
            try:
                form.model_rebuild()
            except PydanticUndefinedAnnotation as exc:
                raise FormError(
                    form, "(form)", f"{exc.name} is not defined: the form's fields cannot be read"
                ) from None
        properties: dict[str, BaseModel] = {}
        required: list[str] = []
        for name, info in form.model_fields.items():
            wire = info.alias or name
            properties[wire] = _property(self, _Where(form, name), info)
            if info.is_required():
                required.append(wire)
        return self.requested(properties=properties, required=required if required else MISSING)

    def answer(self, schema: S | Mapping[str, Any], values: Mapping[str, Any]) -> R:
        """An accepting ElicitResult carrying `values`, checked against the form's requested
        schema."""
        problems = self.check(schema, values)
        if problems:
            raise AnswerError("the requested schema", problems)
        return self.result(action="accept", content=dict(values))

    def answer_with(self, filled: BaseModel) -> R:
        """An accepting ElicitResult from a filled-in form instance (absent optional fields left
        out)."""
        content: dict[str, Any] = filled.model_dump(mode="json", by_alias=True, exclude_none=True)
        return self.answer(self.requested_schema(type(filled)), content)

    def decline(self) -> R:
        return self.result(action="decline")

    def cancel(self) -> R:
        return self.result(action="cancel")

    def read_answer(
        self,
        form: type[F],
        result: R | Mapping[str, Any],
        accepted: Callable[[F, R], _A],
        declined: Callable[[R], _D],
        cancelled: Callable[[R], _C],
    ) -> _A | _D | _C:
        """The user's answer to `form`, as the revision's Accepted, Declined or Cancelled. Raises
        AnswerError when an accepted answer does not fit the form (one problem per field)."""
        if isinstance(result, self.result):
            parsed: Any = result
        else:
            try:
                parsed = self.result.model_validate(result)
            except ValidationError as exc:
                raise AnswerError(form.__name__, _result_problems(exc)) from None
        if parsed.action == "decline":
            return declined(parsed)
        if parsed.action == "cancel":
            return cancelled(parsed)
        content: dict[str, Any] = {} if parsed.content is MISSING else dict(parsed.content)
        return accepted(self._validated(form, content), parsed)

    def input_answer(self, form: type[F], responses: Mapping[str, object] | MISSING, key: str) -> R:
        """The ElicitResult under `key` of a retried request's `inputResponses` (AnswerError if
        there is none)."""
        response = None if responses is MISSING else responses.get(key)
        if isinstance(response, Mapping):
            response = self.result.model_validate(response)
        if not isinstance(response, self.result):
            raise AnswerError(
                form.__name__,
                [AnswerProblem(key, "has no elicitation answer among the input responses")],
            )
        return response

    def _validated(self, form: type[F], content: dict[str, Any]) -> F:
        problems = self.check(self.requested_schema(form), content)
        if problems:
            raise AnswerError(form.__name__, problems)
        try:
            return form.model_validate(content)
        except ValidationError as exc:
            found = [
                AnswerProblem(
                    ".".join(str(part) for part in error["loc"]) or "(form)", error["msg"]
                )
                for error in exc.errors()
            ]
            raise AnswerError(form.__name__, found) from None


def _result_problems(exc: ValidationError) -> list[AnswerProblem]:
    """One problem per field of an ElicitResult the revision's model refuses (a value no answer
    carries)."""
    found: dict[str, str] = {}
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        if loc[:1] == ["content"] and len(loc) > 1:
            found.setdefault(
                loc[1],
                "is not a value an answer carries (a string, number, boolean or list of strings)",
            )
        else:
            found.setdefault(".".join(loc) or "(result)", error["msg"])
    return [AnswerProblem(field, message) for field, message in found.items()]


# -- form field -> the revision's field schema ----------------------------------------------------


class _Where:
    def __init__(self, form: type[BaseModel], field: str) -> None:
        self.form = form
        self.field = field

    def refuse(self, reason: str) -> FormError:
        return FormError(self.form, self.field, reason)


# The annotated_types constraints pydantic puts in a field's metadata, by class name, and the
# attribute holding each one's value (read by name: the package imports nothing beyond pydantic).
_CONSTRAINTS = {
    "Ge": "ge",
    "Le": "le",
    "Gt": "gt",
    "Lt": "lt",
    "MinLen": "min_length",
    "MaxLen": "max_length",
}


class _Keywords:
    """The constraints of one field, each taken by the schema keyword that carries it; any left over
    is refused."""

    def __init__(self, where: _Where, metadata: Iterable[object]) -> None:
        self.where = where
        self.values: dict[str, object] = {}
        for item in metadata:
            self._add(item)

    def _add(self, item: object) -> None:
        constraint = (
            _CONSTRAINTS.get(type(item).__name__)
            if type(item).__module__ == "annotated_types"
            else None
        )
        if constraint is not None:
            self.values[constraint] = getattr(item, constraint)
        elif _marker(item) == "titles":
            self.values["titles"] = cast(Titles, item).titles
        elif _marker(item) == "format":
            self.values["format"] = cast(Format, item).name
        elif isinstance(item, Strict | AfterValidator):
            pass  # checks only the form's own side: a stricter form, never a different schema
        else:
            keys = ", ".join(vars(item)) if hasattr(item, "__dict__") else ""
            raise self.where.refuse(f"{keys or type(item).__name__}: not a keyword MCP forms carry")

    def take(self, name: str) -> object:
        return self.values.pop(name, None)

    def take_int(self, name: str) -> int | MISSING:
        value = self.take(name)
        return value if isinstance(value, int) else MISSING

    def done(self, kind: str) -> None:
        if self.values:
            raise self.where.refuse(f"{', '.join(self.values)}: does not apply to {kind}")


def _marker(item: object) -> str | None:
    """Which form marker item is ("titles", "format"), whichever package's forms module made it."""
    marker = getattr(type(item), "__mcp_form_marker__", None)
    return marker if isinstance(marker, str) else None


def _property(forms: Forms[Any, Any], where: _Where, info: FieldInfo) -> BaseModel:
    if info.default_factory is not None:
        raise where.refuse("default_factory: a form's default must be a fixed value")
    if (
        info.json_schema_extra is not None
    ):  # would be silently lost: the schema is built from the field itself
        raise where.refuse(
            "json_schema_extra: the requested schema is built from the field, not from JSON Schema"
        )
    annotation, metadata = _unwrap(info.annotation, list(info.metadata))
    members: list[object] = []
    for member in _union_members(
        annotation
    ):  # `Annotated[...] | None`: the arm's metadata is the field's
        member, metadata = _unwrap(member, metadata)
        members.append(member)
    keywords = _Keywords(where, metadata)
    optional = type(None) in members
    if optional:
        members = [m for m in members if m is not type(None)]
        if info.is_required():
            raise where.refuse(
                "None is allowed but an answer cannot be null: give the field the default None"
            )
    if len(members) != 1:
        raise where.refuse(f"a union of types ({_show(annotation)}): a form field has one type")
    kind = members[0]
    default: object = MISSING if info.is_required() or info.default is None else info.default
    title = info.title if info.title is not None else MISSING
    description = info.description if info.description is not None else MISSING
    common = _Common(forms, where, keywords, title, description, default)
    choices = _choices(where, kind, keywords)
    if choices is not None:
        return _single_select(common, choices)
    if get_origin(kind) in (list, set, frozenset, tuple):
        return _multi_select(common, kind)
    if kind is bool:
        return _boolean(common)
    if kind is int or kind is float:
        return _number(common, "integer" if kind is int else "number")
    if kind is datetime.datetime:
        return _string(common, "date-time")
    if kind is datetime.date:
        return _string(common, "date")
    if isinstance(kind, type) and issubclass(kind, AnyUrl):
        return _string(common, "uri")
    if kind is str:
        return _string(common, None)
    raise where.refuse(_why_not(members[0]))


@dataclass(frozen=True)
class _Common:
    forms: Forms[Any, Any]
    where: _Where
    keywords: _Keywords
    title: str | MISSING
    description: str | MISSING
    default: object  # MISSING: none

    def no_default(self, arm: Arm) -> None:
        if self.default is not MISSING:
            raise self.where.refuse(
                f"a default: {self.forms.revision}'s {arm.schema.__name__} has no `default`"
            )

    def single_default(self, choices: tuple[str, ...]) -> str | MISSING:
        if self.default is MISSING:
            return MISSING
        value = choice_value(self.default)
        if value not in choices:
            raise self.where.refuse(f"the default {value!r} is not one of the choices")
        return value

    def build(self, arm: Arm, default: Callable[[], object], **keywords: Any) -> BaseModel:
        """The arm's schema, by wire-name keywords: title, description, the default where its class
        declares one (`default()`: checked then), else refused if the field has one."""
        if not arm.default:
            self.no_default(arm)
            return arm.schema(**keywords, title=self.title, description=self.description)
        return arm.schema(
            **keywords, title=self.title, description=self.description, default=default()
        )

    def refuse(self, what: str) -> FormError:
        return self.where.refuse(f"{what}: {self.forms.revision} has no " + _NONE[what])


# What a revision lacks when a form needs it, by what the form asked for.
_NONE = {
    "titled choices": "enum schema with display titles",
    "a choice": "single-select enum schema",
    "a titled multi-select": "multi-select with display titles",
    "a multi-select": "multi-select enum schema",
    "a boolean": "boolean schema",
    "a number": "number schema",
    "a string": "string schema",
}


def _unwrap(annotation: object, metadata: list[object]) -> tuple[object, list[object]]:
    """An annotation without `Annotated[...]` layers, and their metadata added to the field's."""
    while get_origin(annotation) is Annotated:
        args = get_args(annotation)
        annotation, metadata = args[0], [*metadata, *args[1:]]
    return annotation, metadata


def _union_members(annotation: object) -> list[object]:
    if get_origin(annotation) in (Union, types.UnionType):
        return list(get_args(annotation))
    return [annotation]


def _show(annotation: object) -> str:
    return (
        annotation.__name__
        if isinstance(annotation, type)
        else str(annotation).replace("typing.", "")
    )


def _why_not(kind: object) -> str:
    shown = _show(kind)
    origin = get_origin(kind)
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return f"a nested model ({shown}): MCP forms are flat"
    if origin is dict or kind is dict or (isinstance(origin, type) and issubclass(origin, Mapping)):
        return f"a mapping ({shown}): MCP forms are flat"
    if kind is Any:
        return "Any: a form field needs one primitive type"
    return f"{shown}: not a type MCP forms carry"


def _choices(where: _Where, kind: object, keywords: _Keywords) -> tuple[str, ...] | None:
    """The string values of a choice type (a Literal of strings or a string Enum), else None."""
    if get_origin(kind) is Literal:
        values = get_args(kind)
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        values = tuple(member.value for member in cast("Iterable[enum.Enum]", kind))
    else:
        return None
    if not values or not all(isinstance(value, str) for value in values):
        raise where.refuse(f"choices must be strings: {_show(kind)}")
    return tuple(str(value) for value in values)


def _titles(common: _Common, choices: tuple[str, ...]) -> dict[str, str] | None:
    titles = cast("dict[str, str] | None", common.keywords.take("titles"))
    unknown = sorted(set(titles or ()) - set(choices))
    if unknown:
        raise common.where.refuse(
            f"titles for values that are not choices: {', '.join(map(repr, unknown))}"
        )
    return titles


def _option(arm: Arm) -> type[BaseModel]:
    assert arm.option is not None, "a titled select's arm names its option class"
    return arm.option


def _items(arm: Arm) -> type[BaseModel]:
    assert arm.items is not None, "a multi-select's arm names its items class"
    return arm.items


def _single_select(common: _Common, choices: tuple[str, ...]) -> BaseModel:
    forms = common.forms
    titles = _titles(common, choices)
    common.keywords.done("a choice")

    def default() -> object:
        return common.single_default(choices)

    if titles is not None:
        if forms.titled_single is not None:
            option = _option(forms.titled_single)
            one_of = [option(const=value, title=titles.get(value, value)) for value in choices]
            return common.build(forms.titled_single, default, oneOf=one_of)
        if forms.legacy_titled is not None:
            names = [titles.get(value, value) for value in choices]
            return common.build(forms.legacy_titled, default, enum=list(choices), enumNames=names)
        raise common.refuse("titled choices")
    if forms.untitled_single is None:
        raise common.refuse("a choice")
    return common.build(forms.untitled_single, default, enum=list(choices))


def _multi_select(common: _Common, kind: object) -> BaseModel:
    forms = common.forms
    args = get_args(kind)
    if get_origin(kind) is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        raise common.where.refuse(
            f"a fixed-length tuple ({_show(kind)}): a multi-select is a list of choices"
        )
    item, item_metadata = _unwrap(args[0] if args else Any, [])
    for extra in item_metadata:
        if _marker(extra) == "titles":
            common.keywords.values["titles"] = cast(Titles, extra).titles
        elif not isinstance(extra, Strict | AfterValidator):
            raise common.where.refuse(
                f"{type(extra).__name__} on the items: only Titles may annotate a choice"
            )
    choices = _choices(common.where, item, common.keywords)
    if choices is None:
        what = "free text" if item is str else _show(item)
        raise common.where.refuse(
            f"a list of {what}: MCP forms carry lists of choices only (a multi-select)"
        )
    if forms.untitled_multi is None and forms.titled_multi is None:
        raise common.refuse("a multi-select")
    titles = _titles(common, choices)
    selected: list[str] | MISSING = MISSING
    if common.default is not MISSING:
        selected = [choice_value(value) for value in cast("Iterable[object]", common.default)]
        if not set(selected) <= set(choices):
            raise common.where.refuse(f"the default {selected!r} is not a selection of the choices")
    bounds = {
        "minItems": common.keywords.take_int("min_length"),
        "maxItems": common.keywords.take_int("max_length"),
    }
    common.keywords.done("a multi-select")

    def default() -> object:
        return selected

    if titles is not None:
        if forms.titled_multi is None:
            raise common.refuse("a titled multi-select")
        option = _option(forms.titled_multi)
        any_of = [option(const=value, title=titles.get(value, value)) for value in choices]
        return common.build(
            forms.titled_multi, default, items=_items(forms.titled_multi)(anyOf=any_of), **bounds
        )
    if forms.untitled_multi is None:
        raise common.where.refuse(
            f"an untitled multi-select: {forms.revision} has only titled ones"
        )
    return common.build(
        forms.untitled_multi,
        default,
        items=_items(forms.untitled_multi)(enum=list(choices)),
        **bounds,
    )


def _boolean(common: _Common) -> BaseModel:
    common.keywords.done("a boolean")
    arm = common.forms.boolean
    if arm is None:
        raise common.refuse("a boolean")
    if common.default is not MISSING and not isinstance(common.default, bool):
        raise common.where.refuse(f"the default {common.default!r} is not a boolean")
    return common.build(arm, lambda: common.default)


def _number(common: _Common, kind: str) -> BaseModel:
    forms = common.forms
    if kind not in forms.number_types:
        raise common.where.refuse(
            f"{kind}: {forms.revision}'s NumberSchema types are {', '.join(forms.number_types)}"
        )
    bounds = {name: common.keywords.take(name) for name in ("ge", "le", "gt", "lt")}
    for name, bound in bounds.items():
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int | float)):
            raise common.where.refuse(f"{name}={bound!r}: a bound must be a number")
    ge, le, gt, lt = (cast("int | float | None", bounds[name]) for name in ("ge", "le", "gt", "lt"))
    if kind == "number" and (gt is not None or lt is not None):
        # minimum/maximum are inclusive: an exclusive bound on a real number has no exact
        # equivalent, and a near one would let the schema accept what the form refuses (or the
        # reverse).
        raise common.where.refuse(
            "gt/lt: NumberSchema bounds are inclusive (minimum/maximum); use ge/le"
        )
    # For an integer, gt/lt are the inclusive bounds one step in: above gt is floor(gt) + 1 or more.
    lower = [
        bound for bound in (ge, None if gt is None else math.floor(gt) + 1) if bound is not None
    ]
    upper = [
        bound for bound in (le, None if lt is None else math.ceil(lt) - 1) if bound is not None
    ]
    minimum = max(lower) if lower else None
    maximum = min(upper) if upper else None
    common.keywords.done("a number")
    default = common.default
    if default is not MISSING and (
        isinstance(default, bool) or not isinstance(default, int | float)
    ):
        raise common.where.refuse(f"the default {default!r} is not a number")
    if forms.number is None:
        raise common.refuse("a number")
    return common.build(
        forms.number,
        lambda: default,
        type="integer" if kind == "integer" else "number",
        minimum=MISSING if minimum is None else minimum,
        maximum=MISSING if maximum is None else maximum,
    )


def _string(common: _Common, implied_format: str | None) -> BaseModel:
    forms = common.forms
    declared = cast("str | None", common.keywords.take("format"))
    if declared is not None and implied_format is not None and declared != implied_format:
        raise common.where.refuse(f"format {declared!r}: the type already means {implied_format!r}")
    format_ = declared or implied_format
    if format_ is not None and format_ not in forms.formats:
        raise common.where.refuse(
            f"format {format_!r}: {forms.revision}'s StringSchema formats are "
            + ", ".join(forms.formats)
        )
    if implied_format is None:
        min_length = common.keywords.take_int("min_length")
        max_length = common.keywords.take_int("max_length")
    else:
        min_length = max_length = MISSING
    common.keywords.done(f"a {format_} string" if implied_format else "a string")
    default = common.default
    if isinstance(default, datetime.date | AnyUrl):
        default = default.isoformat() if isinstance(default, datetime.date) else str(default)
    if default is not MISSING and not isinstance(default, str):
        raise common.where.refuse(f"the default {default!r} is not a string")
    if forms.string is None:
        raise common.refuse("a string")
    return common.build(
        forms.string,
        lambda: default,
        minLength=min_length,
        maxLength=max_length,
        format=format_ if format_ is not None else MISSING,
    )
