"""The mixins some settings add to a package's MCPModel, beside the runtime's ModelBase (base.py):
QuietDumps under a user base class, LenientNulls where the package reads leniently. A module of
their own: a package whose settings choose neither does not make them (each pydantic model class
made costs its import ~0.3 ms)."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Annotated, Any, Union, cast, get_args, get_origin

from pydantic import BaseModel, ConfigDict, model_validator

from .base import SPURIOUS_UNION_WARNINGS, ModelBase

__all__ = ["LenientNulls", "QuietDumps"]

# Mixins hold no fields and are never built themselves (as base.py's ModelBase)
_MIXIN = ConfigDict(defer_build=True)


class QuietDumps(BaseModel):
    """The dumps of a package whose models derive from a user base class: that class's own, not
    ModelBase's (this mixin stands before ModelBase among MCPModel's bases), with the spurious union
    warnings of an older pydantic left out unless asked for."""

    model_config = _MIXIN

    if not TYPE_CHECKING:

        def model_dump(self, /, **options):
            if SPURIOUS_UNION_WARNINGS:
                options.setdefault("warnings", False)
            return super(ModelBase, self).model_dump(**options)

        def model_dump_json(self, /, **options):
            if SPURIOUS_UNION_WARNINGS:
                options.setdefault("warnings", False)
            return super(ModelBase, self).model_dump_json(**options)


def _admits_none(annotation: object) -> bool:
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    value = getattr(annotation, "__value__", None)  # a type alias
    if value is not None:
        return _admits_none(value)
    origin = get_origin(annotation)
    if origin is Annotated:
        return _admits_none(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return any(_admits_none(arm) for arm in get_args(annotation))
    return False


_NULL_AS_ABSENT: dict[type[Any], frozenset[str]] = {}


def _null_as_absent(cls: type[BaseModel]) -> frozenset[str]:
    """Both names of each optional field whose type does not allow None (made once per class)."""
    names = _NULL_AS_ABSENT.get(cls)
    if names is None:
        found: set[str] = set()
        for name, info in cls.model_fields.items():
            if not info.is_required() and not _admits_none(info.annotation):
                found |= {name, info.alias if isinstance(info.alias, str) else name}
        names = _NULL_AS_ABSENT[cls] = frozenset(found)
    return names


class LenientNulls(BaseModel):
    """inbound = "lenient": `null` for an optional property that does not allow it is absent."""

    model_config = _MIXIN

    @model_validator(mode="before")
    @classmethod
    def _lenient_nulls(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        values = cast("dict[str, Any]", data)
        if None not in values.values():
            return values
        absent = _null_as_absent(cls)
        return {k: v for k, v in values.items() if v is not None or k not in absent}
