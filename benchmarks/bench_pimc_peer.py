"""PIMC hands played out per second against a public PIMC, side by side (one thread, warm).

The issue's task: seat 3 (position 3, the dealer's right) holds JS KS QS TS 9S and orders the
AS up alone in round 1; the dealer picks the AS up and discards; every seat plays by PIMC at
K worlds a decision (--worlds, 50). Over --deals random deals consistent with that hand and
upcard (400), each side plays the lone contract out once a deal: hands per second, and the lone
march rate as a check that both play the same game (the issue: 43-47 %). Ours is
`play.playout.play_contract` (KERNEL_PIMC) with plain worlds (`inference_of()`) and, labelled,
worlds that agree with the auction under the rules bidder (`inference_of` of its record).
A second figure: the rules bidder's contracts on --contract-deals random deals (2,000; passed
out ones left out), each played out once by each side.

`--peer PATH`: a folder kept outside this repository holding `fastsim.py` and `bitcore.py` of
github.com/jamesterrell/Euchre_Calculator (the issue measured commit 0ab7141), loaded at run
time. The lone task runs its sweep `fastsim.run_deals` on one chunk, the call pinned without an
auction (hand_ev's `--assume order-alone --no-let-auction-play`), K worlds for play and discard,
its stopping rule as hand_ev runs it (epsilon 0.05), its table sized as hand_ev sizes it; the
contracts go through a referee here that asks its `pimc_discard` and `pimc_play` for every
decision. Passes alternate between the sides (RUNS each); the JSON has the medians and the
ratio ours / peer's.
"""

import argparse
import importlib
import json
import math
import os
import statistics
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "studies"))

from contract_play import rules_contracts  # noqa: E402

from euchre_sim.advice.advise import deal_around  # noqa: E402
from euchre_sim.advice.question import AdviceQuestion  # noqa: E402
from euchre_sim.core.calls import Contract  # noqa: E402
from euchre_sim.core.dealing import Deal, deal_batch, deal_key, seed_to_u64  # noqa: E402
from euchre_sim.core.jit import njit  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.play.models import KERNEL_PIMC  # noqa: E402
from euchre_sim.play.net_weights import no_card_nets  # noqa: E402
from euchre_sim.play.pimc import (  # noqa: E402
    CLEAR_Z,
    FIRST_LOOK,
    LOOK_EVERY,
    inference_of,
    new_pimc_work,
)
from euchre_sim.play.player import Player  # noqa: E402
from euchre_sim.play.playout import new_play_work, play_contract  # noqa: E402
from euchre_sim.solver.search import new_tt  # noqa: E402

RUNS = 5
SEED = 1
PEER_EPSILON = 0.05  # hand_ev's default band (EPSILON) for the peer's stopping rule


@njit
def _ours_lone(tb, unseen, seed, seat, hand, upcard, trump, worlds, tt, pws, tricks):
    """The lone call of seat `seat` (dealer 0) played out on each deal around the hand."""
    hands = np.zeros(4, dtype=np.uint64)
    work = np.empty_like(unseen)
    cards = new_play_work((KERNEL_PIMC, KERNEL_PIMC), tb, worlds, pws)
    for i in range(tricks.shape[0]):
        deal_around(unseen, seed, i, seat, hand, hands, work)
        tricks[i] = play_contract(cards, Deal(hands, upcard, 0), Contract(1, trump, seat, 0),
                                  seat, deal_key(seed, np.uint64(i)), tt)


@njit
def _ours_contracts(tb, hands, ups, calls, seed, worlds, tt, pws, tricks):
    """Each deal's contract (round, position, trump, alone) played out, dealer 0."""
    cards = new_play_work((KERNEL_PIMC, KERNEL_PIMC), tb, worlds, pws)
    for i in range(tricks.shape[0]):
        pos, alone = calls[i, 1], calls[i, 3]
        tricks[i] = play_contract(cards, Deal(hands[i], ups[i], 0),
                                  Contract(calls[i, 0], calls[i, 2], pos if alone else 0, 0),
                                  pos & 3, deal_key(seed, np.uint64(i)), tt)


def load_peer(folder):
    """The public `fastsim` module from a folder outside this repository (its `bitcore`
    beside it, imported by name, so Numba's cache can find them again)."""
    sys.path.insert(0, os.path.abspath(folder))
    return importlib.import_module("fastsim")


