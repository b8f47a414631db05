"""The only importer of jinja2: the files around the engine's models module, rendered from the IR."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from codegen.analysis import ir, methods, specific
from codegen.analysis.naming import BASE_CLASS, MESSAGES_API, NUMBER, PACKAGE_NAMES
from codegen.errors import fail
from codegen.emit.form_facts import form_facts
from codegen.emit.stamp import with_deprecations
from codegen.emit.runtime import IN_ROOT
from codegen.resources import templates_dir

if TYPE_CHECKING:  # imported when first rendering
    import jinja2


@cache
def _environment() -> jinja2.Environment:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "package")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    # Data from a schema or a server (tool names, methods) reaches Python source only as a literal.
    environment.filters["literal"] = _literal
    environment.filters["docstring_literal"] = _docstring_literal
    return environment


def _literal(value: object) -> str:
    """A Python literal of a str/int/float/bool/None value: the only way data enters source text."""
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value)
    raise TypeError(f"not a literal: {value!r}")


def _docstring_literal(value: str) -> str:
    """A str's literal as text inside a docstring: its double quotes escaped as well, so that no run
    of three (a tool named with three double quotes, then code) can end the docstring and run."""
    return repr(value).replace('"', '\\"')


def render(template: str, **context: object) -> str:
    return str(_environment().get_template(template).render(**context))


def attribute_names(revision: ir.Revision) -> Callable[[str, str], str]:
    """attr(class name, wire name) -> the attribute that field has in this revision's models (it
    depends on field-naming): what the helper templates write where they read or build a model.
    A class or field the revision lacks is a generator bug, raised as such."""
    by_class = {e.name: {f.wire_name: f.python_name for f in e.fields} for e in revision.entities}

    def attr(class_name: str, wire_name: str) -> str:
        try:
            return by_class[class_name][wire_name]
        except KeyError:
            raise KeyError(f"{revision.revision}: {class_name} has no field {wire_name!r}") from None

    return attr


def revision_files(
    revision: ir.Revision,
    header: str,
    order: Sequence[str],
    elsewhere: ir.Elsewhere | None = None,
    runtime: str = IN_ROOT,
) -> dict[str, str]:
    """The package files of one revision other than models.py, by path relative to the package.

    order: the models module's names in definition order (exports follow it). elsewhere: what the
    other pinned revisions define at its places (history.py; None for a schema given by path,
    which has no pinned revisions beside it: no history.py). runtime: the relative module the
    package imports the shared runtime from (emit/runtime.py).
    """
    messages = messages_module(revision, header, runtime)
    files = {
        "__init__.py": package_init(
            revision, header, order, has_messages=messages is not None, messages_api=messages_api(revision)
        ),
        "_base.py": base_module(revision.options, header, most_specific=bool(specific.in_use(revision))),
    }
    structural = structural_module(revision, header)
    if structural is not None:
        files["_structural.py"] = structural
    most_specific = specific_module(revision, header)
    if most_specific is not None:
        files["_specific.py"] = most_specific
    if elsewhere is not None:  # a pinned revision: other revisions to name
        files["history.py"] = history_module(revision, header, elsewhere, messages is not None, runtime)
    if messages is not None:
        files["messages.py"] = messages
    narrowing = narrowing_module(revision, header, runtime)
    if narrowing is not None:
        files["narrowing.py"] = narrowing
    if any(e.export_name == "PrimitiveSchemaDefinition" and e.is_definition for e in revision.entities):
        files["elicitation.py"] = render("elicitation.py.jinja2", header=header, revision=revision, runtime=runtime)
        forms = forms_module(revision, header, runtime)
        if forms is not None:
            files["forms.py"] = forms
    return files


TOOL_CALL = "tools/call"


def tool_calls_module(revision: ir.Revision, header: str, models_source: str) -> str | None:
    """tool_calls.py: the typed keywords of the revision's `tools/call` params beside the tool's name
    and arguments (None where the revision has no `tools/call`). Read from the models module, so they
    are annotated exactly as the class's constructor is."""
    from codegen.emit import keywords

    method = next((m for m in revision.methods.methods if m.method == TOOL_CALL and m.params), None)
    params = next((e for e in revision.entities if method is not None and e.name == method.params), None)
    if params is None or params.kind is not ir.Kind.MODEL:
        return None
    leave_out = {f.python_name for f in params.fields if f.wire_name in ("name", "arguments")}
    found = keywords.class_keywords(models_source, params.name, leave_out)
    return render(
        "tool_calls.py.jinja2",
        header=header,
        revision=revision,
        params_class=params.name,
        keywords=found.keywords,
        imports=found.imports,
    )


