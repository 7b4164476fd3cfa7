"""A practice hand: the player holds one seat, the other three bid and play as the table's
players (`Sides`; seeded by the deal, so that the same choices meet the same answers), and the
engine stops at each of the player's decisions.

What the player may see is all `view` gives: its own cards, the upcard, the bids, the cards
played and, once the hand is over, the whole deal. `legal` lists the player's choices as the
act takes them: a bid `{"action", "suit", "alone"}`, a card's name (a card to play or the
dealer's discard), or `"partner"` / `"alone"` for defending alone.
"""

from __future__ import annotations

import json
import random

from ..core.dealing import deal_one
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, TEAM_NAMES, seat_at
from .bidders import Sides
from .engine import HandState
from .history import bid_label

PLAYER_SEAT = 2  # the player sits S, at the bottom of the page's table
DEFENCE_CHOICES = ("partner", "alone")
# the decision a phase asks for, by review's kinds
DECISIONS = {"bid": "bid", "discard": "discard", "defend": "defend_alone", "play": "card"}


def first_dealer(position: int) -> int:
    """The seat that deals hand 0 when the player sits at `position` (1-4 from the dealer's
    left); UserError for another position."""
    if position not in (1, 2, 3, 4):
        raise UserError(f"seat must be 1-4 (your position from the dealer's left), "
                        f"got {position!r}")
    return seat_at(PLAYER_SEAT, -position)


