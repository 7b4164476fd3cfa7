"""Does the realistic atlas agree with a fresh simulation of the same hand? (issue 42; a study,
not a timed test.)

Questions are drawn as they are dealt: deal i of STUDY_SEED or --seed (never the atlas's seed), a
position 1-4 and a round at random, the hand at that position and the upcard (round 1) or the
same card turned down (round 2). The first QUESTIONS the shipped atlas covers are answered
twice: from the atlas, and by `advise` simulating DEALS fresh deals of that very hand (same
bidder and play, `atlas` off, its own seed). For every action both means are compared:
z = (atlas - simulation) / sqrt(se_atlas^2 + se_simulation^2). Under agreement |z| <= 1.96 for
about 95 % of the actions and z is centred on 0 with spread 1. Prints JSON: coverage (the share
of questions drawn that the atlas covers), the share of actions within their 95 % interval,
the mean and standard deviation of z, the same for the double-dummy column, the coverage and
the agreement by level, round and seat, and the atlas answer's median time in this process
against the simulation's.

With --scores (e.g. 8-9,4-4,9-6) each question is asked at one of the scores in turn, and each
action's chance of winning the game is compared too (z of p_win), the simulation reading the
same odds as the atlas (those shipped beside it), so that only the hand's results differ.

    .venv/bin/python studies/atlas_agreement.py [--preset standard] [--questions 200]
        [--scores 8-9,4-4] [--records R.jsonl [--resume]]
    .venv/bin/python studies/atlas_agreement.py --summarize R.jsonl [R2.jsonl ...]  # pooled
    .venv/bin/python studies/atlas_agreement.py --coverage-only 4000  # no simulation
    .venv/bin/python studies/atlas_agreement.py --rescore R.jsonl [--preset P] [--scores S]
        [--records OUT.jsonl]

--rescore asks a records file's questions of today's atlas again and compares the answers with
the fresh simulations recorded there: a change to how the atlas is built, measured without
simulating again (the same --preset as the study that wrote it; --scores to read the odds).
"""

import argparse
import gzip
import json
import os
import random
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre_sim.advice.atlas import (  # noqa: E402
    LEVEL_FILES,
    atlas_answer,
    atlas_preset,
    shipped_file,
)
from euchre_sim.advice.auction_advice import advise_in_auction  # noqa: E402
from euchre_sim.advice.question import AdviceQuestion  # noqa: E402
from euchre_sim.core.dealing import deal_one  # noqa: E402
from euchre_sim.core.rules import preset  # noqa: E402
from euchre_sim.core.seats import seat_at  # noqa: E402

STUDY_SEED = 4242
DEALS = int(os.environ.get("STUDY_DEALS", "20000"))


def questions(rules, rng: random.Random, seed: int = STUDY_SEED):
    """Questions as dealt: (hand, position, round, card) from deal i of `seed`."""
    deck = rules.card_deck
    for index in range(10**6):
        hands, upcard = deal_one(rules, seed, index, 0)
        position, round_no = rng.randint(1, 4), rng.choice((1, 2))
        yield (deck.format_hand(hands[seat_at(0, position)]), position, round_no,
               deck.card_name(upcard))


def ask(rules, hand: str, position: int, round_no: int, card: str, score=None, odds_dir=None,
        **simulated) -> AdviceQuestion:
    """The question of a hand at a position with the upcard (round 1) or the same card turned
    down (round 2), at `score` (reading the odds in `odds_dir`) where one is given;
    `simulated`: deals and seed for a fresh simulation."""
    ref = {"up": card} if round_no == 1 else {"turned_down": card}
    at = {"score": score, "odds": odds_dir} if score else {}
    return AdviceQuestion(rules, hand, position, **ref, **at, **simulated)


def shipped_odds_folder(rules) -> str:
    """A folder holding the odds shipped beside the preset's atlas as odds.parquet (what
    `--odds DIR` reads), for the simulation to read the atlas's odds."""
    folder = tempfile.mkdtemp(prefix="atlas-odds-")
    with shipped_file(atlas_preset(rules), "odds") as path:
        with open(path, "rb") as source, open(os.path.join(folder, "odds.parquet"),
                                               "wb") as copy:
            copy.write(source.read())
    return folder


