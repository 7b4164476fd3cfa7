"""Every use of Numba below its public API, behind one door: a call by a compiled symbol
(`call_unlinked`) with its cache hooks (a stale entry of another version of this package is
compiled afresh), kernels that jitted code calls compiled without Python's wrappers
(`with_inner_twin`, `jitted`), the compile listener (`compiles`), compiling without
reference counting (`without_nrt`) and the bit instructions (`ctpop`,
`trailing_zeros`, `leading_zeros`, BMI2 `pext_instruction`).
`core.jit` and `core.bits` take them from here and nothing else reaches below Numba's API.

Tested on Numba 0.68.1 with llvmlite 0.50.0: `TESTED` holds the range, pyproject's bounds say
the same and `tests/test_numba_door.py` checks both. Read, not run: Numba 0.59-0.62 have no
code library's `_reload_init` (the unlinked call's cache hook), 0.63-0.67 have every hook
(their wheels' source). Outside the range, or where a hook is missing, the door stays shut:
`OPEN` is False, a warning on the log (one line on standard error) says why, and `core.jit` and
`core.bits` use plain Numba instead: an `unlinked` call is an ordinary linked call (a longer
first compile), every kernel keeps its wrappers, the bit helpers are bit tricks (the same
results), and no compile is told.
EUCHRE_SIM_PLAIN_NUMBA=1 shuts it on purpose (to test or measure the plain path) and also turns
the on-disk cache off: Numba keys its cache by its own version, so no cache crosses a version
change, but it does not know this switch, and a kernel cached with the door open must not be
loaded with it shut, nor the reverse.
"""

import contextlib
import functools
import importlib
import inspect
import logging
import os
import platform
import re
import types as pytypes

import llvmlite
import numba
from numba import types
from numba.extending import intrinsic

__all__ = ["HAS_PEXT", "OPEN", "PLAIN_BY_REQUEST", "SHUT_BECAUSE", "TESTED", "bounds",
           "call_unlinked", "compiles", "ctpop", "leading_zeros", "pext_instruction",
           "tell_compiles", "trailing_zeros", "untested", "version_tuple", "without_nrt"]
# (lowest tested, first untested) (major, minor) of each; pyproject's bounds say the same
TESTED = {"numba": ((0, 68), (0, 69)), "llvmlite": ((0, 50), (0, 51))}
PLAIN_BY_REQUEST = os.environ.get("EUCHRE_SIM_PLAIN_NUMBA", "") in ("1", "true", "yes")


def version_tuple(version: str) -> tuple[int, int]:
    """(major, minor) of a version string such as '0.68.1' or '0.69.0rc1'."""
    major, minor = re.match(r"(\d+)\.(\d+)", version).groups()
    return int(major), int(minor)


def bounds(name: str) -> str:
    """The tested range of `name` as pyproject writes it: '>=0.68,<0.69'."""
    (low_major, low_minor), (high_major, high_minor) = TESTED[name]
    return f">={low_major}.{low_minor},<{high_major}.{high_minor}"


def untested() -> list[str]:
    """The installed packages outside their tested range, each as 'numba 0.69.0 (tested
    >=0.68,<0.69)'."""
    return [f"{module.__name__} {module.__version__} (tested {bounds(module.__name__)})"
            for module in (numba, llvmlite)
            if not TESTED[module.__name__][0] <= version_tuple(module.__version__)
            < TESTED[module.__name__][1]]


def _shut_before_import() -> str | None:
    if PLAIN_BY_REQUEST:
        return "EUCHRE_SIM_PLAIN_NUMBA is set"
    if untested():
        return f"untested {', '.join(untested())}"
    return None


SHUT_BECAUSE = _shut_before_import()
if SHUT_BECAUSE is None:
    try:
        from llvmlite import binding as llvm
        from llvmlite import ir
        from numba.core import cgutils, event
        from numba.core.compiler import CompileResult
        from numba.core.registry import CPUDispatcher
        from numba.core.typing import signature
        from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
    except ImportError as error:
        SHUT_BECAUSE = f"a hook is missing ({error})"


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


def _compile_afresh_over_stale_cache() -> None:
    """A cached kernel names the functions its reload runs first (`_load_overload`) by module
    and name, and its index names the types of its signatures (a record type by its module);
    one written by another version of this package may name a function or module since moved
    or removed, or a callee whose parameters have changed since (Numba checks a kernel's own
    file, not those of the code linked into it), and Numba would fail loading it, or saving
    beside it. Such an entry is a cache miss instead, and such an index an empty one: the
    kernel is compiled afresh and its entry written again."""
    from numba.core.caching import Cache, IndexDataCacheFile

    load = Cache.load_overload
    load_index = IndexDataCacheFile._load_index

    def _load_index(self):
        try:
            return load_index(self)
        except (AttributeError, ImportError) as error:
            logging.getLogger(__name__).info("euchre-sim: a cache index of another version "
                                             "(%s): written afresh", error)
            return {}

    IndexDataCacheFile._load_index = _load_index

    def load_overload(self, sig, target_context):
        try:
            return load(self, sig, target_context)
        except (AttributeError, ImportError, TypeError) as error:
            logging.getLogger(__name__).info("euchre-sim: a cached kernel of another version "
                                             "(%s): compiled afresh", error)
            return None

    Cache.load_overload = load_overload


