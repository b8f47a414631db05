"""The second axis: the generated Python API, which can break an SDK's code while the wire stays
compatible (a class renamed, an attribute's type spelled differently).

Both sides' models modules are built with the generator's own pipeline (`build_models`, the engine
included: ~0.5 s a revision; nothing is written) and read with `ast`, so the names and annotations
compared are exactly what `mcp-codegen generate` emits, for pinned revisions and schema paths
alike. Annotations are normalised before comparing: `Annotated[...]` metadata, pydantic's `Strict*`
spellings and the `MISSING` of optional attributes are dropped, unions are sets, and a type alias
counts as what it names (`Cursor` is `str`), so only differences a type checker would see remain.

Who breaks: a removed or renamed class or attribute breaks every side using it (the senders
constructing it and the receivers reading it); a widened annotation breaks readers, a narrowed one
constructors; an attribute now required breaks constructors, one now optional breaks readers.
A class no message carries is taken to be used by both sides.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from codegen.analysis.naming import NUMBER, base_name
from codegen.diff.direction import SIDES, Directions, receivers_of
from codegen.diff.report import BREAKING, COMPATIBLE, PYTHON, Change
from codegen.diff.source import Side, hinted_for_diff
from codegen.errors import CodegenError
from codegen.limits import DEFAULT_LIMITS
from codegen.schema import budget, schemas
_STRICT = {"StrictStr": "str", "StrictInt": "int", "StrictFloat": "float", "StrictBool": "bool", "StrictBytes": "bytes"}
_CACHE: dict[tuple[str, str], dict[str, PyType]] = {}


@dataclass(frozen=True)
class Attribute:
    name: str  # the Python attribute
    wire: str  # the JSON key it is read from
    members: frozenset[str]  # the annotation as a set of union members
    required: bool

    @property
    def annotation(self) -> str:
        return spell(self.members)


@dataclass(frozen=True)
class PyType:
    name: str
    kind: str  # "class" | "alias"
    members: frozenset[str] = frozenset()  # an alias's value
    attributes: Mapping[str, Attribute] = field(default_factory=dict[str, Attribute])  # by wire name


def module_api(side: Side) -> dict[str, PyType]:
    """The classes and aliases of the models module the generator emits for side."""
    key = (side.label, side.sha256)
    if key not in _CACHE:
        from codegen.emit.pipeline import build_models

        # a budget of its own, as `generate` gives a revision: what runs out names this side
        with budget.scope(schemas.count_subschemas(side.doc.document), side.label):
            try:
                text, _ = build_models(side.doc, side.revision, f"# mcp-codegen diff: {side.label}", DEFAULT_LIMITS)
            except CodegenError as exc:
                raise hinted_for_diff(exc) from exc
        _CACHE[key] = read_module(text)
    return _CACHE[key]


def read_module(source: str) -> dict[str, PyType]:
    types: dict[str, PyType] = {}
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.ClassDef):
            attributes: dict[str, Attribute] = {}
            for item in statement.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    name = item.target.id
                    wire = _alias(item.annotation) or name
                    members = members_of(item.annotation) - {"MISSING"}
                    attributes[wire] = Attribute(name, wire, members, required=item.value is None)
            types[statement.name] = PyType(statement.name, "class", attributes=attributes)
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            value = statement.value
            name = statement.targets[0].id
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "TypeAliasType" and len(value.args) == 2:
                types[name] = PyType(name, "alias", members=members_of(value.args[1]))
            elif isinstance(value, ast.Name) and value.id in types and types[value.id].kind == "class":
                types[name] = PyType(name, "alias", members=frozenset({value.id}))  # `EmptyResult = Result`
    # a private alias (a union's smart union, tried after its most specific arm) is not API: a
    # public alias naming it names its members
    private = {name: t.members for name, t in types.items() if name.startswith("_") and t.kind == "alias"}
    return {
        name: replace(t, members=_inlined(t.members, private)) for name, t in types.items() if name not in private
    }


def _inlined(members: frozenset[str], private: Mapping[str, frozenset[str]]) -> frozenset[str]:
    named = members & private.keys()
    return (members - named).union(*(private[name] for name in named)) if named else members


def members_of(node: ast.expr) -> frozenset[str]:
    """An annotation as the set of its union members, each spelled canonically."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a forward reference
        return members_of(ast.parse(node.value, mode="eval").body)
    if isinstance(node, ast.Constant) and node.value is None:
        return frozenset({"None"})
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return members_of(node.left) | members_of(node.right)
    if isinstance(node, ast.Subscript):
        head = ast.unparse(node.value)
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head in ("Annotated", "SerializeAsAny"):  # metadata and a serialisation marker: not the type
            return members_of(args[0])
        if head == "Optional":
            return members_of(args[0]) | {"None"}
        if head == "Union":
            return frozenset[str]().union(*(members_of(a) for a in args))
        if head == "Literal":
            return frozenset(f"Literal[{ast.unparse(a)}]" for a in args)
        return frozenset({f"{head}[{', '.join(spell(members_of(a)) for a in args)}]"})
    text = ast.unparse(node)
    if text == NUMBER:  # the models' bounded JSON number
        return frozenset({"int", "float"})
    return frozenset({_STRICT.get(text, text)})