def history_module(
    revision: ir.Revision, header: str, elsewhere: ir.Elsewhere, has_messages: bool, runtime: str = IN_ROOT
) -> str:
    """history.py: error lines naming the revision that defines a key or value this one refuses.
    The tables are keyed by this revision's class names (a place no class stands for is left out)."""
    by_pointer = revision.by_pointer()
    models = {p: e.name for p, e in by_pointer.items() if e.kind is ir.Kind.MODEL}
    key_rows = sorted(
        (models[pointer], sorted(keys.items())) for pointer, keys in elsewhere.keys.items() if pointer in models
    )
    value_rows = sorted(
        ((by_pointer[pointer].name, key), sorted(values.items()))
        for (pointer, key), values in elsewhere.values.items()
        if pointer in by_pointer and (key == "" or pointer in models)
    )
    return render(
        "history.py.jinja2",
        header=header,
        revision=revision,
        pinned=elsewhere.revisions,
        key_rows=key_rows,
        value_rows=value_rows,
        has_messages=has_messages,
        runtime=runtime,
    )


def package_init(
    revision: ir.Revision,
    header: str,
    order: Sequence[str],
    *,
    has_messages: bool,
    aliases: Sequence[tuple[str, str]] = (),
    messages_api: Sequence[str] | None = None,
    wire_api: Sequence[str] = (),
) -> str:
    """A package's __init__.py: its models' names (and aliases: (old name, class)), the names of
    its messages module, and those of a wire module (the surface's)."""
    by_name = {e.name: e for e in revision.entities}
    exports = [(by_name[name].export_name, name) for name in order] + list(aliases)
    api = MESSAGES_API if messages_api is None else messages_api
    _check_package_names([export for export, _ in exports] + list(api if has_messages else ()) + list(wire_api), revision)
    return render(
        "revision_init.py.jinja2",
        header=header,
        revision=revision,
        exports=exports,
        has_messages=has_messages,
        messages_api=api,
        wire_api=wire_api,
    )


def _check_package_names(names: Sequence[str], revision: ir.Revision) -> None:
    """Each name a package exports stands for one thing, and none is one the package binds itself
    (analysis/naming.py gives definitions names that keep this; aliases and API lists are checked)."""
    seen: set[str] = set()
    for name in names:
        if name in seen or name in PACKAGE_NAMES:
            raise fail(
                "MCG301",
                f"the package would export two things named {name!r}" if name in seen
                else f"the package would export {name!r}, a name its __init__ uses itself",
                revision=revision.revision,
                hint="rename the definition (or add an erratum) so the package's names stay distinct",
            )
        seen.add(name)


