"""Structural discriminators for unions whose arms share no `const` tag: the engine every revision
package's `_structural.py` runs over its own rule table.

Each rule names an arm and what an instance of it must look like (keys it has, values it pins);
the first rule that holds picks the arm, which alone is then validated. The rules are derived from
the schema by mcp-codegen (its analysis/discriminate.py); a revision package passes them in as one
table, `Unions({union: ((arm, predicates), ...), ...})`, and everything else is derived here.

A predicate is `(op, path, values)`: "is" (the value itself is of the JSON type values[0]), "has"
(a value at path; of one of the JSON types values, if any), "eq" (the value at path is one of
values) and "eq_or_absent" (likewise, or no value at path). A path is a tuple of keys ("0" is also
an array's first item).

Each union's rules are also compiled, on the union's first value, into one straight-line function
that decides for values of exact JSON types (what pydantic hands over for JSON input) with exact
type tests, in the rules' order, and takes an instance of an arm's own class as that arm (its class
is its tag, as on the general path). Any other value (an instance of a subclass, a dict or int
subclass) and a value no rule takes go to the general rule path (`Unions.general`), which alone
chooses the error to report: both paths pick the same arm for every value.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from pydantic import Discriminator
from pydantic_core import core_schema

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

__all__ = ["Predicate", "Rule", "Unions"]

Predicate = tuple[str, tuple[str, ...], tuple[Any, ...]]
"""(op, path, values): see the module's docstring."""
Rule = tuple[str, tuple[Predicate, ...]]
"""(the arm's tag: its class name, the predicates that all hold for a value of it)."""
Pick = Callable[[Any], "str | None"]

_Test = Callable[[object], bool]
_Compiled = tuple[str, _Test, tuple[tuple[Predicate, _Test], ...]]


class _Absent:
    """The type of _ABSENT: no value at a key path."""

    __slots__ = ()


_ABSENT: Any = _Absent()  # typed Any: a compiled lookup is a value of any JSON type, or this
_JSON_TYPES: dict[str, _Test] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
# exact type tests of a compiled function, per JSON type: `{t}` the value's type, `{v}` the value
_EXACT_TESTS = {
    "object": "{t} is dict",
    "array": "{t} is list",
    "string": "{t} is str",
    "integer": "{t} is int or ({t} is float and {v}.is_integer())",
    "number": "{t} is int or {t} is float",
    "boolean": "{t} is bool",
    "null": "{v} is None",
}
_EXACT: frozenset[type[Any]] = frozenset({dict, list, str, int, float, bool, type(None), _Absent})
_EXACT_NAMES = frozenset(kind.__name__ for kind in _EXACT)


def _lookup(value: object, path: tuple[str, ...]) -> object:
    """The value at a key path ("0" is the first item of an array), or _ABSENT."""
    current = value
    for key in path:
        if isinstance(current, dict):
            current = cast("dict[str, object]", current).get(key, _ABSENT)
        elif isinstance(current, list) and key == "0":
            items = cast("list[object]", current)
            current = items[0] if items else _ABSENT
        else:
            return _ABSENT
        if current is _ABSENT:
            return _ABSENT
    return current


def _test(predicate: Predicate) -> _Test:
    op, path, values = predicate
    if op == "is":
        return _JSON_TYPES[values[0]]
    if op == "has" and values:  # present and of one of these JSON types
        types = tuple(_JSON_TYPES[kind] for kind in values)
        return lambda value: (
            (found := _lookup(value, path)) is not _ABSENT and any(test(found) for test in types)
        )
    if op == "has" and len(path) == 1:
        key = path[0]
        return lambda value: isinstance(value, dict) and key in value
    if op == "has":
        return lambda value: _lookup(value, path) is not _ABSENT
    if op == "eq":
        return lambda value: _lookup(value, path) in values
    return lambda value: (found := _lookup(value, path)) is _ABSENT or found in values


def _all(tests: tuple[_Test, ...]) -> _Test:
    return lambda value: all(test(value) for test in tests)


def _is_json(value: object) -> bool:
    return value is None or isinstance(value, dict | list | str | int | float | bool)


