"""Build the realistic atlas of a preset (`advice.atlas`), the package data behind instant
answers at a table of people.

Two runs of the same deals, each resumable (`simulate --resume`: rerun the same command after
an interruption and it goes on): the human bidder with the learned player, and the same with
double-dummy play (the human bidder's auction does not depend on the play, so both reach the
same decisions). Then the classes reached at least --min-n times are kept, with each call's
double-dummy points beside, and written to euchre_sim/data/atlas_PRESET.parquet with their
provenance (the commands, seed, deals, the net's and the bidder's digests, the rules) in the
file's metadata.

Usage: python tools/make_atlas.py --preset standard [--deals 10000000] [--seed 2026]
       [--work DIR] [--workers W] [--scheduler tcp://HOST:PORT|local] [--min-n 100]
Prints the atlas's size and coverage as JSON.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import pandas as pd  # noqa: E402

from euchre_sim import __version__  # noqa: E402
from euchre_sim.advice.atlas import ATLAS_PRESETS, MIN_N, atlas_file, build_atlas, write_atlas  # noqa: E402
from euchre_sim.core.rules import preset  # noqa: E402

OUT_DIR = os.path.join(ROOT, "euchre_sim", "data")


def simulate_args(name: str, play: str, deals: int, seed: int, out: str) -> list[str]:
    return ["simulate", "--rules", name, "--bidding", "human", "--play", play, "--deals",
            str(deals), "--seed", str(seed), "--tables", "decisions", "--out", out, "--resume"]


def run(args: list[str], extra: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "euchre_sim.cli", *args, *extra], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=ATLAS_PRESETS, required=True)
    parser.add_argument("--deals", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--min-n", type=int, default=MIN_N)
    parser.add_argument("--work", default=None, help="folder of the two runs (default: "
                        "atlas-runs/PRESET under the current folder)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--scheduler", default=None)
    args = parser.parse_args()
    work = args.work or os.path.join("atlas-runs", args.preset)
    extra = (["--workers", str(args.workers)] if args.workers else []) + (
        ["--scheduler", args.scheduler] if args.scheduler else [])
    commands = {}
    for play in ("learned", "dd"):
        out = os.path.join(work, play)
        commands[play] = simulate_args(args.preset, play, args.deals, args.seed, out)
        run(commands[play], extra)
    learned = pd.read_parquet(os.path.join(work, "learned", "decisions.parquet"))
    exact = pd.read_parquet(os.path.join(work, "dd", "decisions.parquet"))
    rules = preset(args.preset)
    rows = build_atlas(learned, exact, rules, args.min_n)
    with open(os.path.join(work, "learned", "run.json"), encoding="utf-8") as handle:
        info = json.load(handle)
    passes = learned[learned["action"] == "pass"]
    covered = passes[passes["n"] >= args.min_n]["n"].sum() / passes["n"].sum()
    provenance = {
        "preset": args.preset, "rules": rules.options(), "deals": args.deals, "seed": args.seed,
        "min_n": args.min_n, "card_net": info.get("card_net"),
        "bidder_params": info.get("bidder_params"), "version": __version__,
        "command": "python tools/make_atlas.py " + " ".join(sys.argv[1:]),
        "runs": {play: "euchre-sim " + " ".join(c) for play, c in commands.items()},
        "classes_in_runs": int(len(learned)), "rows": int(len(rows)),
        "decisions_covered": float(covered)}
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, atlas_file(args.preset))
    write_atlas(rows, path, provenance)
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    print(json.dumps(provenance | {"path": os.path.relpath(path, ROOT),
                                   "bytes": os.path.getsize(path), "sha256": digest}, indent=1))


if __name__ == "__main__":
    main()
