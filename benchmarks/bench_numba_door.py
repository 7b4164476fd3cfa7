"""What the door to Numba's internals (core.numba_internals) is worth: each command's first
run with an empty Numba cache, and double-dummy deals per second, with the door open (the
tested Numba) and shut on purpose (EUCHRE_SIM_PLAIN_NUMBA=1: linked calls and bit tricks, the
path an untested Numba takes).

Each command runs as `python -m euchre_sim_cli` in a subprocess with its own empty
NUMBA_CACHE_DIR: cold (it compiles), then warm (the same cache). The plain mode keeps no
cache, so each of its runs is cold and it has no warm column; `plain_compile_adds_s` is its
cold run less the open mode's. Deals per second are the CLI's own figure (compiling left
out), median of --repeats runs on one worker; `plain_speed_ratio` is plain over open.

Example: .venv/bin/python benchmarks/bench_numba_door.py --deals 200 --speed-deals 20000
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CLI = [sys.executable, "-m", "euchre_sim_cli"]
MODES = {"open": {}, "plain": {"EUCHRE_SIM_PLAIN_NUMBA": "1"}}


def _run(args: list[str], env: dict, scratch: str) -> tuple[float, float]:
    """(wall seconds, the CLI's deals/s) of one `simulate` into a fresh folder."""
    out = tempfile.mkdtemp(dir=scratch)
    start = time.perf_counter()
    done = subprocess.run(CLI + ["simulate", *args, "--out", out, "--workers", "1",
                                 "--no-progress"], env=env, capture_output=True, text=True,
                          check=True, timeout=3600)
    wall = time.perf_counter() - start
    rate = re.search(r"([\d,]+) deals/s", done.stderr)  # the run's line, beside its bar
    if rate is None:
        raise RuntimeError(f"no deals/s in simulate's output: {done.stderr[-500:]}")
    return wall, float(rate.group(1).replace(",", ""))


def _env(mode: str, scratch: str) -> dict:
    env = os.environ | MODES[mode] | {"NUMBA_CACHE_DIR": os.path.join(scratch, "numba-cache")}
    env.pop("EUCHRE_SIM_NO_CACHE", None)
    if mode == "open":
        env.pop("EUCHRE_SIM_PLAIN_NUMBA", None)
    return env


def first_runs(mode: str, commands: dict) -> dict:
    """Each command cold on an empty cache, then warm on it (open mode only)."""
    result = {}
    for name, args in commands.items():
        scratch = tempfile.mkdtemp(prefix="numba-door-")
        try:
            env = _env(mode, scratch)
            cold, _ = _run(args, env, scratch)
            result[name] = {"cold_s": round(cold, 1)}
            if mode == "open":
                result[name]["warm_s"] = round(_run(args, env, scratch)[0], 1)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return result


def dd_speed(mode: str, deals: int, repeats: int) -> float:
    """Median deals/s of `simulate --play dd`, after a run that compiles (or loads) it."""
    scratch = tempfile.mkdtemp(prefix="numba-door-")
    try:
        env = _env(mode, scratch)
        args = ["--deals", str(deals), "--seed", "1", "--play", "dd"]
        _run(args, env, scratch)
        return statistics.median(_run(args, env, scratch)[1] for _ in range(repeats))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="simulate's deals, cold")
    parser.add_argument("--pimc-deals", type=int, default=20, help="PIMC deals, cold")
    parser.add_argument("--worlds", type=int, default=50)
    parser.add_argument("--speed-deals", type=int, default=20_000, help="deals per speed run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--modes", default="open,plain", help="open, plain or both")
    args = parser.parse_args()
    commands = {
        "simulate_dd": ["--deals", str(args.deals), "--seed", "1"],
        "simulate_pimc": ["--deals", str(args.pimc_deals), "--seed", "1", "--play", "pimc",
                          "--bidding", "rules", "--worlds", str(args.worlds)],
    }
    result = {"benchmark": "numba_door", "cpus": len(os.sched_getaffinity(0)),
              "deals": args.deals, "pimc_deals": args.pimc_deals, "worlds": args.worlds,
              "speed_deals": args.speed_deals, "repeats": args.repeats}
    for mode in args.modes.split(","):
        result[mode] = {"first_runs": first_runs(mode, commands),
                        "dd_deals_per_s": dd_speed(mode, args.speed_deals, args.repeats)}
    if "open" in result and "plain" in result:
        result["plain_compile_adds_s"] = {
            name: round(result["plain"]["first_runs"][name]["cold_s"]
                        - result["open"]["first_runs"][name]["cold_s"], 1)
            for name in commands}
        result["plain_speed_ratio"] = round(
            result["plain"]["dd_deals_per_s"] / result["open"]["dd_deals_per_s"], 3)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