class Unions:
    """A revision's structurally discriminated unions, from its rule table: each union (a class
    name, or `"<method> result"` for the results of a task-augmented method) -> its rules in order.
    names: what an error calls a union whose exported name is not its key."""

    def __init__(
        self, rules: Mapping[str, tuple[Rule, ...]], names: Mapping[str, str] | None = None
    ) -> None:
        self.rules = rules
        self._named = dict(names or {})
        self._tests: dict[str, tuple[_Compiled, ...]] = {}
        self._general: dict[str, Pick] = {}
        self._compiled: dict[str, Pick] = {}
        self._picks: dict[str, Pick] = {}
        self._closed: dict[str, dict[str, tuple[Any, ...]]] = {}

    def structural(self, union: str, *, read_as_python: bool = False) -> Discriminator:
        """The pydantic discriminator of a union: picks an arm's tag, or None for pydantic to
        report. Its pick and its error line are made when pydantic first builds a schema holding it
        (a model's first use), not at import."""
        kind = _ReadAsPython if read_as_python else _Structural
        return kind(self._pick(union), custom_error_type="union_variant")

    def holding(self, union: str, value: object) -> tuple[str, ...]:
        """The tags of every arm of a union whose rule holds on a JSON value, in the schema's order.
        Where several hold, the value may be valid as more than one arm (the schema's anyOf accepts
        it as any of them): a reader tries them in this order."""
        return tuple(tag for tag, test, _ in self.tests(union) if test(value))

    def tests(self, union: str) -> tuple[_Compiled, ...]:
        """A union's rules as tests (tag, all of them, each), made when first needed."""
        found = self._tests.get(union)
        if found is None:
            made = tuple(
                (tag, tuple((p, _test(p)) for p in preds)) for tag, preds in self.rules[union]
            )
            found = self._tests[union] = tuple(
                (tag, _all(tuple(t for _, t in tests)), tests) for tag, tests in made
            )
        return found

    def general(self, union: str) -> Pick:
        """The general rule path of a union: its arm's tag for any value, or None for pydantic to
        report."""
        found = self._general.get(union)
        if found is None:
            found = self._general[union] = self._general_pick(union)
        return found

    def compiled(self, union: str) -> Pick:
        """The union's rules as one straight-line function (which falls back to `general`)."""
        found = self._compiled.get(union)
        if found is None:
            found = self._compiled[union] = _compile(self, union, self._pick(union))
        return found

    def _pick(self, union: str) -> Pick:
        """The union's one pick function, which its discriminators hold: compiled on its first call
        (`_first_call`), then the compiled function itself."""
        found = self._picks.get(union)
        if found is None:
            found = self._picks[union] = _first_call(self, union)
        return found

    def closed_keys(self, union: str) -> dict[str, tuple[Any, ...]]:
        """Top-level keys that every arm pins to known values: any other value is a wrong tag."""
        found = self._closed.get(union)
        if found is None:
            allowed: dict[str, set[Any]] | None = None
            for _, predicates in self.rules[union]:
                pinned: dict[str, set[Any]] = {}
                for op, path, values in predicates:
                    if op in ("eq", "eq_or_absent") and len(path) == 1:
                        pinned.setdefault(path[0], set()).update(values)
                keys = pinned if allowed is None else allowed.keys() & pinned.keys()
                allowed = {
                    k: pinned[k] if allowed is None else allowed[k] | pinned[k] for k in keys
                }
            found = self._closed[union] = {k: tuple(v) for k, v in (allowed or {}).items()}
        return found

    def message(self, union: str) -> str:
        """The one line pydantic reports where no arm fits: how the arms are told apart."""
        named = self._named.get(union)
        if named is None:
            named = (
                f"result of {union.removesuffix(' result')}" if union.endswith(" result") else union
            )
        parts: list[str] = []
        for tag, predicates in self.rules[union]:
            pinned = {path for op, path, _ in predicates if op == "eq"}
            tests = [_describe(p) for p in predicates if not (p[0] == "has" and p[1] in pinned)]
            parts.append(f"{tag} ({', '.join(tests) or 'otherwise'})")
        return f"cannot tell which {named} this is: expected {'; '.join(parts)}"

    def _general_pick(self, union: str) -> Pick:
        tags = frozenset(tag for tag, _ in self.rules[union])
        closed = self.closed_keys(union)

        def misses(value: object, tests: tuple[tuple[Predicate, _Test], ...]) -> tuple[int, int]:
            """(values present but wrong, tests failed) of an arm's rule on value."""
            failed = [p for p, test in tests if not test(value)]
            wrong = [
                p
                for p in failed
                if p[0] == "is" or ((p[0] != "has" or p[2]) and _lookup(value, p[1]) is not _ABSENT)
            ]
            return (len(wrong), len(failed))

        def pick(value: object) -> str | None:
            name = type(value).__name__
            if name in tags:  # an instance of an arm (Python mode): its class is its tag
                return name
            if not _is_json(value):  # an instance of a subclass of an arm
                return next((c.__name__ for c in type(value).__mro__ if c.__name__ in tags), None)
            rules = self.tests(union)
            for tag, test, _ in rules:
                if test(value):
                    return tag
            if any(
                _lookup(value, (key,)) not in (_ABSENT, *allowed) for key, allowed in closed.items()
            ):
                return None
            # No rule holds: validate against the arm with the fewest wrong values, then the fewest
            # missing keys, so that the error names what that arm lacks.
            tag, _, tests = min(rules, key=lambda rule: misses(value, rule[2]))
            return tag if misses(value, tests)[0] == 0 else None

        return pick