def forms_module(revision: ir.Revision, header: str, runtime: str = IN_ROOT) -> str | None:
    """forms.py: Pydantic forms as this revision's requestedSchema, and typed answers (issue 18)."""
    facts = form_facts(revision)
    if facts is None:
        return None
    arms = [facts.string, facts.number, facts.boolean, facts.untitled_single, facts.titled_single]
    arms += [facts.untitled_multi, facts.titled_multi]
    if facts.titled_single is None:  # legacy enumNames only where there is no titled single-select
        arms.append(facts.legacy_titled)
    names = {name for arm in arms if arm is not None for name in (arm.name, arm.option, arm.items) if name}
    names |= {"PrimitiveSchemaDefinition", facts.requested_schema, facts.params, facts.result}
    if not facts.wire_request:
        names.add(facts.request)
    if facts.input_required:
        names.add(facts.input_required)
    if facts.request_id or facts.request_id_optional:
        names.add(facts.request_id_type)
    return render(
        "forms.py.jinja2",
        runtime=runtime,
        header=header,
        revision=revision,
        imports=sorted(names),
        attr=attribute_names(revision),
        **facts.view(),
    )


def long_literal(text: str, width: int, *, indent: int) -> str:
    """text as a Python string literal that the formatter can lay out within width at indent (a
    dict value): one literal where it fits beside its key, else parts split between words, in
    parentheses, each on a line of its own once formatted."""
    if indent + len(repr(text)) + 40 <= width:  # room for a key beside it
        return repr(text)
    room = max(width - indent - 4 - 3, 20)  # the parts sit one level deeper, quoted, with a space kept
    parts: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and len(repr(candidate + " ")) > room:
            parts.append(current + " ")
            current = word
        else:
            current = candidate
    parts.append(current)
    return "(" + " ".join(repr(part) for part in parts) + ")"


def messages_api(revision: ir.Revision) -> tuple[str, ...]:
    """What a revision package exports from messages.py: MESSAGES_API and its wire classes."""
    return MESSAGES_API + tuple(sorted({m.wire_class for m in revision.methods.methods if m.wire_class}))


# The base class's own ConfigDict entries, in order, with why where it is not obvious. A
# `pydantic-config` entry of the same key replaces the value (the key is written once).
_OWN_CONFIG: tuple[tuple[str, str, str], ...] = (
    ("strict", "True", ""),
    ("validate_by_name", "False", ""),
    ("validate_by_alias", "True", ""),
    ("serialize_by_alias", "True", ""),
    ("allow_inf_nan", "False", ""),
    ("defer_build", "_DEFER_BUILD", "validators are built on first use: a fast import"),
)


def config_entries(options: ir.Options) -> list[tuple[str, str, str]]:
    """(key, value source, comment) of the base class's ConfigDict: ours, then the user's others."""
    user = {key: repr(value) for key, value in options.pydantic_config}
    extra = "allow" if options.extra_keys == "lossless" else "ignore"
    entries = [("extra", repr(extra), "")]
    if options.inbound == "lenient":
        user.setdefault("strict", "False")
    for key, value, why in _OWN_CONFIG:
        entries.append((key, user.pop(key), "") if key in user else (key, value, why))
    return entries + [(key, value, "") for key, value in user.items()]


def base_module(options: ir.Options, header: str, *, most_specific: bool = False) -> str:
    """_base.py: the base class of every model, configured by the options; most_specific: with the
    discriminator of the package's smart unions of models (_specific.py)."""
    module, _, name = (options.base_class or "").rpartition(".")
    entries = config_entries(options)
    return render(
        "_base.py.jinja2",
        # building passes strict=True only where the models are strict: it then changes nothing
        # but the cost of a union tagged by a constant (a user's `strict = false` stays in force)
        build_strict=dict((key, value) for key, value, _ in entries)["strict"] == "True",
        header=header,
        base_class=BASE_CLASS,
        number_type=NUMBER,
        lossless=options.extra_keys == "lossless",
        sieve=options.extra_keys == "sieve",
        lenient=options.inbound == "lenient",
        extra="allow" if options.extra_keys == "lossless" else "ignore",
        user_base=bool(options.base_class),
        user_base_module=module,
        user_base_name=name,
        config_entries=entries,
        any_arm_tag=specific.ANY_ARM_TAG,
        most_specific=most_specific,
    )


def has_message_tables(revision: ir.Revision) -> bool:
    """Whether the revision has the four JSON-RPC envelopes and a generic Result to dispatch with."""
    return methods.has_message_tables(revision.methods, revision.entities)


