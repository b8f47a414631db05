"""The machinery of every generated model, the same in every revision package: each package's
_base.py makes its `MCPModel` from `ModelBase` (and the mixins some settings choose: mixins.py),
and gives it the ConfigDict those settings write.

Reading (JSON, dicts, `model_validate*`, `TypeAdapter`):
- strict JSON types ("7" is not an integer, 1 is not a boolean), unless the package is configured
  `inbound = "lenient"`: then pydantic's lax scalars everywhere (7.0 and "7" are the integer 7, true
  is the integer 1, 1 and "true" are True, "1.5" is 1.5), and `null` for an optional property whose
  schema does not allow null is read as absent (`LenientNulls`; it is not dumped back, so a round
  trip loses it);
- unknown keys are kept (extra-keys = "lossless"; models whose schema says
  `additionalProperties: false` forbid them), dropped ("ignore"), or dropped except where the schema
  allows more keys or the definition is configured open ("sieve");
- keys are read by wire name only: a key that happens to be spelled like an attribute, such as
  `structured_content`, is an unknown key, kept as such;
- every required property must be present, constants included (a message without `jsonrpc` is
  invalid);
- a number field refuses NaN and Infinity (JSON has neither), from JSON text and Python floats.

Building (keyword arguments in Python):
- keywords are the attribute names, exactly what type checkers and IDEs offer
  (`CallToolResult(content=[...], is_error=True)`); a keyword spelled as the wire name (`isError`)
  lands in the same field at run time, and giving a field under both spellings is a TypeError;
- a required property whose schema allows a single value (`jsonrpc`, `method`, `type`, ...) may
  be left out: it is filled in;
- a plain dict given for a nested model is read with the same rules (wire names or attribute
  names).

Writing: `model_dump(mode="json")` and `model_dump_json()` give the wire JSON: wire names, and an
optional field that was absent (`MISSING`) is never dumped.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    ForwardRef,
    Literal,
    TypeAlias,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
)
from weakref import WeakKeyDictionary

from pydantic import (
    AliasGenerator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictFloat,
    StrictInt,
    Tag,
)
from pydantic.version import VERSION as _PYDANTIC_VERSION
from pydantic_core import PydanticUndefined, core_schema

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

__all__ = [
    "ANY_ARM",
    "AS_ANY",
    "DEFER_BUILD",
    "LEFT_TO_RIGHT",
    "SPURIOUS_UNION_WARNINGS",
    "LaxNumber",
    "ModelBase",
    "MostSpecific",
    "StrictNumber",
    "const",
    "most_specific",
    "union_arms",
    "wire_names",
]

_T = TypeVar("_T")

# A JSON number whose schema bounds it: an int stays an int (50 never becomes 50.0), and pydantic
# checks the bounds of a union in Python, where an int and a float compare exactly
# (`lt=100000000000000000000000000001` admits 10**29 and refuses 10**29 + 2). A package's
# JSONNumber is one of these, by its `inbound` setting.
StrictNumber: TypeAlias = StrictInt | StrictFloat
LaxNumber: TypeAlias = int | float

# Before pydantic 2.14 a TypeAdapter of a model not built yet keeps a placeholder serializer and
# fails to dump ("MockValSer cannot be converted"): there the models are built when defined.
_PYDANTIC = tuple(int(part) for part in _PYDANTIC_VERSION.split(".")[:2])
DEFER_BUILD = _PYDANTIC >= (2, 14)
# Before pydantic 2.13 a model inside a union (`X | MISSING`, a content block) that leaves optional
# fields MISSING fails the union's field-count check: the dump is right (the model serializes
# itself) but warns "PydanticSerializationUnexpectedValue". There model_dump and model_dump_json
# leave out those warnings unless asked for (`warnings=True`).
SPURIOUS_UNION_WARNINGS = _PYDANTIC < (2, 13)

# The runtime's model classes hold no fields and are never built themselves. Each is a pydantic
# model class, made once: a plain mixin would be read again for validators each time pydantic
# makes a model class under it.
_MIXIN = ConfigDict(defer_build=True)

# The tag of a union's smart union over every arm, where the union tries its most specific arm first
ANY_ARM = "*"

# A smart union of models tries the arm a value's keys single out first (its package's _specific.py
# decides, with specific.py's engine), then the smart union over every arm (`LEFT_TO_RIGHT` is the
# mode of that pair, one object for all).
LEFT_TO_RIGHT: Any = Field(union_mode="left_to_right")
_KEPT = 256  # answers kept per union
# keys a kept answer may be keyed by (a value with thousands of keys is decided, not kept)
_KEPT_WIDTH = 64
_JSON_LEAVES = frozenset({list, str, int, float, bool, type(None)})
_DICT: Any = dict  # typed Any: `type(v) is _DICT` leaves v's type to the checkers as it was
_ABSENT: Any = object()


def most_specific(package: str, union: str, nested: tuple[str, ...] = ()) -> Discriminator:
    """The pydantic discriminator of a smart union of models of `package`, whose _specific.py
    decides (loaded on the first value to decide for). The answer is kept by the keys the decision
    reads: the value's, and those of the objects it holds under `nested` keys."""
    kept: dict[tuple[object, ...], str] = {}

    def pick(value: Any) -> str:
        if type(value) is not _DICT:
            return ANY_ARM  # a model instance, a Mapping: only the smart union decides alike
        key: tuple[object, ...] = tuple(value)
        width = len(key)
        for name in nested:
            inner: Any = value.get(name, _ABSENT)
            if inner is _ABSENT:
                continue
            if type(inner) is _DICT:
                key += (name, tuple(inner))
                width += len(inner)
            elif type(inner) in _JSON_LEAVES:
                key += (name, None)
            else:
                return ANY_ARM  # a model held inside
        choice = kept.get(key)
        if choice is None:
            specific: Any = importlib.import_module(f"{package}._specific")
            choice = str(specific.decide(union, value))
            if width <= _KEPT_WIDTH and len(kept) < _KEPT:
                kept[key] = choice
        return choice

    return Discriminator(pick)


