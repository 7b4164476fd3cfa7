"""Whole-deal analyses on the solver: the `solve` table, and every call open in a deal.

A deal's call table has one row per call (round, position, trump, alone; layout and which calls
are open: `core.calls`): the makers' tricks under perfect play, -1 where that call is not open.
Round 1 orders up the upcard's suit (the dealer takes it and discards the card best for the
dealer's side, found by a search layer over the distinct discards that shares the table);
round 2 names any other suit or no-trump.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

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
    opening_leader,
    seats_in_play,
)
from ..core.dealing import Deal
from ..core.jit import njit, unlinked
from ..core.ruletables import FLAG_LONE_LAST
from ..core.seats import partner_of, seat_at, team_of
from .equivalence import candidates
from .search import at_least, exact_tricks, new_work, shared_tt, to_power


@njit
def _team_exact(lay, hands_p, leader, active, team, tt, work):
    """Tricks of `team` (0 NS, 1 EW) under perfect play."""
    ns = exact_tricks(lay, hands_p, leader, active, tt, work)
    return ns if team == 0 else 5 - ns


@njit
def team_at_least(lay, hands_p, leader, active, team, k, tt, work):
    """Does `team` (0 NS, 1 EW) take at least k tricks? One zero-window search."""
    if team == 0:
        return at_least(lay, hands_p, leader, active, k, tt, work)
    return not at_least(lay, hands_p, leader, active, 6 - k, tt, work)


@njit
def _discards(lay, hands_p, dealer, out):
    """Distinct discards of the dealer's six cards, lowest power first (power bits).

    Two cards adjacent in power among all cards in play leave equivalent hands: keep one."""
    hand = hands_p[dealer]
    live = hands_p[0] | hands_p[1] | hands_p[2] | hands_p[3]
    return candidates(lay, hand, hand, live, out)


class _Opening(NamedTuple):
    """A contract's position at the opening lead: the trump's layout (`lay`), the hands in
    power layout (`hands_p`), the `dealer`, the `leader`, the seats in play (`active`) and the
    dealer's distinct discards (`cands[:count]`; count 0: the dealer holds five cards)."""

    lay: np.ndarray
    hands_p: np.ndarray
    dealer: int
    leader: int
    active: int
    cands: np.ndarray
    count: int


@njit
def _dealer_at_least(opening, k, tt, work):
    """Does the dealer's side take at least k tricks? With discard candidates (count > 0) the
    dealer holds six cards: does some discard give it k?"""
    lay, hands_p, dealer, leader, active, cands, count = opening
    if count == 0:
        return team_at_least(lay, hands_p, leader, active, team_of(dealer), k, tt, work)
    for i in range(count):
        b = one_bit(cands[i])
        hands_p[dealer] &= ~b
        hit = team_at_least(lay, hands_p, leader, active, team_of(dealer), k, tt, work)
        hands_p[dealer] |= b
        if hit:
            return True
    return False


@njit
def _dealer_class(opening, makers, tt, work):
    """The dealer's side's tricks as a representative of the makers' scoring class: 0 | 1 (1-2)
    | 3 (3-4) | 5, by zero-window searches. makers: the side whose calls are asked (0 NS, 1 EW,
    -1 either); only the thresholds that change its points are searched (a euchred side's 0
    and 1-2 tricks score alike, and so do a euchring side's 3-4 and 5)."""
    dealer_makes = makers == team_of(opening.dealer)
    # thresholds as int64, not literals: a literal argument compiles the solver once per value
    if _dealer_at_least(opening, np.int64(3), tt, work):
        if makers >= 0 and not dealer_makes:
            return 3
        return 5 if _dealer_at_least(opening, np.int64(5), tt, work) else 3
    if dealer_makes:
        return 1
    return 1 if _dealer_at_least(opening, np.int64(1), tt, work) else 0


@njit
def _best_discard_exact(lay, hands_p, dealer, leader, active, tt, work):
    """Dealer's side tricks when the dealer, holding six cards, discards the card best for
    its side."""
    team = team_of(dealer)
    cands = np.empty(8, dtype=np.int64)
    count = _discards(lay, hands_p, dealer, cands)
    best = -1
    for i in range(count):
        b = one_bit(cands[i])
        hands_p[dealer] &= ~b
        if best < 0:
            best = _team_exact(lay, hands_p, leader, active, team, tt, work)
        elif team_at_least(lay, hands_p, leader, active, team, best + 1, tt, work):
            best = _team_exact(lay, hands_p, leader, active, team, tt, work)
        hands_p[dealer] |= b
        if best == 5:
            break
    return best


