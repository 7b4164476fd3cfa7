"""Strength of the conventional player (`--play rules`) against the one of commit a58238a.

The old player is that commit's package imported beside this one (`old_package.old_module`);
the play state's layout is the same in both, so each player chooses from the view of its seat
that the engine's hand gives (`contract_play.engine_contract`: the package's engine plays the
hand, each team's discard and cards from its player). Both play the same deals (standard
rules, dealer N):
  hands      the two pinned lone hands of issue 24 (dealt around as `advise` deals them, same
             seed), every seat by one player: lone make and march rates, old against new;
  duplicate  every open lone call and the rules bidder's contract of each deal, played twice:
             the new player NS and the old EW, then swapped. The new side's points per hand
             (its points less the old side's, mean of the two tables) with a 95 % interval
             (deals as clusters), and lone make/march rates by the loner's trumps at the first
             lead under each player playing every seat (before: old, after: new).
Env: BENCH_CONV_DEALS (duplicate deals, default 2000), BENCH_CONV_HAND_DEALS (default 20000).
Prints JSON.
"""

import json
import math
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from contract_play import engine_contract, maker_tricks, rules_rows  # noqa: E402
from old_package import old_module  # noqa: E402

from euchre_sim.advice.advise import deal_around  # noqa: E402
from euchre_sim.advice.question import AdviceQuestion  # noqa: E402
from euchre_sim.core.calls import call_open, call_row, row_call  # noqa: E402
from euchre_sim.core.dealing import deal_batch, seed_to_u64  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import LAYOUT_TRUMPS, compile_rules  # noqa: E402
from euchre_sim.core.stats import interval95  # noqa: E402
from euchre_sim.play import conventional as new_player  # noqa: E402

OLD_COMMIT = "a58238a"
DEALS = int(os.environ.get("BENCH_CONV_DEALS", 2_000))
HAND_DEALS = int(os.environ.get("BENCH_CONV_HAND_DEALS", 20_000))
SEED = 24
DEALER = 0
NEW, OLD = 0, 1
# (hand, upcard, position) of issue 24's pinned lone hands, each ordering up alone
PINNED = {"spades_five_trumps_seat_3": ("JS KS QS TS 9S", "AS", 3),
          "dealer_right_and_one_trump": ("9S KC AD KD 9H", "JS", 4)}
N_SLOTS = 1 + 4 + 4 * 4  # the bidder's contract, round-1 lone calls, round-2 lone calls
NO_KEY = np.uint64(0)  # the conventional players draw nothing


class Conventional:
    """One version's conventional player (its `play.conventional` module), seated by
    `engine_contract`."""

    def __init__(self, module):
        self.module = module

    def card(self, lay, hands, st, pm, seat, key):
        return self.module.conventional_card(lay, hands, st, pm, seat)

    def discard(self, lay, hands, st, pm, key):
        return self.module.conventional_discard(lay, hands, st, pm)


def loner_trumps(tb, state) -> int:
    """The maker's trumps at the first lead: the cards it played, all five."""
    trumps = tb.layout[state.trump][LAYOUT_TRUMPS]
    return sum(int(trumps >> np.uint64(tb.power_bit[state.trump, card])) & 1
               for trick in state.tricks for seat, card in trick.plays if seat == state.maker)


def pinned(rules, tb, players) -> dict:
    """out[i, m]: makers' tricks of the lone order-up in deal i around each pinned hand,
    everyone playing players[m]."""
    result = {}
    for name, (hand, up, pos) in PINNED.items():
        q = AdviceQuestion(rules, hand, pos, up).cards
        out = np.zeros((HAND_DEALS, 2), dtype=np.int64)
        hands, work = np.zeros(4, dtype=np.uint64), np.empty_like(q.unseen)
        for i in range(HAND_DEALS):
            deal_around(q.unseen, seed_to_u64(SEED), i, q.seat, np.uint64(q.hand), hands, work)
            for m in (NEW, OLD):
                out[i, m] = maker_tricks(engine_contract(
                    rules, hands, q.ref_card, (1, pos, q.ref_card >> 3, 1),
                    (players[m], players[m]), NO_KEY))
        points = tb.score[1, 0]
        result[name] = {"hand": hand, "up": up, "seat": pos, "deals": HAND_DEALS}
        for m, label in ((OLD, "old"), (NEW, "new")):
            result[name][label] = rates(out[:, m]) | {
                "mean_points": round(float(points[out[:, m]].mean()), 4)}
    return result


