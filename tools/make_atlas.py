"""Build the realistic atlas of a preset (`advice.atlas`; built by `advice.atlas_build`), the
package data behind instant answers at a table of people.

Runs of the same deals, each resumable (`simulate --resume`: rerun the same command after an
interruption and it goes on): the human bidder with the learned player, and the same with
double-dummy play (the human bidder's auction does not depend on the play, so both reach the
same decisions); each writes the decisions table, and a second run of each the forced table
(round 2 after the round-1 caller's own pass forced: the round-2 questions of a player who
passed what the table's bidder would have called, a few calls a deal, so a quick run of its
own). Then the classes reached at least --min-n times in both tables together are kept, with
each call's double-dummy points beside, and written to euchre_sim/data/atlas_PRESET.parquet with
their provenance (the commands, seed, deals, the net's and the bidder's digests, the rules) in
the file's metadata (built into WORK/atlas/; `--install` then copies the finished files into the
package and its manifest, so that a trial run or a failed step never replaces the shipped ones).
Beside it: chart_PRESET.parquet, the strategy chart's cells pooled over every class of the
learned run (`euchre-sim chart atlas`), and odds_PRESET.parquet, the chance of winning the game
from every score under the same bidder and play (`euchre-sim odds`, ODDS_DEALS deals of the same
seed), for the chart at a score.

A pooled level's entry holds the deals of the classes no level before answers; its standard
errors widen by the spread of class means within a pool (`advice.atlas_build.pool_spread`),
estimated from those classes of the same runs.

Usage: python tools/make_atlas.py --preset standard [--deals 10000000] [--seed 2026]
       [--work DIR] [--workers W] [--scheduler tcp://HOST:PORT|local] [--min-n 100]
       [--install]
Prints the atlas's size and coverage as JSON.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from euchre_sim import __version__  # noqa: E402
from euchre_sim.advice.atlas import (  # noqa: E402
    ATLAS_FOLDER,
    ATLAS_PRESETS,
    LEVEL_FILES,
    atlas_file,
)
from euchre_sim.advice.atlas_build import (  # noqa: E402
    MIN_N,
    build_levels,
    level_keys,
    level_min_n,
    write_table,
)
from euchre_sim.core.package_data import package_root, record, sha256_of  # noqa: E402
from euchre_sim.core.rules import preset  # noqa: E402
from euchre_sim.core.run_tables import table_schema  # noqa: E402
from euchre_sim.core.schema import read_table  # noqa: E402
from euchre_sim.game.odds import odds_frame  # noqa: E402
from euchre_sim.report.chart import chart_rows, pooled_cells  # noqa: E402

OUT_DIR = os.path.join(str(package_root()), ATLAS_FOLDER)
ODDS_DEALS = 200_000


RUNS = {"learned": ("learned", "decisions"), "dd": ("dd", "decisions"),
        "learned-forced": ("learned", "forced"), "dd-forced": ("dd", "forced")}


def simulate_args(name: str, run_name: str, deals: int, seed: int, out: str) -> list[str]:
    """The simulate command of one of the RUNS."""
    play, table = RUNS[run_name]
    return ["simulate", "--rules", name, "--bidding", "human", "--play", play, "--deals",
            str(deals), "--seed", str(seed), "--tables", table, "--out", out, "--resume"]


def read_runs(work: str) -> dict[str, pd.DataFrame]:
    """Each run's table (RUNS), by run."""
    return {run_name: read_table(os.path.join(work, run_name, f"{table}.parquet"),
                                 f"the {table} table", table_schema(table))
            for run_name, (_, table) in RUNS.items()}


def coverage(tables: list[pd.DataFrame], min_n: int) -> dict:
    """By round and seat, the share of the runs' decisions (reached turns, of the decisions
    and forced tables) that each level answers, a level with those before it: its class, else
    its pool, else its coarse pool, each counted over the turns no level before answers (as
    `build_levels` builds them) and reached at least as often as the level needs
    (`level_min_n`): what the atlas answers at once."""
    turn = ["round", "seat", "hand_key"]
    turns = pd.concat([t.drop_duplicates(turn) for t in tables])  # one row a turn reached
    turns = turns.groupby(turn, as_index=False).agg(
        {name: "sum" if name == "n" else "first" for name in turns.columns if name not in turn})
    if turns.empty:
        return {}
    answered = np.zeros(len(turns), dtype=bool)
    out: dict = {}
    for level, fewest in level_min_n(min_n).items():
        left = turns[~answered]
        n = left.groupby(level_keys(left, level))["n"].transform("sum")
        answered[~answered] = (n >= fewest).to_numpy()
        for (round_no, seat), part in turns.assign(answered=answered).groupby(["round", "seat"]):
            share = float(part.loc[part["answered"], "n"].sum() / part["n"].sum())
            out.setdefault(f"round_{round_no}", {}).setdefault(f"seat_{seat}", {})[level] = share
    return out