@njit
def dealer_side_tricks(tb, deal, contract, exact, makers, tt, work):
    """Tricks of the dealer's side when the `contract` is played (round 1: a dealer in play
    takes the upcard and discards the card best for its side): exact, or a representative of
    the scoring class of `makers` (0 NS, 1 EW, -1 either; see _dealer_class)."""
    hands, upcard, dealer = deal
    round_no, trump, alone_pos, def_pos = contract
    active, leader = seats_in_play(dealer, alone_pos, def_pos, tb.flags[FLAG_LONE_LAST] != 0)
    discard = round_no == 1 and (active >> dealer) & 1
    hp = work[2]
    to_power(tb, trump, hands, active, hp)
    if discard:
        hp[dealer] |= one_bit(tb.power_bit[trump, upcard])
    lay = tb.layout[trump]
    if exact:
        if discard:
            return _best_discard_exact(lay, hp, dealer, leader, active, tt, work)
        return _team_exact(lay, hp, leader, active, team_of(dealer), tt, work)
    cands = np.empty(8, dtype=np.int64)
    count = _discards(lay, hp, dealer, cands) if discard else 0
    return _dealer_class(_Opening(lay, hp, dealer, leader, active, cands, count), makers, tt,
                         work)


call_dealer_side_tricks = unlinked(dealer_side_tricks)


