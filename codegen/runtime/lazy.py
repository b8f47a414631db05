"""Names of a package that load on first use (PEP 562): a revision package's `__init__` lists its
exports for type checkers and hands this module, at run time, where each one lives, so `import`
of the package costs next to nothing and a submodule is imported the first time one of its names
is looked up."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, MutableMapping

__all__ = ["lazy_names"]


def lazy_names(
    package: str,
    namespace: MutableMapping[str, object],
    exports: Iterable[str],
    *,
    home: str = ".models",
    elsewhere: Mapping[str, Iterable[str]] | None = None,
    renamed: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """(`__getattr__`, `__dir__`) for `package`: an export comes from `home`, or from the submodule
    `elsewhere` names for it, under its `renamed` name there if it has one; any other name is a
    submodule of the package (models, messages, narrowing, …), imported on first use too. What is
    loaded is kept in `namespace` (the package's globals), so it is looked up once."""
    known = frozenset(exports)
    source = {name: module for module, names in (elsewhere or {}).items() for name in names}
    inner = dict(renamed or {})

    def __getattr__(name: str) -> object:
        if name in known:
            module = importlib.import_module(source.get(name, home), package)
            value = getattr(module, inner.get(name, name))
        else:
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | known)

    return __getattr__, __dir__
