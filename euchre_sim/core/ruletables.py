"""Compile a RuleSet once into the small numpy tables every kernel reads.

Trump ids are 0-3 (a suit) and 4 (no-trump). Effective suits are 0-3, and 4 for "no suit"
(Benny in a no-trump hand). Bowers, Benny, the Yooker power card and no-trump exist only as
table contents here; kernels never branch on a variant.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .cards import JOKER, N_CARD_IDS, bit
from .rules import RuleSet

NO_TRUMP = 4
NO_SUIT = 4
TRUMP_BASE = 64  # win keys of trumps start here, so any trump beats any card of the led suit
JOKER_KEY = 127

# layout[trump]: [0, 64) the suit bits of the card at each power bit; [64, 69) suit bits of
# effective suits 0-4; 69 the trump bits (no-trump: Benny); 70 cards that may not lead; 71 the
# lowest bit of every effective suit.
LAYOUT_SUITS = 64
LAYOUT_TRUMPS = 69
LAYOUT_NO_LEAD = 70
LAYOUT_SUIT_LOWS = 71
LAYOUT_SIZE = 72

# value_masks[layout, trump]: a hand's cards that a point count weighs (the bidders'), in
# layout 0-4 (the power layout of that trump) or CARD_LAYOUT (card ids): VALUE_RANKS + r the
# trump r from the top (r < 4; no-trump: the joker at 0), VALUE_LOW_TRUMPS the lower trumps,
# VALUE_ACES / VALUE_KINGS the plain suits' top two (no-trump: every suit's), VALUE_TRUMPS
# every trump, VALUE_SUITS + s the plain suit s.
CARD_LAYOUT = 5
VALUE_RANKS, VALUE_LOW_TRUMPS, VALUE_ACES, VALUE_KINGS, VALUE_TRUMPS, VALUE_SUITS = \
    0, 4, 5, 6, 7, 8
VALUE_MASKS = VALUE_SUITS + 4

FLAG_STICK, FLAG_NO_TRUMP, FLAG_LONE_LAST, FLAG_CANADIAN, FLAG_DEFEND_ALONE, \
    FLAG_ALLOW_ALONE = range(6)
_FLAG_OPTIONS = ("stick_the_dealer", "no_trump", "lone_player_plays_last", "canadian_loner",
                 "defend_alone", "allow_alone")


class RuleTables(NamedTuple):
    """Per-trump tables of one rule set (arrays only, so Numba can take them as one argument)."""

    deck_mask: np.ndarray  # uint64[1]
    eff_suit: np.ndarray  # int8[5 trumps, 33 cards]
    suit_mask: np.ndarray  # uint64[5 trumps, 5 effective suits]
    win_key: np.ndarray  # int16[5 trumps, 5 led suits, 33 cards]; 0 = cannot win that trick
    order: np.ndarray  # int8[5 trumps, 5 suits, 10]: card ids high to low, -1 padded
    lead_forbidden: np.ndarray  # uint64[5]: cards that may not be led while others are held
    score: np.ndarray  # int8[2 maker alone, 2 defender alone, 6 maker tricks]: points to makers
    renege_penalty: np.ndarray  # int8[1]
    flags: np.ndarray  # int8[N_FLAGS]: bidding and lone-hand options, indexed by FLAG_*
    # The solver's "power layout" per trump: each effective suit a contiguous run of bits,
    # low to high power, the trump suit (no-trump: Benny) on top. A card's bit there orders
    # it against every card it can meet in a trick.
    power_bit: np.ndarray  # int8[5 trumps, 33 cards]: bit of the card (-1: not in the deck)
    power_card: np.ndarray  # int8[5 trumps, 64]: card id at each bit (-1: none)
    power_range: np.ndarray  # uint64[5 trumps, 5 effective suits]: bits of each suit
    power_bytes: np.ndarray  # uint64[5 trumps, 5 bytes, 256]: the power bits of each value of
    # each byte of a card mask (a hand to power layout in five lookups)
    layout: np.ndarray  # uint64[5 trumps, LAYOUT_SIZE]: the solver's one table, see below
    order_pos: np.ndarray  # int8[5 trumps, 33 cards]: position in its effective suit's order
    next_suit: np.ndarray  # int8[5 trumps]: the trump's same-colour suit (-1: no bowers)
    value_masks: np.ndarray  # uint64[6 layouts, 5 trumps, VALUE_MASKS], see VALUE_RANKS


def suit_order(rules: RuleSet, trump: int, suit: int) -> list[int]:
    """Card ids whose effective suit is `suit` under `trump`, highest first."""
    deck = rules.card_deck
    in_deck = [c for c in deck.cards if c != JOKER]
    ranks_high_first = sorted({c & 7 for c in in_deck}, reverse=True)

    def natural(s: int) -> list[int]:
        return [s * 8 + r for r in ranks_high_first]

    if trump == NO_TRUMP:
        if suit == NO_SUIT:
            return [JOKER] if rules.joker else []
        return natural(suit)
    if suit == NO_SUIT:
        return []
    top: list[int] = []
    if suit == trump:
        if rules.joker:
            top.append(JOKER)
        if rules.yooker:
            top.append(trump * 8 + 2)  # the 3 of the power shape
        else:
            top += [trump * 8 + 4, (3 - trump) * 8 + 4]  # right and left bower
        rest = [c for c in natural(trump) if c not in top]
        return top + rest
    left_bower = (3 - trump) * 8 + 4
    return [c for c in natural(suit) if rules.yooker or c != left_bower]


def compile_rules(rules: RuleSet) -> RuleTables:
    return _compile_cached(rules)


@lru_cache(maxsize=64)
def _compile_cached(rules: RuleSet) -> RuleTables:
    eff_suit = np.full((5, N_CARD_IDS), -1, dtype=np.int8)
    suit_mask = np.zeros((5, 5), dtype=np.uint64)
    win_key = np.zeros((5, 5, N_CARD_IDS), dtype=np.int16)
    order = np.full((5, 5, 10), -1, dtype=np.int8)
    lead_forbidden = np.zeros(5, dtype=np.uint64)
    for trump in range(5):
        for suit in range(5):
            cards = suit_order(rules, trump, suit)
            mask = 0
            for pos, card in enumerate(cards):
                eff_suit[trump, card] = suit
                order[trump, suit, pos] = card
                mask |= bit(card)
                strength = len(cards) - pos
                if trump == NO_TRUMP and card == JOKER:
                    win_key[trump, :, card] = JOKER_KEY
                elif suit == trump:
                    win_key[trump, :, card] = TRUMP_BASE + strength
                else:
                    win_key[trump, suit, card] = strength
            suit_mask[trump, suit] = np.uint64(mask)
        if trump == NO_TRUMP and rules.joker:
            lead_forbidden[trump] = np.uint64(bit(JOKER))
    power_bit, power_card, power_range = _power_layout(order)
    order_pos = np.full((5, N_CARD_IDS), -1, dtype=np.int8)
    next_suit = np.full(5, -1, dtype=np.int8)
    for trump in range(5):
        for suit in range(5):
            for pos, card in enumerate(order[trump, suit]):
                if card >= 0:
                    order_pos[trump, card] = pos
                    if suit == trump and card != JOKER and card >> 3 != trump:
                        next_suit[trump] = card >> 3  # the left bower's own suit
    score = np.zeros((2, 2, 6), dtype=np.int8)
    for maker_alone in (0, 1):
        for defender_alone in (0, 1):
            for tricks in range(6):
                score[maker_alone, defender_alone, tricks] = make_points(
                    rules, tricks, bool(maker_alone), bool(defender_alone)
                )
    return RuleTables(
        deck_mask=np.array([rules.card_deck.mask], dtype=np.uint64),
        eff_suit=eff_suit,
        suit_mask=suit_mask,
        win_key=win_key,
        order=order,
        lead_forbidden=lead_forbidden,
        score=score,
        renege_penalty=np.array([rules.renege_penalty], dtype=np.int8),
        flags=np.array([getattr(rules, name) for name in _FLAG_OPTIONS], dtype=np.int8),
        power_bit=power_bit,
        power_card=power_card,
        power_range=power_range,
        power_bytes=_power_bytes(power_bit),
        layout=_solver_layout(power_range, power_bit, lead_forbidden),
        order_pos=order_pos,
        next_suit=next_suit,
        value_masks=_value_masks(eff_suit, order_pos, power_bit),
    )


def _value_masks(eff_suit, order_pos, power_bit) -> np.ndarray:
    """The cards a point count weighs, by layout and trump (see VALUE_RANKS)."""
    masks = np.zeros((CARD_LAYOUT + 1, 5, VALUE_MASKS), dtype=np.uint64)
    for layout in range(CARD_LAYOUT + 1):
        for trump in range(5):
            for card in range(N_CARD_IDS):
                rank = int(order_pos[trump, card])
                if rank < 0:
                    continue
                where = card if layout == CARD_LAYOUT else int(power_bit[layout, card])
                suit = int(eff_suit[trump, card])
                if trump == NO_TRUMP:
                    kinds = [VALUE_RANKS] if card == JOKER else \
                        [VALUE_ACES] if rank == 0 else [VALUE_KINGS] if rank == 1 else []
                elif suit == trump:
                    kinds = [VALUE_TRUMPS, VALUE_RANKS + rank if rank < 4 else VALUE_LOW_TRUMPS]
                else:
                    kinds = [VALUE_SUITS + suit] + \
                        ([VALUE_ACES] if rank == 0 else [VALUE_KINGS] if rank == 1 else [])
                for kind in kinds:
                    masks[layout, trump, kind] |= np.uint64(1 << where)
    return masks


def _solver_layout(power_range, power_bit, lead_forbidden) -> np.ndarray:
    layout = np.zeros((5, LAYOUT_SIZE), dtype=np.uint64)
    for trump in range(5):
        for suit in range(5):
            rng = int(power_range[trump, suit])
            layout[trump, LAYOUT_SUITS + suit] = rng
            layout[trump, LAYOUT_SUIT_LOWS] |= rng & -rng
            for p in range(64):
                if rng >> p & 1:
                    layout[trump, p] = rng
        layout[trump, LAYOUT_TRUMPS] = power_range[trump, trump]
        no_lead = 0
        for card in range(N_CARD_IDS):
            if int(lead_forbidden[trump]) >> card & 1:
                no_lead |= 1 << int(power_bit[trump, card])
        layout[trump, LAYOUT_NO_LEAD] = no_lead
    return layout


def _power_bytes(power_bit: np.ndarray) -> np.ndarray:
    n_bytes = (N_CARD_IDS + 7) // 8
    values = np.arange(256)
    table = np.zeros((5, n_bytes, 256), dtype=np.uint64)
    for trump in range(5):
        for card in range(N_CARD_IDS):
            if power_bit[trump, card] >= 0:
                held = (values >> (card % 8)) & 1 == 1
                table[trump, card // 8, held] |= np.uint64(1 << int(power_bit[trump, card]))
    return table


def _power_layout(order: np.ndarray):
    """Bits of the power layout from the suit orders (see RuleTables)."""
    power_bit = np.full((5, N_CARD_IDS), -1, dtype=np.int8)
    power_card = np.full((5, 64), -1, dtype=np.int8)
    power_range = np.zeros((5, 5), dtype=np.uint64)
    for trump in range(5):
        suits = [s for s in range(5) if s != trump] + [trump]
        next_bit = 0
        for suit in suits:
            cards = [int(c) for c in order[trump, suit] if c >= 0]
            mask = 0
            for card in reversed(cards):  # low power first
                power_bit[trump, card] = next_bit
                power_card[trump, next_bit] = card
                mask |= 1 << next_bit
                next_bit += 1
            power_range[trump, suit] = np.uint64(mask)
    return power_bit, power_card, power_range


def make_points(rules: RuleSet, maker_tricks: int, maker_alone: bool, defender_alone: bool) -> int:
    """Points to the makers (negative: to the defenders) for a hand played out."""
    if maker_tricks < 3:
        return -(rules.lone_defence_points if defender_alone else rules.euchre_points)
    if maker_tricks < 5:
        return 1
    return rules.lone_march_points if maker_alone else rules.march_points