def spell(members: Iterable[str]) -> str:
    """Members back as one annotation: sorted, literals merged, None last."""
    members = set(members)
    literals = sorted(m[len("Literal[") : -1] for m in members if m.startswith("Literal["))
    rest = sorted(m for m in members if not m.startswith("Literal[") and m != "None")
    parts = rest + ([f"Literal[{', '.join(literals)}]"] if literals else []) + (["None"] if "None" in members else [])
    return " | ".join(parts) if parts else "Never"


def _alias(annotation: ast.expr) -> str | None:
    """The wire name from `Annotated[..., Field(alias="...")]`."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Field":
            for keyword in node.keywords:
                if keyword.arg == "alias" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
    return None


def class_renames(old: Side, new: Side, renames: Mapping[str, str]) -> dict[str, str]:
    """Old class name -> new class name for the classes of renamed definitions (and those hoisted
    out of them, whose names start with the definition's)."""
    result: dict[str, str] = {}
    new_names = set(new.entities)
    for entity in old.revision.entities:
        target = renames.get(entity.definition_name)
        if target is None:
            continue
        old_stem, new_stem = base_name(entity.definition_name), base_name(target)
        if entity.name.startswith(old_stem):
            candidate = new_stem + entity.name[len(old_stem) :]
            if candidate in new_names:
                result[entity.name] = candidate
    return result


Renamer = Callable[[frozenset[str]], frozenset[str]]


def compare(old: Side, new: Side, renames: Mapping[str, str], old_dir: Directions, new_dir: Directions) -> list[Change]:
    return _Comparison(old, new, class_renames(old, new, renames), old_dir, new_dir).changes()


@dataclass(frozen=True)
class _Use:
    """Who uses a class: the side(s) sending it construct it, the side(s) receiving it read it."""

    senders: frozenset[str]

    @property
    def receivers(self) -> frozenset[str]:
        return receivers_of(self.senders)

    @property
    def makers(self) -> frozenset[str]:
        return self.senders or frozenset(SIDES)  # on no wire: any code may use it

    @property
    def readers(self) -> frozenset[str]:
        return self.receivers or frozenset(SIDES)

    @property
    def everyone(self) -> frozenset[str]:
        return self.makers | self.readers

    def breaks(self, relation: str) -> frozenset[str]:
        if relation == "widened":
            return self.readers
        if relation == "narrowed":
            return self.makers
        return self.everyone


class _Comparison:
    def __init__(self, old: Side, new: Side, moved: Mapping[str, str], old_dir: Directions, new_dir: Directions) -> None:
        self.old, self.new, self.moved = old, new, moved
        self.old_dir, self.new_dir = old_dir, new_dir
        self.before, self.after = module_api(old), module_api(new)
        self.rename = _renamer(moved)
        self.old_aliases = {moved.get(k, k): self.rename(v.members) for k, v in self.before.items() if v.kind == "alias"}
        self.new_aliases = {k: v.members for k, v in self.after.items() if v.kind == "alias"}
        self.found: list[Change] = []

    def changes(self) -> list[Change]:
        for old_name in sorted(self.before):
            self._type(old_name, self.moved.get(old_name, old_name))
        for name in sorted(set(self.after) - {self.moved.get(n, n) for n in self.before}):
            self._add("class-added", name, (), f"{self.after[name].kind} added", frozenset(), self._use(name))
        return sorted(self.found, key=Change.sort_key)

    def _use(self, name: str, old_name: str | None = None) -> _Use:
        senders: frozenset[str] = frozenset()
        for side, directions, class_name in ((self.old, self.old_dir, old_name or name), (self.new, self.new_dir, name)):
            entity = side.entities.get(class_name)
            if entity is not None:
                senders |= directions.sides(entity.definition_name)
        return _Use(senders)

    def _add(
        self, kind: str, subject: str, path: tuple[str, ...], summary: str, breaks: frozenset[str], use: _Use,
        old: str | None = None, new: str | None = None, relation: str | None = None,
    ) -> None:  # fmt: skip
        self.found.append(
            Change(
                axis=PYTHON, kind=kind, subject=subject, path=path, summary=summary,
                severity=BREAKING if breaks else COMPATIBLE, relation=relation, old=old, new=new,
                breaks=tuple(sorted(breaks)), senders=tuple(sorted(use.senders)), receivers=tuple(sorted(use.receivers)),
            )  # fmt: skip
        )

    def _type(self, old_name: str, name: str) -> None:
        old_type, new_type = self.before[old_name], self.after.get(name)
        use = self._use(name, old_name)
        if new_type is None:
            self._add("class-removed", old_name, (), f"{old_type.kind} removed", use.everyone, use)
            return
        if name != old_name:
            self._add("class-renamed", name, (), f"renamed from {old_name}", use.everyone, use, old_name, name)
        if old_type.kind != new_type.kind:
            summary = f"was {_a(old_type.kind)}, now {_a(new_type.kind)}"
            self._add("class-kind-changed", name, (), summary, use.everyone, use, old_type.kind, new_type.kind)
        elif old_type.kind == "alias":
            old_members = self.rename(old_type.members)
            relation = self._retyped(old_members, new_type.members)
            if relation is not None:
                summary = _retype_text(old_members, new_type.members, relation)
                old_text, new_text = spell(old_type.members), spell(new_type.members)
                self._add("alias-retyped", name, (), summary, use.breaks(relation), use, old_text, new_text, relation)
        else:
            self._attributes(name, old_type, new_type, use)

    def _attributes(self, name: str, old_type: PyType, new_type: PyType, use: _Use) -> None:
        old_attrs, new_attrs = old_type.attributes, new_type.attributes
        for wire in sorted(set(old_attrs) - set(new_attrs)):
            attr = old_attrs[wire]
            summary = "attribute removed"
            self._add("attribute-removed", name, (attr.name,), summary, use.everyone, use, attr.annotation)
        for wire in sorted(set(new_attrs) - set(old_attrs)):
            attr = new_attrs[wire]
            how = "required" if attr.required else "optional"
            breaks = use.makers if attr.required else frozenset[str]()
            summary = f"attribute added ({how})"
            self._add("attribute-added", name, (attr.name,), summary, breaks, use, None, attr.annotation)
        for wire in sorted(set(old_attrs) & set(new_attrs)):
            a, b = old_attrs[wire], new_attrs[wire]
            path = (b.name,)
            if a.name != b.name:
                summary = f"attribute renamed from {a.name}"
                self._add("attribute-renamed", name, path, summary, use.everyone, use, a.name, b.name)
            if a.required and not b.required:
                summary = "now optional (may be MISSING)"
                self._add("attribute-now-optional", name, path, summary, use.readers, use, "required", "optional")
            elif b.required and not a.required:
                summary = "now required"
                self._add("attribute-now-required", name, path, summary, use.makers, use, "optional", "required")
            old_members = self.rename(a.members)
            relation = self._retyped(old_members, b.members)
            if relation is not None:
                summary = _retype_text(old_members, b.members, relation)
                breaks = use.breaks(relation)
                self._add("attribute-retyped", name, path, summary, breaks, use, a.annotation, b.annotation, relation)

    def _retyped(self, old: frozenset[str], new: frozenset[str]) -> str | None:
        if old == new:
            return None
        return _relate(_expand(old, self.old_aliases), _expand(new, self.new_aliases))


def _relate(old: frozenset[str], new: frozenset[str]) -> str | None:
    """widened, narrowed, changed or None (the same), reading generics covariantly."""
    if old == new:
        return None
    if "Any" in new or old < new:
        return "widened"
    if "Any" in old or new < old:
        return "narrowed"
    if len(old) == len(new) == 1:
        a, b = _generic(next(iter(old))), _generic(next(iter(new)))
        if a and b and a[0] == b[0] and len(a[1]) == len(b[1]):
            found = {_relate(x, y) for x, y in zip(a[1], b[1], strict=True)} - {None}
            return found.pop() if len(found) == 1 else "changed"
    return "changed"


def _generic(member: str) -> tuple[str, list[frozenset[str]]] | None:
    """`dict[str, int | str]` -> ("dict", [{str}, {int, str}])."""
    if not member.endswith("]") or member.startswith("Literal["):
        return None
    node = ast.parse(member, mode="eval").body
    if not isinstance(node, ast.Subscript):
        return None
    args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    return ast.unparse(node.value), [members_of(a) for a in args]


def _retype_text(old: frozenset[str], new: frozenset[str], relation: str) -> str:
    """old → new, or for unions of several members what joined and left."""
    if len(old) > 2 and len(new) > 2:
        parts: list[str] = []
        if joined := sorted(new - old):
            parts.append("now also " + spell(joined))
        if left := sorted(old - new):
            parts.append("no longer " + spell(left))
        return f"{'; '.join(parts)} ({relation})"
    return f"{spell(old)} → {spell(new)} ({relation})"


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _expand(members: frozenset[str], aliases: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """Members with type aliases replaced by what they name (recursive aliases stay names)."""
    result: set[str] = set()
    stack: list[tuple[str, frozenset[str]]] = [(m, frozenset()) for m in members]
    while stack:
        member, seen = stack.pop()
        if member in aliases and member not in seen:
            stack.extend((m, seen | {member}) for m in aliases[member])
        else:
            result.add(member)
    return frozenset(result)


def _renamer(moved: Mapping[str, str]) -> Renamer:
    if not moved:
        return lambda members: members
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(moved, key=len, reverse=True)) + r")\b")

    def rename(members: frozenset[str]) -> frozenset[str]:
        return frozenset(pattern.sub(lambda m: moved[m.group(1)], member) for member in members)

    return rename
