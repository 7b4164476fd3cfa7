"""Python entry points to library kernels that only the tests call (solve one position, one
trick, one random hand as a record, the deals `advise` samples)."""

import numpy as np

from euchre_sim.advice.advise import deal_around
from euchre_sim.advice.question import ADVISE_DEALER
from euchre_sim.core import trick
from euchre_sim.core.cards import bit, cards_of
from euchre_sim.core.dealing import deal_one, seed_to_u64
from euchre_sim.core.ruletables import LAYOUT_TRUMPS, compile_rules
from euchre_sim.core.seats import SEAT_NAMES, seat_at
from euchre_sim.game.random_hands import CALL, PASS, play_key, random_hand
from euchre_sim.solver.search import (
    Search,
    TrickPoint,
    at_least,
    endgame,
    exact_tricks,
    new_tt,
    new_work,
    quick_tricks,
    search_at,
    shared_tt,
    sure_trump_tricks,
    to_power,
)


def power_hands(tables, trump: int, hands, active: int) -> np.ndarray:
    """The hands (card ids, by seat) in the trump's power layout, in a new array."""
    power = np.empty(4, np.uint64)
    to_power(tables, trump, np.array(hands, dtype=np.uint64), active, power)
    return power


def legal_mask(tables, trump: int, hand: int, led_suit: int) -> int:
    """Legal cards of `hand` (led_suit -1 when leading)."""
    return int(trick.legal_mask(tables, trump, np.uint64(hand), led_suit))


def trick_winner(tables, trump: int, cards: list[int]) -> int:
    """Position in `cards` of the winning card."""
    return int(trick.trick_winner(tables, trump, np.array(cards, dtype=np.int64), len(cards)))


def active_mask(active) -> int:
    """Seat bit mask from four booleans."""
    return sum(1 << s for s in range(4) if active[s])


def solve(rules, hands: list[int], trump: int, leader: int, active=(True,) * 4, tt=None) -> int:
    """NS tricks when all play perfectly; hands indexed by seat (sitting-out hands ignored)."""
    tb = compile_rules(rules)
    mask = active_mask(active)
    power = power_hands(tb, trump, hands, mask)
    tt = tt if tt is not None else shared_tt()
    return int(exact_tricks(tb.layout[trump], power, leader, mask, tt, new_work()))


def endgame_tricks(rules, hands: list[int], trump: int, leader: int, active, alpha: int,
                   beta: int) -> int:
    """The solver's nested-loop endgame (3-5 cards a hand, 3-4 seats in play) with an empty
    table, fail-soft in the window (alpha, beta)."""
    tb = compile_rules(rules)
    mask = active_mask(active)
    power = power_hands(tb, trump, hands, mask)
    tt = new_tt(10)
    n = bin(int(power[leader])).count("1")
    return int(endgame(Search(tb.layout[trump], mask, sum(active), tt), power, leader, alpha,
                       beta, n))


def sure_tricks(rules, hands: list[int], trump: int, leader: int, active) -> tuple:
    """The solver's two bounds at a trick boundary: (tricks the leader's side surely takes by
    cashing the leader's top cards, (NS, EW) tricks each side surely takes with one seat's
    trumps)."""
    tb = compile_rules(rules)
    power = power_hands(tb, trump, hands, active_mask(active))
    lay = tb.layout[trump]
    ns, ew = sure_trump_tricks(lay, power)
    return int(quick_tricks(lay, power, leader)), (int(ns), int(ew))