class PracticeHand:
    """Deal `deal` of `seed` (dealt by `dealer`) at the table `sides`, played up to the
    player's first decision."""

    def __init__(self, rules: RuleSet, seed: int, deal: int, dealer: int, sides: Sides):
        self.seed, self.deal = seed, deal
        hands, upcard = deal_one(rules, seed, deal, dealer)
        self.state = HandState(rules, dealer, hands, upcard)
        self.players = sides.seats(random.Random(f"{seed}:{deal}"))
        self.asked = 0  # defenders asked so far whether they defend alone
        self.events: list[dict] = []  # the others' actions since the player's last one
        self.advance()

    @property
    def over(self) -> bool:
        return self.state.phase == "done"

    def to_act(self) -> int | None:
        """The seat whose decision it is (None: the hand is over)."""
        state = self.state
        if state.phase in ("bid", "play"):
            return state.turn
        if state.phase == "discard":
            return state.dealer
        if state.phase == "defend":
            return state.defenders()[self.asked]
        return None

    def deciding(self) -> str | None:
        """The kind of the player's decision now (review's kinds), or None."""
        return DECISIONS[self.state.phase] if self.to_act() == PLAYER_SEAT else None

    def legal(self) -> list:
        """The player's choices now, as `act` takes them (empty when it is not to act)."""
        state, kind = self.state, self.deciding()
        name = state.rules.card_deck.card_name
        if kind == "bid":
            return [bid_label(state, bid) for bid in state.legal_bids()]
        if kind == "discard":
            return [name(c) for c in state.rules.card_deck.sorted_cards(state.hands[PLAYER_SEAT])]
        if kind == "defend_alone":
            return list(DEFENCE_CHOICES)
        if kind == "card":
            return [name(c) for c in state.rules.card_deck.sorted_cards(
                state.legal_cards(PLAYER_SEAT))]
        return []

    def check(self, action) -> None:
        """UserError naming the legal choices unless `action` is one of them, as given."""
        legal = self.legal()
        if action not in legal:
            choices = ", ".join(_text(choice) for choice in legal) or "none: the hand is over"
            raise UserError(f"action {_text(action)[:80]} is not one of the legal choices "
                            f"({choices})")

    def act(self, action) -> None:
        """The player's action (one of `legal`, as given: `check`), then the others' up to
        its next decision or the end of the hand."""
        self.check(action)
        state, kind = self.state, self.deciding()
        deck = state.rules.card_deck
        self.events = []
        if kind == "bid":
            state.bid(next(b for b in state.legal_bids() if bid_label(state, b) == action))
        elif kind == "discard":
            state.discard(deck.parse_card(action))
        elif kind == "defend_alone":
            self._defend(PLAYER_SEAT, action == "alone")
        else:
            state.play(PLAYER_SEAT, deck.parse_card(action))
        self.advance()

    def _trick_noted(self) -> None:
        """The card event just said: the trick it was played to (from 0) and, where it ended
        the trick, the trick's winner."""
        state = self.state
        index = len(state.tricks) - 1 if state.tricks[-1].plays else len(state.tricks) - 2
        trick = state.tricks[index]
        self.events[-1] |= {"trick": index, "winner": SEAT_NAMES[trick.winner]
                            if trick.winner >= 0 else None}

    def advance(self) -> None:
        """The other seats act until the player decides or the hand ends."""
        state = self.state
        name = state.rules.card_deck.card_name
        while not self.over and self.deciding() is None:
            if state.phase == "bid":
                seat = state.turn
                bid = self.players[seat].bid(state, state.legal_bids())
                state.bid(bid)
                self._said(seat, "bid", bid_label(state, bid))
            elif state.phase == "discard":
                state.discard(self.players[state.dealer].discard(state))
                self._said(state.dealer, "discard", None)  # the card stays hidden
            elif state.phase == "defend":
                seat = state.defenders()[self.asked]
                self._defend(seat, self.players[seat].defend_alone(state, seat))
            else:
                seat = state.turn
                card = self.players[seat].play(state, seat)
                state.play(seat, card)
                self._said(seat, "card", name(card))
                self._trick_noted()

    def _defend(self, seat: int, alone: bool) -> None:
        """A defender's answer; play starts at the first lone defender or the last answer."""
        self.asked += 1
        if seat != PLAYER_SEAT:
            self._said(seat, "defend_alone", DEFENCE_CHOICES[alone])
        if alone or self.asked == len(self.state.defenders()):
            self.state.defend(seat if alone else None)

    def _said(self, seat: int, kind: str, action) -> None:
        self.events.append({"seat": SEAT_NAMES[seat], "kind": kind, "action": action})

    def view(self) -> dict:
        """The hand as the player sees it (the whole deal only once it is over)."""
        state = self.state
        deck = state.rules.card_deck

        def names(mask: int) -> list[str]:
            return [deck.card_name(c) for c in deck.sorted_cards(mask)]
        fixed = state.trump >= 0
        view = {
            "seed": self.seed, "deal": self.deal, "seat": SEAT_NAMES[PLAYER_SEAT],
            "position": state.position(PLAYER_SEAT), "dealer": SEAT_NAMES[state.dealer],
            "phase": state.phase, "round": state.round if state.phase == "bid" else None,
            "decision": self.deciding(), "hand": names(state.hands[PLAYER_SEAT]),
            "upcard": deck.card_name(state.upcard),
            "bids": [{"seat": SEAT_NAMES[b.seat], "round": b.round} | bid_label(state, b)
                     for b in state.bids],
            "trump": deck.suit_name(state.trump) if fixed else None,
            "maker": SEAT_NAMES[state.maker] if fixed else None,
            "alone": state.maker_alone,
            "defender_alone": (SEAT_NAMES[state.defender_alone]
                               if state.defender_alone >= 0 else None),
            "out": [SEAT_NAMES[s] for s in sorted(state.out)],
            "discard": (deck.card_name(state.discarded) if state.discarded >= 0
                        and (state.dealer == PLAYER_SEAT or self.over) else None),
            "tricks": [{"leader": SEAT_NAMES[t.leader], "winner": SEAT_NAMES[t.winner]
                        if t.winner >= 0 else None,
                        "plays": [{"seat": SEAT_NAMES[s], "card": deck.card_name(c)}
                                  for s, c in t.plays]} for t in state.tricks],
            "tricks_won": dict(zip(TEAM_NAMES, state.team_tricks(), strict=True)),
            "turn": None if self.over else SEAT_NAMES[self.to_act()],
            "others": list(self.events), "legal": self.legal(),
            "points": None, "hands": None,
        }
        if self.over:
            view["points"] = dict(zip(TEAM_NAMES, state.points(), strict=True))
            view["hands"] = {SEAT_NAMES[s]: names(state.dealt[s]) for s in range(4)}
        return view


def _text(action) -> str:
    return json.dumps(action)
