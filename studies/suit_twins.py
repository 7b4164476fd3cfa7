"""How far a hand strays from its class: each question of an agreement records file
(`atlas_agreement.py --records`) asked again of the hand's suit-swapped twin (a study, not a
timed test).

A class of the atlas merges suit-swapped twins (`core.handclass`), and the learned player does
not play twins quite alike (`suit_symmetry.py`), so a class's figure is the mean over its twins
and a question's own hand sits a little away from it. Each question's twin (the two suits of
`suit_symmetry.swapped_suits` swapped) is simulated afresh as the records' hand was (the same
bidder and play, `atlas_agreement.DEALS` deals, its own seed), and each action's points are
compared with the recorded hand's: d = twin − hand. The variance of a hand about its class's
mean, as a share of the variance of its deals, is the twin ratio
c = Σ (d² − se_twin² − se_hand²) / 2 / Σ s², s² the hand's deals' variance (two twins drawn
at random differ by twice the variance of one about the mean), by round and kind of action
(pass, a call, a lone call): what `advice.atlas.TWIN_RATIOS` keeps. Questions whose twin is
the hand itself are left out; the comparisons are appended to --records as each question is
simulated, and a rerun goes on from them.

    .venv/bin/python studies/suit_twins.py studies/records/standard-6161.jsonl.gz \
        --preset standard --questions 300 --records twins.jsonl

Prints JSON: by round and kind, the actions compared, the share whose twin differs beyond its
95 % interval (5 % where twins play alike), and c. `--summarize FILE [FILE ...]`: the same of
--records files, pooled.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from atlas_agreement import DEALS, ask, read_records  # noqa: E402
from suit_symmetry import renamed, swapped_suits  # noqa: E402

from euchre_sim.advice.atlas import action_kind  # noqa: E402
from euchre_sim.advice.auction_advice import advise_in_auction  # noqa: E402
from euchre_sim.core.rules import preset  # noqa: E402

TWIN_SEED = 500_000  # a twin's simulation seed: this plus the question's number


def recorded_questions(path: str) -> dict:
    """A records file's questions: (number, hand, position, round, card) -> the rows of
    their points."""
    found: dict = {}
    for row in read_records(path):
        if row["column"] == "mean_points":
            key = (row["question"], row["hand"], row["position"], row["round"], row["card"])
            found.setdefault(key, []).append(row)
    return found


def twin_of(rules, hand: str, card: str) -> tuple[str, list[int]] | None:
    """A hand's twin (the text) and the suit renaming, or None where it is the hand itself."""
    deck = rules.card_deck
    a, b = swapped_suits(rules, deck.parse_card(card))
    names = list(range(8))  # `renamed` reads a suit from each card's top bits
    names[a], names[b] = b, a
    mask = deck.parse_hand(hand)
    twin = renamed(mask, names)
    return None if twin == mask else (deck.format_hand(twin), names)


def compare(rules, question: tuple, rows: list[dict], workers: int) -> list[dict] | None:
    """The question's actions, hand against twin (None where the twin is the hand)."""
    number, hand, position, round_no, card = question
    found = twin_of(rules, hand, card)
    if found is None:
        return None
    twin_hand, names = found
    deck = rules.card_deck
    fresh = advise_in_auction(ask(rules, twin_hand, position, round_no, card, deals=DEALS,
                                  seed=TWIN_SEED + number), workers=workers)
    suit_names = {None: None} | {deck.suit_name(s): deck.suit_name(names[s]) for s in range(4)}
    by = {(a["action"], a["suit"], a["alone"]): a for a in fresh["actions"]}
    out = []
    for row in rows:
        twin = by[(row["action"], suit_names[row["suit"]], row["alone"])]
        out.append({"question": number, "round": round_no, "seat": position, "hand": hand,
                    "twin_hand": twin_hand, "card": card,
                    "kind": action_kind(row["action"], row["alone"]),
                    "hand_points": row["fresh"], "hand_se": row["fresh_se"],
                    "twin_points": twin["mean_points"], "twin_se": twin["points_se"]})
    return out


def measured_ratio(rows: list[dict]) -> dict:
    """The comparisons' share beyond their 95 % interval and the twin ratio c."""
    d = np.array([r["twin_points"] - r["hand_points"] for r in rows])
    se2 = np.array([r["twin_se"] ** 2 + r["hand_se"] ** 2 for r in rows])
    deals_var = np.array([r["hand_se"] ** 2 * DEALS for r in rows])
    apart = np.abs(d) > 1.96 * np.sqrt(se2)
    return {"actions": len(rows), "beyond_95": float(np.mean(apart)),
            "c": max(float(np.sum(d ** 2 - se2) / 2 / np.sum(deals_var)), 0.0)}


def ratios(rows: list[dict]) -> dict:
    """`measured_ratio` of all the comparisons and of each round and kind of action."""
    groups: dict = {"all": rows}
    for r in rows:
        groups.setdefault(f"round {r['round']} {r['kind']}", []).append(r)
    return {name: measured_ratio(found) for name, found in sorted(groups.items())}


def read_comparisons(path: str) -> dict:
    """A --records file's comparisons by question (none where it does not exist yet)."""
    found: dict = {}
    for row in read_records(path) if os.path.exists(path) else []:
        found.setdefault(row["question"], []).append(row)
    return found


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--summarize":
        rows = [r for path in sys.argv[2:] for found in read_comparisons(path).values()
                for r in found]
        print(json.dumps({"records": sys.argv[2:], **ratios(rows)}, indent=1))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records_file")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--records", required=True,
                        help="append each question's comparisons here (JSON lines); a rerun "
                        "goes on from them")
    args = parser.parse_args()
    rules = preset(args.preset)
    done = read_comparisons(args.records)
    compared = 0
    for question, rows in recorded_questions(args.records_file).items():
        if compared == args.questions:
            break
        if question[0] in done:
            compared += 1
            continue
        found = compare(rules, question, rows, args.workers)
        if found is None:
            continue
        with open(args.records, "a", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(r) + "\n" for r in found))
        done[question[0]] = found
        compared += 1
        print(f"{compared}/{args.questions}", file=sys.stderr, flush=True)
    print(json.dumps({"preset": args.preset, "records_file": args.records_file,
                      "questions": len(done),
                      **ratios([r for found in done.values() for r in found])}, indent=1))


if __name__ == "__main__":
    main()
