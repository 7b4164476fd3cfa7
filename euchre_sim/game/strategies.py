"""Two simple engine strategies: uniformly random, and a trump-counting player (`--ns rules`).

A strategy answers four questions about a `HandState`: which bid, which discard, whether to
defend alone, which card. The trump counter looks only at its own hand and the cards played.
(The `rules` card-play model is another player: `play.conventional`.)
"""

from __future__ import annotations

import random

from ..core.cards import cards_of
from ..core.seats import partner_of, team_of
from .engine import Bid, HandState


class RandomStrategy:
    """Every choice uniformly at random among the legal ones."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def bid(self, state: HandState, options: list[Bid]) -> Bid:
        return self.rng.choice(options)

    def discard(self, state: HandState) -> int:
        return self.rng.choice(cards_of(state.hands[state.dealer]))

    def defend_alone(self, state: HandState, seat: int) -> bool:
        return self.rng.random() < 0.5

    def play(self, state: HandState, seat: int) -> int:
        return self.rng.choice(cards_of(state.legal_cards(seat)))


class TrumpCountStrategy:
    """A plain player: bids on trump count, leads trump as maker, wins cheaply, else plays low."""

    name = "rules"

    def _power(self, state: HandState, trump: int, card: int) -> int:
        """Strength of a card if trump were `trump` (trumps above every other card)."""
        keys = state.tables.win_key[trump]
        suit = state.tables.eff_suit[trump, card]
        return int(keys[suit, card]) if suit >= 0 else 0

    def _is_trump(self, state: HandState, trump: int, card: int) -> bool:
        return trump < 4 and state.tables.eff_suit[trump, card] == trump

    def _strength(self, state: HandState, hand: int, trump: int) -> float:
        """Trumps held, plus a half for the top trump; for no-trump, the aces held."""
        cards = cards_of(hand)
        if trump == 4:
            return sum(1.0 for c in cards if state.tables.order_pos[4, c] == 0)
        trumps = [c for c in cards if self._is_trump(state, trump, c)]
        top = any(state.tables.order_pos[trump, c] == 0 for c in trumps)
        return len(trumps) + (0.5 if top else 0.0)

    def bid(self, state: HandState, options: list[Bid]) -> Bid:
        """Call with 3 trumps (4.5 with the top one to go alone); the strongest call wins."""
        hand = state.hands[state.turn]
        best, best_score = None, -1.0
        for option in options:
            if option.action == "pass":
                continue
            held = hand | (1 << state.upcard) if (
                option.action == "order_up" and state.turn == state.dealer) else hand
            strength = self._strength(state, held, option.suit)
            if strength >= (4.5 if option.alone else 3.0) and strength > best_score:
                best, best_score = option, strength
        if best is not None:
            return best
        passes = [o for o in options if o.action == "pass"]
        if passes:
            return passes[0]
        # a stuck dealer: the strongest suit, with partner
        calls = [o for o in options if not o.alone] or options
        return max(calls, key=lambda o: self._strength(state, hand, o.suit))

    def discard(self, state: HandState) -> int:
        hand = state.hands[state.dealer]
        return min(cards_of(hand), key=lambda c: (self._is_trump(state, state.trump, c),
                                                 self._power(state, state.trump, c)))

    def defend_alone(self, state: HandState, seat: int) -> bool:
        return self._strength(state, state.hands[seat], state.trump) >= 4.5

    def play(self, state: HandState, seat: int) -> int:
        legal = cards_of(state.legal_cards(seat))
        trump = state.trump
        trick = state.tricks[-1]

        def power(c: int) -> int:
            return self._power(state, trump, c)

        if not trick.plays:
            if team_of(seat) == team_of(state.maker):
                trumps = [c for c in legal if self._is_trump(state, trump, c)]
                if trumps:
                    return max(trumps, key=power)
            return max(legal, key=power)
        led = state.led_suit()
        keys = state.tables.win_key[trump, led]
        best_seat, best_key = max(((s, int(keys[c])) for s, c in trick.plays),
                                  key=lambda p: p[1])
        if best_seat == partner_of(seat):
            return min(legal, key=power)
        winners = [c for c in legal if int(keys[c]) > best_key]
        if winners:
            return min(winners, key=lambda c: int(keys[c]))
        return min(legal, key=power)


def make_strategy(name: str, rng: random.Random):
    """'random' (drawing from rng) or 'rules' (TrumpCountStrategy)."""
    return RandomStrategy(rng) if name == "random" else TrumpCountStrategy()