class MostSpecific:
    """A package's `most_specific(union, nested=())`: `module` is its _base module's name."""

    __slots__ = ("_package",)

    def __init__(self, module: str) -> None:
        self._package = module.rpartition(".")[0]

    def __call__(self, union: str, nested: tuple[str, ...] = ()) -> Discriminator:
        return most_specific(self._package, union, nested)


class _DumpedAsItsOwnClass:
    """Metadata of a union whose arms are told apart when read: a value dumps as its own class, not
    by asking the union again (pydantic's SerializeAsAny does the same; this one spares the import
    of pydantic's serializer helpers, a millisecond of every process that imports the models)."""

    __hash__ = object.__hash__

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        schema = handler(source)
        target = cast("dict[str, Any]", schema)
        while target["type"] == "definitions":
            target = cast("dict[str, Any]", target["schema"])
        target["serialization"] = core_schema.simple_ser_schema("any")
        return schema


AS_ANY: Any = _DumpedAsItsOwnClass()


class _WireNames(dict[str, str]):
    """Attribute name -> wire name, of a model class's fields whose two names differ."""

    __slots__ = ()


def wire_names(names: dict[str, str]) -> AliasGenerator:
    """The `alias_generator` of a model class's config: the wire name of each field named here. It
    does at run time what a `Field(alias=...)` in each field's annotation did, which made a sixth of
    the models module's import (type checkers offer the attribute names as keywords either way). An
    AliasGenerator, not a plain function: a field it does not name keeps no alias at all."""
    return AliasGenerator(alias=cast("Callable[[str], str]", _WireNames(names).get))


