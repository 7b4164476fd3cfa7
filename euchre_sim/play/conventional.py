"""The conventional player (`--play rules`): Euchre's card-play conventions, in Numba.

It sees only its own hand and what has been played (plus shown voids), and follows, in order:
Leading (rule 1 is also how a loner draws trump: from the top)
  1. The maker (alone or not) pulls trump: leads its highest trump while opponents may hold
     trump, if that trump is the highest still unseen or it holds two or more trumps.
  2. The maker's partner leads trump back only with the highest unseen trump.
  3. Lead an off-suit boss (an ace, or the highest card left of its suit), preferring a suit
     no opponent has shown void in.
  4. Defenders lead a suit their partner has shown void in (so the partner can trump).
  5. Else the lowest card of the shortest off suit, avoiding suits an opponent is void in;
     trump last.
Following
  6. Partner winning the trick: play low (never overtake or trump a partner's winner).
  7. Last to play: win as cheaply as possible, else play low.
  8. Otherwise win with the cheapest sure winner (no unseen card can beat it) when holding one;
     second hand following suit plays low; else third hand high (trumping: the lowest trump
     that wins).
Playing low: the lowest card of the led suit; when void, the lowest card of the shortest off
suit, keeping bosses, trumping never (a trump only when nothing else is left).
Dealer's discard (9): never the upcard or a trump while an off-suit card is left; an off-suit
singleton that is not a boss (to make a void), else the lowest card of the shortest off suit,
bosses last.
The loner (the maker alone) plays for all five tricks, ahead of rules 6-8 when not last:
 10. Following a plain suit: its lowest card that no unseen card of the suit beats, else its
     highest card that wins so far (never "second hand low").
 11. Trumping (void, or over a trump lead) while the march is on: the lowest trump above every
     trump a seat still to play may hold, when its other trumps still draw every unseen trump
     from the top (its i-th highest above the i-th highest unseen, as if one defender held them
     all); else the highest winning trump that leaves such a draw; else, ruffing while it keeps
     a trump above every unseen one, its lowest winning trump (an overruff needs a defender
     void in the suit, while after the safe ruff an unseen trump beats what is left). Else the
     lowest trump no seat still to play can beat, else the cheapest trump as good as its
     highest.
Against a loner:
 12. A defender after the loner in the trick wins as cheaply as it can (only its partner is
     left); one before the loner plays over its partner's card unless that card is a boss of
     the suit: its cheapest sure winner, else its highest winning card (no "second hand low").
 13. Throwing off: first a card of a suit the loner has shown void in (it can never win), then
     a spare low card beyond the guards its top card of the suit needs (one per unseen card
     above it), then from the suit it guards least; last, a suit its partner has shown void in.
"""

from __future__ import annotations

import numpy as np

from ..core.bits import above_highest, bits_above, high_bit, low_index, one_bit, popcount
from ..core.jit import njit
from ..core.ruletables import LAYOUT_SUITS, LAYOUT_TRUMPS
from ..core.seats import partner_of, team_of
from ..core.trick import legal_cards, next_active
from .state import (
    P_BY,
    P_LED,
    P_TRICK,
    P_VOID,
    S_ACTIVE,
    S_DEALER,
    S_MAKER,
    S_MAKER_ALONE,
    S_MAKER_TRICKS,
    S_N_ACTIVE,
    S_POS,
    S_TRICKS,
    S_UP,
    S_WBIT,
    S_WSEAT,
    is_boss,
    lowest_card,
    rank_from_top,
    top_card,
    unseen_by,
)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(nrt=False)
def _low_from_shortest(lay, cards, unseen, avoid):
    """The lowest card of the shortest suit of `cards` (bosses kept back when possible),
    skipping suits that meet `avoid` when another suit is left."""
    best = -1
    best_score = 1 << 30
    for s in range(5):
        suit = lay[LAYOUT_SUITS + s]
        mine = cards & suit
        if not mine:
            continue
        plain = mine
        m = mine
        while m:
            p = low_index(m)
            m &= m - _ONE
            if is_boss(lay, unseen, p):
                plain &= ~one_bit(p)
        pick = lowest_card(lay, plain) if plain else lowest_card(lay, mine)
        score = (1000 if suit & avoid else 0) + (100 if not plain else 0) \
            + popcount(mine) * 10 + s
        if score < best_score:
            best = pick
            best_score = score
    return best


