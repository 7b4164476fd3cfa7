"""What a first run compiles: each solver kernel once, whatever calls it, and a listener that
tells when a block compiles (the progress line's "compiling (first run only)")."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from euchre_sim.core import numba_internals
from euchre_sim.core.jit import njit, on_first_compile

# what only the door to Numba's internals does: with it shut, test_numba_door.py says why
needs_open_door = pytest.mark.skipif(
    not numba_internals.OPEN, reason=f"Numba's internals shut: {numba_internals.SHUT_BECAUSE}")

# Every path that reaches the solver: simulation by scoring class and exact (dd), PIMC play
# (a search from inside a trick) and the `solve` table. Run in a fresh process, so that no
# other test's calls add signatures.
_KERNELS = ("search_at", "endgame", "exact_tricks", "at_least", "_two_tricks", "_gen_moves",
            "_probe", "_next_card", "_child_value", "_takes")
_PATHS = f"""
import json
from euchre_sim.core.numba_internals import jitted
from euchre_sim.core.rules import build_rules
from euchre_sim.play.player import Player
from euchre_sim.sim.chunk import ChunkJob, chunk_calls
from euchre_sim.solver import search
from euchre_sim.solver.calltable import solve_table

rules = build_rules("standard", [])
search.compile_search()  # as a warm-up's helper does: the types every caller passes
chunk_calls(ChunkJob.of(rules, 1, 0, 2), exact=False)
chunk_calls(ChunkJob.of(rules, 1, 0, 2), exact=True)
chunk_calls(ChunkJob.of(rules, 1, 0, 1, player=Player(play="pimc", worlds=4)), exact=False)
solve_table(rules, rules.card_deck.parse_deal(
    "N:JS AS 9H 9D TC / KS QS TH JH QC / 9S AH KH AD KC / TS QH KD QD AC"), 3)
# a kernel's signatures for jitted callers (its twin's) and for Python's
print(json.dumps({{name: len({{*getattr(search, name).signatures,
                             *jitted(getattr(search, name)).signatures}})
                  for name in {_KERNELS!r}}}))