def z_scores(atlas: dict, fresh: dict, column: str, se: str, log=None,
             floor: float = 3.0) -> list[float]:
    """z of each action's figure, atlas against simulation. An atlas figure whose deals all
    scored the same (standard error 0: a call always euchred, say) gets the standard error of
    one deal in n scoring otherwise, (range / 2) / sqrt(n): an estimate of 0 is not a proof
    (`floor`: half the range, 3 points; a chance's, 0.5)."""
    fresh_by = {(a["action"], a["suit"], a["alone"]): a for a in fresh["actions"]}
    out = []
    for a in atlas["actions"]:
        if a.get(column) is None:
            continue
        b = fresh_by[(a["action"], a["suit"], a["alone"])]
        spread = float(np.hypot(a[se] if a[se] > 0 else floor / np.sqrt(a["n"]), b[se]))
        out.append((a[column] - b[column]) / spread)
        if log is not None:
            log.append({"level": atlas["atlas"]["level"], "round": atlas["round"],
                        "action": a["action"], "alone": a["alone"], "column": column,
                        "suit": a["suit"], "atlas": a[column], "atlas_se": a[se],
                        "n": a["n"],
                        "fresh": b[column], "fresh_se": b[se], "z": out[-1]})
    return out


def summary(z: list[float], questions: list[int] | None = None) -> dict:
    """Share within the 95 % interval, mean and sd of z; with each z's question, the share's
    95 % interval from a bootstrap of questions (a question's actions are correlated, so
    resampling actions would understate it)."""
    z = np.array(z)
    within = np.abs(z) <= 1.96
    out = {"actions": len(z), "within_95": float(within.mean()),
           "z_mean": float(z.mean()), "z_sd": float(z.std(ddof=1)) if len(z) > 1 else None}
    if questions is not None and len(z) > 1:
        out["questions"] = len(set(questions))
        out["within_95_interval"] = question_bootstrap(within, np.array(questions))
    return out


def question_bootstrap(within: np.ndarray, questions: np.ndarray, draws: int = 2000,
                       seed: int = 1) -> list[float]:
    """The 2.5 and 97.5 percentiles of the share within, the questions drawn with
    replacement."""
    ids, index = np.unique(questions, return_inverse=True)
    hits = np.bincount(index, weights=within, minlength=len(ids))
    counts = np.bincount(index, minlength=len(ids))
    picks = np.random.default_rng(seed).integers(0, len(ids), size=(draws, len(ids)))
    shares = hits[picks].sum(axis=1) / counts[picks].sum(axis=1)
    return [round(float(v), 4) for v in np.percentile(shares, [2.5, 97.5])]