@njit
def analyze_deal(tb, deal, exact, only_pos, rounds, tt, work, out):
    """Fill `out` (N_ROWS, the layout of `core.calls`) with the makers' tricks of every call
    open in the deal (exact, or representatives that score the same: 0, 1, 3, 5 for the
    dealer's side, see _dealer_class, so 5, 4, 2, 0 for the other), -1 where a call is not
    open; with defending alone on, also against each lone defender.

    only_pos: 0 for every seat, else just that position's calls; rounds: what to fill
    (ROUND_1, ROUND_2, WITH_DEFENCE of `core.calls`)."""
    _, upcard, dealer = deal
    flags = tb.flags
    defence = defence_open(flags) and (rounds & WITH_DEFENCE) != 0
    out[:] = -1
    dealer_team = team_of(dealer)
    for round_no in range(1, 3):
        if not rounds & round_no:
            continue
        for trump in range(5):
            for alone_pos in range(0, 5):  # 0: partnership; 1-4: that position alone
                for def_pos in range(0, 5 if defence else 1):  # 0: both defenders play
                    if not _any_written(flags, round_no, trump, alone_pos, def_pos, only_pos,
                                        upcard):
                        continue
                    dealer_tricks = call_dealer_side_tricks(
                        tb, deal, Contract(round_no, trump, alone_pos, def_pos), exact,
                        _makers(dealer, alone_pos, def_pos, only_pos), tt, work)
                    alone = 1 if alone_pos > 0 else 0
                    for pos in range(1, 5):
                        if not _written(flags, round_no, pos, trump, alone_pos, def_pos,
                                        only_pos, upcard):
                            continue
                        seat = seat_at(dealer, pos)
                        tricks = dealer_tricks if team_of(seat) == dealer_team \
                            else 5 - dealer_tricks
                        row = call_row(round_no, pos, trump, alone)
                        if def_pos:
                            row = defence_row(row, (def_pos - 1) // 2)
                        out[row] = tricks


@njit
def _makers(dealer, alone_pos, def_pos, only_pos):
    """The side (0 NS, 1 EW) whose calls a way of playing fills, or -1 for either."""
    for pos in (alone_pos, only_pos):
        if pos:
            return team_of(seat_at(dealer, pos))
    if def_pos:
        return 1 - team_of(seat_at(dealer, def_pos))
    return -1


@njit
def _written(flags, round_no, pos, trump, alone_pos, def_pos, only_pos, upcard):
    """Does the way of playing (alone_pos, def_pos: 0 or a position) give position pos's open
    call a row to fill?"""
    if (alone_pos and pos != alone_pos) or (only_pos and pos != only_pos):
        return False
    if def_pos and (pos - def_pos) % 2 == 0:
        return False  # a lone defender sits on the other side
    return call_open(flags, round_no, pos, trump, 1 if alone_pos else 0, upcard)


@njit
def _any_written(flags, round_no, trump, alone_pos, def_pos, only_pos, upcard):
    for pos in range(1, 5):
        if _written(flags, round_no, pos, trump, alone_pos, def_pos, only_pos, upcard):
            return True
    return False


call_analyze_deal = unlinked(analyze_deal)


@njit
def analyze_batch(tb, hands, upcards, dealer, exact, parts, tt, out):
    work = new_work()
    for i in range(hands.shape[0]):
        call_analyze_deal(tb, Deal(hands[i], upcards[i], dealer), exact, 0, parts, tt, work,
                          out[i])


@njit
def _solve_tables(tb, hands, dealers, n_trumps, lone_last, tt, out):
    """out[i]: the rows of deal i's solve table (see _solve_table); returns the rows a deal."""
    work = new_work()
    rows = 0
    for i in range(hands.shape[0]):
        rows = _solve_table(tb, hands[i], dealers[i], n_trumps, lone_last, tt, work, out[i])
    return rows


@njit
def _solve_table(tb, hands, dealer, n_trumps, lone_last, tt, work, out):
    """Rows (trump, alone seat or -1, leader, NS tricks) for every trump and way of playing."""
    row = 0
    for trump in range(n_trumps):
        for alone in range(-1, 4):
            active = 15
            if alone >= 0:
                active &= ~(1 << partner_of(alone))
            leader = opening_leader(dealer, active, alone, lone_last)
            hp = work[2]
            to_power(tb, trump, hands, active, hp)
            out[row, 0] = trump
            out[row, 1] = alone
            out[row, 2] = leader
            out[row, 3] = exact_tricks(tb.layout[trump], hp, leader, active, tt, work)
            row += 1
    return row


def solve_tables(rules, hands: np.ndarray, dealers: np.ndarray, tt=None) -> np.ndarray:
    """The `solve` tables of a batch of deals (hands uint64[n, 4] by seat, dealers int[n]):
    int64[n, rows, 4] of (trump, alone seat or -1, leader, NS tricks), a row per trump and
    way of playing (SPEC.md), in one call of the solver."""
    from ..core.ruletables import compile_rules

    tt = tt if tt is not None else shared_tt()
    out = np.zeros((len(hands), 25, 4), dtype=np.int64)
    rows = _solve_tables(compile_rules(rules), np.asarray(hands, dtype=np.uint64),
                         np.asarray(dealers, dtype=np.int64), len(rules.trump_choices),
                         rules.lone_player_plays_last, tt, out)
    return out[:, :rows]


def solve_table(rules, hands: list[int], dealer: int, tt=None) -> list[dict]:
    """The `solve` table of one deal as SPEC's JSON rows."""
    return table_rows(rules, solve_tables(rules, [hands], [dealer], tt)[0])


def table_rows(rules, table: np.ndarray) -> list[dict]:
    """SPEC's JSON rows of one solved table (a solve_tables entry)."""
    from ..core.seats import SEAT_NAMES

    deck = rules.card_deck
    return [{"trump": deck.suit_name(int(t)), "alone": SEAT_NAMES[a] if a >= 0 else None,
             "leader": SEAT_NAMES[int(leader)], "ns_tricks": int(ns), "ew_tricks": 5 - int(ns)}
            for t, a, leader, ns in table]


def analyze_deals(rules, hands: np.ndarray, upcards: np.ndarray, dealer: int = 0,
                  exact: bool = True, tt=None, defence: bool = False) -> np.ndarray:
    """Call tables (int8[n, N_ROWS], makers' tricks or -1) of a batch of deals; `defence`:
    with the lone-defence rows where the rules allow them."""
    from ..core.ruletables import compile_rules

    tt = tt if tt is not None else shared_tt()
    out = np.zeros((hands.shape[0], N_ROWS), dtype=np.int8)
    analyze_batch(compile_rules(rules), hands, upcards, dealer, exact,
                  BOTH_ROUNDS | (WITH_DEFENCE if defence else 0), tt, out)
    return out


def solve_json_lines(rules, dealers, tables: np.ndarray) -> list[str]:
    """`solve --json` lines of solved tables (solve_tables), text for text the json.dumps of
    {"dealer": …, "table": solve_table(…)}, built from per-row templates (fast for batches)."""
    from ..core.seats import SEAT_NAMES

    deck = rules.card_deck
    heads = {}
    lines = []
    for dealer, table in zip(dealers, tables, strict=True):
        rows = []
        for trump, alone, leader, ns in table.tolist():
            head = heads.get((trump, alone, leader))
            if head is None:
                alone_text = f'"{SEAT_NAMES[alone]}"' if alone >= 0 else "null"
                head = heads[(trump, alone, leader)] = (
                    f'{{"trump": "{deck.suit_name(trump)}", "alone": {alone_text}, '
                    f'"leader": "{SEAT_NAMES[leader]}", "ns_tricks": ')
            rows.append(f'{head}{ns}, "ew_tricks": {5 - ns}}}')
        lines.append(f'{{"dealer": "{SEAT_NAMES[int(dealer)]}", "table": [{", ".join(rows)}]}}')
    return lines
