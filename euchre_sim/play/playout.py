"""Hands played out card by card by a play model (Numba), and the call table they give.

Card players, by the kernel id a play model's record names (`play.models`, KERNEL_*): the
solver's choice with every hand seen, the conventional player of `conventional`, PIMC over
sampled worlds (`pimc`), the learned player's net and the net with PIMC at its close calls
(`learned`). A deal's call table under a model that plays out has the rows of
`solver.calltable` (one per call, layout of `core.calls`), each the makers' tricks when that call
is made and the hand is played out by the model; under a solved model the solver's values are
used directly (`solver.calltable`), since perfect play needs no playout.

Randomness: the playout of row r of deal i under seed s draws from key(key(s, i), r), and
decision k of it from key(that, k): results do not depend on batching or workers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..bidding.auction import rows_read
from ..bidding.params import BIDDER_GAME, BIDDER_RULES, BIDDER_TABLE
from ..core.bits import one_bit
from ..core.calls import (
    BOTH_ROUNDS,
    N_ROWS,
    WITH_DEFENCE,
    Contract,
    call_open,
    call_row,
    defence_open,
    defence_row,
    defender_position,
    seats_in_play,
)
from ..core.dealing import Deal, deal_key
from ..core.jit import njit, unlinked
from ..core.ruletables import FLAG_LONE_LAST, RuleTables
from ..core.seats import position_of, seat_at, team_of
from ..solver.search import shared_tt, to_power
from .conventional import conventional_card, conventional_discard
from .learned import learned_card, learned_discard, searched_card, searched_discard
from .models import KERNEL_CONVENTIONAL, KERNEL_NET, KERNEL_NET_SEARCH, KERNEL_SOLVER
from .net_weights import CardNets, every_deal
from .pimc import Worlds, inference_of, new_pimc_work, pimc_card, pimc_discard
from .player import Player, PlayerRecord
from .state import (
    N_PM,
    N_ST,
    S_DEALER,
    S_DISCARD,
    S_MAKER_TRICKS,
    S_MAKER_TURN,
    S_TRICKS,
    S_TURN,
    S_UPCARD,
    TRICKS_PER_HAND,
    Position,
    StateStart,
    next_decision_key,
    play_card,
    start_state,
)
from .teaching_log import card_work, keeps_log, log_choice
from .worlds import forget_hopeless


def searches(model: int, nets: CardNets) -> bool:
    """Does card player `model` (a KERNEL_* id) with these nets sample or solve worlds? All
    but the conventional player and the learned one with a net for every deal. Where no player
    searches, the kernels are given no solver table (tt None): they compile no PIMC."""
    if model == KERNEL_CONVENTIONAL:
        return False
    return model != KERNEL_NET or not every_deal(nets)


class PlayWork(NamedTuple):
    """A table's card play (`new_play_work`): each side's model (`models`, team 0 NS, KERNEL_*
    ids), the rule tables (`tb`), the worlds of a PIMC decision (`n_worlds`), each side's card
    player's work (`pws`: a PimcWork, or training's TeachingWork), and the hand being played:
    the hands in power bits, the state and its per-card part (`play.state`), written again
    by each contract (`contract_start`)."""

    models: tuple
    tb: RuleTables
    n_worlds: int
    pws: tuple
    hands: np.ndarray
    st: np.ndarray
    pm: np.ndarray


@njit
def new_play_work(models, tb, n_worlds, pws):
    """A PlayWork with fresh buffers for its hands."""
    return PlayWork(models, tb, n_worlds, pws, np.zeros(4, dtype=np.uint64),
                    np.zeros(N_ST, dtype=np.int64), np.zeros(N_PM, dtype=np.uint64))


@njit(nrt=False, inline="always")
def choose_card(work, lay, seat, key, tt):
    """The card for `seat` in work's hand by its side's model; `lay` the trump's layout, `key`
    the hand's. tt: the solver's table, None where no player searches (`searches`), and Numba
    compiles no PIMC here. Inlined into the playout's loop: a call passed the work's ~1,000
    fields at every card. The side's card player's work is taken by a constant index: an index
    known only at run time copies every field of both sides' records at every card."""
    team = team_of(seat)
    model = work.models[team]
    tb, hands, st, pm = work.tb, work.hands, work.st, work.pm
    if model == KERNEL_CONVENTIONAL:
        return conventional_card(lay, hands, st, pm, seat)
    if tt is None:
        if team == 0:
            return learned_card(tb, lay, hands, st, pm, seat, card_work(work.pws[0]))
        return learned_card(tb, lay, hands, st, pm, seat, card_work(work.pws[1]))
    at = Position(lay, hands, st, pm, seat)
    worlds = Worlds(work.n_worlds, next_decision_key(key, st), model == KERNEL_SOLVER)
    if team == 0:
        return searched_choice(tb, at, np.bool_(False), model, key, worlds, tt, work.pws[0])
    return searched_choice(tb, at, np.bool_(False), model, key, worlds, tt, work.pws[1])


