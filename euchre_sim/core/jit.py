"""One Numba decorator with the project's defaults (cache on, nogil), and a way to tell when
a block of code compiles.

Set EUCHRE_SIM_NO_CACHE=1 to compile without the on-disk cache; NUMBA_CACHE_DIR moves it.
"""

import contextlib
import os

import numba
from numba.core import event

_CACHE = os.environ.get("EUCHRE_SIM_NO_CACHE", "") not in ("1", "true", "yes")


def njit(*args, **kwargs):
    kwargs.setdefault("cache", _CACHE)
    kwargs.setdefault("nogil", True)
    return numba.njit(*args, **kwargs)


class _FirstCompile(event.Listener):
    def __init__(self, callback):
        self.callback = callback
        self.seen = False

    def on_start(self, ev):
        if not self.seen:
            self.seen = True
            self.callback()

    def on_end(self, ev):
        pass


@contextlib.contextmanager
def on_first_compile(callback):
    """Call callback() once, when Numba starts compiling a function inside the block (a kernel
    loaded from the cache compiles nothing and calls nothing)."""
    with event.install_listener("numba:compile", _FirstCompile(callback)):
        yield
