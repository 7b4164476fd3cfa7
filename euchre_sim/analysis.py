"""Whole-deal analyses on the solver: the `solve` table, and every call open in a deal.

A deal's call table has one row per (round, seat, trump, alone): the makers' tricks under
perfect play, -1 where that call is not open. Seats are positions 1-4 from the dealer's left.
Round 1 orders up the upcard's suit (the dealer takes it and discards the card best for the
dealer's side, found by a search layer over the distinct discards that shares the table);
round 2 names any other suit or no-trump.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .playstate import _candidates
from .solver import _at_least, _bit, _exact, _new_work, _to_power
from .tables import FLAG_ALLOW_ALONE, FLAG_CANADIAN, FLAG_LONE_LAST, FLAG_NO_TRUMP

ROUND1_ROWS = 8  # (position 1-4) x (alone 0/1)
N_ROWS = ROUND1_ROWS + 4 * 5 * 2  # + round 2: position x trump (4 suits, NT) x alone
JOKER_ID = 32


def row_index(round_no: int, position: int, trump: int, alone: bool) -> int:
    """Column of the call table for a call (trump is ignored in round 1)."""
    if round_no == 1:
        return (position - 1) * 2 + int(alone)
    return ROUND1_ROWS + ((position - 1) * 5 + trump) * 2 + int(alone)


@njit
def _opening_leader(dealer, active, loner, lone_last):
    """Dealer's left, or the loner's left under "lone player plays last"; skip seats out."""
    seat = (loner + 1) & 3 if loner >= 0 and lone_last else (dealer + 1) & 3
    while not (active >> seat) & 1:
        seat = (seat + 1) & 3
    return seat


@njit
def _seats_in_play(dealer, alone_pos, lone_last):
    """(active seat mask, opening leader) when position alone_pos (0: nobody) goes alone."""
    active = 15
    loner = -1
    if alone_pos > 0:
        loner = (dealer + alone_pos) & 3
        active &= ~(1 << ((loner + 2) & 3))
    return active, _opening_leader(dealer, active, loner, lone_last)


@njit
def _team_tricks(tb, trump, hands_p, leader, active, team, exact, tt, work):
    """Tricks of `team` (0 NS, 1 EW): exact, or (exact=False) a representative of its
    scoring class, 0 | 1 (1-2) | 3 (3-4) | 5, found with two zero-window searches."""
    if exact:
        ns = _exact(tb, trump, hands_p, leader, active, tt, work)
        return ns if team == 0 else 5 - ns
    if _team_at_least(tb, trump, hands_p, leader, active, team, 3, tt, work):
        return 5 if _team_at_least(tb, trump, hands_p, leader, active, team, 5, tt, work) else 3
    return 1 if _team_at_least(tb, trump, hands_p, leader, active, team, 1, tt, work) else 0


@njit
def _team_at_least(tb, trump, hands_p, leader, active, team, k, tt, work):
    if team == 0:
        return _at_least(tb, trump, hands_p, leader, active, k, tt, work)
    return not _at_least(tb, trump, hands_p, leader, active, 6 - k, tt, work)


@njit
def _discards(tb, trump, hands_p, dealer, out):
    """Distinct discards of the dealer's six cards, lowest power first (power bits).

    Two cards adjacent in power among all cards in play leave equivalent hands: keep one."""
    hand = hands_p[dealer]
    live = hands_p[0] | hands_p[1] | hands_p[2] | hands_p[3]
    return _candidates(tb.layout[trump], hand, hand, live, out)


@njit
def _best_discard_at_least(tb, trump, hands_p, dealer, leader, active, k, cands, count, tt,
                           work):
    """Does some discard give the dealer's side at least k tricks?"""
    for i in range(count):
        b = _bit(cands[i])
        hands_p[dealer] &= ~b
        hit = _team_at_least(tb, trump, hands_p, leader, active, dealer & 1, k, tt, work)
        hands_p[dealer] |= b
        if hit:
            return True
    return False


@njit
def _best_discard_tricks(tb, trump, hands_p, dealer, leader, active, exact, tt, work):
    """Dealer's side tricks (exact or by class, as _team_tricks) when the dealer, holding
    six cards, discards the card best for its side."""
    team = dealer & 1
    cands = np.empty(8, dtype=np.int64)
    count = _discards(tb, trump, hands_p, dealer, cands)
    if not exact:
        if _best_discard_at_least(tb, trump, hands_p, dealer, leader, active, 3, cands, count,
                                  tt, work):
            return 5 if _best_discard_at_least(tb, trump, hands_p, dealer, leader, active, 5,
                                               cands, count, tt, work) else 3
        return 1 if _best_discard_at_least(tb, trump, hands_p, dealer, leader, active, 1, cands,
                                           count, tt, work) else 0
    best = -1
    for i in range(count):
        b = _bit(cands[i])
        hands_p[dealer] &= ~b
        if best < 0:
            best = _team_tricks(tb, trump, hands_p, leader, active, team, True, tt, work)
        elif _team_at_least(tb, trump, hands_p, leader, active, team, best + 1, tt, work):
            best = _team_tricks(tb, trump, hands_p, leader, active, team, True, tt, work)
        hands_p[dealer] |= b
        if best == 5:
            break
    return best