@njit(nrt=False)
def searched_choice(tb, at, discard, model, key, worlds, tt, held):
    """The card (or with `discard` the dealer's discard) of a side whose player searches or
    keeps a teaching log (`teaching_log`), `held` its work: the learned player's where it has
    one (learned-search: PIMC at its close calls), else PIMC's over `worlds`; a log records
    PIMC's choice at every decision (the learned player, where it has a card, plays its
    own)."""
    pw = card_work(held)
    lay, hands, st, pm, seat = at
    mine = -1
    if model == KERNEL_NET:
        mine = (learned_discard(tb, lay, hands, st, pm, pw) if discard
                else learned_card(tb, lay, hands, st, pm, seat, pw))
    elif model == KERNEL_NET_SEARCH:
        mine = (searched_discard(tb, at, worlds.n_worlds, key, tt, pw) if discard
                else searched_card(tb, at, worlds.n_worlds, key, tt, pw))
    if mine >= 0 and not keeps_log(held):
        return mine
    p = pimc_discard(tb, at, worlds, tt, pw) if discard else pimc_card(tb, at, worlds, tt, pw)
    log_choice(held, tb, at, discard, p, worlds.n_worlds)
    return mine if mine >= 0 else p


@njit(nrt=False)
def choose_discard(work, lay, key, tt):
    """The dealer's discard in work's hand by its side's model; the log, tt and the side's
    work as choose_card's."""
    tb, hands, st, pm = work.tb, work.hands, work.st, work.pm
    team = team_of(st[S_DEALER])
    model = work.models[team]
    if model == KERNEL_CONVENTIONAL:
        return conventional_discard(lay, hands, st, pm)
    if tt is None:
        if team == 0:
            return learned_discard(tb, lay, hands, st, pm, card_work(work.pws[0]))
        return learned_discard(tb, lay, hands, st, pm, card_work(work.pws[1]))
    at = Position(lay, hands, st, pm, st[S_DEALER])
    worlds = Worlds(work.n_worlds, next_decision_key(key, st), model == KERNEL_SOLVER)
    if team == 0:
        return searched_choice(tb, at, np.bool_(True), model, key, worlds, tt, work.pws[0])
    return searched_choice(tb, at, np.bool_(True), model, key, worlds, tt, work.pws[1])


# the contract reaches the discard through a call that does not link its code in
# (`core.jit.unlinked`): compiled once, not again inside every kernel above it
_choose_discard = unlinked(choose_discard)


@njit(nrt=False, inline="always")
def _play_out(work, lay, key, tt):
    """Play work's hand to its end from its state, each seat by its side's model."""
    st = work.st
    while st[S_TRICKS] < TRICKS_PER_HAND:
        play_card(lay, work.hands, st, work.pm, choose_card(work, lay, st[S_TURN], key, tt))


@njit(inline="always")
def contract_start(work, deal, contract, maker):
    """Start work's hand for `contract` (`core.calls.Contract`) called by seat `maker` in
    `deal` (round 1: ordered up), before the dealer's discard: its hands in power bits and
    fresh state; returns (trump's layout, whether the dealer takes the upcard up and must
    discard). A dealer who sits out (its partner alone) holds the upcard out of play."""
    tb, hands, upcard, dealer = work.tb, deal.hands, deal.upcard, deal.dealer
    round_no, trump, alone_pos, def_pos = contract
    active, leader = seats_in_play(dealer, alone_pos, def_pos, tb.flags[FLAG_LONE_LAST] != 0)
    lay = tb.layout[trump]
    take_up = round_no == 1 and ((active >> dealer) & 1) == 1
    held = work.hands
    for s in range(4):
        held[s] = hands[s]
    up = -1
    known_out = np.uint64(0)
    if take_up:
        held[dealer] |= np.uint64(1) << np.uint64(upcard)
        up = tb.power_bit[trump, upcard]
    else:
        known_out = one_bit(tb.power_bit[trump, upcard])
    to_power(tb, trump, held, active, held)
    st = work.st
    start_state(st, work.pm, StateStart(trump, dealer, maker, 1 if alone_pos else 0,
                                        1 if def_pos else 0, active, leader, up, known_out))
    st[S_UPCARD] = upcard
    st[S_MAKER_TURN] = (round_no - 1) * 4 + position_of(dealer, maker) - 1
    return lay, take_up


@njit(nrt=False)
def play_contract(work, deal, contract, maker, key, tt):
    """Play `contract` (`core.calls.Contract`) called by seat `maker` in `deal`, each side by
    its model, from the hand's `key`; returns the makers' tricks, the final state left in
    work.st."""
    lay, take_up = contract_start(work, deal, contract, maker)
    if tt is not None:  # no worlds, no inference to forget
        forget_hopeless(card_work(work.pws[0]).inference)
        forget_hopeless(card_work(work.pws[1]).inference)
    st = work.st
    if take_up:
        d = _choose_discard(work, lay, key, tt)
        work.hands[deal.dealer] &= ~one_bit(d)
        st[S_DISCARD] = d
    _play_out(work, lay, key, tt)
    return st[S_MAKER_TRICKS]