def read_records(path: str) -> list[dict]:
    """A records file's rows (JSON lines; gzipped where its name ends in .gz, as the
    records kept in studies/records/ are)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def summarize(*paths: str) -> dict:
    """The agreement of one or more records files (`--records`, finished or interrupted
    studies; several pool their draws, each question its own): by figure, and for the mean
    points by level, round and seat together, by round and seat, and by each alone, with the
    cells short of the issue's bar (`BAR`) named, each cell's chance of being short by chance
    alone (`chance_short`) and how many of the level, round and seat cells chance alone would
    leave short; a hand passed out (`redeal`) is counted, not compared."""
    by: dict = {}
    crossed: set = set()  # the cells of a level, round and seat together
    passed_out = 0
    for number, path in enumerate(paths):
        for row in read_records(path):
            if redeal(row):
                passed_out += 1
                continue
            keys = [row["column"]]
            if row["column"] == "mean_points":
                level, where = row["level"], f"round {row['round']} seat {row['seat']}"
                keys += [f"{level} {where}", where, level, f"round {row['round']}",
                         f"seat {row['seat']}"]
                crossed.add(keys[1])
            for key in keys:
                z, questions = by.setdefault(key, ([], []))
                z.append(row["z"])
                questions.append(number * 10**6 + row["question"])
    cells = {key: summary(z, questions) for key, (z, questions) in sorted(by.items())}
    short = [key for key, cell in cells.items() if not meets_bar(cell)]
    split = {key: by_question(*found) for key, found in by.items()}
    for key, cell in cells.items():
        if key not in COLUMNS:  # a cell of the mean points: its round's, else all of them
            reference = next((r for r in ("round 1", "round 2") if r in key), "mean_points")
            cell["chance_short"] = chance_short(len(split[key]), split[reference])
    return {"questions": len({q for _, questions in by.values() for q in questions}),
            "passed_out_not_compared": passed_out, **cells, "short_of_bar": short,
            "level_round_seat_cells": {
                "cells": len(crossed), "short": sum(key in short for key in crossed),
                "short_by_chance": round(sum(cells[key]["chance_short"] for key in crossed),
                                         1)}}


COLUMNS = ("mean_points", "dd_mean_points", "p_win")
# what a record says of its question besides its number (`append_question`): enough to ask it
ABOUT = ("seat", "hand", "position", "card", "score")


def by_question(z: list[float], questions: list[int]) -> list[np.ndarray]:
    """A cell's z's split by question (a question's actions move together)."""
    order = np.argsort(questions, kind="stable")
    _, starts = np.unique(np.array(questions)[order], return_index=True)
    return np.split(np.array(z)[order], starts[1:])


def chance_short(k: int, reference: list[np.ndarray], draws: int = 1000,
                 seed: int = 1) -> float:
    """How often k questions drawn at random from `reference` (each question's z's: a cell
    that agrees as its round does) miss `BAR`: the chance that a cell of k questions is short
    by chance alone."""
    rng = np.random.default_rng(seed)
    misses = 0
    for _ in range(draws):
        z = np.concatenate([reference[i] for i in rng.integers(0, len(reference), k)])
        misses += not meets_bar(summary(z))
    return misses / draws


def redeal(row: dict) -> bool:
    """Is a record the dealer's pass in round 2 where the dealer may pass: the hand is passed
    out and redealt, its figure (0 points; the chance of winning at the same score) fixed by
    the rules in the atlas and the simulation alike? There is no estimate to compare, so it is
    left out of the agreement, where its z of 0 would narrow the sd."""
    return (row["action"] == "pass" and row["round"] == 2 and row["seat"] == 4
            and abs(row["atlas"] - row["fresh"]) < 1e-9
            and max(row["atlas_se"], row["fresh_se"]) < 1e-9)


# issue 55's bar for each cell: share within the 95 % interval, |mean z|, sd of z
BAR = {"within_95": 0.94, "z_mean": 0.15, "z_sd": (0.85, 1.15)}


def meets_bar(cell: dict) -> bool:
    """Does a cell's agreement (`summary`) meet `BAR`?"""
    low, high = BAR["z_sd"]
    return (cell["within_95"] >= BAR["within_95"] and abs(cell["z_mean"]) <= BAR["z_mean"]
            and cell["z_sd"] is not None and low <= cell["z_sd"] <= high)


def rescore(rules, path: str, odds_dir, keep: str | None = None) -> dict:
    """The agreement of today's atlas with the fresh simulations of a records file: each
    recorded question (its hand, position, card and score are in its records) answered from
    the atlas again and each action's figure compared with the recorded simulation's; a
    question today's atlas does not cover is counted, not compared. `keep`: write the new
    comparisons there (records to pool with `--summarize`), else to a temporary file."""
    recorded: dict = {}
    for row in read_records(path):
        recorded.setdefault(row["question"], []).append(row)
    rows: list = []
    uncovered = 0
    for number, before in recorded.items():
        q = before[0]
        answer = atlas_answer(ask(rules, q["hand"], q["position"], q["round"], q["card"],
                                  q.get("score"), odds_dir))
        if answer is None:
            uncovered += 1
            continue
        for column, se, floor in (("mean_points", "points_se", 3.0),
                                  ("dd_mean_points", "dd_points_se", 3.0),
                                  ("p_win", "p_win_se", 0.5)):
            fresh = {"actions": [{"action": r["action"], "suit": r["suit"], "alone": r["alone"],
                                  column: r["fresh"], se: r["fresh_se"]}
                                 for r in before if r["column"] == column]}
            if fresh["actions"]:
                log: list = []
                z_scores(answer, fresh, column, se, log, floor)
                rows += [entry | {"question": number} | {key: q.get(key) for key in ABOUT}
                         for entry in log]
    with (open(keep, "w", encoding="utf-8") if keep else
          tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)) as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)
    try:
        return {"uncovered": uncovered, **summarize(out.name)}
    finally:
        if not keep:
            os.unlink(out.name)


