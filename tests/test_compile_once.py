"""What a first run compiles: each solver kernel once, whatever calls it, and a listener that
tells when a block compiles (the progress line's "compiling (first run only)")."""

import json
import os
import subprocess
import sys

import numpy as np

from euchre_sim.core.jit import njit, on_first_compile

# Every path that reaches the solver: simulation by scoring class and exact (dd), PIMC play
# (a search from inside a trick) and the `solve` table. Run in a fresh process, so that no
# other test's calls add signatures.
_PATHS = """
import json
from euchre_sim.core.rules import build_rules
from euchre_sim.sim.chunk import ChunkJob, chunk_calls
from euchre_sim.solver import search
from euchre_sim.solver.calltable import solve_table

rules = build_rules("standard", [])
chunk_calls(ChunkJob.of(rules, 1, 0, 2), exact=False)
chunk_calls(ChunkJob.of(rules, 1, 0, 2), exact=True)
chunk_calls(ChunkJob.of(rules, 1, 0, 1, play="pimc", worlds=4), exact=False)
solve_table(rules, rules.card_deck.parse_deal(
    "N:JS AS 9H 9D TC / KS QS TH JH QC / 9S AH KH AD KC / TS QH KD QD AC"), 3)
print(json.dumps({name: len(getattr(search, name).signatures)
                  for name in ("search_at", "endgame", "exact_tricks", "at_least")}))
"""


def test_each_solver_kernel_compiles_once_for_every_caller():
    """A literal argument (a constant threshold, -1 for 'no card yet') would make Numba
    compile a kernel once more for each value: search_at five times, as it once was."""
    env = os.environ | {"EUCHRE_SIM_NO_CACHE": "1"}  # kernels loaded from the cache would
    # show no signatures: compiled here, every one
    out = subprocess.run([sys.executable, "-c", _PATHS], capture_output=True, text=True,
                         check=True, timeout=900, env=env)
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    assert counts == {"search_at": 1, "endgame": 1, "exact_tricks": 1, "at_least": 1}


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
