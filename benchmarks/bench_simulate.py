"""End-to-end simulation throughput (deal, solve, aggregate, write) with 1 and 2 workers.

Prints JSON: deals per second (median of several runs, each in a fresh output folder,
start-up and the final merge included), a 2-worker Dask LocalCluster against the local engine
in the same run, the share of time spent outside the solver, the 2-worker speed-up, an
extrapolation to 1,000,000 deals, and peak memory of the workers and of the parent.
BENCH_DEALS sets the deals per worker (default 20,000).
"""

import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time

import euchre_sim
from euchre_sim.core.dealing import deal_batch
from euchre_sim.core.rules import build_rules
from euchre_sim.sim.callsums import bucketed_sums, record_sums
from euchre_sim.sim.chunk import ChunkJob, chunk_records, summary_sums
from euchre_sim.solver.calltable import analyze_deals
from euchre_sim.solver.search import new_tt

RUNS = 3
DEALS = int(os.environ.get("BENCH_DEALS", "20000"))


def one_run(rules, workers: int, deals: int, scheduler: str | None = None) -> float:
    """Deals a second of a whole double-dummy run through the API (`euchre_sim.simulate`:
    planning, chunks, merge), on `workers` local processes or a Dask `scheduler`."""
    out = tempfile.mkdtemp(prefix="bench-sim-")
    try:
        start = time.perf_counter()
        euchre_sim.simulate(deals, out=os.path.join(out, "run"), seed=1, rules=rules,
                            workers=workers, **({"scheduler": scheduler} if scheduler else {}))
        return deals / (time.perf_counter() - start)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def overhead_share(rules) -> float:
    """Time outside the solver (keys, aggregation) as a share of the solver's time."""
    n = 5000
    hands, ups = deal_batch(rules, 3, 0, n)
    start = time.perf_counter()
    analyze_deals(rules, hands, ups, 0, exact=False, tt=new_tt())
    solver = time.perf_counter() - start
    start = time.perf_counter()
    frame, _ = chunk_records(ChunkJob.of(rules, 3, 0, n), exact=False)
    bucketed_sums(*record_sums(frame))
    summary_sums(frame)
    whole = time.perf_counter() - start
    return max(whole - solver, 0.0) / solver


def main() -> None:
    rules = build_rules("standard")
    one_run(rules, 1, 2000)  # warm-up: compile or load the Numba cache
    report = {"benchmark": "simulate", "runs": RUNS, "deals": DEALS, "rules": "standard"}
    for workers in (1, 2):
        rates = [one_run(rules, workers, DEALS * workers) for _ in range(RUNS)]
        report[f"workers_{workers}"] = {"deals_per_s": round(statistics.median(rates)),
                                        "deals": DEALS * workers}
    dask_rates = [one_run(rules, 2, DEALS * 2, scheduler="local") for _ in range(RUNS)]
    report["dask_local_cluster_2_workers"] = {
        "deals_per_s": round(statistics.median(dask_rates)), "deals": DEALS * 2,
        "share_of_local_engine": round(statistics.median(dask_rates)
                                       / report["workers_2"]["deals_per_s"], 2)}
    w1 = report["workers_1"]["deals_per_s"]
    w2 = report["workers_2"]["deals_per_s"]
    report["speedup_2_workers"] = round(w2 / w1, 2)
    report["seconds_for_1M_deals_2_workers"] = round(1_000_000 / w2)
    report["overhead_vs_solver"] = round(overhead_share(rules), 3)
    report["peak_rss_mb"] = {
        "workers": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
        "parent": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    print(json.dumps(report, indent=2))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