def coverage_only(rules, drawn: int) -> dict:
    """The share of `drawn` questions (drawn as the study draws them) that the atlas answers,
    by round and seat, and of those by the level that answers."""
    rng = random.Random(STUDY_SEED)
    found: dict = {}
    for (hand, position, round_no, card), _ in zip(questions(rules, rng), range(drawn),
                                                   strict=False):
        answer = atlas_answer(ask(rules, hand, position, round_no, card))
        level = answer["atlas"]["level"] if answer else None
        found.setdefault(f"round {round_no} seat {position}", []).append(level)
    return {"drawn": drawn, **{key: {"drawn": len(levels),
                                     "covered": float(np.mean([x is not None for x in levels])),
                                     **{level: levels.count(level) / len(levels)
                                        for level in LEVEL_FILES}}
                                for key, levels in sorted(found.items())}}


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--summarize":
        print(json.dumps(summarize(*sys.argv[2:]), indent=1))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=STUDY_SEED,
                        help="the questions' deals and draw (a fresh set of questions: another "
                        "seed than the one a change was measured on)")
    parser.add_argument("--records", help="append every comparison here (JSON lines), each "
                        "question's as it is answered (default: a temporary file); with "
                        "--rescore, write the new comparisons here")
    parser.add_argument("--resume", action="store_true",
                        help="go on with --records: the questions it holds whole are not asked "
                        "again (the same --preset, --seed, --questions and --scores)")
    parser.add_argument("--scores", help="ask each question at one of these scores in turn "
                        "(US-THEM,...), comparing the chances of winning the game too")
    parser.add_argument("--rescore", metavar="RECORDS",
                        help="a records file's questions asked of today's atlas again, compared "
                        "with its simulations (no simulation)")
    parser.add_argument("--coverage-only", type=int, metavar="DRAWN",
                        help="only the coverage of DRAWN questions, by round, seat and level "
                        "(no simulation)")
    args = parser.parse_args()
    rules = preset(args.preset)
    if args.coverage_only:
        print(json.dumps(coverage_only(rules, args.coverage_only), indent=1))
        return
    scores = args.scores.split(",") if args.scores else [None]
    odds_dir = shipped_odds_folder(rules) if args.scores else None
    if args.rescore:
        print(json.dumps(rescore(rules, args.rescore, odds_dir, args.records), indent=1))
        return
    records = args.records or os.path.join(tempfile.mkdtemp(prefix="agreement-"),
                                           "records.jsonl")
    done = complete_questions(records) if args.resume else set()
    if not args.resume and os.path.exists(records) and os.path.getsize(records):
        parser.error(f"{records} holds records already: --resume to go on with them")
    rng = random.Random(args.seed)
    drawn, covered, atlas_s, fresh_s = 0, 0, [], []
    asked: dict = {}
    for hand, position, round_no, card in questions(rules, rng, args.seed):
        if covered == args.questions:
            break
        drawn += 1
        score = scores[covered % len(scores)]
        question = ask(rules, hand, position, round_no, card, score, odds_dir)
        started = time.perf_counter()
        answer = atlas_answer(question)
        atlas_s.append(time.perf_counter() - started)
        asked.setdefault((round_no, position), []).append(answer is not None)
        if answer is None:
            continue
        covered += 1
        if covered in done:
            continue
        fresh_question = ask(rules, hand, position, round_no, card, score, odds_dir,
                             deals=DEALS, seed=covered)
        started = time.perf_counter()
        fresh = advise_in_auction(fresh_question, workers=args.workers)
        fresh_s.append(time.perf_counter() - started)
        found: list = []
        z_scores(answer, fresh, "mean_points", "points_se", found)
        z_scores(answer, fresh, "dd_mean_points", "dd_points_se", found)
        if score:
            z_scores(answer, fresh, "p_win", "p_win_se", found, floor=0.5)
        append_question(records, found, {"question": covered, "seat": position, "hand": hand,
                                         "position": position, "card": card, "score": score})
        print(f"{covered}/{args.questions}", file=sys.stderr, flush=True)
    print(json.dumps({
        "preset": args.preset, "seed": args.seed, "questions": covered, "drawn": drawn,
        "coverage": covered / drawn, "fresh_deals": DEALS, "records": records,
        **summarize(records),
        "coverage_by_round_and_seat": {f"round {r} seat {seat}": {
            "drawn": len(found), "covered": float(np.mean(found))}
            for (r, seat), found in sorted(asked.items())},
        **({"scores": scores} if args.scores else {}),
        "atlas_lookup_median_s": statistics.median(atlas_s),
        "simulation_median_s": statistics.median(fresh_s) if fresh_s else None}, indent=1))


def append_question(path: str, found: list, about: dict) -> None:
    """A question's comparisons appended to the records in one write, each line naming how
    many lines the question has (`of`), so that a resume can tell a question cut short."""
    lines = "".join(json.dumps(row | about | {"of": len(found)}) + "\n" for row in found)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(lines)
        handle.flush()
        os.fsync(handle.fileno())


def complete_questions(path: str) -> set[int]:
    """The questions a records file holds whole; a question cut short by an interrupted write
    (or a broken line) is dropped from the file, to be asked again."""
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    rows: dict = {}  # question -> (the count its lines name, its lines)
    for line in text.split("\n"):
        try:
            row = json.loads(line)
        except ValueError:
            continue
        rows.setdefault(row["question"], (row.get("of"), []))[1].append(line)
    whole = {q: lines for q, (of, lines) in rows.items() if of in (None, len(lines))}
    kept = "".join(line + "\n" for q in sorted(whole) for line in whole[q])
    if kept != text:
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            handle.write(kept)
        os.replace(path + ".tmp", path)
    return set(whole)


if __name__ == "__main__":
    main()