def messages_module(revision: ir.Revision, header: str, runtime: str = IN_ROOT) -> str | None:
    """messages.py: parse_message / parse_result / parse_error from the revision's method tables."""
    if not has_message_tables(revision):
        return None
    tables = revision.methods
    envelopes = dict(tables.envelopes)
    by_export = {e.export_name: e.name for e in revision.entities if e.is_definition}
    requests = [m for m in tables.methods if m.kind == "request" and (m.wire or m.wire_class)]
    notifications = [m for m in tables.methods if m.kind == "notification"]
    embedded = [m for m in tables.methods if m.kind == "request" and not m.wire and not m.wire_class]
    wire_classes = _wire_classes(tables)
    results = [m for m in tables.methods if m.kind == "request" and m.result]
    generic_error = tables.error_object or by_export.get("Error", envelopes["error"])
    responses = [m for m in tables.methods if m.kind == "request" and m.response]
    message_classes = _unique(
        [_sent(m) for m in requests]
        + [_sent(m) for m in notifications]
        + [m.message for m in embedded]
        + [m.response for m in responses if m.response]
        + [name for _, name in tables.error_responses]
        + [envelopes[k] for k in ("request", "notification", "result", "error")]
    )
    any_result = _unique([m.result for m in results if m.result] + [m.task_result for m in results if m.task_result])
    any_result.append(by_export["Result"])
    any_error = _unique([generic_error] + [name for _, name in tables.error_objects])
    list_results = [m for m in _unique_methods(tuple(results)) if m.list_key and m.list_item]
    wire_names = {str(wire["name"]) for wire in wire_classes}
    imports = sorted(
        set(any_result)
        | set(any_error)
        | ({tables.request_id} if tables.request_id else set[str]())
        | (set(message_classes) - wire_names)
        | {m.message for m in tables.methods}
        | {field.type for _, added in tables.envelope_fields for field in added if field.type}
        | {m.params for m in tables.methods if m.params}
        | {m.list_item for m in list_results if m.list_item}
        | {name for _, name in tables.error_responses}
        | {by_export["Result"], generic_error}
    )
    return render(
        "messages.py.jinja2",
        runtime=runtime,
        header=header,
        revision=revision,
        base_class=BASE_CLASS,
        imports=imports,
        message_classes=message_classes,
        requests=requests,
        notifications=notifications,
        embedded=embedded,
        wire_classes=wire_classes,
        wire_example=next((w["name"] for w in wire_classes if w["kind"] == "request"), wire_classes[0]["name"])
        if wire_classes
        else None,
        wire_summary=" and ".join(
            f"{envelopes[kind]} ({_words(tuple(f.wire_name for f in added))})"
            for kind, added in sorted(tables.envelope_fields, key=lambda pair: pair[0] != "request")
        ),
        wire_aliases=any(f.python_name != f.wire_name for _, added in tables.envelope_fields for f in added),
        results=results,
        task_results=any(m.task_result for m in results),
        list_results=list_results,
        responses=responses,
        error_responses=tables.error_responses,
        error_objects=tables.error_objects,
        envelopes=envelopes,
        message_union=_message_union(revision),
        generic_result=by_export["Result"],
        generic_error=generic_error,
        any_result=sorted(set(any_result)),
        any_error=sorted(any_error),
        error_id_required=tables.error_id_required,
        request_id=tables.request_id,
    )


def _message_union(revision: ir.Revision) -> str | None:
    """The JSONRPCMessage union's name where _structural.py carries its rules (the envelopes are its
    arms), else None: the readers then tell envelopes apart by their keys alone."""
    union = next((e for e in revision.entities if e.export_name == "JSONRPCMessage" and e.is_definition), None)
    return union.name if union is not None and union.dispatch is not None else None


