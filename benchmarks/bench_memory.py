"""Memory of a whole simulate run: the parent and all its workers together.

Runs `euchre-sim simulate --deals N --workers W` as a child process and samples the resident
memory of its whole process tree (read from /proc) every SAMPLE seconds. Prints JSON: the
peak and the 50th/90th/99th percentiles of the tree's total, the peaks of the parent and of
the largest worker, how many processes were alive at the peak and when, and the run's wall
time; the run's CPU time (the whole tree's), and the final merge's wall and CPU time and peak
(from when every chunk is stored and the parent is alone to its end, to within a sample); the
load average before and after. The goal (issue 12) is a 10,000,000-deal run under 1 GB for
the tree. BENCH_DEALS
(default 2,000,000), BENCH_WORKERS (default 2), BENCH_SAMPLE (default 0.5 s) set the run.
Linux only.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

DEALS = int(os.environ.get("BENCH_DEALS", "2000000"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
SAMPLE = float(os.environ.get("BENCH_SAMPLE", "0.5"))
PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, for every process on the machine."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def _cpu(pid: int) -> float:
    """User and system seconds of a live process (0 once gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def _stored_chunks(out: str) -> int:
    try:
        return sum(name.isdigit() for name in os.listdir(os.path.join(out, "chunks")))
    except OSError:
        return 0


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * PAGE
    except OSError:
        return 0


def tree_rss(root: int) -> dict[int, int]:
    """RSS of root and of each of its descendants, by pid."""
    tree = _children()
    todo, sizes = [root], {}
    while todo:
        pid = todo.pop()
        sizes[pid] = _rss(pid)
        todo.extend(tree.get(pid, []))
    return sizes


def main() -> None:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        command = [sys.executable, "-m", "euchre_sim.cli", "simulate", "--deals", str(DEALS),
                   "--seed", "1", "--workers", str(WORKERS), "--out", out, "--no-progress"]
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        totals, parent, worker, alive_at_peak, peak_at = [], 0, 0, 0, 0.0
        cpu: dict[int, float] = {}  # last seen CPU seconds of every process of the tree
        n_chunks, merge_start, merge_cpu, merge_peak = None, None, 0.0, 0
        while not (done := os.wait4(proc.pid, os.WNOHANG))[0]:
            sizes = tree_rss(proc.pid)
            cpu.update({pid: max(cpu.get(pid, 0.0), _cpu(pid)) for pid in sizes})
            totals.append(sum(sizes.values()))
            parent = max(parent, sizes.pop(proc.pid, 0))
            worker = max([worker, *sizes.values()])
            if totals[-1] >= max(totals):
                alive_at_peak = len(sizes) + 1
                peak_at = time.perf_counter() - start
            if n_chunks is None and os.path.isfile(os.path.join(out, "manifest.json")):
                with open(os.path.join(out, "manifest.json"), encoding="utf-8") as handle:
                    n_chunks = -(-DEALS // json.load(handle)["chunk_size"])
            if merge_start is None and not sizes and n_chunks == _stored_chunks(out):
                merge_start, merge_cpu = time.perf_counter(), sum(cpu.values())
            if merge_start is not None:
                merge_peak = max(merge_peak, totals[-1])
            time.sleep(SAMPLE)
        end = time.perf_counter()
        wall = end - start
        proc.returncode = os.waitstatus_to_exitcode(done[1])
        cpu_total = done[2].ru_utime + done[2].ru_stime  # the parent and its reaped workers
    totals.sort()

    def mb(x: float) -> int:
        return round(x / 2**20)

    def pct(q: float) -> int:
        return mb(totals[min(len(totals) - 1, int(q * len(totals)))])

    print(json.dumps({
        "deals": DEALS, "workers": WORKERS, "exit_code": proc.returncode,
        "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu_total, 1),
        "samples": len(totals),
        "tree_rss_mb": {"peak": mb(totals[-1]), "p50": pct(0.5), "p90": pct(0.9),
                        "p99": pct(0.99)},
        "parent_peak_mb": mb(parent), "largest_worker_peak_mb": mb(worker),
        "processes_at_peak": alive_at_peak, "peak_at_seconds": round(peak_at, 1),
        "merge": None if merge_start is None else {
            "wall_seconds": round(end - merge_start, 1),
            "cpu_seconds": round(cpu_total - merge_cpu, 1), "tree_rss_peak_mb": mb(merge_peak)},
        "load_avg_before_after": [load_before[0], os.getloadavg()[0]],
        "goal_mb_for_10m_deals": 1024}, indent=2))


if __name__ == "__main__":
    main()