@njit
def _analyze_deal(tb, hands, upcard, dealer, exact, only_pos, rounds, tt, work, out):
    """Fill `out` (N_ROWS) with the makers' tricks of every call open in the deal (exact, or
    class representatives 0, 1, 3, 5 that score the same; see _team_tricks).

    only_pos: 0 for every seat, else just that position's calls; rounds: bit 1 round 1,
    bit 2 round 2."""
    flags = tb.flags
    lone_last = flags[FLAG_LONE_LAST] != 0
    allow_alone = flags[FLAG_ALLOW_ALONE] != 0
    out[:] = -1
    if upcard != JOKER_ID and rounds & 1:
        trump = upcard >> 3
        with_up = hands.copy()
        with_up[dealer] |= np.uint64(1) << np.uint64(upcard)
        dealer_team = dealer & 1
        for alone_pos in range(0, 5):  # 0: partnership; 1-4: that position alone
            if alone_pos > 0 and (not allow_alone or (only_pos and alone_pos != only_pos)):
                continue
            active, leader = _seats_in_play(dealer, alone_pos, lone_last)
            if (active >> dealer) & 1:
                hp = _to_power(tb, trump, with_up, active)
                dealer_tricks = _best_discard_tricks(tb, trump, hp, dealer, leader, active,
                                                     exact, tt, work)
            else:
                hp = _to_power(tb, trump, hands, active)
                dealer_tricks = _team_tricks(tb, trump, hp, leader, active, dealer_team,
                                             exact, tt, work)
            for pos in range(1, 5):
                seat = (dealer + pos) & 3
                if (alone_pos > 0 and pos != alone_pos) or (only_pos and pos != only_pos):
                    continue
                if alone_pos == 0 and pos == 2 and flags[FLAG_CANADIAN]:
                    continue
                tricks = dealer_tricks if (seat & 1) == dealer_team else 5 - dealer_tricks
                out[(pos - 1) * 2 + (1 if alone_pos > 0 else 0)] = tricks
    if not rounds & 2:
        return
    turned_down = -1 if upcard == JOKER_ID else upcard >> 3
    n_trumps = 5 if flags[FLAG_NO_TRUMP] else 4
    for trump in range(n_trumps):
        if trump == turned_down:
            continue
        for alone_pos in range(0, 5):
            if alone_pos > 0 and (not allow_alone or (only_pos and alone_pos != only_pos)):
                continue
            active, leader = _seats_in_play(dealer, alone_pos, lone_last)
            hp = _to_power(tb, trump, hands, active)
            ns = _team_tricks(tb, trump, hp, leader, active, 0, exact, tt, work)
            for pos in range(1, 5):
                if (alone_pos > 0 and pos != alone_pos) or (only_pos and pos != only_pos):
                    continue
                seat = (dealer + pos) & 3
                tricks = ns if (seat & 1) == 0 else 5 - ns
                out[ROUND1_ROWS + ((pos - 1) * 5 + trump) * 2 + (1 if alone_pos > 0 else 0)] = \
                    tricks


@njit
def _analyze_batch(tb, hands, upcards, dealer, exact, tt, out):
    work = _new_work()
    for i in range(hands.shape[0]):
        _analyze_deal(tb, hands[i], upcards[i], dealer, exact, 0, 3, tt, work, out[i])


@njit
def _solve_table(tb, hands, dealer, n_trumps, lone_last, tt, out):
    """Rows (trump, alone seat or -1, leader, NS tricks) for every trump and way of playing."""
    work = _new_work()
    row = 0
    for trump in range(n_trumps):
        for alone in range(-1, 4):
            active = 15
            if alone >= 0:
                active &= ~(1 << ((alone + 2) & 3))
            leader = _opening_leader(dealer, active, alone, lone_last)
            hp = _to_power(tb, trump, hands, active)
            out[row, 0] = trump
            out[row, 1] = alone
            out[row, 2] = leader
            out[row, 3] = _exact(tb, trump, hp, leader, active, tt, work)
            row += 1
    return row


def solve_table(rules, hands: list[int], dealer: int, tt=None) -> list[dict]:
    """The `solve` table of one deal: a row per trump and way of playing (SPEC.md)."""
    from .seats import SEAT_NAMES
    from .solver import _default_tt
    from .tables import compile_rules

    tt = tt if tt is not None else _default_tt()
    out = np.zeros((25, 4), dtype=np.int64)
    n_trumps = 5 if rules.no_trump else 4
    n = _solve_table(compile_rules(rules), np.array(hands, dtype=np.uint64), dealer, n_trumps,
                     rules.lone_player_plays_last, tt, out)
    deck = rules.card_deck
    return [{"trump": deck.suit_name(int(t)), "alone": SEAT_NAMES[a] if a >= 0 else None,
             "leader": SEAT_NAMES[int(leader)], "ns_tricks": int(ns), "ew_tricks": 5 - int(ns)}
            for t, a, leader, ns in out[:n]]


def analyze_deals(rules, hands: np.ndarray, upcards: np.ndarray, dealer: int = 0,
                  exact: bool = True, tt=None) -> np.ndarray:
    """Call tables (int8[n, N_ROWS], makers' tricks or -1) of a batch of deals."""
    from .solver import _default_tt
    from .tables import compile_rules

    tt = tt if tt is not None else _default_tt()
    out = np.zeros((hands.shape[0], N_ROWS), dtype=np.int8)
    _analyze_batch(compile_rules(rules), hands, upcards, dealer, exact, tt, out)
    return out