def _sent(method: ir.Method) -> str:
    """The class a method travels as on its own: its wire class where the definition leaves the
    envelope to JSONRPCRequest / JSONRPCNotification, else the definition's class."""
    return method.wire_class or method.message


def _wire_classes(tables: ir.Methods) -> list[dict[str, object]]:
    """The wire classes of messages.py (ir.Method.wire_class), in the order of the method tables:
    name, base (the definition's class), envelope and the envelope's fields it adds."""
    fields = dict(tables.envelope_fields)
    envelopes = dict(tables.envelopes)
    views: list[dict[str, object]] = []
    for method in _unique_by_class(tables.methods):
        if method.wire_class is None:
            continue
        added = fields[method.kind]
        views.append(
            {
                "name": method.wire_class,
                "base": method.message,
                "kind": method.kind,
                "envelope": envelopes[method.kind],
                "fields": added,
                "added": _words(tuple(field.wire_name for field in added)),
            }
        )
    return views


def _words(keys: tuple[str, ...]) -> str:
    """`a`, `b` and `c`."""
    quoted = [f"`{key}`" for key in keys]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _unique_by_class(methods: tuple[ir.Method, ...]) -> list[ir.Method]:
    return list({m.message: m for m in methods}.values())


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _unique_methods(methods: tuple[ir.Method, ...]) -> list[ir.Method]:
    return list({m.method: m for m in methods}.values())


def narrowing_module(revision: ir.Revision, header: str, runtime: str = IN_ROOT) -> str | None:
    """narrowing.py, for revisions whose CallToolResult carries structuredContent (2025-06-18 on)."""
    by_export = {e.export_name: e for e in revision.entities if e.is_definition}
    result = by_export.get("CallToolResult")
    text = by_export.get("TextContent")
    if result is None or text is None or not any(f.wire_name == "structuredContent" for f in result.fields):
        return None
    return render(
        "narrowing.py.jinja2",
        header=header,
        revision=revision,
        result_class=result.name,
        text_class=text.name,
        package_import=f"{revision.options.package}.{revision.package}",
        attr=attribute_names(revision),
        runtime=runtime,
    )


def structural_module(revision: ir.Revision, header: str) -> str | None:
    """_structural.py: the rule tables of the revision's structurally discriminated unions."""
    unions = [e for e in revision.entities if e.dispatch is not None]
    task_augmented = [m for m in revision.methods.methods if m.task_dispatch is not None]
    if not unions and not task_augmented:
        return None
    views: list[dict[str, object]] = []
    for union in unions:
        assert union.dispatch is not None
        views.append(
            {
                "name": union.name,
                "rules": _rule_views(union.dispatch, revision),
                "closed_keys": repr(dict(union.dispatch.closed_keys)),
                "message": long_literal(_union_message(union, revision), revision.options.width, indent=4),
                "compiled": _compiled_view(union.dispatch, revision),
            }
        )
    for method in task_augmented:
        assert method.task_dispatch is not None
        views.append(
            {
                "name": f"{method.method} result",
                "rules": _rule_views(method.task_dispatch, revision),
                "closed_keys": repr(dict(method.task_dispatch.closed_keys)),
                "message": long_literal(
                    f"cannot tell which result of {method.method} this is: expected {_expected(method.task_dispatch, revision)}",
                    revision.options.width,
                    indent=4,
                ),
                "compiled": _compiled_view(method.task_dispatch, revision),
            }
        )
    return render("_structural.py.jinja2", header=header, unions=views)


def specific_module(revision: ir.Revision, header: str) -> str | None:
    """_specific.py: the arms' shapes of the revision's smart unions of models (specific.py)."""
    unions = specific.in_use(revision)
    if not unions:
        return None
    views: list[dict[str, object]] = []
    for union in unions:
        assert union.specific is not None
        views.append(
            {
                "name": union.name,
                "arms": [(revision.name_of(arm), _shape_source(shape)) for arm, shape in union.specific.arms],
            }
        )
    names = ", ".join(union.name for union in unions)
    return render("_specific.py.jinja2", header=header, unions=views, names=names, any_arm_tag=specific.ANY_ARM_TAG)


