"""Strength of the conventional player (`--play rules`) against the one of commit a58238a.

The old player is that commit's package imported beside this one (`checkouts.old_module`); the
play state's layout is the same in both, and each contract starts as the package starts it
(`play.playout.contract_start`). Both play the same deals (standard rules, dealer N):
  hands      the two pinned lone hands of issue 24 (dealt around as `advise` deals them, same
             seed), every seat by one player: lone make and march rates, old against new;
  duplicate  every open lone call and the rules bidder's contract of each deal, played twice:
             the new player NS and the old EW, then swapped. The new side's points per hand
             (its points less the old side's, mean of the two tables) with a 95 % interval
             (deals as clusters), and lone make/march rates by the loner's trumps under each
             player playing every seat (before: old, after: new).
Env: BENCH_CONV_DEALS (duplicate deals, default 20000), BENCH_CONV_HAND_DEALS (default 20000).
Prints JSON.
"""

import json
import math
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from bench_inference import rules_rows  # noqa: E402
from checkouts import old_module  # noqa: E402

from euchre_sim.advice.advise import deal_around  # noqa: E402
from euchre_sim.advice.question import AdviceQuestion  # noqa: E402
from euchre_sim.core.bits import one_bit, popcount  # noqa: E402
from euchre_sim.core.calls import call_open, call_row, row_call  # noqa: E402
from euchre_sim.core.dealing import deal_batch, seed_to_u64  # noqa: E402
from euchre_sim.core.jit import njit  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import LAYOUT_TRUMPS, compile_rules  # noqa: E402
from euchre_sim.core.seats import seat_at  # noqa: E402
from euchre_sim.core.stats import interval95  # noqa: E402
from euchre_sim.play import conventional as new_player  # noqa: E402
from euchre_sim.play.playout import contract_start  # noqa: E402
from euchre_sim.play.state import (  # noqa: E402
    S_DISCARD,
    S_MAKER_TRICKS,
    S_TRICKS,
    S_TURN,
    TRICKS_PER_HAND,
    play_card,
)

OLD_COMMIT = "a58238a"
DEALS = int(os.environ.get("BENCH_CONV_DEALS", 20_000))
HAND_DEALS = int(os.environ.get("BENCH_CONV_HAND_DEALS", 20_000))
SEED = 24
DEALER = 0
NEW, OLD = 0, 1
# (hand, upcard, position) of issue 24's pinned lone hands, each ordering up alone
PINNED = {"spades_five_trumps_seat_3": ("JS KS QS TS 9S", "AS", 3),
          "dealer_right_and_one_trump": ("9S KC AD KD 9H", "JS", 4)}
N_SLOTS = 1 + 4 + 4 * 4  # the bidder's contract, round-1 lone calls, round-2 lone calls


