"""The door to Numba's internals (core.numba_internals): the installed Numba in its tested
range, pyproject's bounds the same range, and the plain path behind a shut door giving the
same results as the open one."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.core import bits, numba_internals
from euchre_sim.core.rules import build_rules
from euchre_sim.solver.calltable import analyze_deals

from .test_bits import masks

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_installed_numba_and_llvmlite_are_in_the_tested_range():
    assert numba_internals.untested() == [], (
        f"untested {numba_internals.untested()}: the door to Numba's internals is shut and "
        "the kernels run on plain Numba (slower first compile). To support it, widen TESTED "
        "in euchre_sim/core/numba_internals.py and the bounds in pyproject.toml together and "
        "run the whole suite on it; else install the tested versions.")


def test_pyproject_bounds_are_the_tested_range():
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    for name in numba_internals.TESTED:
        assert f"{name}{numba_internals.bounds(name)}" in dependencies, (
            f"pyproject.toml's {name} bounds differ from TESTED in core/numba_internals.py")


@pytest.mark.skipif(numba_internals.PLAIN_BY_REQUEST, reason="EUCHRE_SIM_PLAIN_NUMBA is set")
def test_the_door_opens_on_the_tested_numba():
    assert numba_internals.OPEN, numba_internals.SHUT_BECAUSE


def test_a_version_reads_as_major_and_minor():
    assert numba_internals.version_tuple("0.68.1") == (0, 68)
    assert numba_internals.version_tuple("0.69.0rc1") == (0, 69)
    assert numba_internals.version_tuple("1.0.0+3.gabcdef") == (1, 0)


@given(mask=masks, signed=st.booleans())
def test_the_plain_bit_helpers_match_the_instructions(mask, signed):
    m = np.uint64(mask).view(np.int64) if signed else np.uint64(mask)
    assert bits.plain_popcount(m) == bits.popcount(m) == bin(mask).count("1")
    if mask:
        assert bits.plain_low_index(m) == bits.low_index(m) == (mask & -mask).bit_length() - 1
        assert int(bits.plain_high_bit(m)) == int(bits.high_bit(m)) == 1 << (mask.bit_length() - 1)


def _python(script: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, env=env)


# a process with the door shut on purpose: the plain helpers, a linked `unlinked` call, and
# the solver's call tables of a few deals (the three `unlinked` calls of the solver on the way)
_PLAIN = """
import json
import numpy as np
from euchre_sim.core import bits, numba_internals
from euchre_sim.core.jit import njit, unlinked
from euchre_sim.core.rules import build_rules
from euchre_sim.core.dealing import deal_batch
from euchre_sim.solver.calltable import analyze_deals

@njit
def total(a, k):
    return a.sum() * k

call_total = unlinked(total)

@njit
def caller(a):
    return call_total(a, np.int64(3)) + 1

rules = build_rules("standard")
hands, ups = deal_batch(rules, 5, 0, 12)
print(json.dumps({
    "open": numba_internals.OPEN, "plain": [bits.popcount is bits.plain_popcount,
    bits.low_index is bits.plain_low_index, bits.high_bit is bits.plain_high_bit,
    bits.pext is bits.pext_loop], "linked": call_total is total,
    "value": int(caller(np.arange(5, dtype=np.int64))),
    "tables": analyze_deals(rules, hands, ups, exact=True).tolist()}))
"""


def test_with_the_door_shut_the_plain_path_gives_the_same_tables():
    from euchre_sim.core.dealing import deal_batch

    env = os.environ | {"EUCHRE_SIM_PLAIN_NUMBA": "1"}
    run = _python(_PLAIN, env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "euchre-sim:" not in run.stderr  # shut on purpose: nothing to warn of
    got = json.loads(run.stdout.strip().splitlines()[-1])
    rules = build_rules("standard")
    hands, ups = deal_batch(rules, 5, 0, 12)
    assert got == {"open": False, "plain": [True] * 4, "linked": True, "value": 31,
                   "tables": analyze_deals(rules, hands, ups, exact=True).tolist()}


# how the door learns that it must stay shut: an untested version, a hook gone
_SHUT_BY = {
    "an untested Numba": ("import numba; numba.__version__ = '0.99.0'",
                          "untested numba 0.99.0 (tested >=0.68,<0.69)"),
    "an untested llvmlite": ("import llvmlite; llvmlite.__version__ = '0.61.0'",
                             "untested llvmlite 0.61.0"),
    "a bit instruction gone": ("import numba.cpython.unsafe.numbers as n; del n.leading_zeros",
                               "a hook is missing (cannot import name 'leading_zeros'"),
    "the cache hook gone": ("from numba.core.compiler import CompileResult; "
                            "del CompileResult._rebuild",
                            "a hook is missing (AttributeError"),
}


@pytest.mark.parametrize("case", sorted(_SHUT_BY))
def test_the_door_stays_shut_with_one_line_of_warning(case):
    before, reason = _SHUT_BY[case]
    # compiled here: a cached kernel's loading would want the hook that is gone
    env = {k: v for k, v in os.environ.items() if k != "EUCHRE_SIM_PLAIN_NUMBA"}
    env["EUCHRE_SIM_NO_CACHE"] = "1"
    script = before + """
