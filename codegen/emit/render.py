"""The only importer of jinja2: the files around the engine's models module, rendered from the IR."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, TypeVar

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
            revision, header, order, has_messages=messages is not None, messages_api=messages_api(revision),
            runtime=runtime,
        ),
        "_base.py": base_module(
            revision.options, header, most_specific=bool(specific.in_use(revision)), runtime=runtime
        ),
    }
    structural = structural_module(revision, header, runtime)
    if structural is not None:
        files["_structural.py"] = structural
    most_specific = specific_module(revision, header, runtime)
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

_Place = TypeVar("_Place", str, tuple[str, str])
_Item = TypeVar("_Item", str, tuple[str, str])


def _by_span(
    rows: Iterable[tuple[_Place, Iterable[tuple[_Item, tuple[str, ...]]]]], pinned: Sequence[str]
) -> list[tuple[tuple[str, ...], list[tuple[_Place, list[_Item]]]]]:
    """Rows of place -> item -> the revisions defining it, as the revisions (in the order of
    pinned: earliest first, then fewest) -> place -> its items, each sorted."""
    spans: dict[tuple[str, ...], dict[_Place, list[_Item]]] = {}
    for place, items in rows:
        for item, revisions in items:
            spans.setdefault(revisions, {}).setdefault(place, []).append(item)
    order = sorted(spans, key=lambda span: [pinned.index(r) for r in span])
    return [(span, [(place, sorted(spans[span][place])) for place in sorted(spans[span])]) for span in order]



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
    The tables are keyed by this revision's class names (a place no class stands for is left out),
    each written by the revisions that define what it holds (runtime/history.py turns them around)."""
    by_pointer = revision.by_pointer()
    models = {p: e.name for p, e in by_pointer.items() if e.kind is ir.Kind.MODEL}
    key_rows = [
        (models[pointer], keys.items()) for pointer, keys in elsewhere.keys.items() if pointer in models
    ]
    value_rows = [
        ((by_pointer[pointer].name, key), values.items())
        for (pointer, key), values in elsewhere.values.items()
        if pointer in by_pointer and (key == "" or pointer in models)
    ]
    return render(
        "history.py.jinja2",
        header=header,
        revision=revision,
        pinned=elsewhere.revisions,
        key_spans=_by_span(key_rows, elsewhere.revisions),
        value_spans=_by_span(value_rows, elsewhere.revisions),
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
    runtime: str = IN_ROOT,
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
        runtime=runtime,
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
    """forms.py: the runtime's forms builder given this revision's schema classes (issue 18)."""
    facts = form_facts(revision)
    if facts is None:
        return None
    kinds = ["string", "number", "boolean", "untitled_single", "titled_single", "untitled_multi", "titled_multi"]
    if facts.titled_single is None:  # legacy enumNames only where there is no titled single-select
        kinds.append("legacy_titled")
    arms = [(kind, arm) for kind in kinds if (arm := getattr(facts, kind)) is not None]
    names = {name for _, arm in arms for name in (arm.name, arm.option, arm.items) if name}
    names |= {facts.requested_schema, facts.params, facts.result}
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
        arms=arms,
        attr=attribute_names(revision),
        **facts.view(),
    )


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


def base_module(options: ir.Options, header: str, *, most_specific: bool = False, runtime: str = IN_ROOT) -> str:
    """_base.py: the runtime's base machinery (`<runtime>/base.py`) configured by the options: the
    mixins they choose, the ConfigDict they write; most_specific: with the discriminator of the
    package's smart unions of models (_specific.py). runtime: the module the package imports the
    shared runtime from (a tools package: its spec models' _base, which re-exports it)."""
    module, _, name = (options.base_class or "").rpartition(".")
    entries = config_entries(options)
    lenient = options.inbound == "lenient"
    # QuietDumps before ModelBase: a user base class's own dumps, not ModelBase's
    mixins = (["QuietDumps"] if options.base_class else []) + ["ModelBase"] + (["LenientNulls"] if lenient else [])
    return render(
        "_base.py.jinja2",
        # building passes strict=True only where the models are strict: it then changes nothing
        # but the cost of a union tagged by a constant (a user's `strict = false` stays in force)
        build_strict=dict((key, value) for key, value, _ in entries)["strict"] == "True",
        header=header,
        runtime=runtime,
        base_class=BASE_CLASS,
        number_type=NUMBER,
        number_alias="LaxNumber" if lenient else "StrictNumber",
        mixins=mixins,
        inbound=options.inbound,
        extra_keys=options.extra_keys,
        user_base=bool(options.base_class),
        user_base_path=options.base_class or "",
        user_base_module=module,
        user_base_name=name,
        config_entries=entries,
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


def structural_module(revision: ir.Revision, header: str, runtime: str = IN_ROOT) -> str | None:
    """_structural.py: the rule table of the revision's structurally discriminated unions (and of
    the results of its task-augmented methods, as `"<method> result"`); runtime/structural.py runs
    it. runtime: the relative module the package imports the shared runtime from."""
    unions = [e for e in revision.entities if e.dispatch is not None]
    task_augmented = [m for m in revision.methods.methods if m.task_dispatch is not None]
    if not unions and not task_augmented:
        return None
    views: list[dict[str, object]] = []
    for union in unions:
        assert union.dispatch is not None
        views.append({"name": union.name, "rules": _rule_views(union.dispatch, revision)})
    for method in task_augmented:
        assert method.task_dispatch is not None
        views.append({"name": f"{method.method} result", "rules": _rule_views(method.task_dispatch, revision)})
    # what an error calls a union whose exported name is not its class name (the runtime's default)
    names = {union.name: union.export_name for union in unions if union.export_name != union.name}
    return render("_structural.py.jinja2", header=header, unions=views, names=repr(names) if names else "", runtime=runtime)


def specific_module(revision: ir.Revision, header: str, runtime: str = IN_ROOT) -> str | None:
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
    return render("_specific.py.jinja2", header=header, unions=views, names=names, runtime=runtime)


def _shape_source(shape: ir.Shape) -> str:
    """A shape as the constant table _specific.py.jinja2 holds; keys enter only as literals."""
    keys = "".join(
        f"({_literal(k.key)}, {k.signature}, {_shape_source(k.nested) if k.nested else 'None'}), " for k in shape.keys
    )
    required = "(" + "".join(f"{_literal(key)}, " for key in shape.required) + ")"
    return f"({required}, ({keys}))"


def _rule_views(dispatch: ir.Dispatch, revision: ir.Revision) -> list[tuple[str, str]]:
    return [
        (revision.name_of(rule.arm), repr(tuple((p.op, p.path, p.values) for p in rule.predicates)))
        for rule in dispatch.rules
    ]


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
