"""Chunk sums files: the time to write one chunk's sums file and to merge a run's worth of them.

Prints JSON: the median wall and CPU time of writing one chunk's sums file (`bucketed_sums`)
and of reading and merging CHUNKS of them a batch of buckets at a time (`ChunkSums`,
`merged`, as `finish_run` does), and the file's size. The sums are those of real chunks of
BENCH_CHUNK deals (default 20,000, a 2,000,000-deal run's chunk size), computed once and kept
in BENCH_CACHE (an .npz); BENCH_CHUNKS (default 100) files are merged, copies of them.
"""

import json
import os
import shutil
import statistics
import tempfile
import time

import numpy as np

import euchre_sim
from euchre_sim.core.rules import build_rules
from euchre_sim.sim.callsums import ChunkSums, bucketed_sums, merged
from euchre_sim.sim.chunk import chunk_calls, chunk_sums

CHUNK = int(os.environ.get("BENCH_CHUNK", "20000"))
CHUNKS = int(os.environ.get("BENCH_CHUNKS", "100"))
CACHE = os.environ.get("BENCH_CACHE", os.path.join(tempfile.gettempdir(), "bench-sums.npz"))
SOURCES = 2  # distinct chunks; the merged files are copies of them
RUNS = 3
MERGE_ROWS = 300_000  # as simulate's final merge


def chunk_sums_of_real_deals() -> list[tuple[np.ndarray, np.ndarray]]:
    if not os.path.isfile(CACHE):
        rules = build_rules("standard")
        parts = {}
        for i in range(SOURCES):
            hands, ups, calls = chunk_calls(rules, 1, i * CHUNK, CHUNK, exact=False)
            (parts[f"k{i}"], parts[f"s{i}"]), _ = chunk_sums(rules, i * CHUNK, hands, ups,
                                                            calls)
        np.savez(CACHE, **parts)
    with np.load(CACHE) as data:
        return [(data[f"k{i}"], data[f"s{i}"]) for i in range(SOURCES)]


def timed(work) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    sources = chunk_sums_of_real_deals()
    folder = tempfile.mkdtemp(prefix="bench-sums-")
    try:
        writes, reads, files = [], [], [bucketed_sums(*s) for s in sources]
        for _ in range(RUNS):
            for keys, sums in sources:
                writes.append(timed(lambda k=keys, s=sums: bucketed_sums(k, s)))
        paths = []
        for i in range(CHUNKS):
            paths.append(os.path.join(folder, f"{i}.sums"))
            with open(paths[-1], "wb") as handle:
                handle.write(files[i % SOURCES])
        for _ in range(RUNS):
            reads.append(timed(lambda: sum(len(k) for k, _ in
                                            merged(ChunkSums(paths), MERGE_ROWS))))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    def median(pairs, i):
        return round(statistics.median(p[i] for p in pairs), 4)

    print(json.dumps({
        "package": os.path.dirname(euchre_sim.__file__), "chunk_deals": CHUNK,
        "chunk_rows": [len(k) for k, _ in sources], "file_bytes": [len(f) for f in files],
        "write_one_s": {"wall": median(writes, 0), "cpu": median(writes, 1)},
        "merge_s": {"chunks": CHUNKS, "wall": median(reads, 0), "cpu": median(reads, 1)},
        "load_avg": os.getloadavg()[0]}, indent=2))


if __name__ == "__main__":
    main()
