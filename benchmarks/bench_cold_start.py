"""The wait of a first run: each command with an empty Numba cache (cold: it compiles its
kernels), then the same command again on that cache (warm), in the same run.

Commands: `simulate --deals N` on --workers processes, `advise` (one hand, 20,000 deals,
double dummy), the realistic answers a new user asks first (issue 55: the README's first
example with `--deals 20000`, at a table of people, and a round-2 question at seat 3, both
simulated on --workers processes) and `serve` (from start until /api/health says ready).
Prints JSON: the median wall seconds cold and warm of --repeats rounds, cold minus warm
(what compiling adds), and the CPU seconds of each command with its processes (what a machine
shared with other work measures better than the wall). The goals: simulate 100,000 deals cold
within 25 s of warm on 2 cores (issue 38); the first realistic answer within 30 s (issue 55).
"""

import argparse
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

CLI = [sys.executable, "-m", "euchre_sim.cli"]
ADVISE = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1", "--play", "dd"]
REALISTIC = {"advise_people": ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1",
                               "--deals", "20000"],
             "advise_round_2": ["advise", "--hand", "JS AS 9H 9D TC", "--turned-down", "9C",
                                "--seat", "3", "--deals", "20000"]}
GOAL_SECONDS = 25.0
REALISTIC_GOAL_SECONDS = 30.0


def _cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(CLI + args, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=1800)
    return time.perf_counter() - start


def _simulate(deals: int, workers: int):
    def run(env: dict, scratch: str) -> float:
        out = tempfile.mkdtemp(dir=scratch)
        return _timed(["simulate", "--deals", str(deals), "--seed", "1", "--out", out,
                       "--workers", str(workers), "--no-progress"], env)
    return run


def _advise(env: dict, scratch: str) -> float:
    return _timed(ADVISE, env)


def _realistic(arguments: list[str], workers: int):
    def run(env: dict, scratch: str) -> float:
        return _timed([*arguments, "--workers", str(workers)], env)
    return run


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(env: dict, scratch: str) -> float:
    """Seconds from `serve` starting until its health check says the kernels are ready."""
    port = _free_port()
    start = time.perf_counter()
    server = subprocess.Popen(CLI + ["serve", "--port", str(port), "--runs", scratch], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - start < 1800:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health",
                                            timeout=5) as answer:
                    if json.load(answer)["ready"]:
                        return time.perf_counter() - start
            except OSError:
                pass
            if server.poll() is not None:
                raise RuntimeError("serve stopped before it was ready")
            time.sleep(0.2)
        raise TimeoutError("serve was not ready in 30 minutes")
    finally:
        server.terminate()
        server.wait(timeout=60)


def measure(run, repeats: int) -> dict:
    """Median seconds cold (an empty cache each round) and warm (that cache, right after)."""
    cold, warm, cold_cpu, warm_cpu = [], [], [], []
    for _ in range(repeats):
        scratch = tempfile.mkdtemp(prefix="cold-start-")
        env = os.environ | {"NUMBA_CACHE_DIR": os.path.join(scratch, "numba-cache")}
        env.pop("EUCHRE_SIM_NO_CACHE", None)
        try:
            for walls, cpus in ((cold, cold_cpu), (warm, warm_cpu)):
                cpu = _cpu_of_children()
                walls.append(run(env, scratch))
                cpus.append(_cpu_of_children() - cpu)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    cold_s, warm_s = statistics.median(cold), statistics.median(warm)
    return {"cold_s": round(cold_s, 1), "warm_s": round(warm_s, 1),
            "compile_adds_s": round(cold_s - warm_s, 1),
            "cold_cpu_s": round(statistics.median(cold_cpu), 1),
            "warm_cpu_s": round(statistics.median(warm_cpu), 1),
            "cold_runs_s": [round(x, 1) for x in cold], "warm_runs_s": [round(x, 1) for x in warm]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--only", choices=["simulate", "advise", *REALISTIC, "serve"],
                        action="append",
                        help="Measure only these commands (repeatable; default all).")
    args = parser.parse_args()
    commands = {"simulate": _simulate(args.deals, args.workers), "advise": _advise,
                **{name: _realistic(arguments, args.workers)
                   for name, arguments in REALISTIC.items()},
                "serve": _serve}
    result = {"benchmark": "cold_start", "repeats": args.repeats, "deals": args.deals,
              "workers": args.workers, "cpus": len(os.sched_getaffinity(0))}
    for name in args.only or commands:
        result[name] = measure(commands[name], args.repeats)
    if "simulate" in result:
        result["simulate"]["goal_s"] = GOAL_SECONDS
        result["simulate"]["goal_met"] = result["simulate"]["compile_adds_s"] <= GOAL_SECONDS
    for name in REALISTIC:
        if name in result:
            result[name]["goal_s"] = REALISTIC_GOAL_SECONDS
            result[name]["goal_met"] = result[name]["cold_s"] <= REALISTIC_GOAL_SECONDS
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