def peer_tt_bits(deals):
    """hand_ev's table for a sweep (tt_bits_for): 2^14 slots a deal, between 2^22 and 2^26."""
    return min(26, max(22, math.ceil(math.log2(deals * 16384))))


def peer_contract_loop(peer):
    """A jitted referee over the peer's decisions: each deal's contract (caller seat, trump,
    alone, ordered up?) played out, dealer 0, every discard and card from the peer's
    `pimc_discard` / `pimc_play`, streams seeded as its sweep seeds them."""
    discard_of, card_of, beats = peer.pimc_discard, peer.pimc_play, peer.beats
    seed_stream, lowest = peer.seed_stream, peer.lowest
    picked_up, turned_down = peer.PICKED_UP, peer.TURNED_DOWN

    @numba.njit
    def loop(deals, ups, calls, seed, worlds, epsilon, min_worlds, tt, stk, tricks):
        mask = np.int64(len(tt) - 1)
        nodes = np.zeros(8, dtype=np.int64)
        rngs = np.zeros((4, 1), dtype=np.int64)
        hands = np.zeros(4, dtype=np.int64)
        seats = np.zeros(20, dtype=np.int64)
        cards = np.zeros(20, dtype=np.int64)
        for d in range(deals.shape[0]):
            for s in range(4):
                seed_stream(rngs[s], seed * 7919 + d * 4 + s)
                hands[s] = deals[d, s]
            up = ups[d]
            caller, trump, alone, ordered = calls[d, 0], calls[d, 1], calls[d, 2], calls[d, 3]
            sitting = (caller + 2) & 3 if alone else -1
            discard = -1
            if ordered:
                held = hands[0] | (np.int64(1) << up)
                if sitting == 0:  # the dealer sits out: the peer's convention, never seen
                    discard = lowest(hands[0])
                else:
                    hands[0] = held
                    discard = discard_of(0, hands, up, trump, caller, alone, worlds, epsilon,
                                         True, min_worlds, rngs[0], tt, mask, nodes, stk)
                hands[0] = held & ~(np.int64(1) << discard)
            if sitting >= 0:
                hands[sitting] = 0
            width = 3 if alone else 4
            leader = 2 if sitting == 1 else 1
            n = 0
            taken = 0
            for trick in range(5):
                seat = leader
                led = win = win_seat = -1
                for k in range(width):
                    card = card_of(seat, hands, 0, up, picked_up if ordered else turned_down,
                                   trump, caller, alone, discard, seats, cards, n, width, k,
                                   led, win, win_seat, taken, trick, worlds, epsilon, True,
                                   min_worlds, rngs[seat], tt, mask, nodes, stk)
                    hands[seat] &= ~(np.int64(1) << card)
                    seats[n] = seat
                    cards[n] = card
                    n += 1
                    if k == 0:
                        led = win = card
                        win_seat = seat
                    elif beats(card, win, trump):
                        win = card
                        win_seat = seat
                    seat = (seat + 1) & 3
                    if seat == sitting:
                        seat = (seat + 1) & 3
                if (win_seat & 1) == (caller & 1):
                    taken += 1
                leader = win_seat
            tricks[d] = taken

    return loop


