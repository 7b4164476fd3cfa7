"""One Numba decorator with the project's defaults (cache on, nogil), made lazy: importing a
module of kernels does not import Numba, a way to tell when a block of code compiles, and calls
that do not link their callee's code in.

A kernel made before Numba is loaded is a `Kernel`: the first call of any kernel (or a look at
its dispatcher) loads Numba, makes every waiting kernel's dispatcher and puts it in place of
the `Kernel` wherever a module holds one, so compiled code and later calls meet plain Numba
dispatchers. Inside `as_python()` a kernel called before that runs its Python source instead
(a lookup that needs a few small kernels once, such as an answer from the atlas, then loads
no Numba at all); `tests/test_lazy_kernels.py` ties the two.

Set EUCHRE_SIM_NO_CACHE=1 to compile without the on-disk cache; NUMBA_CACHE_DIR moves it.
What lies below Numba's public API comes from `numba_internals`; with its door shut (another
Numba, or EUCHRE_SIM_PLAIN_NUMBA=1, which also turns the cache off) the plain ways serve.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import sys
import threading
from collections.abc import Callable

_LOCK = threading.RLock()
_WAITING: list[Kernel] = []  # kernels made before Numba was loaded
_OVERLOADS: list[Callable[[], None]] = []  # overloads to register when it is
_LISTENERS: list[Callable[[str], None]] = []  # on_compile's callbacks, open blocks
_MODE = threading.local()
_STATE = {"loaded": False}


class Kernel:
    """A jitted function whose Numba dispatcher is made when first needed (`load_numba`).

    Called from Python, it calls the dispatcher; inside `as_python()`, before Numba is loaded,
    it runs `python` (its own source, or the twin it was given). Compiled code sees the
    dispatcher (`_numba_type_`)."""

    def __init__(self, make: Callable, python: Callable, name: str) -> None:
        self._make, self._python, self._dispatcher = make, python, None
        self.__name__ = self.__qualname__ = name
        self.py_func = getattr(python, "py_func", python)
        self.__doc__ = getattr(self.py_func, "__doc__", None)

    @property
    def dispatcher(self):
        """Numba's dispatcher of this kernel (Numba loaded first where it is not)."""
        if self._dispatcher is None:
            load_numba()
            with _LOCK:
                if self._dispatcher is None:
                    self._dispatcher = self._make()
        return self._dispatcher

    @property
    def _numba_type_(self):
        import numba

        return numba.typeof(self.dispatcher)

    def __call__(self, *args):
        if self._dispatcher is None and getattr(_MODE, "python", False):
            return self._python(*args)
        return self.dispatcher(*args)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self) -> str:
        state = "waiting for Numba" if self._dispatcher is None else repr(self._dispatcher)
        return f"<kernel {self.__name__}: {state}>"


def load_numba() -> None:
    """Load Numba, make the dispatcher of every kernel made before and put each in place of its
    `Kernel` in the modules that hold one; from then on `njit` makes dispatchers at once."""
    with _LOCK:
        if _STATE["loaded"]:
            return
        from . import numba_internals

        _STATE["loaded"] = True
        for register in _OVERLOADS:
            register()
        _OVERLOADS.clear()
        for kernel in _WAITING:
            kernel.dispatcher  # noqa: B018 (made here, in the order they were defined)
        _WAITING.clear()
        for module in list(sys.modules.values()):
            names = getattr(module, "__dict__", None)
            if not isinstance(names, dict):
                continue
            for name, value in list(names.items()):
                if type(value) is Kernel:  # (isinstance asks every value its __class__, and
                    names[name] = value.dispatcher  # some libraries' warn when asked)
        if numba_internals.OPEN:
            numba_internals.tell_compiles(_told_compile)


def _told_compile(name: str) -> None:
    for listener in list(_LISTENERS):
        listener(name)


def lazy(make: Callable, python: Callable, name: str):
    """A kernel made by `make()` once Numba is loaded (at once where it is), run as `python`
    inside `as_python()` before that."""
    with _LOCK:
        if _STATE["loaded"]:
            return make()
        kernel = Kernel(make, python, name)
        _WAITING.append(kernel)
        return kernel


def dispatcher_of(kernel):
    """Numba's dispatcher of a kernel (a `Kernel` or already a dispatcher)."""
    return kernel.dispatcher if isinstance(kernel, Kernel) else kernel