def _wire_names_of(generator: object) -> _WireNames | None:
    if type(generator) is AliasGenerator:
        names = getattr(generator.alias, "__self__", None)
        if type(names) is _WireNames:
            return names
    return None


def _config_of(cls: type[Any]) -> dict[str, Any]:
    """The model_config a class holds itself (pydantic gives each model class its merged one)."""
    config: object = vars(cls).get("model_config")
    return cast("dict[str, Any]", config) if isinstance(config, dict) else {}


def _own_wire_names(cls: type[Any]) -> _WireNames | None:
    return _wire_names_of(_config_of(cls).get("alias_generator"))


def _merge_wire_names(cls: type[Any]) -> None:
    """A class made from several bases reads and writes every base's wire names. pydantic keeps
    one base's alias_generator (the last base's config wins), so the class's config is given all
    of them, a name an earlier base in the MRO gives winning, as its field does; called before
    pydantic collects the fields, which read that config."""
    config = _config_of(cls)
    if _wire_names_of(config.get("alias_generator")) is None:
        return  # no generator of ours, or one the class chose: _check_wire_names weighs it
    merged: dict[str, str] = {}
    for base in reversed(cls.__mro__[1:]):
        names = _own_wire_names(base)
        if names is not None:
            merged.update(names)
    config["alias_generator"] = wire_names(merged)


def _check_wire_names(cls: type[BaseModel]) -> None:
    """A class whose fields lost a wire name a base gives (its own alias_generator renamed one, or
    its bases' could not be merged) is refused; a field with its own Field(alias=...) may."""
    fields = cls.model_fields
    lost: set[str] = set()
    for base in cls.__mro__[1:]:
        for name, wire in (_own_wire_names(base) or _WireNames()).items():
            field = fields.get(name)
            if field is not None and field.alias != wire and field.alias_priority != 2:
                lost.add(name)
    renamed = sorted(lost)
    if renamed:
        raise TypeError(
            f"{cls.__name__}: its alias_generator renames fields whose MCP wire names are fixed"
            f" ({', '.join(renamed)}); give its own fields aliases with Field(alias=...)"
        )


def const(value: _T) -> _T:
    """The default a type checker sees for a constant property: omitted keywords are filled in.

    At run time the field stays required (the returned value means "no default" to pydantic), so
    input without the property is still rejected; the model's __init__ supplies `value`.
    """
    del value
    return cast(_T, PydanticUndefined)


def union_arms(alias: object) -> tuple[Any, ...]:
    """The arms of one of a package's union aliases (ClientRequest, ContentBlock, ...) in the
    order the union tries them: model classes, or the types of a union of JSON values (where such a
    type refers back to the alias, as in JSONValue's `dict[str, JSONValue]`, it stays a forward
    reference).

    `typing.get_args` sees nothing through a `TypeAliasType` (Python evaluates its value lazily);
    this unwraps the alias, its discriminator and each arm's tag. An arm that is itself a union
    alias is returned as that alias (call `union_arms` on it to go deeper).
    """
    value = getattr(alias, "__value__", None)
    if value is None:
        raise TypeError(f"not a union alias of the generated models: {alias!r}")
    namespace = vars(sys.modules[getattr(alias, "__module__", "")])
    if get_origin(value) is Annotated:  # the discriminator
        value = get_args(value)[0]
    if get_origin(value) not in (Union, types.UnionType):
        raise TypeError(
            f"{getattr(alias, '__name__', alias)} is an alias of {value!r}, not a union"
        )
    choices = get_args(value)
    last = choices[-1]
    if get_origin(last) is Annotated and Tag(ANY_ARM) in get_args(last)[1:]:
        # a smart union of models tried by its most specific arm first (_specific.py): its arms
        # are those of the smart union over every arm it falls back to
        return union_arms(get_args(last)[0])
    return tuple(_arm(arm, namespace) for arm in choices)


