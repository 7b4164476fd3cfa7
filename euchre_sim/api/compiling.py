"""Being told when the library compiles its kernels (a machine's first run: tens of seconds),
so that a front end can say why it waits and how far it is."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def on_first_compile(callback: Callable[[], None]) -> Iterator[None]:
    """Call callback() once, when Numba starts compiling inside the block; kernels loaded from
    Numba's cache call nothing."""
    from ..core.jit import on_first_compile as compiles

    with compiles(callback):
        yield


@contextlib.contextmanager
def on_compile(callback: Callable[[str], None]) -> Iterator[None]:
    """Call callback(name) as Numba starts compiling each function, in any thread, while the
    block runs; kernels loaded from Numba's cache call nothing."""
    from ..core.jit import on_compile as compiles

    with compiles(callback):
        yield