"""


def test_each_solver_kernel_compiles_once_for_every_caller():
    """A literal argument (a constant threshold, -1 for 'no card yet') would make Numba
    compile a kernel once more for each value: search_at five times, as it once was."""
    env = os.environ | {"EUCHRE_SIM_NO_CACHE": "1"}  # kernels loaded from the cache would
    # show no signatures: compiled here, every one
    out = subprocess.run([sys.executable, "-c", _PATHS], capture_output=True, text=True,
                         check=True, timeout=900, env=env)
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    assert counts == dict.fromkeys(_KERNELS, 1)


@needs_open_door
def test_the_first_compile_in_a_block_is_told_once():
    calls = []

    @njit(cache=False)
    def twice(x):
        return 2 * x

    @njit(cache=False)
    def thrice(x):
        return 3 * x

    with on_first_compile(lambda: calls.append("compiling")):
        assert twice(np.int64(2)) == 4
        assert thrice(np.int64(2)) == 6  # a second compile: not told again
    assert calls == ["compiling"]
    with on_first_compile(lambda: calls.append("again")):
        assert twice(np.int64(5)) == 10  # compiled already: nothing to tell
    assert calls == ["compiling"]


def _cache_env(tmp_path) -> dict:
    """A child process's environment: its own Numba cache and the test's modules."""
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "cache"),
                        "PYTHONPATH": str(tmp_path)}
    env.pop("EUCHRE_SIM_NO_CACHE", None)
    return env


# a kernel for the tests below: every module that calls it unlinked holds this text
_TOTAL = '''
@njit
def total(a, k):
    s = 0
    for x in a:
        s += x * k
    return s
'''

_UNLINKED = '''
import json
import numpy as np
from euchre_sim.core.jit import njit, unlinked
from euchre_sim.core.numba_internals import compiles, jitted
''' + _TOTAL + '''
call_total = unlinked(total)

@njit
def caller(a):
    return call_total(a, np.int64(3)) + 1

compiled = []
with compiles(compiled.append):
    value = caller(np.arange(5, dtype=np.int64))
sig = caller.signatures[0]
callee = jitted(total)
name = callee.overloads[callee.signatures[0]].fndesc.mangled_name
ir = caller.inspect_llvm(sig) if compiled else ""
print(json.dumps({"value": int(value), "compiled": sorted(set(compiled)),
                  "defines_callee": ("define" in ir and any(
                      line.startswith("define") and name in line for line in ir.splitlines()))}))
'''


@needs_open_door
def test_an_unlinked_call_names_the_callee_and_loads_it_first_from_the_cache(tmp_path):
    """`unlinked`: the caller's code calls the callee's symbol without a copy of its code, and
    a fresh process that loads the caller from the cache loads the callee first."""
    (tmp_path / "unlinked_kernels.py").write_text(_UNLINKED)
    env = _cache_env(tmp_path)
    runs = [json.loads(subprocess.run(
        [sys.executable, "-c", "import unlinked_kernels"], capture_output=True, text=True,
        check=True, timeout=300, env=env, cwd=tmp_path).stdout.strip().splitlines()[-1])
        for _ in range(2)]
    assert runs[0] == {"value": 3 * 10 + 1, "compiled": ["caller", "total"],
                       "defines_callee": False}
    assert runs[1] == {"value": 31, "compiled": [], "defines_callee": False}


_THREE_LEVELS = '''
import json
import sys
import numpy as np
from euchre_sim.core.jit import njit, unlinked
''' + _TOTAL + '''
call_total = unlinked(total)

@njit
def middle(a):
    return call_total(a, np.int64(3)) + 1

@njit
def top(a):
    return middle(a) * 2

kernel = middle if sys.argv[1] == "middle" else top
print(json.dumps(int(kernel(np.arange(5, dtype=np.int64)))))
'''


def test_a_kernel_compiled_over_cached_code_still_loads_its_unlinked_callees_first(tmp_path):
    """`middle` calls `total` unlinked and is cached by one process; a second loads `middle`
    from the cache and compiles `top` over it; a third loads `top` from the cache: it must load
    `total` first, though no code of its own names it (Numba leaves a cached library's reload
    functions off it: `core.jit` puts them back)."""
    (tmp_path / "three_levels.py").write_text(_THREE_LEVELS)
    env = _cache_env(tmp_path)
    runs = [subprocess.run([sys.executable, str(tmp_path / "three_levels.py"), kernel],
                           capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
            for kernel in ("middle", "top", "top")]
    assert [run.returncode for run in runs] == [0, 0, 0], runs[-1].stderr[-500:]
    assert [json.loads(run.stdout) for run in runs] == [31, 62, 62]


_CALLEE = "from euchre_sim.core.jit import njit\n" + _TOTAL

_CALLER = '''
import json
import numpy as np
from euchre_sim.core.jit import njit, unlinked
from callee_kernels import total

call_total = unlinked(total)

@njit
def caller(a):
    return call_total(a, np.int64(3)) + 1

print(json.dumps(int(caller(np.arange(5, dtype=np.int64)))))
'''


def _run_script(tmp_path, name: str) -> subprocess.CompletedProcess:
    """Run the test's module `name` in a child process with its own Numba cache."""
    return subprocess.run([sys.executable, str(tmp_path / name)], capture_output=True,
                          text=True, timeout=300, env=_cache_env(tmp_path), cwd=tmp_path)


def test_a_cached_caller_calls_its_unlinked_callee_compiled_again_since(tmp_path):
    """The callee's file changes and the caller's does not: the caller comes from the cache,
    the callee is compiled again under another symbol, and the caller must still reach it."""
    (tmp_path / "callee_kernels.py").write_text(_CALLEE)
    (tmp_path / "caller_kernels.py").write_text(_CALLER)
    first = _run_script(tmp_path, "caller_kernels.py")
    (tmp_path / "callee_kernels.py").write_text(_CALLEE + "\n\nunused = 0\n")
    again = _run_script(tmp_path, "caller_kernels.py")
    assert (first.returncode, again.returncode) == (0, 0), again.stderr[-500:]
    assert json.loads(first.stdout) == json.loads(again.stdout) == 31