@njit(nrt=False)
def _boss_lead(lay, cards, unseen, avoid):
    """A boss among `cards` (the top of its suit among cards unseen), from the suit with the
    most cards still out, avoiding suits that meet `avoid`; -1 when none."""
    best = -1
    best_score = 1 << 30
    for s in range(5):
        suit = lay[LAYOUT_SUITS + s]
        mine = cards & suit
        if not mine:
            continue
        pick = top_card(mine)
        if not is_boss(lay, unseen, pick):
            continue
        score = (1000 if suit & avoid else 0) - popcount(unseen & suit) * 10 + s
        if score < best_score:
            best = pick
            best_score = score
    return best


@njit(nrt=False)
def _discard_low(lay, legal, unseen):
    """Play low when not following suit: shortest off suit's lowest card; trump last."""
    off = legal & ~lay[LAYOUT_TRUMPS]
    if off:
        return _low_from_shortest(lay, off, unseen, _ZERO)
    return low_index(legal)


@njit(nrt=False)
def _defence_discard(lay, legal, unseen, loner_voids, partner_voids):
    """Convention 13: a defender's throw-off against a loner (trump last)."""
    off = legal & ~lay[LAYOUT_TRUMPS]
    if not off:
        return low_index(legal)
    if off & loner_voids:
        return lowest_card(lay, off & loner_voids)
    best = -1
    best_score = 1 << 30
    for s in range(5):
        suit = lay[LAYOUT_SUITS + s]
        mine = off & suit
        if not mine:
            continue
        guards = 1 + popcount(unseen & suit & bits_above(top_card(mine)))
        spare = popcount(mine) - guards
        score = (1000 if suit & partner_voids else 0) + s \
            + (-10 * spare if spare > 0 else 100 + 10 * spare)
        if score < best_score:
            best = lowest_card(lay, mine)
            best_score = score
    return best


@njit(nrt=False)
def _play_low(lay, legal, st, pm, seat, unseen):
    if legal & pm[P_LED]:
        return low_index(legal)
    loner = _loner(st)
    if loner >= 0 and team_of(seat) != team_of(loner):
        return _defence_discard(lay, legal, unseen, pm[P_VOID + loner],
                                pm[P_VOID + partner_of(seat)])
    return _discard_low(lay, legal, unseen)


@njit(nrt=False)
def _opponent_voids(st, pm, seat):
    voids = _ZERO
    for s in range(4):
        if team_of(s) != team_of(seat) and (st[S_ACTIVE] >> s) & 1:
            voids |= pm[P_VOID + s]
    return voids


@njit(nrt=False)
def _rules_lead(lay, legal, st, pm, seat, unseen):
    trumps = lay[LAYOUT_TRUMPS]
    my_trumps = legal & trumps
    trumps_out = unseen & trumps
    maker = st[S_MAKER]
    opp_voids = _opponent_voids(st, pm, seat)
    if my_trumps and trumps_out:
        top = top_card(my_trumps)
        boss = is_boss(lay, unseen, top)
        if seat == maker and (boss or popcount(my_trumps) >= 2):
            return top
        if seat == partner_of(maker) and not st[S_MAKER_ALONE] and boss:
            return top
    off = legal & ~trumps
    if off:
        avoid = opp_voids if trumps_out else _ZERO
        boss = _boss_lead(lay, off, unseen, avoid)
        if boss >= 0:
            return boss
        partner = partner_of(seat)
        if team_of(seat) != team_of(maker) and (st[S_ACTIVE] >> partner) & 1:
            to_partner = off & pm[P_VOID + partner]
            if to_partner:
                return lowest_card(lay, to_partner)
        return _low_from_shortest(lay, off, unseen, avoid)
    return low_index(legal)


@njit(nrt=False)
def _loner(st):
    """The lone maker's seat, or -1."""
    return st[S_MAKER] if st[S_MAKER_ALONE] else -1


@njit(nrt=False)
def _draws(mine, out):
    """Do trumps `mine`, led from the top, draw the trumps `out` even from one hand (each of
    mine, highest first, above the highest still out)?"""
    while out:
        if high_bit(mine) < high_bit(out):
            return False
        mine &= ~high_bit(mine)
        out &= ~high_bit(out)
    return True


@njit(nrt=False)
def _behind_may_trump(st, pm, seat, trumps):
    """May a seat still to play in this trick hold a trump (none shown void in trumps)?"""
    s = seat
    for _ in range(st[S_N_ACTIVE] - 1 - st[S_POS]):
        s = next_active(st[S_ACTIVE], s)
        if not pm[P_VOID + s] & trumps:
            return True
    return False