call_play_contract = unlinked(play_contract)
ALL_ROWS = np.zeros(0, dtype=np.uint8)  # `wanted` of play_deal: every row


@njit(nrt=False)
def play_deal(work, deal, key, only_pos, rounds, wanted, tt, out):
    """Fill `out` (N_ROWS, as solver.calltable.analyze_deal, the same only_pos and rounds)
    with the makers' tricks of every call open in the deal (of the rows where wanted[row] is
    set, unless wanted is ALL_ROWS), each hand played out in `work` by each side's model from
    key deal_key(key, row)."""
    flags = work.tb.flags
    upcard, dealer = deal.upcard, deal.dealer
    defence = defence_open(flags) and (rounds & WITH_DEFENCE) != 0
    out[:] = -1
    for round_no in range(1, 3):
        if not rounds & round_no:
            continue
        for trump in range(5):
            for pos in range(1, 5):
                if only_pos and pos != only_pos:
                    continue
                for alone in range(2):
                    if not call_open(flags, round_no, pos, trump, alone, upcard):
                        continue
                    base = call_row(round_no, pos, trump, alone)
                    for j in range(-1, 2 if defence else 0):  # -1: both defend
                        row = base if j < 0 else defence_row(base, j)
                        if wanted.shape[0] and not wanted[row]:
                            continue
                        def_pos = 0 if j < 0 else defender_position(pos, j)
                        out[row] = call_play_contract(
                            work, deal, Contract(round_no, trump, pos if alone else 0, def_pos),
                            seat_at(dealer, pos), deal_key(key, np.uint64(row)), tt)


call_play_deal = unlinked(play_deal)


@njit
def _play_batch(work, reached_by, deals, seed, start, parts, tt, out):
    """Call tables into out of deals (hands, upcards, dealer) start.. of the seed, played in
    `work`; reached_by: (the player (a record) whose auction picks the rows played, which of
    its rows: `bidding.auction.rows_read`), or None: every row."""
    hands, upcards, dealer = deals
    wanted = np.ones(N_ROWS, dtype=np.uint8)
    for i in range(hands.shape[0]):
        key = deal_key(seed, np.uint64(start + i))
        deal = Deal(hands[i], upcards[i], dealer)
        if reached_by is not None:
            rows_read(reached_by[0], reached_by[1], work.tb, deal, wanted)
        call_play_deal(work, deal, key, 0, parts, wanted, tt, out[i])


class Playout(NamedTuple):
    """How deals are played out: by `player` (its model; a solved one plays out with the
    solver's choices; its worlds per PIMC decision), the lone-defence rows too, whether
    PIMC's worlds agree with the player's auction (`infer`, where it has a bidder), and
    which rows are played: every row (`reads` 0), or only those the player's auction reads
    (`bidding.auction.rows_read`: AUCTION_READS, FORCED_READS or both; -1 elsewhere; a
    bidder from its own hand or a table)."""

    player: Player
    defence: bool = False
    infer: bool = True
    reads: int = 0


def play_deals(rules, playout: Playout, deals: tuple, seed: int, start: int,
               work: tuple | None = None, record: PlayerRecord | None = None) -> np.ndarray:
    """Call tables (int8[n, N_ROWS], makers' tricks or -1) of deals start.. of the seed
    (`deals`: their hands, upcards and dealer) played out; work:
    the card players' work (default: the player's `new_pimc_work`; training gives a
    `teaching_log.TeachingWork`); record: the player's record where the caller has built it
    (default: `playout.player.record()`)."""
    from ..core.dealing import seed_to_u64
    from ..core.ruletables import compile_rules

    out = np.zeros((deals[0].shape[0], N_ROWS), dtype=np.int8)
    player = playout.player.record() if record is None else record
    if playout.reads and player.bidder not in (BIDDER_RULES, BIDDER_TABLE, BIDDER_GAME):
        raise ValueError("reading only the auction's rows needs a rules or table bidder")
    tt = shared_tt()
    if work is None:  # (training's work logs PIMC's decisions: it searches)
        work = new_pimc_work(inference_of(player if playout.infer else None), player.nets)
        tt = tt if searches(player.play, player.nets) else None
    play = new_play_work((player.play, player.play), compile_rules(rules), player.worlds,
                         (work, work))
    _play_batch(play, (player, np.int64(playout.reads)) if playout.reads else None,
                deals, seed_to_u64(seed), np.uint64(start),
                BOTH_ROUNDS | (WITH_DEFENCE if playout.defence else 0), tt, out)
    return out