def cache_on() -> bool:
    """Whether kernels are cached on disk (not with EUCHRE_SIM_NO_CACHE, nor with the door to
    Numba's internals shut on request)."""
    from . import numba_internals

    return (os.environ.get("EUCHRE_SIM_NO_CACHE", "") not in ("1", "true", "yes")
            and not numba_internals.PLAIN_BY_REQUEST)


def njit(*args, nrt: bool = True, **kwargs):
    """numba.njit with the project's defaults, made when Numba is loaded (`lazy`); nrt=False: a
    kernel that allocates nothing, compiled without reference counting
    (`numba_internals.without_nrt`)."""

    def jitted(func):
        def make():
            import numba

            from . import numba_internals

            options = {"cache": cache_on(), "nogil": True} | kwargs
            if not nrt:
                options = numba_internals.without_nrt(options)
            if not numba_internals.OPEN or options.get("inline") == "always":
                return numba.njit(**options)(func)
            return numba_internals.with_inner_twin(numba.njit(**options)(func), options)

        return lazy(make, func, func.__name__)

    return jitted(args[0]) if args else jitted


def overload(func, **options):
    """Numba's `overload` of `func` (its implementation in compiled code), registered when
    Numba is loaded (at once where it is); in Python, `func` itself runs."""
    def registered(implementation):
        def register() -> None:
            from numba.extending import overload as numba_overload

            numba_overload(func, **options)(implementation)

        with _LOCK:
            if _STATE["loaded"]:
                register()
            else:
                _OVERLOADS.append(register)
        return implementation

    return registered


@contextlib.contextmanager
def as_python():
    """Inside the block, in this thread, a kernel called before Numba is loaded runs its Python
    source, and the kernels it calls theirs: for a few small calls, far sooner than loading
    Numba and its compiled code (once Numba is loaded, the compiled kernels serve)."""
    import numpy as np

    before = getattr(_MODE, "python", False)
    _MODE.python = True
    try:
        with np.errstate(over="ignore"):  # uint64 arithmetic wraps, as compiled
            yield
    finally:
        _MODE.python = before


@functools.cache
def freeze_compiled() -> None:
    """Once a process, after its kernels ran: collect, then leave every object alive (Numba's
    compiled kernels, their types and code libraries: hundreds of thousands) out of later
    collections (`gc.freeze`). Every full collection walked them all again: 4-6 % of a run
    of the learned player."""
    gc.collect()
    gc.freeze()


def compile_for(kernel, *args) -> None:
    """Compile (or load from Numba's cache) `kernel` for the types of `args`, without
    running it: a warm-up's part, whose kernels a caller compiled later (in this process or,
    through the cache, another) finds compiled."""
    import numba

    from . import numba_internals

    dispatcher = numba_internals.jitted(dispatcher_of(kernel))
    dispatcher.compile(tuple(numba.typeof(arg) for arg in args))


@contextlib.contextmanager
def on_compile(callback):
    """Call callback(name) as Numba starts compiling each function, in any thread, while the
    block runs (a kernel loaded from the cache compiles nothing and calls nothing; with the
    door to Numba's internals shut, nothing is told). Numba need not be loaded yet: the block
    listens from the moment it is."""
    _LISTENERS.append(callback)
    try:
        yield
    finally:
        _LISTENERS.remove(callback)


@contextlib.contextmanager
def on_first_compile(callback):
    """Call callback() once, when Numba starts compiling a function inside the block
    (`on_compile`)."""
    seen = []

    def first(name: str) -> None:
        if not seen:
            seen.append(name)
            callback()

    with on_compile(first):
        yield


def unlinked(kernel):
    """A function of jitted code that calls `kernel` without linking its code in.

    Numba links a callee's code into each caller's module, and LLVM then optimises and emits
    it again for every caller up the chain: the solver's code was compiled once for each of a
    dozen kernels above it. A call through `unlinked` names the callee's compiled symbol
    instead (the callee compiled while the caller is typed, or loaded first when the caller
    comes from the cache), so the callee is compiled once; the price is that LLVM cannot
    inline it into the caller. It rests on parts of Numba below its public API
    (`numba_internals.call_unlinked`); `tests/test_compile_once.py` checks them on the
    installed Numba. With the door to them shut it is the kernel itself: a linked call,
    the same results. Run as Python, it is the kernel's Python."""

    def make():
        from . import numba_internals

        dispatcher = dispatcher_of(kernel)
        return numba_internals.call_unlinked(dispatcher) if numba_internals.OPEN else dispatcher

    return lazy(make, kernel, f"unlinked {kernel.__name__}")