def _shape_source(shape: ir.Shape) -> str:
    """A shape as the constant table _specific.py.jinja2 holds; keys enter only as literals."""
    keys = "".join(
        f"({_literal(k.key)}, {k.signature}, {_shape_source(k.nested) if k.nested else 'None'}), " for k in shape.keys
    )
    required = "(" + "".join(f"{_literal(key)}, " for key in shape.required) + ")"
    return f"({required}, ({keys}))"


# The JSON types a compiled test knows, and the names of the exact types a value may have there
# (an arm's class named like one would be picked by name on the general path: such a union is not compiled).
_JSON_KINDS = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
_EXACT_TYPE_NAMES = frozenset({"dict", "list", "str", "int", "float", "bool", "NoneType", "_Absent"})


def _compiled_view(dispatch: ir.Dispatch, revision: ir.Revision) -> dict[str, object] | None:
    """A dispatch as straight-line code (what _structural.py.jinja2 renders as one function), or None
    when a rule uses a test the template does not compile (the general rule path then decides alone).

    Node 0 is the value itself, node i > 0 the value at a key path. Each rule, in order, comes with
    what its tests need that earlier rules did not: `lookups` (index, parent, key, first_item: the
    key is "0", which is also an array's first item; typed: its type is taken right away), `typed`
    (nodes looked up earlier whose type this rule tests) and `checks` (the nodes whose exact JSON
    type the rule's outcome relies on: parents and values whose JSON type is tested, checked before
    the rule decides, so that every rule that fails failed on exact values). `tests`: dicts with
    `op` ("types", "in_dict", "present", "eq", "eq_or_absent"), `node` and `values` (JSON type names
    or values). Rules after one without tests (a catch-all) are never reached and left out."""
    index: dict[tuple[str, ...], int] = {(): 0}
    checked = {0}
    rules: list[dict[str, object]] = []
    for rule in dispatch.rules:
        created: list[tuple[int, int, str]] = []
        needed: set[int] = set()

        def node(path: tuple[str, ...]) -> int:
            if path not in index:
                parent = node(path[:-1])
                needed.add(parent)
                index[path] = len(index)
                created.append((index[path], parent, path[-1]))
            return index[path]

        tests: list[dict[str, object]] = []
        for p in rule.predicates:
            if p.op == "is":  # the value's own JSON type (its path is not looked at)
                if not p.values or p.values[0] not in _JSON_KINDS:
                    return None
                tests.append({"op": "types", "node": 0, "values": [p.values[0]]})
            elif p.op == "has" and p.values:
                if not all(kind in _JSON_KINDS for kind in p.values):
                    return None
                needed.add(node(p.path))
                tests.append({"op": "types", "node": index[p.path], "values": list(p.values)})
            elif p.op == "has":  # one key of an object, else any value at the path
                tests.append({"op": "in_dict" if len(p.path) == 1 else "present", "node": node(p.path)})
            elif p.op in ("eq", "eq_or_absent"):
                tests.append({"op": p.op, "node": node(p.path), "values": list(p.values)})
            else:
                return None
        checks = sorted(needed - checked)
        new = {i for i, _, _ in created}
        rules.append(
            {
                "tag": revision.name_of(rule.arm),
                "tests": tests,
                "typed": [i for i in checks if i not in new],
                "lookups": [
                    {"index": i, "parent": parent, "key": key, "first_item": key == "0", "typed": i in needed}
                    for i, parent, key in created
                ],
                "checks": checks,
            }
        )
        checked |= needed
        if not tests:
            break
    if any(revision.name_of(rule.arm) in _EXACT_TYPE_NAMES for rule in dispatch.rules):
        return None
    return {"rules": rules, "falls_through": bool(rules[-1]["tests"]) if rules else True}