def kernels(old):
    """The playout kernels, each seat's card from the new or the old player by team."""
    new_card, new_discard = new_player.conventional_card, new_player.conventional_discard
    old_card, old_discard = old.conventional_card, old.conventional_discard

    @njit(cache=False)
    def contract(models, tb, hands, upcard, round_no, trump, maker, alone_pos):
        """(makers' tricks, loner's trumps at the first lead) of a call played out, its start
        the package's (`play.playout.contract_start`), each team by the new or the old
        player."""
        lay, hp, st, pm, take_up = contract_start(tb, hands, upcard, DEALER, round_no, trump,
                                                  maker, alone_pos, 0)
        if take_up:
            if models[DEALER & 1] == NEW:
                d = new_discard(lay, hp, st, pm)
            else:
                d = old_discard(lay, hp, st, pm)
            hp[DEALER] &= ~one_bit(d)
            st[S_DISCARD] = d
        trumps = popcount(hp[maker] & lay[LAYOUT_TRUMPS])
        while st[S_TRICKS] < TRICKS_PER_HAND:
            seat = st[S_TURN]
            if models[seat & 1] == NEW:
                p = new_card(lay, hp, st, pm, seat)
            else:
                p = old_card(lay, hp, st, pm, seat)
            play_card(lay, hp, st, pm, p)
        return st[S_MAKER_TRICKS], trumps

    @njit(cache=False)
    def pinned(tb, unseen, seed, seat, pos, hand, upcard, count, out):
        """out[i, m]: makers' tricks of the lone order-up in deal i, everyone playing m."""
        hands = np.zeros(4, dtype=np.uint64)
        work = np.empty_like(unseen)
        for i in range(count):
            deal_around(unseen, seed, i, seat, hand, hands, work)
            for m in range(2):
                out[i, m] = contract((m, m), tb, hands, upcard, 1, upcard >> 3, seat, pos)[0]

    @njit(cache=False)
    def duplicate(tb, bid_rows, hands, ups, calls, out):
        """For each deal and slot: calls[i, k] = call row (-1: none; slot 0 the rules
        bidder's contract, bid_rows[i]); out[i, k] = the loner's trumps, then makers' tricks
        with (NS, EW) = (new, old), (old, new), (new, new), (old, old)."""
        combos = ((NEW, OLD), (OLD, NEW), (NEW, NEW), (OLD, OLD))
        for i in range(hands.shape[0]):
            up = ups[i]
            calls[i, :] = -1
            calls[i, 0] = bid_rows[i]
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
            for k in range(N_SLOTS):
                if calls[i, k] < 0:
                    continue
                round_no, pos, trump, alone = row_call(calls[i, k])
                if round_no == 1:
                    trump = up >> 3
                maker = seat_at(DEALER, pos)
                for c in range(4):
                    tricks, trumps = contract(combos[c], tb, hands[i], up, round_no, trump,
                                              maker, pos if alone else 0)
                    out[i, k, 0] = trumps
                    out[i, k, 1 + c] = tricks

    return pinned, duplicate


def rates(tricks: np.ndarray) -> dict:
    return {"n": int(len(tricks)), "make": round(float((tricks >= 3).mean()), 4),
            "march": round(float((tricks == 5).mean()), 4)}


def pinned_figures(rules, tb, pinned) -> dict:
    result = {}
    for name, (hand, up, pos) in PINNED.items():
        q = AdviceQuestion(rules, hand, pos, up).cards
        out = np.zeros((HAND_DEALS, 2), dtype=np.int64)
        pinned(tb, q.unseen, seed_to_u64(SEED), q.seat, pos, np.uint64(q.hand), q.ref_card,
               HAND_DEALS, out)
        points = tb.score[1, 0]
        result[name] = {"hand": hand, "up": up, "seat": pos, "deals": HAND_DEALS}
        for m, label in ((OLD, "old"), (NEW, "new")):
            result[name][label] = rates(out[:, m]) | {
                "mean_points": round(float(points[out[:, m]].mean()), 4)}
    return result


def clustered_mean(values: np.ndarray, present: np.ndarray) -> dict:
    """Mean over every present (deal, slot) with a 95 % interval, deals as clusters."""
    sums = np.where(present, values, 0.0).sum(axis=1)
    counts = present.sum(axis=1)
    n = counts.sum()
    mean = sums.sum() / n
    se = math.sqrt(((sums - mean * counts) ** 2).sum()) / n
    return {"n": int(n), "mean": round(float(mean), 4),
            "ci95": [round(float(x), 4) for x in interval95(mean, se)]}


def duplicate_figures(rules, tb, duplicate) -> dict:
    hands, ups = deal_batch(rules, SEED, 0, DEALS, DEALER)
    calls = np.zeros((DEALS, N_SLOTS), dtype=np.int64)
    out = np.zeros((DEALS, N_SLOTS, 5), dtype=np.int64)
    duplicate(tb, rules_rows(tb, hands, ups), hands, ups, calls, out)
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
    pinned, duplicate = kernels(old_module(OLD_COMMIT, "play.conventional"))
    print(json.dumps({"old_commit": OLD_COMMIT, "seed": SEED,
                      "pinned": pinned_figures(rules, tb, pinned),
                      "duplicate": duplicate_figures(rules, tb, duplicate)}, indent=1))


if __name__ == "__main__":
    main()
