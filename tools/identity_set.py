"""The identity set: a fixed list of commands whose results a change of the code's shape must
leave bit for bit the same. Each command runs in a fresh process of this checkout (or of
--tree); its result is reduced to a sha256: a run folder's Parquet tables read as data (not
as files, whose metadata carries the writer's version), a JSON answer with its timings and
version fields removed, and any other output as text.

    .venv/bin/python tools/identity_set.py > after.json
    .venv/bin/python tools/identity_set.py --tree /tmp/before > before.json
    diff before.json after.json

Prints JSON: {command name: sha256}.
"""

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAND = ["--hand", "JS AS 9H 9D TC", "--up", "9S"]
DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
EGN = os.path.join(ROOT, "tests", "data", "egn", "Hand of the day.egn")
VOLATILE = {"elapsed_seconds", "seconds", "version", "commit", "started", "finished",
            "deals_per_second", "workers", "created", "sha256", "code_sha256"}  # sha256: of
# files whose bytes carry the writer's metadata (the tables themselves are compared as data);
# code_sha256: of the code itself, which a change of shape changes by definition
COMMANDS = {  # name: arguments; "{out}" is a fresh folder whose tables are the result
    "simulate_dd": ["simulate", "--deals", "3000", "--seed", "1", "--out", "{out}"],
    "simulate_learned_human": ["simulate", "--deals", "1500", "--seed", "2", "--play",
                               "learned", "--bidding", "human", "--out", "{out}"],
    "simulate_pimc_rules": ["simulate", "--deals", "60", "--seed", "3", "--play", "pimc",
                            "--bidding", "rules", "--worlds", "8", "--out", "{out}"],
    "simulate_yooker_learned": ["simulate", "--rules", "yooker", "--deals", "800", "--seed", "4",
                                "--play", "learned", "--bidding", "human", "--out", "{out}"],
    "simulate_benny_notrump_learned": ["simulate", "--set", "joker=true", "--set",
                                       "no_trump=true", "--deals", "800", "--seed", "5",
                                       "--play", "learned", "--bidding", "human",
                                       "--out", "{out}"],
    "simulate_deck32_conventional": ["simulate", "--set", "deck=32", "--deals", "800",
                                     "--seed", "6", "--play", "rules", "--bidding", "rules",
                                     "--out", "{out}"],
    "advise_learned": ["advise", *HAND, "--seat", "1", "--deals", "2000", "--seed", "1",
                       "--json"],
    "advise_round2_seat3": ["advise", "--hand", "JS AS 9H 9D TC", "--turned-down", "9C",
                            "--seat", "3", "--deals", "2000", "--seed", "2", "--json"],
    "advise_pimc": ["advise", *HAND, "--seat", "2", "--play", "pimc", "--worlds", "8",
                    "--deals", "100", "--seed", "3", "--json"],
    "advise_score": ["advise", *HAND, "--seat", "1", "--deals", "1000", "--score", "8-9",
                     "--seed", "4", "--json"],
    "advise_atlas": ["advise", *HAND, "--seat", "1", "--json"],
    "advise_play_card": ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "3",
                         "--trump", "S", "--maker", "4", "--played", "AD KD", "--worlds", "12",
                         "--seed", "5", "--json"],
    "solve": ["solve", DEAL, "--dealer", "W", "--json"],
    "review_pimc": ["review", EGN, "--worlds", "6", "--seed", "6", "--json"],
    "tournament_learned_vs_rules": ["tournament", "--ns", "human", "--ew", "rules", "--ns-play",
                                    "learned", "--ew-play", "rules", "--games", "40", "--seed",
                                    "7", "--out", "{out}", "--json"],
    "tournament_pimc": ["tournament", "--ns", "human", "--ew", "human", "--ns-play", "pimc",
                        "--ew-play", "dd", "--worlds", "6", "--games", "6", "--seed", "8",
                        "--out", "{out}", "--json"],
    "play_games": ["play", "--games", "6", "--seed", "9", "--ns", "rules", "--ew", "dd",
                   "--output", "{out}/hands.jsonl"],
    "odds_dd": ["odds", "--deals", "2000", "--seed", "10", "--out", "{out}", "--json"],
}


def _without_volatile(value):
    """A JSON value with its timing and version fields removed, at any depth."""
    if isinstance(value, dict):
        return {k: _without_volatile(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_without_volatile(v) for v in value]
    return value


def _folder_digest(folder: str, digest) -> None:
    """Every table under `folder` read as data, and every other file but run.json as bytes."""
    import pandas as pd
    for path in sorted(glob.glob(os.path.join(folder, "**", "*"), recursive=True)):
        name = os.path.relpath(path, folder)
        if os.path.isdir(path) or name in ("run.json", ".lock") or "chunks" in name.split(os.sep):
            continue
        digest.update(name.encode())
        if path.endswith(".parquet"):
            frame = pd.read_parquet(path)
            digest.update(pd.util.hash_pandas_object(frame, index=False).values.tobytes())
            digest.update(",".join(map(str, frame.columns)).encode())
        elif path.endswith(".json"):
            with open(path, encoding="utf-8") as handle:
                value = _without_volatile(json.load(handle))
            digest.update(json.dumps(value, sort_keys=True).encode())
        else:
            with open(path, "rb") as handle:
                digest.update(handle.read())


def result_digest(arguments: list[str], tree: str) -> str:
    """The sha256 of one command's result, run in a fresh process of `tree`."""
    env = dict(os.environ, PYTHONPATH=tree)
    with tempfile.TemporaryDirectory(prefix="identity-") as scratch:
        out = os.path.join(scratch, "out")
        argv = [a.replace("{out}", out) for a in arguments]
        if "{out}/hands.jsonl" in arguments[-1]:
            os.makedirs(out)
        done = subprocess.run([sys.executable, "-m", "euchre_sim.cli", *argv], env=env,
                              cwd=tree, capture_output=True, text=True, timeout=3600)
        digest = hashlib.sha256(f"exit {done.returncode}\n".encode())
        text = done.stdout
        if "--json" in argv and done.returncode == 0:
            lines = [json.dumps(_without_volatile(json.loads(line)), sort_keys=True)
                     for line in text.splitlines() if line.strip()]
            text = "\n".join(lines)
        digest.update(text.encode())
        if os.path.isdir(out):
            _folder_digest(out, digest)
        if done.returncode != 0:
            sys.stderr.write(f"{arguments[0]}: exit {done.returncode}: {done.stderr[-400:]}\n")
        return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=ROOT, help="the checkout to run (default: this one)")
    parser.add_argument("--only", help="comma-separated command names")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(COMMANDS)
    print(json.dumps({name: result_digest(COMMANDS[name], os.path.abspath(args.tree))
                      for name in names}, indent=1))


if __name__ == "__main__":
    main()