def duplicate(rules, tb, players, hands, ups):
    """For each deal and slot: calls[i, k] = call row (-1: none; slot 0 the rules bidder's
    contract); out[i, k] = the loner's trumps, then makers' tricks with (NS, EW) = (new, old),
    (old, new), (new, new), (old, old)."""
    combos = ((NEW, OLD), (OLD, NEW), (NEW, NEW), (OLD, OLD))
    calls = np.full((len(hands), N_SLOTS), -1, dtype=np.int64)
    out = np.zeros((len(hands), N_SLOTS, 5), dtype=np.int64)
    calls[:, 0] = rules_rows(tb, hands, ups)
    for i, up in enumerate(ups):
        k = 1
        for pos in range(1, 5):
            if call_open(tb.flags, 1, pos, up >> 3, 1, up):
                calls[i, k] = call_row(1, pos, 0, 1)
            k += 1
            for trump in range(4):
                if trump != up >> 3:
                    if call_open(tb.flags, 2, pos, trump, 1, up):
                        calls[i, k] = call_row(2, pos, trump, 1)
                    k += 1
        for k in np.flatnonzero(calls[i] >= 0):
            round_no, pos, trump, alone = (int(x) for x in row_call(calls[i, k]))
            contract = (round_no, pos, int(up) >> 3 if round_no == 1 else trump, alone)
            for c, (ns, ew) in enumerate(combos):
                state = engine_contract(rules, hands[i], up, contract,
                                        (players[ns], players[ew]), NO_KEY)
                out[i, k, 0] = loner_trumps(tb, state)
                out[i, k, 1 + c] = maker_tricks(state)
    return calls, out


def rates(tricks: np.ndarray) -> dict:
    return {"n": int(len(tricks)), "make": round(float((tricks >= 3).mean()), 4),
            "march": round(float((tricks == 5).mean()), 4)}


def clustered_mean(values: np.ndarray, present: np.ndarray) -> dict:
    """Mean over every present (deal, slot) with a 95 % interval, deals as clusters."""
    sums = np.where(present, values, 0.0).sum(axis=1)
    counts = present.sum(axis=1)
    n = counts.sum()
    mean = sums.sum() / n
    se = math.sqrt(((sums - mean * counts) ** 2).sum()) / n
    return {"n": int(n), "mean": round(float(mean), 4),
            "ci95": [round(float(x), 4) for x in interval95(mean, se)]}


def duplicate_figures(rules, tb, players) -> dict:
    hands, ups = deal_batch(rules, SEED, 0, DEALS, DEALER)
    calls, out = duplicate(rules, tb, players, hands, ups)
    present = calls >= 0
    alone = np.where(present, calls & 1, 0)
    pos = np.where(calls < 8, calls // 2 + 1, (calls - 8) // 10 + 1)
    maker_ns = ((DEALER + pos) & 1) == 0
    tricks = np.clip(out[:, :, 1:], 0, 5)
    to_makers = tb.score[alone[:, :, None], 0, tricks]
    # new side's net points: table A new NS, table B new EW
    net_a = np.where(maker_ns, to_makers[:, :, 0], -to_makers[:, :, 0])
    net_b = np.where(maker_ns, -to_makers[:, :, 1], to_makers[:, :, 1])
    dup = (net_a + net_b) / 2
    lone = present & (np.arange(N_SLOTS) > 0)
    bid = present & (np.arange(N_SLOTS) == 0)
    new_loner = np.where(maker_ns, tricks[:, :, 0], tricks[:, :, 1])
    old_loner = np.where(maker_ns, tricks[:, :, 1], tricks[:, :, 0])
    by_trumps = {}
    for t in range(6):
        sel = lone & (out[:, :, 0] == t)
        if sel.sum() >= 50:
            by_trumps[str(t)] = {"before": rates(tricks[:, :, 3][sel]),
                                 "after": rates(tricks[:, :, 2][sel]),
                                 "new_loner_old_defence": rates(new_loner[sel])}
    return {
        "deals": DEALS,
        "points_per_hand_new_minus_old": {
            "bidder_contracts": clustered_mean(dup, bid),
            "lone_calls": clustered_mean(dup, lone),
        },
        "lone_loner_new_defenders_old": rates(new_loner[lone]),
        "lone_loner_old_defenders_new": rates(old_loner[lone]),
        "lone_before_all_old": rates(tricks[:, :, 3][lone]),
        "lone_after_all_new": rates(tricks[:, :, 2][lone]),
        "lone_by_loner_trumps": by_trumps,
        "bidder_contracts_before_after_make": [rates(tricks[:, :, 3][bid])["make"],
                                               rates(tricks[:, :, 2][bid])["make"]],
    }


def main() -> None:
    rules = build_rules("standard")
    tb = compile_rules(rules)
    players = {NEW: Conventional(new_player),
               OLD: Conventional(old_module(OLD_COMMIT, "play.conventional"))}
    print(json.dumps({"old_commit": OLD_COMMIT, "seed": SEED,
                      "pinned": pinned(rules, tb, players),
                      "duplicate": duplicate_figures(rules, tb, players)}, indent=1))


if __name__ == "__main__":
    main()