@njit(nrt=False)
def _lone_trump(beats, mine, out, behind, ruffing, march):
    """Convention 11: the loner's trump among `beats`, ahead of a defender that may hold the
    trumps `behind`, keeping trumps `mine` that draw the trumps `out` while a march is on."""
    safe = beats & above_highest(behind) if behind else beats
    if safe:
        s = low_index(safe)
        if not march or _draws(mine & ~one_bit(s), out):
            return s
    if march:
        m = beats & ~safe
        while m:
            c = top_card(m)
            m &= ~one_bit(c)
            if _draws(mine & ~one_bit(c), out):
                return c
        if ruffing and high_bit(mine) > high_bit(out):
            return low_index(beats)
    if safe:
        return low_index(safe)
    m = beats
    while out & bits_above(low_index(m)) != out & above_highest(m):
        m &= m - _ONE
    return low_index(m)


@njit(nrt=False)
def _lone_card(lay, legal, beats, st, pm, seat, unseen):
    """Conventions 10 and 11: the loner, not last, wins the trick if it can."""
    led = pm[P_LED]
    trumps = lay[LAYOUT_TRUMPS]
    if not beats & trumps:
        m = beats
        while m:
            p = low_index(m)
            m &= m - _ONE
            if not unseen & led & bits_above(p):
                return p
        return top_card(beats)
    out = unseen & trumps
    behind = out if _behind_may_trump(st, pm, seat, trumps) else _ZERO
    march = st[S_MAKER_TRICKS] == st[S_TRICKS]
    return _lone_trump(beats, legal & trumps, out, behind, not led & trumps, march)


@njit(nrt=False)
def _rules_follow(lay, legal, st, pm, seat, unseen):
    led = pm[P_LED]
    trumps = lay[LAYOUT_TRUMPS]
    loner = _loner(st)
    defending = loner >= 0 and team_of(seat) != team_of(loner)
    loner_to_play = loner >= 0 and not pm[P_TRICK] & pm[P_BY + loner]
    if st[S_WSEAT] == partner_of(seat) and not (
            defending and loner_to_play and not is_boss(lay, unseen, st[S_WBIT])):
        return _play_low(lay, legal, st, pm, seat, unseen)
    beats = legal & (led | trumps) & bits_above(st[S_WBIT])
    if not beats:
        return _play_low(lay, legal, st, pm, seat, unseen)
    if st[S_POS] == st[S_N_ACTIVE] - 1 or (defending and not loner_to_play):
        return low_index(beats)
    if seat == loner:
        return _lone_card(lay, legal, beats, st, pm, seat, unseen)
    threats = unseen & (led | trumps)
    m = beats
    while m:
        p = low_index(m)
        m &= m - _ONE
        if not threats & bits_above(p):
            return p
    if legal & led:
        if st[S_POS] == 1 and not defending:
            return low_index(legal)
        return top_card(beats)
    return low_index(beats)


@njit(nrt=False)
def conventional_card(lay, hands, st, pm, seat):
    """The conventional player's card (a power bit) for the seat to play."""
    hand = hands[seat]
    legal = legal_cards(lay, hand, pm[P_LED])
    if popcount(legal) == 1:
        return low_index(legal)
    unseen = unseen_by(lay, hands, st, pm, seat)
    if st[S_POS] == 0:
        return _rules_lead(lay, legal, st, pm, seat, unseen)
    return _rules_follow(lay, legal, st, pm, seat, unseen)


@njit(nrt=False)
def conventional_discard(lay, hands, st, pm):
    """The dealer's discard from six cards (convention 9)."""
    dealer = st[S_DEALER]
    return discard_from(lay, hands[dealer], st[S_UP], unseen_by(lay, hands, st, pm, dealer))


@njit(nrt=False)
def discard_from(lay, six, up, unseen):
    """Convention 9 for the dealer holding `six` (up: the upcard's power bit, -1: none;
    unseen: the cards the dealer cannot place)."""
    hand = six & ~one_bit(up) if up >= 0 else six
    off = hand & ~lay[LAYOUT_TRUMPS]
    if not off:
        return low_index(hand)
    best = -1
    best_score = 1 << 30
    m = off
    while m:
        p = low_index(m)
        m &= m - _ONE
        count = popcount(off & lay[p])
        boss = is_boss(lay, unseen, p)
        score = (1000 if boss else 0) + (0 if count == 1 else count * 10) \
            - rank_from_top(lay, p)
        if score < best_score:
            best = p
            best_score = score
    return best
