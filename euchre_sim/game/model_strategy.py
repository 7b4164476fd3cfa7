"""Self-play with a play model: an engine `HandState` seen through the Numba play models.

`ModelStrategy` bids (and decides on defending alone) like the strategy it wraps; its
discards and cards come from the play model (`play.models`), which sees only what that
seat may know (see `play.state`).
"""

from __future__ import annotations

import random

import numpy as np

from ..core.cards import cards_of
from ..play.models import DEFAULT_WORLDS, play_model
from ..play.net_weights import nets_for
from ..play.pimc import inference_of, new_pimc_work
from ..play.playout import PlayWork, choose_card, choose_discard
from ..play.state import S_DISCARD, S_MAKER_TURN, S_UPCARD, StateStart, new_state, play_card
from ..solver.search import new_tt
from .engine import HandState


def _power_mask(power_bit, cards: int) -> np.uint64:
    mask = 0
    for card in cards_of(cards):
        mask |= 1 << int(power_bit[card])
    return np.uint64(mask)


def state_arrays(state: HandState):
    """(power-layout hands, st, pm) for the seat to act: the state rebuilt from the deal,
    the discard and every card played so far."""
    tb = state.tables
    trump = state.trump
    power_bit = tb.power_bit[trump]
    active = sum(1 << s for s in state.active_seats())
    took_up = state.bids[-1].action == "order_up" and state.dealer not in state.out
    # the others believe the dealer holds the upcard until it is played, even when the
    # dealer threw it (as the kernels' playouts keep it)
    up = int(power_bit[state.upcard]) if took_up else -1
    known_out = np.uint64(0) if took_up else np.uint64(1 << int(power_bit[state.upcard]))
    played = [0, 0, 0, 0]
    for trick in state.tricks:
        for seat, card in trick.plays:
            played[seat] |= 1 << card
    hands = np.array([_power_mask(power_bit, state.hands[s] | played[s]) if active >> s & 1
                      else 0 for s in range(4)], dtype=np.uint64)
    leader = state.tricks[0].leader if state.tricks else state.opening_leader()
    st, pm = new_state(StateStart(trump, state.dealer, state.maker, int(state.maker_alone),
                                  int(state.defender_alone >= 0), active, leader, up,
                                  np.uint64(known_out)))
    if state.discarded >= 0:
        st[S_DISCARD] = int(power_bit[state.discarded])
    st[S_UPCARD] = state.upcard
    st[S_MAKER_TURN] = (state.bids[-1].round - 1) * 4 + state.position(state.maker) - 1
    lay = tb.layout[trump]
    for trick in state.tricks:
        for _, card in trick.plays:
            play_card(lay, hands, st, pm, int(power_bit[card]))
    return hands, st, pm


class ModelStrategy:
    """Bids like `bidder`; discards and plays cards by the play model."""

    def __init__(self, model: str, bidder, rng: random.Random, worlds: int = DEFAULT_WORLDS):
        self.name = model
        self.model = play_model(model).kernel
        self.bidder = bidder
        self.rng = rng
        self.worlds = worlds
        self.tt = new_tt()
        work = new_pimc_work(inference_of(), nets_for(model))
        self.works = (work, work)

    def bid(self, state, options):
        return self.bidder.bid(state, options)

    def defend_alone(self, state, seat):
        return self.bidder.defend_alone(state, seat)

    def _cards(self, tb, hands, st, pm) -> PlayWork:
        """The card play of a hand in these arrays, both sides by this model."""
        return PlayWork((self.model, self.model), tb, self.worlds, self.works, hands, st, pm)

    def _key(self) -> np.uint64:
        return np.uint64(self.rng.getrandbits(64))

    def discard(self, state: HandState) -> int:
        hands, st, pm = state_arrays(state)
        tb = state.tables
        p = choose_discard(self._cards(tb, hands, st, pm), tb.layout[state.trump], self._key(),
                           self.tt)
        return int(tb.power_card[state.trump, p])

    def play(self, state: HandState, seat: int) -> int:
        hands, st, pm = state_arrays(state)
        tb = state.tables
        p = choose_card(self._cards(tb, hands, st, pm), tb.layout[state.trump], seat,
                        self._key(), self.tt)
        return int(tb.power_card[state.trump, p])