def solve_mid_trick(rules, hands: list[int], trump: int, leader: int, active, trick: list[int],
                    tt) -> int:
    """NS tricks (the current one included) when `leader` led the cards `trick` (in play
    order) and the next seat is to play; hands hold the cards not yet played."""
    tb = compile_rules(rules)
    mask = active_mask(active)
    lay = tb.layout[trump]
    power = power_hands(tb, trump, hands, mask)
    bits = [int(tb.power_bit[trump, card]) for card in trick]
    led = lay[bits[0]]
    wbit, wseat, seat = bits[0], leader, leader
    for p in bits[1:]:
        seat = trick_seat_after(mask, seat)
        if (1 << p) & int(led | lay[LAYOUT_TRUMPS]) and p > wbit:
            wbit, wseat = p, seat
    seat = trick_seat_after(mask, seat)
    n_active = bin(mask).count("1")
    return int(search_at(Search(lay, mask, n_active, tt), power,
                         TrickPoint(seat, len(trick), np.uint64(led), wbit, wseat), -1, 6,
                         new_work()))


def trick_seat_after(active: int, seat: int) -> int:
    """The next seat in play after `seat`."""
    return int(trick.next_active(active, seat))


def ns_at_least(tables, trump: int, hands: np.ndarray, leader: int, active: int, target: int,
                tt) -> bool:
    """Does NS take at least `target` tricks? (hands in card ids, `active` a seat mask)"""
    power = power_hands(tables, trump, hands, active)
    lay = tables.layout[trump]
    return bool(at_least(lay, power, leader, active, target, tt, new_work()))


def sampled_deals(rules, hand_text: str, position: int, ref: str, deals: int,
                  seed: int) -> list[list[int]]:
    """The deals `advise` solves (hands by seat), for checking it against the solver."""
    deck = rules.card_deck
    hand = deck.parse_hand(hand_text)
    ref_card = deck.parse_card(ref)
    unseen = np.array(cards_of(deck.mask & ~hand & ~bit(ref_card)), dtype=np.int64)
    seat = seat_at(ADVISE_DEALER, position)
    hands = np.zeros(4, dtype=np.uint64)
    work = np.empty_like(unseen)
    result = []
    for i in range(deals):
        deal_around(unseen, seed_to_u64(seed), i, seat, np.uint64(hand), hands, work)
        result.append([int(h) for h in hands])
    return result


def random_hand_record(rules, seed: int, index: int) -> dict:
    """One hand of the jitted random engine as a SPEC hand-history record."""
    deck = rules.card_deck
    dealer = index % 4
    hands, upcard = deal_one(rules, seed, index, dealer)
    work = np.array(hands, dtype=np.uint64)
    bids = np.zeros((8, 5), dtype=np.int64)
    plays = np.zeros((20, 2), dtype=np.int64)
    out = np.zeros(8, dtype=np.int64)
    key = np.uint64(play_key(seed_to_u64(seed), np.uint64(index)))
    random_hand(compile_rules(rules), dealer, work, upcard, key, bids, plays, out)
    n_bids, discard, defender, n_plays = (int(x) for x in out[:4])
    record_bids = []
    for seat, rnd, action, suit, alone in bids[:n_bids].tolist():
        entry = {"seat": SEAT_NAMES[seat], "round": rnd,
                 "action": ("pass", "order_up", "call")[action]}
        if action == CALL:
            entry["suit"] = deck.suit_name(suit)
        if action != PASS:
            entry["alone"] = bool(alone)
        record_bids.append(entry)
    tricks = []
    n_active = n_plays // 5 if n_plays else 0
    for t in range(5 if n_plays else 0):
        chunk = plays[t * n_active:(t + 1) * n_active].tolist()
        tricks.append({"leader": SEAT_NAMES[chunk[0][0]],
                       "plays": [{"seat": SEAT_NAMES[s], "card": deck.card_name(c)}
                                 for s, c in chunk]})
    return {
        "id": index, "dealer": SEAT_NAMES[dealer],
        "hands": [deck.format_hand(h).split() for h in hands],
        "upcard": deck.card_name(upcard), "bids": record_bids,
        "discard": deck.card_name(discard) if discard >= 0 else None,
        "defend_alone": SEAT_NAMES[defender] if defender >= 0 else None,
        "tricks": tricks,
        "points": {"NS": int(out[4]), "EW": int(out[5])},
    }