# a callee reached unlinked through a middle kernel that the top one links in: the top's
# cached code calls the callee with the types it had when the top was compiled
_MIDDLE = """
import numpy as np
from euchre_sim.core.jit import njit, unlinked
from callee_kernels import total

call_total = unlinked(total)

@njit
def middle(a):
    return call_total(a, np.int64(3))
"""

_TOP = """
import json
import numpy as np
from euchre_sim.core.jit import njit
from middle_kernels import middle

@njit
def top(a):
    return middle(a) + 1

print(json.dumps(int(top(np.arange(5, dtype=np.int64)))))
"""


def test_a_cached_kernel_whose_linked_code_calls_a_callee_since_changed_is_compiled_afresh(
        tmp_path):
    """The callee takes other parameters now, and the middle kernel calls it so; the top
    kernel's file is unchanged, so Numba's cache still holds it, with the middle's old code
    linked in, which asks for the callee with its old types: a cache miss, the top compiled
    afresh (without this, loading it raised a TypeError)."""
    (tmp_path / "callee_kernels.py").write_text(_CALLEE)
    (tmp_path / "middle_kernels.py").write_text(_MIDDLE)
    (tmp_path / "top_kernels.py").write_text(_TOP)
    first = _run_script(tmp_path, "top_kernels.py")
    (tmp_path / "callee_kernels.py").write_text(_CALLEE.replace(
        "def total(a, k):", "def total(a, k, b):").replace("return s", "return s + b"))
    (tmp_path / "middle_kernels.py").write_text(_MIDDLE.replace(
        "call_total(a, np.int64(3))", "call_total(a, np.int64(3), np.int64(2))"))
    again = _run_script(tmp_path, "top_kernels.py")
    assert (first.returncode, again.returncode) == (0, 0), again.stderr[-500:]
    assert (json.loads(first.stdout), json.loads(again.stdout)) == (31, 33)


# the README's first realistic question (issue 55), its kernels compiled by the warm-up's two
# parts (a thread stands for the helper process: the types are what is checked) and then its
# first deals tried
_REALISTIC = """
import json
from concurrent.futures import ThreadPoolExecutor
from euchre_sim.advice.advice_request import ask_any
from euchre_sim.advice.auction_advice import reached_deals, warm_up
from euchre_sim.core.numba_internals import compiles
from euchre_sim.core.rules import build_rules

question = ask_any(build_rules("standard", []),
                   {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1, "deals": 20})
warmed, tried = [], []
with compiles(warmed.append), ThreadPoolExecutor(1) as helper:
    warm_up(question, helper)
with compiles(tried.append):
    reached_deals(question)
print(json.dumps({"warmed": sorted(set(warmed)), "tried": sorted(set(tried))}))
"""


def test_the_learned_players_question_compiles_no_search_and_its_deals_only_their_kernel():
    """A learned player with a net for every deal searches nothing (`play.playout.searches`):
    its kernels compile no PIMC, world sampler nor learned-search; after the warm-up, trying
    the question's deals compiles `_reached_batch` and its small helpers, nothing below."""
    env = os.environ | {"EUCHRE_SIM_NO_CACHE": "1"}
    out = subprocess.run([sys.executable, "-c", _REALISTIC], capture_output=True, text=True,
                         check=True, timeout=900, env=env)
    compiled = json.loads(out.stdout.strip().splitlines()[-1])
    search = {"pimc_card", "pimc_discard", "pimc_among", "sample_world", "searched_card",
              "searched_discard", "_best_over_worlds"}
    # choose_card is inlined into the contract's playout: it compiles as play_contract
    assert {"play_deal", "play_contract", "learned_card", "analyze_deal",
            "bidder_choice"} <= set(compiled["warmed"])
    assert search.isdisjoint(compiled["warmed"] + compiled["tried"])
    assert "_reached_batch" in compiled["tried"]
    assert {"play_deal", "play_contract", "choose_discard", "analyze_deal",
            "search_at", "advice_rows", "auction_choices", "resolve_contracts",
            "bidder_choice"}.isdisjoint(compiled["tried"])