def _arm(arm: Any, namespace: dict[str, Any]) -> Any:
    if get_origin(arm) is Annotated and any(isinstance(m, Tag) for m in get_args(arm)[1:]):
        arm = get_args(arm)[0]  # a structural union's tag
    if isinstance(arm, ForwardRef) and arm.__forward_arg__ in namespace:
        arm = namespace[arm.__forward_arg__]  # a class the models module defines further down
    return arm


class _PerClass:
    """A class attribute made from each class the first time it is read there, then kept for it."""

    def __init__(self, make: Callable[[type[Any]], Any]) -> None:
        self._make = make
        self._made: WeakKeyDictionary[type[Any], Any] = WeakKeyDictionary()

    def __get__(self, instance: object, owner: type[Any]) -> Any:
        made = self._made.get(owner, _NOT_MADE)
        if made is _NOT_MADE:
            made = self._made[owner] = self._make(owner)
        return made


_NOT_MADE: Any = object()


def _absent_of(cls: type[BaseModel]) -> dict[str, tuple[str, Any]]:
    """Attribute -> (wire name, value) of each property whose absence the spec gives a meaning."""
    stated: dict[str, Any] = dict(getattr(cls, "__mcp_absent_means__", ()))
    if not stated:
        return {}
    return {
        name: (info.alias, stated[info.alias])
        for name, info in cls.model_fields.items()
        if isinstance(info.alias, str) and info.alias in stated
    } | {name: (name, stated[name]) for name in cls.model_fields if name in stated}


def _constants_of(cls: type[BaseModel]) -> dict[str, Any]:
    """Wire name -> value of each required property whose type allows a single value."""
    constants: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        if (
            info.is_required()
            and get_origin(info.annotation) is Literal
            and len(get_args(info.annotation)) == 1
        ):
            constants[info.alias if isinstance(info.alias, str) else name] = get_args(
                info.annotation
            )[0]
    return constants


def _refuse_both_names(model: BaseModel, extra: dict[str, Any]) -> None:
    """A keyword given under both of a field's names leaves the attribute-name one unused."""
    twice = sorted(extra.keys() & type(model).model_fields.keys())
    if twice:
        raise TypeError(
            f"{type(model).__name__}() got a field under both of its names: {', '.join(twice)}"
        )


def _init_of(cls: type[ModelBase]) -> Callable[..., None]:
    """The __init__ of one class, with what it fills in bound once (about 0.15 us less a model
    than looking it up on each call): the constants where the class has any (set in the keywords'
    own dict, one `in` test each: 0.02-0.06 us less than merging two dicts), the absent-means
    values where the spec gives any. It serves instances of cls only: once a subclass's own
    __init__ may call it through super, it is wrapped by _checking.
    """
    constants = tuple(cls.__mcp_constants__.items())
    absent = tuple((name, wire, value) for name, (wire, value) in cls.__mcp_absent__.items())
    (key, value), (other_key, other_value) = (*constants, ("", None), ("", None))[:2]
    strict = cls.__mcp_build_strict__

    def plain(self: ModelBase, /, **data: Any) -> None:
        self.__pydantic_validator__.validate_python(
            data, self_instance=self, by_name=True, strict=strict
        )
        if self.__pydantic_extra__:
            _refuse_both_names(self, self.__pydantic_extra__)

    def one(self: ModelBase, /, **data: Any) -> None:
        if key not in data:
            data[key] = value
        self.__pydantic_validator__.validate_python(
            data, self_instance=self, by_name=True, strict=strict
        )
        if self.__pydantic_extra__:
            _refuse_both_names(self, self.__pydantic_extra__)

    def two(self: ModelBase, /, **data: Any) -> None:
        if key not in data:
            data[key] = value
        if other_key not in data:
            data[other_key] = other_value
        self.__pydantic_validator__.validate_python(
            data, self_instance=self, by_name=True, strict=strict
        )
        if self.__pydantic_extra__:
            _refuse_both_names(self, self.__pydantic_extra__)

    def filling(self: ModelBase, /, **data: Any) -> None:
        for wire, constant in constants:
            if wire not in data:
                data[wire] = constant
        for name, wire, meant in absent:
            if name not in data and wire not in data:
                data[wire] = meant
        self.__pydantic_validator__.validate_python(
            data, self_instance=self, by_name=True, strict=strict
        )
        if self.__pydantic_extra__:
            _refuse_both_names(self, self.__pydantic_extra__)

    init = plain
    if absent or len(constants) > 2:
        init = filling
    elif len(constants) == 2:
        init = two
    elif constants:
        init = one
    return _named(init, cls, unchecked=True)