def to_peer(cards):
    """Our card ids (suit * 8 + rank, 9 = rank 2) as the peer's (suit * 6 + rank - 9)."""
    return (cards // 8) * 6 + cards % 8 - 2


def peer_masks(hands):
    """Our hand masks (uint64[n, 4]) as the peer's natural masks (int64[n, 4])."""
    out = np.zeros(hands.shape, dtype=np.int64)
    for card in range(32):
        if card % 8 >= 2:
            held = ((hands >> np.uint64(card)) & np.uint64(1)).astype(np.int64)
            out |= held << int(to_peer(card))
    return out


def timed(run, n):
    """(hands per second, makers' tricks) of one pass."""
    tricks = np.zeros(n, dtype=np.int64)
    start = time.perf_counter()
    run(tricks)
    return n / (time.perf_counter() - start), tricks


def race(sides, n, runs):
    """Warm every side, then `runs` passes alternating between them: medians and march rates."""
    for run in sides.values():
        run(np.zeros(4, dtype=np.int64))
    rates = {name: [] for name in sides}
    marches = {}
    for _ in range(runs):
        for name, run in sides.items():
            rate, tricks = timed(run, n)
            rates[name].append(rate)
            marches[name] = float((tricks == 5).mean())
    return {name: {"hands_per_s": round(statistics.median(r), 1),
                   "passes": [round(x, 1) for x in r], "march_rate": marches[name]}
            for name, r in rates.items()}


def with_ratios(figures):
    """Each of our figures' median over the peer's."""
    peer = figures["peer"]["hands_per_s"]
    for name, entry in figures.items():
        if name != "peer":
            entry["ratio_to_peer"] = round(entry["hands_per_s"] / peer, 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True,
                        help="folder with the public fastsim.py and bitcore.py, outside the repo")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--contract-deals", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=50)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    numba.set_num_threads(1)
    peer = load_peer(args.peer)
    rules = build_rules("standard")
    tb = compile_rules(rules)
    deck = rules.card_deck
    q = AdviceQuestion(rules, "JS KS QS TS 9S", 3, up="AS").cards
    seed, trump, worlds = seed_to_u64(SEED), deck.parse_suit("S"), args.worlds

    def ours(inference, body):
        def run(tricks):
            pw = new_pimc_work(inference, no_card_nets())
            body(tricks, new_tt(), (pw, pw))
        return run

    def ours_lone(tricks, tt, pws):
        _ours_lone(tb, q.unseen, seed, q.seat, np.uint64(q.hand), q.ref_card, trump, worlds,
                   tt, pws, tricks)

    pin = int(sum(1 << int(to_peer(c)) for c in range(32) if (q.hand >> c) & 1))
    up = int(to_peer(q.ref_card))

    def peer_lone(tricks):
        n = tricks.shape[0]
        out = np.zeros((n, peer.RECORD), dtype=np.int64)
        peer.run_deals(0, n, SEED, pin, q.seat, up, 0, worlds, worlds, worlds, PEER_EPSILON,
                       True, peer.MIN_WORLDS, peer.PASS_ZERO, peer.ASSUME_ALONE, 0, 0, 1, 1,
                       peer.new_tt(peer_tt_bits(n)), out,
                       np.zeros((1, peer.RECORD), dtype=np.int64), 0,
                       np.zeros((1, peer.COUNTERS), dtype=np.int64))
        tricks[:] = out[:, peer.R_TRICKS]

    rules_bidder = Player("rules").record()
    lone = with_ratios(race({"ours_plain": ours(inference_of(), ours_lone),
                             "ours_inference_rules": ours(inference_of(rules_bidder), ours_lone),
                             "peer": peer_lone}, args.deals, args.runs))

    hands, ups = deal_batch(rules, 2024, 0, args.contract_deals)
    kept, calls = rules_contracts(tb, hands, ups)
    hands, ups = hands[kept], ups[kept]
    peer_calls = np.column_stack([calls[:, 1] & 3, calls[:, 2], calls[:, 3], calls[:, 0] == 1])
    peer_hands, peer_ups = peer_masks(hands), to_peer(ups)
    loop = peer_contract_loop(peer)

    def ours_contracts(tricks, tt, pws):
        n = tricks.shape[0]
        _ours_contracts(tb, hands[:n], ups[:n], calls[:n], seed, worlds, tt, pws, tricks)

    def peer_contracts(tricks):
        n = tricks.shape[0]
        loop(peer_hands[:n], peer_ups[:n], peer_calls[:n], SEED, worlds, PEER_EPSILON,
             peer.MIN_WORLDS, peer.new_tt(peer_tt_bits(n)), peer.bitcore.new_stack(),
             tricks)

    contracts = with_ratios(race({"ours_plain": ours(inference_of(), ours_contracts),
                                  "ours_inference_rules": ours(inference_of(rules_bidder),
                                                               ours_contracts),
                                  "peer": peer_contracts}, len(kept), args.runs))
    print(json.dumps({
        "threads": 1, "worlds": worlds, "runs": args.runs,
        "ours_stopping_rule": {"clear_z": CLEAR_Z, "first_look": FIRST_LOOK,
                               "look_every": LOOK_EVERY},
        "peer": {"path": os.path.abspath(args.peer), "entry": "fastsim.run_deals",
                 "stopping_rule": {"epsilon": PEER_EPSILON, "min_worlds": peer.MIN_WORLDS,
                                   "z": peer.Z, "guard": peer.GUARD, "growth": peer.GROWTH}},
        "lone_call": {"hand": "JS KS QS TS 9S", "up": "AS", "seat": q.seat, "dealer": 0,
                      "deals": args.deals, **lone},
        "rules_contracts": {"deals": args.contract_deals, "played": len(kept),
                            "alone": int(calls[:, 3].sum()), **contracts},
    }, indent=2))


if __name__ == "__main__":
    main()