def run(args: list[str], extra: list[str]) -> None:
    """One step (a euchre-sim command; what it prints goes to standard error, so that standard
    output holds the build's JSON alone); a failed one ends the build with its status and one
    line, nothing installed."""
    step = [sys.executable, "-m", "euchre_sim.cli", *args, *extra]
    status = subprocess.run(step, stdout=sys.stderr).returncode
    if status:
        sys.exit(f"make_atlas: the step 'euchre-sim {' '.join(args)}' failed (exit status "
                 f"{status}); nothing was installed; rerun the same command to resume")


def write_files(preset_name: str, files: dict, folder: str, install: bool) -> dict:
    """Data files ({kind: (frame, provenance)}) written into `folder`, then with `install`
    copied into the package and recorded in its manifest: their sizes and digests."""
    os.makedirs(folder, exist_ok=True)
    names = [atlas_file(preset_name, kind) for kind in files]
    for name, (frame, facts_of) in zip(names, files.values(), strict=True):
        write_table(frame, os.path.join(folder, name), facts_of)
    if install:
        for name in names:
            shutil.copyfile(os.path.join(folder, name), os.path.join(OUT_DIR, name))
        record([os.path.join(OUT_DIR, name) for name in names])
    where = f"euchre_sim/{ATLAS_FOLDER}" if install else folder
    return {f"{where}/{name}": {"bytes": os.path.getsize(os.path.join(folder, name)),
                                "sha256": sha256_of(Path(folder) / name)} for name in names}


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
    parser.add_argument("--install", action="store_true",
                        help="copy the finished files into the package (default: only into "
                             "WORK/atlas)")
    args = parser.parse_args()
    work = args.work or os.path.join("atlas-runs", args.preset)
    extra = (["--workers", str(args.workers)] if args.workers is not None else []) + (
        ["--scheduler", args.scheduler] if args.scheduler else [])
    commands = {}
    for run_name in RUNS:
        out = os.path.join(work, run_name)
        commands[run_name] = simulate_args(args.preset, run_name, args.deals, args.seed, out)
        run(commands[run_name], extra)
    tables = read_runs(work)
    learned, exact = (pd.concat([tables[play], tables[f"{play}-forced"]], ignore_index=True)
                      for play in ("learned", "dd"))
    spread = {"deals": args.deals, "seed": args.seed,
              "command": "python tools/make_atlas.py " + " ".join(sys.argv[1:])}
    built = os.path.join(work, "atlas")
    odds_out = os.path.join(work, "odds")
    commands["odds"] = ["odds", "--rules", args.preset, "--bidding", "human", "--play",
                        "learned", "--deals", str(ODDS_DEALS), "--seed", str(args.seed),
                        "--out", odds_out, "--resume", "--no-progress"]
    run(commands["odds"], extra[:2])  # odds takes --workers, not a cluster
    rules = preset(args.preset)
    levels = build_levels(learned, exact, rules, args.min_n)
    with open(os.path.join(work, "learned", "run.json"), encoding="utf-8") as handle:
        info = json.load(handle)
    covered = coverage([tables["learned"], tables["learned-forced"]], args.min_n)
    provenance = {
        "preset": args.preset, "rules": rules.options(), "deals": args.deals, "seed": args.seed,
        "min_n": level_min_n(args.min_n), "card_net": info.get("card_net"),
        "card_net_general": info.get("card_net_general"),
        "bidder_params": info.get("bidder_params"), "version": __version__,
        "command": spread["command"],
        "runs": {play: "euchre-sim " + " ".join(c) for play, c in commands.items()},
        "rows_in_runs": int(len(learned)),
        "rows": {level: int(len(rows)) for level, rows in levels.items()},
        "decisions_covered": covered, "spread": spread}
    facts = {key: info[key] for key in ("bidding", "play", "deals", "seed", "rules")}
    # the chart: the hands each seat holds when the table's bidder bids them (no forced pass)
    cells = pooled_cells(chart_rows(tables["learned"], rules.max_hand_points,
                                    not rules.yooker))
    files = {LEVEL_FILES[level]: (rows, provenance) for level, rows in levels.items()}
    files |= {"chart": (cells, provenance | facts),
             "odds": (odds_frame(os.path.join(odds_out, "odds.parquet")),
                      provenance | {"odds_deals": ODDS_DEALS})}
    print(json.dumps(provenance | {"files": write_files(args.preset, files, built,
                                                         args.install)}, indent=1))


if __name__ == "__main__":
    main()