def _rule_views(dispatch: ir.Dispatch, revision: ir.Revision) -> list[tuple[str, str]]:
    return [
        (revision.name_of(rule.arm), repr(tuple((p.op, p.path, p.values) for p in rule.predicates)))
        for rule in dispatch.rules
    ]


def _union_message(union: ir.Entity, revision: ir.Revision) -> str:
    """One short line saying how the arms are told apart."""
    assert union.dispatch is not None
    return f"cannot tell which {union.export_name} this is: expected {_expected(union.dispatch, revision)}"


def _expected(dispatch: ir.Dispatch, revision: ir.Revision) -> str:
    parts: list[str] = []
    for rule in dispatch.rules:
        tests = [_describe(p) for p in rule.predicates if not (p.op == "has" and _pinned(p, rule))]
        parts.append(f"{revision.name_of(rule.arm)} ({', '.join(tests) or 'otherwise'})")
    return "; ".join(parts)


def _pinned(predicate: ir.Predicate, rule: ir.Rule) -> bool:
    return any(p.op == "eq" and p.path == predicate.path for p in rule.predicates)


def _describe(predicate: ir.Predicate) -> str:
    path = ".".join(predicate.path)
    values = " | ".join(repr(v) for v in predicate.values)
    if predicate.op == "has" and predicate.values:
        return f"has {path} ({' or '.join(str(v) for v in predicate.values)})"
    if predicate.op == "has":
        return f"has {path}"
    if predicate.op == "is":
        return f"a JSON {values.strip(chr(39))}"
    if predicate.op == "eq":
        return f"{path} = {values}"
    return f"{path} = {values} or absent"


def example_files(
    revision: ir.Revision,
    header: str,
    *,
    has_tree: bool,
    pages: Sequence[str],
    contradictions: Sequence[str],
    pinned: str | None = None,
    runtime: str = IN_ROOT,
) -> dict[str, str]:
    """The spec-example round-trip tests shipped in the package, and what they need at run time."""
    from codegen.schema import spec
    context = {
        "header": header,
        "revision": revision,
        "spec_env": spec.SPEC_SOURCE_ENV,
        "docs_env": spec.DOCS_SOURCE_ENV,
    }
    models = sorted(e.name for e in revision.entities if e.kind is ir.Kind.MODEL)
    return {
        "_examples.py": render(
            "_examples.py.jinja2",
            **context,
            runtime=runtime,
            has_tree=has_tree,
            pinned=pinned,
            pages=list(pages),
            definitions=models,
            has_messages=has_message_tables(revision),
        ),
        "tests/__init__.py": header + "\n",
        "tests/test_spec_examples.py": render(
            "test_spec_examples.py.jinja2",
            **context,
            contradictions=sorted(contradictions),
            lossless=revision.options.extra_keys == "lossless",
            extra_keys=revision.options.extra_keys,
        ),
    }


def root_files(
    revisions: Sequence[ir.Revision],
    header: str,
    latest: ir.Revision | None,
    latest_exports: Sequence[str],
    *,
    drafts: Sequence[str] = (),
    surface: bool = False,
) -> dict[str, str]:
    released = [r for r in revisions if r.revision not in drafts]
    unreleased = [r for r in revisions if r.revision in drafts]
    files = {
        "__init__.py": render(
            "root_init.py.jinja2",
            header=header,
            revisions=revisions,
            released=sorted(released, key=lambda r: r.revision),
            drafts=unreleased,
            latest=latest,
            surface=surface,
        ),
        "py.typed": "",
    }
    if latest is not None:
        files["latest.py"] = latest_module(header, latest, latest_exports)
    return files


def latest_module(header: str, latest: ir.Revision, exports: Sequence[str]) -> str:
    """latest.py of the root package: the newest released revision's names (re-exported: where
    some are deprecated, not a use of them, as in the revision's own modules)."""
    return render("latest.py.jinja2", header=with_deprecations(header, latest), revision=latest, exports=list(exports))
