"""One Numba decorator with the project's defaults (cache on, nogil), and a way to tell when
a block of code compiles.

Set EUCHRE_SIM_NO_CACHE=1 to compile without the on-disk cache; NUMBA_CACHE_DIR moves it.
"""

import contextlib
import functools
import importlib
import inspect
import os

import numba
from llvmlite import binding as llvm
from numba import types
from numba.core import cgutils, event
from numba.core.compiler import CompileResult
from numba.core.typing import signature
from numba.extending import intrinsic

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


def _keep_reload_init_on_cached_code() -> None:
    """Numba runs a cached kernel's reload functions before loading it, but leaves them off
    its code library, so a kernel compiled later that links that library in does not inherit
    them: loaded from the cache in turn, it would not load its `unlinked` callees first (and
    call a null address). Put them back on the library as it is loaded."""
    rebuild = CompileResult._rebuild.__func__
    # the reload functions' place among the pickled fields that follow (cls, target_context)
    at = list(inspect.signature(rebuild).parameters).index("reload_init") - 2

    def _rebuild(cls, target_context, *fields):
        result = rebuild(cls, target_context, *fields)
        result.library._reload_init.update(fields[at] or ())
        return result

    CompileResult._rebuild = classmethod(_rebuild)


_keep_reload_init_on_cached_code()


def _load_overload(module: str, name: str, argtypes: tuple, symbol: str | None = None) -> None:
    """Compile (or load from the cache) `module.name` for `argtypes`: run before a kernel that
    calls it through `unlinked` is loaded from the cache, so that its symbol is defined. A
    callee compiled again since the caller was (its file changed, the caller's did not) has
    another symbol: the caller's `symbol` is made to name it, as a linked callee's stale copy
    would have served."""
    dispatcher = getattr(importlib.import_module(module), name)
    dispatcher.compile(argtypes)
    callee = dispatcher.overloads[argtypes]
    if symbol is not None and symbol != callee.fndesc.mangled_name:
        llvm.add_symbol(symbol, callee.library.get_pointer_to_function(
            callee.fndesc.mangled_name))


def unlinked(dispatcher):
    """A function of jitted code that calls `dispatcher` without linking its code in.

    Numba links a callee's code into each caller's module, and LLVM then optimises and emits
    it again for every caller up the chain: the solver's code was compiled once for each of a
    dozen kernels above it. A call through `unlinked` names the callee's compiled symbol
    instead (the callee compiled while the caller is typed, or loaded first when the caller
    comes from the cache), so the callee is compiled once; the price is that LLVM cannot
    inline it into the caller. It rests on two parts of Numba below its public API: a call
    by function descriptor (`call_internal`) and the functions a code library runs before a
    cached kernel loads (`_reload_init`, as parfors use, kept on cached code by
    `_keep_reload_init_on_cached_code`); `tests/test_compile_once.py` checks them on the
    installed Numba."""
    module, name = dispatcher.py_func.__module__, dispatcher.py_func.__name__

    @intrinsic
    def call(typingctx, *args):
        argtypes = tuple(types.unliteral(a) for a in args)
        dispatcher.compile(argtypes)
        callee = dispatcher.overloads[argtypes]
        load_first = functools.partial(_load_overload, module, name, argtypes,
                                       callee.fndesc.mangled_name)

        def codegen(context, builder, sig, llargs):
            context.active_code_library._reload_init.add(load_first)
            return context.call_internal(builder, callee.fndesc, callee.signature,
                                         cgutils.unpack_tuple(builder, llargs[0]))

        returns = callee.signature.return_type
        return signature(returns, types.StarArgTuple.from_types(argtypes)), codegen

    return call
