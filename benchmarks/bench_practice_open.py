"""Practice on a fresh install: seconds from starting `euchre-sim serve` to the first practice
deal answered and to its first feedback (the first legal bid acted), in fresh processes, with
a cold Numba cache (an empty folder each run) and a warm one (the last cold run's folder,
filled), medians of BENCH_RUNS; with BENCH_BEFORE (a tree of an older commit, e.g.
`git archive HEAD~3 | tar -x -C /tmp/before`) that tree's figures beside this one's. Each run
also records when the warm-up ended (`ready`) and, where the server says them, what it was
preparing while the deal waited and each warm-up step's seconds and functions compiled (the
figures `web.queries.warm_up_steps` records). Prints JSON.

    BENCH_RUNS=2 BENCH_BEFORE=/tmp/before python benchmarks/bench_practice_open.py
"""

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from bench_startup import cpu_model
from checkouts import cli_command, tree_dir, tree_env

RUNS = int(os.environ.get("BENCH_RUNS", "2"))
BEFORE = os.environ.get("BENCH_BEFORE")
DEAL = {"table": "people", "game": True, "seat": 1, "seed": 0, "deal": 0}  # the page's default
LIMIT = 1800  # seconds a run may take before it is abandoned


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(port: int, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method="GET" if body is None else "POST",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=LIMIT) as response:
        return json.loads(response.read())


def watch(port: int, seen: list, stop: threading.Event) -> None:
    """/api/health's `preparing`, each change with the second it was first seen."""
    started = time.perf_counter()
    while not stop.wait(0.5):
        try:
            now = call(port, "/api/health").get("warm_up", {}).get("preparing")
        except OSError:
            continue
        if not seen or seen[-1][1] != now:
            seen.append((round(time.perf_counter() - started, 1), now))


def one_run(tree: str | None, cache: str) -> dict:
    """Start serve with Numba's cache in `cache`, deal, act once, wait for the warm-up's end."""
    port = free_port()
    env = tree_env(tree) | {"NUMBA_CACHE_DIR": cache}
    started = time.perf_counter()
    server = subprocess.Popen(cli_command(tree) + ["serve", "--port", str(port)], env=env,
                              cwd=tree_dir(tree), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    since = lambda: round(time.perf_counter() - started, 2)  # noqa: E731
    seen: list = []
    stop = threading.Event()
    try:
        while True:
            try:
                call(port, "/api/health")
                break
            except OSError:
                if server.poll() is not None or since() > LIMIT:
                    raise RuntimeError("serve did not answer") from None
                time.sleep(0.05)
        answering = since()
        threading.Thread(target=watch, args=(port, seen, stop), daemon=True).start()
        state = call(port, "/api/practice", DEAL)
        dealt = since()
        call(port, f"/api/practice/{state['id']}/act",
             {"action": state["legal"][0], "seq": state["seq"]})
        feedback = since()
        while not (health := call(port, "/api/health"))["ready"]:
            time.sleep(0.2)
        steps = [[step["what"], round(step["seconds"], 2), step["kernels"]]
                 for step in health.get("warm_up", {}).get("steps", [])]
        return {"answering": answering, "deal": dealt, "feedback": feedback, "ready": since(),
                "warm_up_seconds": health.get("warm_up_seconds"), "preparing": seen,
                "steps": steps}
    finally:
        stop.set()
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def figures(tree: str | None) -> dict:
    """Cold runs (a fresh cache each), then warm runs on the last cold run's cache."""
    runs: dict[str, list[dict]] = {"cold": [], "warm": []}
    folders = []
    try:
        for _ in range(RUNS):
            folders.append(tempfile.mkdtemp(prefix="practice-open-numba-"))
            runs["cold"].append(one_run(tree, folders[-1]))
            print("cold", tree, json.dumps(runs["cold"][-1]), file=sys.stderr, flush=True)
        for _ in range(RUNS):
            runs["warm"].append(one_run(tree, folders[-1]))
            print("warm", tree, json.dumps(runs["warm"][-1]), file=sys.stderr, flush=True)
    finally:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    medians = {cache: {key: statistics.median(run[key] for run in done)
                       for key in ("answering", "deal", "feedback", "ready")}
               for cache, done in runs.items()}
    return {"median": medians, "runs": runs}


def main() -> None:
    trees = {"this tree": None} | ({"before": BEFORE} if BEFORE else {})
    load = os.getloadavg()[0]
    result = {"cpu": cpu_model(), "cores": os.cpu_count(), "load_average_at_start": load,
              "runs": RUNS, "python": sys.version.split()[0]}
    result |= {name: figures(tree) for name, tree in trees.items()}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
