"""Is the learned card player (`--play learned`) as strong as PIMC, K = 50? (issue 41; a
strength study, not timed). Prints JSON; each part can run alone:

    python studies/learned_strength.py duplicate [--deals 20000] [--tested learned]
        [--yardstick pimc] [--bidder human] [--rules PRESET] [--set KEY=VALUE ...]
        [--alone-only] [--no-trump-only] [--every-no-trump-call]
    python studies/learned_strength.py review [--hands 1000] [--model learned]
    python studies/learned_strength.py people [--models learned,pimc]
    python studies/learned_strength.py pinned [--deals 2000] [--models learned,pimc]

duplicate: the bidder's contract of each of `--deals` random deals (dealer N; both sides bid
with the same bidder, so the auction does not depend on who plays) is played out twice, the
tested card player as NS against the yardstick as EW, then seats swapped; the tested side's
points per deal (NS minus EW, halved) with its 95 % interval. Each side's PIMC infers from
the auction under the bidder.

review: `studies/review_loss.py`'s 1,000-hand study (standard rules, the rules bidder at every seat,
seed 1) with the learned player (`--model`: or another) at all four seats: points lost a hand
against double dummy.

people: the real games in tests/data/egn (championship games in Euchre Game Notation) replayed;
at each card decision with more than one candidate (cards the seat can tell apart), does the
model pick the person's card (or one it cannot tell from it)? The learned player and PIMC
(K = 50, worlds from what was seen, no auction inference) side by side.

tables: two finished per-call runs of the same deals (`simulate --seed S --deals N --play
learned` and `--play pimc`): make, march and euchred rates pooled over every call by (round,
alone), and `compare`'s classes (summary table, n >= 30 in both): how many differ at |z| >= 2
against the 5 % that chance gives.

pinned: the pinned hand (JS AS 9H 9D TC, 9S up, seat 1) under `advise --bidding human`: the
order-up value under learned and PIMC play on the same deals.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys

import numpy as np

from euchre_sim.advice.advise import advise
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.advice.review import read_hands
from euchre_sim.bidding.auction import NO_WINS
from euchre_sim.core.calls import Contract, row_call
from euchre_sim.core.dealing import Deal, deal_batch, deal_key, seed_to_u64
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import NO_TRUMP, compile_rules
from euchre_sim.core.stats import interval95, mean_se
from euchre_sim.game.history import HandState
from euchre_sim.game.match import auction_row
from euchre_sim.game.model_strategy import state_arrays
from euchre_sim.play.models import DEFAULT_WORLDS, play_model
from euchre_sim.play.pimc import inference_of, new_pimc_work, option_candidates, option_of
from euchre_sim.play.player import Player
from euchre_sim.play.playout import PlayWork, choose_card, new_play_work, play_contract
from euchre_sim.solver.search import new_tt

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EGN_DIR = os.path.join(ROOT, "tests", "data", "egn")


def contracts(tb, record, hands, ups):
    """(deal index, round, position, trump, alone, defender position) of each deal's contract
    under `record`'s bidder at all four seats (dealer N); passed-out deals left out."""
    odds = np.zeros((1, 1, 2))
    out = []
    for i in range(hands.shape[0]):
        row, def_pos = auction_row((record, record), tb, Deal(hands[i], ups[i], 0), 0, 0, odds,
                                   NO_WINS)[:2]
        if row < 0:
            continue
        round_no, pos, trump, alone = (int(x) for x in row_call(row))
        out.append((i, round_no, pos, int(ups[i]) >> 3 if round_no == 1 else trump, alone,
                    int(def_pos)))
    return out


def lone_calls(hands, ups):
    """Every round-1 lone call of each deal (each seat orders the upcard up alone, nobody
    defends alone), as `contracts` lists them: the per-call table's lone rows."""
    return [(i, 1, pos, int(ups[i]) >> 3, 1, 0) for i in range(hands.shape[0])
            for pos in range(1, 5)]


def no_trump_calls(hands, ups):
    """Every round-2 no-trump call of each deal (each seat calls it with its partner, nobody
    defends alone), as `contracts` lists them."""
    return [(i, 2, pos, NO_TRUMP, 0, 0) for i in range(hands.shape[0]) for pos in range(1, 5)]


