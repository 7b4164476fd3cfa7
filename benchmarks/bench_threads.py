"""Threads or processes for a simulation's solver work, measured side by side.

Issue 12 asks whether `simulate` should use numba threads (`prange`, one transposition table
shared by the threads of a process: entries are single lockless words, so that is safe) rather
than its worker processes. This times the same 2 x DEALS deals' call tables (the default class
searches) three ways on one machine, medians of RUNS:
- one process, one thread (the yardstick);
- one process, THREADS threads under `prange`, one shared table (checked identical);
- THREADS worker processes, each with its own table, DEALS deals each (the engine's way);
and, to weigh what threads cannot spread, the share of a whole chunk of DEALS deals (deal,
solve, records, sums, files' bytes: what a worker does) spent outside the solver. Prints
JSON. BENCH_DEALS (default 20,000) and BENCH_THREADS (default 2) set the run.
"""

import io
import json
import multiprocessing
import os
import statistics
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from euchre_sim.core.calls import BOTH_ROUNDS, N_ROWS  # noqa: E402
from euchre_sim.core.dealing import Deal, deal_batch  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.sim.callsums import bucketed_sums  # noqa: E402
from euchre_sim.sim.chunk import ChunkJob, chunk_calls, chunk_sums  # noqa: E402
from euchre_sim.solver.calltable import analyze_batch, analyze_deal  # noqa: E402
from euchre_sim.solver.search import SolverTT, new_tt, new_work  # noqa: E402

RUNS = 3
DEALS = int(os.environ.get("BENCH_DEALS", "20000"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
SEED = 7


@numba.njit(parallel=True, nogil=True)
def analyze_threads(tb, hands, upcards, dealer, exact, parts, tt, out, n_threads):
    """analyze_batch over `n_threads` threads, deals interleaved, one shared table (and a
    node counter per thread: one shared counter costs a cache line bouncing between cores)."""
    for t in numba.prange(n_threads):
        work = new_work()
        own = SolverTT(tt.table, np.zeros(5, dtype=np.int64))
        for i in range(t, hands.shape[0], n_threads):
            analyze_deal(tb, Deal(hands[i], upcards[i], dealer), False, 0, parts, own, work,
                         out[i])


def _deals(start, count):
    rules = build_rules("standard")
    hands, ups = deal_batch(rules, SEED, start, count)
    return compile_rules(rules), hands, ups


def _single(start, count):
    """Seconds for one thread to analyse deals start.. (after a warm-up)."""
    tb, hands, ups = _deals(start, count)
    out = np.zeros((count, N_ROWS), dtype=np.int8)
    analyze_batch(tb, hands[:10], ups[:10], 0, False, BOTH_ROUNDS, new_tt(), out[:10])
    begin = time.perf_counter()
    analyze_batch(tb, hands, ups, 0, False, BOTH_ROUNDS, new_tt(), out)
    return time.perf_counter() - begin, out


def _chunk(count):
    """A worker's whole chunk of `count` deals, as `compute_chunk` does it."""
    rules = build_rules("standard")
    hands, ups, calls = chunk_calls(ChunkJob.of(rules, SEED, 0, count), exact=False)
    sums, summary = chunk_sums(rules, 0, hands, ups, calls)
    bucketed_sums(*sums)
    summary.to_parquet(io.BytesIO(), index=False)


def _worker(args):
    return _single(*args)[0]


def main() -> None:
    numba.set_num_threads(THREADS)
    total = THREADS * DEALS
    tb, hands, ups = _deals(0, total)
    single, threads, procs = [], [], []
    with multiprocessing.get_context("spawn").Pool(THREADS) as pool:
        pool.map(_worker, [(0, 100)] * THREADS)  # warm the workers
        for _ in range(RUNS):
            seconds, expected = _single(0, total)
            single.append(seconds)
            out = np.zeros((total, N_ROWS), dtype=np.int8)
            analyze_threads(tb, hands[:10], ups[:10], 0, False, BOTH_ROUNDS, new_tt(), out[:10],
                            THREADS)
            begin = time.perf_counter()
            analyze_threads(tb, hands, ups, 0, False, BOTH_ROUNDS, new_tt(), out, THREADS)
            threads.append(time.perf_counter() - begin)
            assert np.array_equal(out, expected), "threads changed a call table"
            begin = time.perf_counter()
            pool.map(_worker, [(k * DEALS, DEALS) for k in range(THREADS)])
            procs.append(time.perf_counter() - begin)
    _chunk(100)
    begin = time.perf_counter()
    _chunk(DEALS)
    chunk = time.perf_counter() - begin
    solve = statistics.median(single) * DEALS / total
    rate = {name: round(total / statistics.median(times))
            for name, times in (("one_thread", single), ("threads", threads),
                                ("processes", procs))}
    print(json.dumps({
        "benchmark": "threads_vs_processes", "deals": total, "threads": THREADS, "runs": RUNS,
        "deals_per_s": rate,
        "threads_speedup": round(rate["threads"] / rate["one_thread"], 2),
        "processes_speedup": round(rate["processes"] / rate["one_thread"], 2),
        "chunk_seconds": round(chunk, 3),
        "chunk_share_outside_solver": round(1 - solve / chunk, 3),
        "identical_tables": True}, indent=2))


if __name__ == "__main__":
    main()