def _describe(predicate: Predicate) -> str:
    op, path, values = predicate
    where = ".".join(path)
    shown = " | ".join(repr(v) for v in values)
    if op == "has" and values:
        return f"has {where} ({' or '.join(str(v) for v in values)})"
    if op == "has":
        return f"has {where}"
    if op == "is":
        return f"a JSON {shown.strip(chr(39))}"
    if op == "eq":
        return f"{where} = {shown}"
    return f"{where} = {shown} or absent"


class _Structural(Discriminator):
    """A union's discriminator (`Unions.structural`) whose error line is made when pydantic builds a
    schema holding it: the import of a models module makes none."""

    __slots__ = ()

    def __get_pydantic_core_schema__(
        self, source_type: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        pick = cast("Pick", self.discriminator)
        unions, union = _union_of(pick)
        made = Discriminator(
            pick,
            custom_error_type=self.custom_error_type,
            custom_error_message=unions.message(union),
            custom_error_context=self.custom_error_context,
        )
        return made.__get_pydantic_core_schema__(source_type, handler)


class _ReadAsPython(_Structural):
    """The discriminator of a union of JSON-RPC messages, which reads a JSON text through the Python
    objects its rules look at.

    pydantic-core hands a callable discriminator the whole value as Python objects, then validates
    the arm it picks from the JSON value again, making every string a second time; here the arm is
    validated from those objects: `TypeAdapter(JSONRPCMessage).validate_json`, what transports
    call, takes about 7% less time. Only where the arms hold generic values (the generator's dcg.py
    says which): tests/test_structural_compiled.py holds both readings to the same class, dump and
    errors."""

    __slots__ = ()

    def __get_pydantic_core_schema__(
        self, source_type: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        union = super().__get_pydantic_core_schema__(source_type, handler)
        return core_schema.no_info_before_validator_function(_as_is, union)


def _as_is(value: Any) -> Any:
    return value


# --- the compiled function ------------------------------------------------------------------------
#
# The source of one function per union: vN is the value at a key path (v0 the value itself), tN its
# type where a test relies on it; a value whose type is not exactly a JSON type there leaves the
# decision to the general path. Each rule looks up what it needs, and checks those types, before it
# decides. Keys and values enter the source as their repr where that is a literal (strings, numbers,
# bools, None), else as names bound in its namespace: no text of the schema is ever read as code.


# A union's pick is one function from the import on: until its first call its code only compiles
# the union's rules, and then takes the compiled code as its own. pydantic-core, which holds the
# function, so calls the compiled code directly: a function in front of it cost ~0.2 us a union on
# every message holding one, and compiling when pydantic builds a schema compiled every union the
# schema holds (0.3-1 ms each), needed or not, on a model's first use.
def _uncompiled(v0: Any) -> str | None:
    """The code of a union's pick before its first call. Run with the union's namespace as its
    globals (`_first_call`), it compiles the union and calls the compiled function."""
    namespace = globals()  # the union's namespace, not this module's: it has no other name
    unions: Unions = namespace["_unions"]
    return unions.compiled(namespace["_union"])(v0)


def _first_call(unions: Unions, union: str) -> Pick:
    """The union's pick before its first call, in the namespace its compiled code will have."""
    namespace: dict[str, Any] = {"_unions": unions, "_union": union}
    return cast("Pick", types.FunctionType(_uncompiled.__code__, namespace, "pick"))


def _union_of(pick: Pick) -> tuple[Unions, str]:
    """The union (and its Unions) of a pick `_first_call` made."""
    namespace = cast("Any", pick).__globals__
    return namespace["_unions"], namespace["_union"]


def _compile(unions: Unions, union: str, pick: Pick) -> Pick:
    """The straight-line function of a union's rules: `pick` (from `_first_call`), its code now the
    compiled one; or the union's general path where a rule uses a test the compiler does not know
    (or an arm is named like a JSON type, which the general path would pick by name)."""
    rules = unions.rules[union]
    function: Any = pick
    namespace: dict[str, Any] = function.__globals__
    namespace.update(
        _type=type, _ABSENT=_ABSENT, _EXACT=_EXACT, _ARMS=frozenset(tag for tag, _ in rules)
    )
    source = _source(rules, namespace)
    if source is None:
        return unions.general(union)
    code = compile(source, f"<structural {union}>", "exec")
    exec(code, namespace)  # noqa: S102 - the source holds literals and bound names only (above)
    function.__code__ = namespace["pick"].__code__
    return pick


class _Nodes:
    """The key paths a function looks up, numbered as it meets them (0: the value itself)."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.index: dict[tuple[str, ...], int] = {(): 0}
        self.namespace = namespace
        # (node, parent, key) made by the current rule
        self.created: list[tuple[int, int, str]] = []
        self.needed: set[int] = set()  # nodes whose exact type the current rule relies on

    def node(self, path: tuple[str, ...]) -> int:
        if path not in self.index:
            parent = self.node(path[:-1])
            self.needed.add(parent)
            self.index[path] = len(self.index)
            self.created.append((self.index[path], parent, path[-1]))
        return self.index[path]

    def constant(self, value: object) -> str:
        """value as the source spells it: a literal where its repr is one (a string, a number, a
        bool or None), else a name bound to it in the function's namespace."""
        if _literal(value):
            return repr(value)
        name = f"c{len(self.namespace)}"
        self.namespace[name] = value
        return name


def _literal(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_literal(item) for item in cast("tuple[object, ...]", value))
    if isinstance(value, float):
        return type(value) is float and math.isfinite(value)
    return value is None or type(value) in (str, int, bool)


def _source(rules: tuple[Rule, ...], namespace: dict[str, Any]) -> str | None:
    if any(tag in _EXACT_NAMES for tag, _ in rules):
        return None
    nodes = _Nodes(namespace)
    checked = {0}
    lines = [
        "def pick(v0):",
        "    t0 = _type(v0)",
        "    if t0 not in _EXACT:",
        "        if t0.__name__ in _ARMS:  # an instance of an arm: its class is its tag",
        "            return t0.__name__",
        "        return _unions.general(_union)(v0)",
    ]
    tests: list[str] = []
    for tag, predicates in rules:
        nodes.created, nodes.needed = [], set()
        tests = []
        for op, path, values in predicates:
            if op == "is" or (op == "has" and values):  # a JSON type: the value's own, or at path
                kinds = values[:1] if op == "is" else values
                if not kinds or not all(kind in _EXACT_TESTS for kind in kinds):
                    return None
                at = 0 if op == "is" else nodes.node(path)
                nodes.needed.add(at)
                either = " or ".join(
                    _EXACT_TESTS[kind].format(t=f"t{at}", v=f"v{at}") for kind in kinds
                )
                tests.append(f"({either})")
            elif op == "has" and len(path) == 1:  # one key of an object
                tests.append(f"(t0 is dict and v{nodes.node(path)} is not _ABSENT)")
            elif op == "has":
                tests.append(f"v{nodes.node(path)} is not _ABSENT")
            elif op in ("eq", "eq_or_absent"):
                at, allowed = nodes.node(path), nodes.constant(tuple(values))
                tests.append(
                    f"v{at} in {allowed}"
                    if op == "eq"
                    else f"(v{at} is _ABSENT or v{at} in {allowed})"
                )
            else:
                return None
        checks = sorted(nodes.needed - checked)
        new = {node for node, _, _ in nodes.created}
        lines += [f"    t{node} = _type(v{node})" for node in checks if node not in new]
        for node, parent, key in nodes.created:
            if key == "0":  # a key "0", or an array's first item
                lines.append(
                    f"    v{node} = v{parent}.get('0', _ABSENT) if t{parent} is dict else "
                    f"((v{parent}[0] if v{parent} else _ABSENT) if t{parent} is list else _ABSENT)"
                )
            else:
                name = nodes.constant(key)
                get = f"v{parent}.get({name}, _ABSENT)"
                lines.append(f"    v{node} = {get} if t{parent} is dict else _ABSENT")
            if node in nodes.needed:
                lines.append(f"    t{node} = _type(v{node})")
        if checks:
            lines.append(f"    if {' or '.join(f't{node} not in _EXACT' for node in checks)}:")
            lines.append("        return _unions.general(_union)(v0)")
        checked |= nodes.needed
        result = nodes.constant(tag)
        if not tests:  # a catch-all: the rules after it are never reached
            lines.append(f"    return {result}")
            break
        lines.append(f"    if {' and '.join(tests)}:")
        lines.append(f"        return {result}")
    if tests or not rules:
        lines.append("    return _unions.general(_union)(v0)")
    return "\n".join(lines) + "\n"