def duplicate(rules, tested: str, yardstick: str, bidder: str, deals: int, seed: int,
              alone_only: bool = False, every_lone_call: bool = False,
              no_trump_only: bool = False, every_no_trump_call: bool = False) -> dict:
    """The duplicate (module docstring); alone_only: only the lone contracts, each played a
    third time with the yardstick on both sides, so that the tested player's gain splits by
    role: making alone (against the yardstick's defence) and defending (against its lone
    player), each the makers' points against the yardstick's own game; every_lone_call: each
    deal's round-1 lone calls, all four seats, whatever the bidder would call; no_trump_only:
    only the no-trump contracts; every_no_trump_call: each deal's round-2 no-trump calls, all
    four seats, whatever the bidder would call."""
    alone_only = alone_only or every_lone_call
    tb = compile_rules(rules)
    a, b = Player(bidder, tested).record(), Player(bidder, yardstick).record()
    work_a = new_pimc_work(inference_of(a), a.nets)
    work_b = new_pimc_work(inference_of(b), b.nets)
    hands, ups = deal_batch(rules, seed, 0, deals)
    tt = new_tt()
    gains, making, defending = [], [], []
    pairings = [((a.play, b.play), (work_a, work_b)), ((b.play, a.play), (work_b, work_a))]
    if alone_only:
        pairings.append(((b.play, b.play), (work_b, work_b)))
    played = (lone_calls(hands, ups) if every_lone_call else no_trump_calls(hands, ups)
              if every_no_trump_call else contracts(tb, a, hands, ups))
    for i, round_no, pos, trump, alone, def_pos in played:
        if (alone_only and not alone) or (no_trump_only and trump != NO_TRUMP):
            continue
        key = np.uint64(deal_key(seed_to_u64(seed), np.uint64(i)))
        makers = []  # the makers' points, pairing by pairing
        for models, works in pairings:
            tricks = play_contract(new_play_work(models, tb, a.worlds, works),
                                   Deal(hands[i], ups[i], 0),
                                   Contract(round_no, trump, pos if alone else 0, def_pos),
                                   pos & 3, key, tt)
            makers.append(int(tb.score[alone, 1 if def_pos else 0, tricks]))
        ns = [m if pos % 2 == 0 else -m for m in makers]
        gains.append((ns[0] - ns[1]) / 2)
        if alone_only:  # pairing 0 or 1 has the tested side making, the other defending
            tested_makes = makers[0] if pos % 2 == 0 else makers[1]
            tested_defends = makers[1] if pos % 2 == 0 else makers[0]
            making.append(tested_makes - makers[2])
            defending.append(makers[2] - tested_defends)
    gains = np.array(gains)
    mean, se = mean_se(gains)
    out = {"tested": tested, "yardstick": yardstick, "bidder": bidder, "deals": deals,
           "seed": seed, "rules": rules.options(), "alone_only": alone_only,
           "every_lone_call": every_lone_call, "no_trump_only": no_trump_only,
           "every_no_trump_call": every_no_trump_call,
           "contracts_played": len(gains),
           "tested_points_per_deal": round(mean, 4),
           "interval_95": [round(x, 4) for x in interval95(mean, se)],
           "pairs_differing": int((gains != 0).sum())}
    for role, points in (("making_alone", making), ("defending_a_loner", defending)):
        if points:
            m, e = mean_se(np.array(points, dtype=float))
            out[role] = {"points_per_contract": round(m, 4),
                         "interval_95": [round(x, 4) for x in interval95(m, e)]}
    return out


def review(hands: int, model: str) -> dict:
    from review_loss import losses, played_hands

    rules = build_rules("standard")
    states = played_hands(rules, model, DEFAULT_WORLDS, hands, 1)
    return {"model": model, "hands": len(states), **losses(states, 1)}


def people(models: list[str], worlds: int = 50) -> dict:
    """The share of non-forced card decisions in the EGN games where each model picks the
    person's card (or one the seat cannot tell from it)."""
    agree = dict.fromkeys(models, 0)
    decisions = 0
    tt = new_tt()
    rng = random.Random(41)
    for path in sorted(glob.glob(os.path.join(EGN_DIR, "*.egn"))):
        _, hands, _ = read_hands(path, build_rules("standard"))
        for _, replayed in hands:
            final = replayed.state
            if final.passed_out:
                continue
            state = HandState(final.rules, final.dealer, final.dealt, final.upcard)
            for bid in final.bids:
                state.bid(bid)
            if state.phase == "discard":
                state.discard(final.discarded)
            if state.phase == "defend":
                state.defend(final.defender_alone if final.defender_alone >= 0 else None)
            for trick in final.tricks:
                for seat, card in trick.plays:
                    decisions += _agreement(state, seat, card, agree, worlds, tt, rng)
                    state.play(seat, card)
    return {"decisions": decisions, "worlds": worlds,
            "agree": {m: round(n / decisions, 4) for m, n in agree.items()}}


