"""Names an API module takes from a wing that loads numpy, pandas or Numba, imported when first
used (PEP 562): the one `__getattr__` and `__dir__` such a module has."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_names(module: str, names: dict[str, tuple[str, str]],
               public: list[str]) -> tuple[Callable, Callable]:
    """(`__getattr__`, `__dir__`) of the module named `module`: `names` maps each name read
    later to (the module it is read from, relative to `module`'s package, its name there); a
    name once read is kept in the module. `public` is the module's `__all__`."""
    package = module.rpartition(".")[0]

    def read(name: str):
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        source, attribute = names[name]
        value = getattr(importlib.import_module(source, package), attribute)
        setattr(sys.modules[module], name, value)
        return value

    def listed() -> list[str]:
        return sorted(set(vars(sys.modules[module])) | set(public))

    return read, listed