import json
import numpy as np
from euchre_sim.core import bits, numba_internals
count = int(bits.popcount(np.uint64(0b1011)))  # Numba loaded: each kernel in place
print(json.dumps([numba_internals.OPEN, bits.popcount is bits.plain_popcount, count]))
"""
    run = _python(script, env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == [False, True, 3]
    warning = [line for line in run.stderr.splitlines() if line.startswith("euchre-sim:")]
    assert len(warning) == 1 and reason in warning[0], run.stderr
    assert warning[0].endswith("using plain Numba (slower first compile, same results)")


_CACHED = '''
import json
import sys
import numpy as np
from numba.core import caching
from euchre_sim.core.jit import njit

@njit(cache=True)
def doubled(a):
    return a * 2

if sys.argv[1] == "stale":  # as a cache entry naming a function since moved would load
    def load(self, key):
        raise AttributeError("Can't get attribute '_load_overload' on <module 'old'>")
    caching.IndexDataCacheFile.load = load
if sys.argv[1] == "stale_index":  # as an index naming a record type's module since removed
    import pickle

    class Unpickler:
        def __getattr__(self, name):
            return getattr(pickle, name)

        @staticmethod
        def loads(data):
            raise ModuleNotFoundError("No module named 'euchre_sim.play.card_net'")
    caching.pickle = Unpickler()
compiled = []
from euchre_sim.core.numba_internals import compiles
with compiles(compiled.append):
    value = doubled(np.int64(21))
print(json.dumps({"value": int(value), "compiled": sorted(set(compiled))}))
'''


@pytest.mark.skipif(not numba_internals.OPEN, reason="the door is shut: no hook on the cache")
def test_a_cached_kernel_of_another_version_is_compiled_afresh_not_a_crash(tmp_path):
    """A cache entry whose pickled reload names a function this version moved or removed is
    a cache miss, and an index naming a module since removed an empty index: the kernel
    compiles again and its entry is written again (Numba alone raises AttributeError or
    ModuleNotFoundError)."""
    (tmp_path / "cached_kernel.py").write_text(_CACHED)
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    env.pop("EUCHRE_SIM_NO_CACHE", None)

    def run(mode: str) -> dict:
        code = f"import sys; sys.argv[1:] = [{mode!r}]; import cached_kernel"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=300, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    assert run("fresh") == {"value": 42, "compiled": ["doubled"]}
    assert run("cached") == {"value": 42, "compiled": []}
    assert run("stale") == {"value": 42, "compiled": ["doubled"]}
    assert run("stale_index") == {"value": 42, "compiled": ["doubled"]}
    assert run("cached") == {"value": 42, "compiled": []}  # its entry written again


def test_a_kernel_without_reference_counting_compiles_so_behind_the_door_and_counts_without():
    """core.jit's njit(nrt=False) passes Numba's private `_nrt=False` only through the door:
    its compiled code then calls no NRT_incref; with the door shut the option is left out."""
    from euchre_sim.core.jit import njit

    def total(a):
        s = 0
        for x in a:
            s += x
        return s

    kernel = njit(nrt=False, cache=False)(total)
    assert kernel(np.arange(5)) == 10
    assert kernel.targetoptions.get("_nrt") is (False if numba_internals.OPEN else None)
    if numba_internals.OPEN:
        assert "NRT_incref" not in kernel.inspect_llvm(kernel.signatures[0])
    assert numba_internals.without_nrt({"cache": True}) == (
        {"cache": True, "_nrt": False} if numba_internals.OPEN else {"cache": True})