def _agreement(state, seat, card, agree, worlds, tt, rng) -> int:
    """1 after counting each model's agreement with the person's card, 0 when forced."""
    tb = state.tables
    lay = tb.layout[state.trump]
    hands, st, pm = state_arrays(state)
    cands = np.zeros(8, dtype=np.int64)
    if option_candidates(lay, hands, st, pm, seat, False, cands) < 2:
        return 0
    person = option_of(lay, hands, st, pm, seat, int(tb.power_bit[state.trump, card]))
    for name in agree:
        player = Player(None, name).record()
        work = new_pimc_work(inference_of(), player.nets)
        h, s, p = state_arrays(state)
        kernel = play_model(name).kernel
        chosen = choose_card(PlayWork((kernel, kernel), tb, worlds, (work, work), h, s, p), lay,
                             seat, np.uint64(rng.getrandbits(64)), tt)
        agree[name] += int(option_of(lay, hands, st, pm, seat, chosen) == person)
    return 1


def tables(dir_a: str, dir_b: str) -> dict:
    import subprocess

    import pandas as pd

    pooled = {}
    for name, folder in (("a", dir_a), ("b", dir_b)):
        calls = pd.read_parquet(os.path.join(folder, "calls.parquet"))
        for (round_no, alone), group in calls.groupby(["round", "alone"]):
            n = group["n"].sum()
            rates = {k: round(float((group[k] * group["n"]).sum() / n), 4)
                     for k in ("make_rate", "march_rate", "euchred_rate", "mean_points")}
            pooled.setdefault(f"round {round_no}, {'alone' if alone else 'partner'}", {})[
                name] = {"n": int(n)} | rates
    for entry in pooled.values():
        entry["b_minus_a_points_of_rate"] = {
            k: round(100 * (entry["b"][k] - entry["a"][k]), 2)
            for k in ("make_rate", "march_rate", "euchred_rate")}
    lines = subprocess.run([sys.executable, "-m", "euchre_sim.cli", "compare", dir_a, dir_b,
                            "--table", "summary",
                            "--json", "--limit", "100000"], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    classes = [r for r in rows if r.get("z") is not None]
    beyond = sum(abs(r["z"]) >= 2 for r in classes)
    return {"a": dir_a, "b": dir_b, "pooled": pooled,
            "classes": len(classes), "classes_z_beyond_2": beyond,
            "expected_by_chance": round(0.0455 * len(classes), 1)}


def pinned(deals: int, models: list[str]) -> dict:
    rules = build_rules("standard")
    out = {}
    for play in models:
        result = advise(AdviceQuestion(rules, "JS AS 9H 9D TC", 1, up="9S", deals=deals,
                                       seed=1, player=Player("human", play)))
        order = next(a for a in result["actions"] if a["action"] == "order_up"
                     and not a["alone"])
        out[play] = {"mean_points": order["mean_points"], "points_se": order["points_se"]}
    out["differences_to_pimc"] = {m: round(out[m]["mean_points"] - out["pimc"]["mean_points"], 4)
                                  for m in models if m != "pimc"}
    return {"deals": deals, **out}


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="part", required=True)
    d = sub.add_parser("duplicate")
    d.add_argument("--deals", type=int, default=20_000)
    d.add_argument("--seed", type=int, default=5)
    d.add_argument("--tested", default="learned")
    d.add_argument("--yardstick", default="pimc")
    d.add_argument("--bidder", default="human")
    d.add_argument("--rules", default="standard")
    d.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a table option on top of --rules (repeatable)")
    d.add_argument("--no-trump-only", action="store_true",
                   help="only the no-trump contracts (the general net's in a 24-card deck)")
    d.add_argument("--every-no-trump-call", action="store_true",
                   help="every round-2 no-trump call of each deal, not the bidder's contracts")
    d.add_argument("--alone-only", action="store_true",
                   help="only the lone contracts, the gain split by role")
    d.add_argument("--every-lone-call", action="store_true",
                   help="every round-1 lone call of each deal, not the bidder's contracts")
    r = sub.add_parser("review")
    r.add_argument("--hands", type=int, default=1000)
    r.add_argument("--model", default="learned")
    e = sub.add_parser("people")
    e.add_argument("--models", default="learned,pimc")
    t = sub.add_parser("tables")
    t.add_argument("dir_a")
    t.add_argument("dir_b")
    p = sub.add_parser("pinned")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--models", default="learned,pimc", help="pimc among them")
    args = parser.parse_args()
    if args.part == "duplicate":
        report = duplicate(build_rules(args.rules, args.set), args.tested, args.yardstick,
                           args.bidder, args.deals, args.seed, args.alone_only,
                           args.every_lone_call, args.no_trump_only,
                           args.every_no_trump_call)
    elif args.part == "review":
        report = review(args.hands, args.model)
    elif args.part == "tables":
        report = tables(args.dir_a, args.dir_b)
    elif args.part == "people":
        report = people(args.models.split(","))
    else:
        report = pinned(args.deals, args.models.split(","))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