def _checking(cls: type[ModelBase], init: Callable[..., None]) -> Callable[..., None]:
    """cls's own __init__ for instances of cls; an instance of a subclass (whose own __init__, or a
    mixin's, called it through super) takes the general path, with its own class's values."""
    general = ModelBase.__init__

    def checked(self: ModelBase, /, **data: Any) -> None:
        if type(self) is not cls:
            return general(self, **data)
        init(self, **data)

    return _named(checked, cls, unchecked=False)


def _check_ancestors(cls: type[ModelBase]) -> None:
    """cls's __init__ is one a subclass or mixin wrote: its ancestors' own __init__s check the
    class."""
    for base in cls.__mro__[1:]:
        own: Any = base.__dict__.get("__init__")
        if getattr(own, "__mcp_unchecked__", False):
            type.__setattr__(base, "__init__", _checking(base, own))


def _named(
    init: Callable[..., None], cls: type[ModelBase], *, unchecked: bool
) -> Callable[..., None]:
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = ModelBase.__init__.__doc__
    vars(init)["__pydantic_base_init__"] = True  # reading never calls it (see ModelBase.__init__)
    vars(init)["__mcp_unchecked__"] = unchecked
    return init


class ModelBase(BaseModel):
    """What every generated model does, whatever the settings. A package's MCPModel derives from
    it (first, or after QuietDumps under a user base class; then LenientNulls where the package
    reads leniently, then BaseModel or the user base class) and says in its ConfigDict how it
    reads, and in
    `__mcp_build_strict__` whether building passes strict=True (only where the models are strict:
    it then changes nothing but the cost of a union tagged by a constant, ~0.15 us a block; a
    Mapping that is not a dict is still refused there, as not a model instead of by its arm)."""

    model_config = _MIXIN

    # Per class: the constants __init__ fills in, and the values the spec says an absent property
    # means (attribute -> (wire name, value)), filled in when neither name is given. Made from a
    # class the first time it is built (or asked): a class never built costs nothing for them
    # (making them for every class when it was made was a twentieth of a models module's import).
    # Annotated for type checkers only: pydantic evaluates every base's annotations again for each
    # model class it makes.
    if TYPE_CHECKING:
        __mcp_constants__: ClassVar[dict[str, Any]]
        __mcp_absent__: ClassVar[dict[str, tuple[str, Any]]]
        __mcp_build_strict__: ClassVar[bool | None]
    else:
        __mcp_constants__ = _PerClass(_constants_of)
        __mcp_absent__ = _PerClass(_absent_of)
        __mcp_build_strict__ = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if len(cls.__bases__) > 1 and ModelBase not in cls.__bases__:  # not a package's MCPModel
            _merge_wire_names(cls)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if ModelBase in cls.__bases__:
            return  # a package's MCPModel: its __init__ stays the general one
        generator = cls.model_config.get("alias_generator")
        if generator is not None and (len(cls.__bases__) > 1 or _wire_names_of(generator) is None):
            _check_wire_names(cls)  # a generated class has one base and its own wire names
        if getattr(
            cls.__init__, "__pydantic_base_init__", False
        ):  # not one a subclass or mixin wrote
            cls.__init__ = _first_init  # type: ignore[method-assign]
        else:
            _check_ancestors(cls)

    def __init__(self, /, **data: Any) -> None:
        """Build from keywords by attribute name (or wire name); constants left out are filled
        in."""
        if self.__mcp_constants__:
            data = self.__mcp_constants__ | data
        for name, (wire, value) in self.__mcp_absent__.items():
            if name not in data and wire not in data:
                data[wire] = value
        self.__pydantic_validator__.validate_python(
            data, self_instance=self, by_name=True, strict=self.__mcp_build_strict__
        )
        if self.__pydantic_extra__:
            _refuse_both_names(self, self.__pydantic_extra__)

    # Reading never goes through __init__: validation stays by wire name, constants required.
    vars(__init__)["__pydantic_base_init__"] = True

    # BaseModel's dumps pass every option on, each spelled out (~0.4 us a call). These name the
    # options a lossless dump uses, with BaseModel's defaults (which are the serializer's too),
    # and pass any other only when given: a call that forwards `**options` costs ~0.2 us more, and
    # one that names no option passes none (0.05 us less than naming the defaults). Here, not in a
    # mixin of their own: each class in a model's MRO costs pydantic ~10 us per model class made
    # (a models module: ~1.5 ms more to import). Under a user base class QuietDumps, before this
    # class, leaves these out.
    if not TYPE_CHECKING and SPURIOUS_UNION_WARNINGS:

        def model_dump(self, /, **options):
            options.setdefault("warnings", False)
            return self.__pydantic_serializer__.to_python(self, **options)

        def model_dump_json(self, /, **options):
            options.setdefault("warnings", False)
            return self.__pydantic_serializer__.to_json(self, **options).decode()

    elif not TYPE_CHECKING:

        def model_dump(
            self,
            /,
            *,
            mode="python",
            by_alias=None,
            exclude_unset=False,
            exclude_none=False,
            **options,
        ):
            serializer = self.__pydantic_serializer__
            if not (options or by_alias is not None or exclude_unset or exclude_none):
                return serializer.to_python(self, mode=mode)  # the rest: the serializer's defaults
            if options:
                return serializer.to_python(
                    self,
                    mode=mode,
                    by_alias=by_alias,
                    exclude_unset=exclude_unset,
                    exclude_none=exclude_none,
                    **options,
                )
            return serializer.to_python(
                self,
                mode=mode,
                by_alias=by_alias,
                exclude_unset=exclude_unset,
                exclude_none=exclude_none,
            )

        def model_dump_json(
            self, /, *, by_alias=None, exclude_unset=False, exclude_none=False, **options
        ):
            serializer = self.__pydantic_serializer__
            if not (options or by_alias is not None or exclude_unset or exclude_none):
                return serializer.to_json(self).decode()  # every option: the serializer's default
            if options:
                return serializer.to_json(
                    self,
                    by_alias=by_alias,
                    exclude_unset=exclude_unset,
                    exclude_none=exclude_none,
                    **options,
                ).decode()
            return serializer.to_json(
                self, by_alias=by_alias, exclude_unset=exclude_unset, exclude_none=exclude_none
            ).decode()


# Every model class's __init__ until it first builds: makes the class's own (_init_of), keeps it
# and builds with it. Made on first use, a class never built by keyword costs nothing (a function
# for each class, made with the class, was 4% more memory after the first parse).
def _first_init(self: ModelBase, /, **data: Any) -> None:
    cls = type(self)
    if cls.__dict__.get("__init__") is not _first_init:
        ModelBase.__init__(self, **data)  # through super() from a subclass's own __init__
        return
    init = _init_of(cls)
    if cls.__subclasses__():  # one may call it through super(): it checks the class it serves
        init = _checking(cls, init)
    cls.__init__ = init  # type: ignore[method-assign]
    init(self, **data)


_first_init.__doc__ = ModelBase.__init__.__doc__
# reading never calls it (see ModelBase.__init__)
vars(_first_init)["__pydantic_base_init__"] = True