if SHUT_BECAUSE is None:
    try:
        _keep_reload_init_on_cached_code()
        _compile_afresh_over_stale_cache()
    except (AttributeError, ValueError, ImportError) as error:
        SHUT_BECAUSE = f"a hook is missing ({type(error).__name__}: {error})"
OPEN = SHUT_BECAUSE is None
if not OPEN and not PLAIN_BY_REQUEST:
    logging.getLogger(__name__).warning(
        "euchre-sim: %s; using plain Numba (slower first compile, same results)", SHUT_BECAUSE)


if OPEN:
    class _Twinned(CPUDispatcher):
        """A dispatcher whose calls from jitted code go to its twin (`inner`; itself where it
        has none: one rebuilt from a pickle)."""

        @property
        def _numba_type_(self):
            return types.Dispatcher(getattr(self, "inner", self))


def with_inner_twin(dispatcher, options: dict):
    """`dispatcher`, its calls from jitted code made to a twin compiled with `options` but
    without the wrappers that let Python call it (`no_cpython_wrapper`, `no_cfunc_wrapper`):
    those unpack every field of every record argument, and for a kernel that takes the rule
    tables they cost ten times the kernel's own code to compile. The twin is cached under its
    own name (`<name>.inner`); a call from Python compiles the dispatcher itself, wrappers and
    all."""
    py = dispatcher.py_func
    func = pytypes.FunctionType(py.__code__, py.__globals__, py.__name__, py.__defaults__,
                                py.__closure__)
    func.__qualname__ = f"{py.__qualname__}.inner"
    func.__module__, func.__doc__ = py.__module__, py.__doc__
    func.__kwdefaults__ = py.__kwdefaults__
    inner = numba.njit(**options, no_cpython_wrapper=True, no_cfunc_wrapper=True)(func)
    dispatcher.__class__ = _Twinned
    dispatcher.inner = inner
    return dispatcher


def jitted(dispatcher):
    """The dispatcher that jitted code calls for `dispatcher`: its twin where it has one."""
    return getattr(dispatcher, "inner", dispatcher)


def without_nrt(options: dict) -> dict:
    """Numba's options for a function compiled without reference counting (its private
    `_nrt=False`: a kernel that allocates nothing then passes its arrays without an atomic
    count at every call); with the door shut, the options unchanged (counted, the same
    results)."""
    return options | {"_nrt": False} if OPEN else options


@contextlib.contextmanager
def compiles(callback):
    """Call callback(name) as Numba starts compiling each function inside the block."""
    class Listener(event.Listener):
        def on_start(self, ev):
            callback(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Listener()):
        yield


def tell_compiles(callback) -> None:
    """From now on, call callback(name) as Numba starts compiling each function."""
    class Listener(event.Listener):
        def on_start(self, ev):
            callback(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())


def _load_overload(module: str, name: str, argtypes: tuple, symbol: str | None = None) -> None:
    """Compile (or load from the cache) `module.name` for `argtypes`: run before a kernel that
    calls it through `call_unlinked` is loaded from the cache, so that its symbol is defined.
    A callee compiled again since the caller was (its file changed, the caller's did not) has
    another symbol: the caller's `symbol` is made to name it, as a linked callee's stale copy
    would have served."""
    dispatcher = jitted(getattr(importlib.import_module(module), name))
    dispatcher.compile(argtypes)
    callee = dispatcher.overloads[argtypes]
    if symbol is not None and symbol != callee.fndesc.mangled_name:
        llvm.add_symbol(symbol, callee.library.get_pointer_to_function(
            callee.fndesc.mangled_name))


def call_unlinked(dispatcher):
    """A function of jitted code that calls `dispatcher`'s compiled symbol, without its code:
    a call by function descriptor (`call_internal`), the callee compiled while the caller is
    typed, and loaded first when the caller comes from the cache (a reload function on the
    caller's code library, as parfors use, kept on cached code by
    `_keep_reload_init_on_cached_code`)."""
    module, name = dispatcher.py_func.__module__, dispatcher.py_func.__name__
    dispatcher = jitted(dispatcher)

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


@intrinsic
def ctpop(typingctx, mask):
    """LLVM's population count of a uint64 (one instruction where the CPU has one)."""
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


def _host_has_pext() -> bool:
    """Whether the code Numba makes here may use the BMI2 `pext` instruction."""
    if platform.machine().lower() not in ("x86_64", "amd64") or numba.config.CPU_NAME:
        return False
    try:
        return bool(llvm.get_host_cpu_features().get("bmi2"))
    except RuntimeError:
        return False


HAS_PEXT = OPEN and _host_has_pext()


@intrinsic
def pext_instruction(typingctx, value, mask):
    """The BMI2 `pext` of two uint64s (only where HAS_PEXT)."""
    def codegen(context, builder, sig, args):
        word = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(word, [word, word]),
                                            "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)
    return types.uint64(types.uint64, types.uint64), codegen
