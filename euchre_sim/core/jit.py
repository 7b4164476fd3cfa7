"""One Numba decorator with the project's defaults (cache on, nogil), a way to tell when a
block of code compiles, and calls that do not link their callee's code in.

Set EUCHRE_SIM_NO_CACHE=1 to compile without the on-disk cache; NUMBA_CACHE_DIR moves it.
What lies below Numba's public API comes from `numba_internals`; with its door shut (another
Numba, or EUCHRE_SIM_PLAIN_NUMBA=1, which also turns the cache off) the plain ways serve.
"""

import contextlib
import functools
import gc
import os

import numba

from . import numba_internals

_CACHE = (os.environ.get("EUCHRE_SIM_NO_CACHE", "") not in ("1", "true", "yes")
          and not numba_internals.PLAIN_BY_REQUEST)


def njit(*args, nrt: bool = True, **kwargs):
    """numba.njit with the project's defaults; nrt=False: a kernel that allocates nothing,
    compiled without reference counting (`numba_internals.without_nrt`)."""
    kwargs.setdefault("cache", _CACHE)
    kwargs.setdefault("nogil", True)
    if not nrt:
        kwargs = numba_internals.without_nrt(kwargs)
    if not numba_internals.OPEN or kwargs.get("inline") == "always":
        return numba.njit(*args, **kwargs)

    def twinned(func):
        return numba_internals.with_inner_twin(numba.njit(**kwargs)(func), kwargs)

    return twinned(args[0]) if args else twinned


@functools.cache
def freeze_compiled() -> None:
    """Once a process, after its kernels ran: collect, then leave every object alive (Numba's
    compiled kernels, their types and code libraries: hundreds of thousands) out of later
    collections (`gc.freeze`). Every full collection walked them all again: 4-6 % of a run
    of the learned player."""
    gc.collect()
    gc.freeze()


def compile_for(dispatcher, *args) -> None:
    """Compile (or load from Numba's cache) `dispatcher` for the types of `args`, without
    running it: a warm-up's part, whose kernels a caller compiled later (in this process or,
    through the cache, another) finds compiled."""
    numba_internals.jitted(dispatcher).compile(tuple(numba.typeof(arg) for arg in args))


@contextlib.contextmanager
def on_first_compile(callback):
    """Call callback() once, when Numba starts compiling a function inside the block (a kernel
    loaded from the cache compiles nothing and calls nothing; with the door to Numba's
    internals shut, nothing is told)."""
    if not numba_internals.OPEN:
        yield
        return
    seen = []

    def first(name: str) -> None:
        if not seen:
            seen.append(name)
            callback()

    with numba_internals.compiles(first):
        yield


def unlinked(dispatcher):
    """A function of jitted code that calls `dispatcher` without linking its code in.

    Numba links a callee's code into each caller's module, and LLVM then optimises and emits
    it again for every caller up the chain: the solver's code was compiled once for each of a
    dozen kernels above it. A call through `unlinked` names the callee's compiled symbol
    instead (the callee compiled while the caller is typed, or loaded first when the caller
    comes from the cache), so the callee is compiled once; the price is that LLVM cannot
    inline it into the caller. It rests on parts of Numba below its public API
    (`numba_internals.call_unlinked`); `tests/test_compile_once.py` checks them on the
    installed Numba. With the door to them shut it is `dispatcher` itself: a linked call,
    the same results."""
    return numba_internals.call_unlinked(dispatcher) if numba_internals.OPEN else dispatcher
