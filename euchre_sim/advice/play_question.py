"""`advise` during the play: the dealer's discard, or the seat's next card, from one seat's view.

The position is given as a player knows it: the seat's cards, the card turned up or down, the
trump, the maker (a position, as `--seat`) and whether it went alone, and the cards played so
far trick by trick in playing order (leaders follow from the rules, as in Euchre Game
Notation). The other hands are unknown: a stand-in deal of the right sizes carries the
position through the engine, which derives who played what, the tricks won and the voids
shown; only the seat's own cards and what everyone saw reach the worlds (`position`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from ..core.cards import bit, cards_of
from ..core.errors import FieldError, UserError
from ..core.limits import check_seed
from ..core.rules import RuleSet
from ..core.seats import seat_at
from ..game.engine import Bid, HandState, IllegalMove
from ..play.player import Player
from .position import Valuer, bidder_inference, card_options
from .question import ADVISE_DEALER
from .separation import worlds_margin


@dataclass(frozen=True)
class PlayQuestion:
    """Which card now? `hand`: the cards the seat holds; `played`: the tricks so far, cards
    in playing order, tricks separated by '/'. `discard_from` (the dealer's five cards and
    the upcard) asks the dealer's discard instead; `discard` is what the dealer threw, once
    it has. `player` (`play.player`): its worlds, each solved (its model is the solver's:
    a decision during the play is valued world by world) and, with a bidder, agreeing with
    the auction under that bidder."""

    rules: RuleSet
    seat: int | None = None
    trump: str | None = None
    maker: int | None = None
    up: str | None = None
    turned_down: str | None = None
    alone: bool = False
    hand: str | None = None
    played: str = ""
    discard_from: str | None = None
    discard: str | None = None
    seed: int = 0
    player: Player = Player()

    def __post_init__(self):
        self.player.valuing()
        check_seed(self.seed)
        if (self.up is None) == (self.turned_down is None):
            raise FieldError("give exactly one of {up} (the dealer took it: round 1) or "
                             "{turned_down} (round 2)")
        if self.trump is None:
            raise FieldError("a decision during the play needs {trump}")
        for name in ("seat", "maker"):
            if getattr(self, name) is None:
                raise FieldError(f"a decision during the play needs {{{name}}}")
            if getattr(self, name) not in (1, 2, 3, 4):
                raise FieldError(f"{{{name}}} must be 1-4 (positions from the dealer's left), "
                                 "got {got}", got=getattr(self, name))
        if (self.hand is None) == (self.discard_from is None):
            raise FieldError("give {hand} (the cards you hold) or {discard_from} (the "
                             "dealer's five and the upcard), not both")
        self.state  # noqa: B018 (builds and checks the position)

    @property
    def deck(self):
        return self.rules.card_deck

    @cached_property
    def state(self) -> HandState:
        """The engine at the decision, over a stand-in deal (see the module's note)."""
        deck = self.deck
        seat = seat_at(ADVISE_DEALER, self.seat)
        ref = deck.parse_card(self.up if self.up is not None else self.turned_down)
        trump = deck.parse_suit(self.trump)
        tricks = [deck.parse_cards(t) for t in self.played.split("/")] if self.played.strip() \
            else []
        moves = [card for trick in tricks for card in trick]
        held = self._own_cards(ref)
        seen = held | bit(ref) | sum(bit(c) for c in moves)
        if len(set(moves)) != len(moves) or any(held >> c & 1 for c in moves):
            raise UserError("a card is played twice, or played and still held")
        state = HandState(self.rules, ADVISE_DEALER, [0, 0, 0, 0], ref)
        state.hands[seat] = held
        self._bid(state, trump)
        spare = cards_of(deck.mask & ~seen)
        if state.phase == "discard":
            if self.discard_from is not None:
                if moves:
                    raise FieldError("{discard_from} asks the discard: nothing is played yet")
                self._fill(state, seat, spare, 5)
                return state
            thrown = self._thrown(state, seat, seen, spare)
            if thrown in spare:
                spare.remove(thrown)
            state.hands[state.dealer] |= bit(thrown)
            state.discard(thrown)
        elif self.discard is not None or self.discard_from is not None:
            raise FieldError("{discard} and {discard_from} are for a dealer who took the upcard")
        state.defend(None)
        if seat in state.out:
            raise UserError("your seat sits out: your partner went alone")
        self._play(state, tricks, seat)
        if state.phase != "play" or state.turn != seat:
            who = "nobody" if state.phase != "play" else f"position {state.position(state.turn)}"
            raise UserError(f"after the cards played it is {who}'s turn, not yours")
        self._fill(state, seat, spare, 6 - len(state.tricks))
        if bin(state.hands[seat]).count("1") != 6 - len(state.tricks):
            raise FieldError(f"{{hand}} holds {bin(state.hands[seat]).count('1')} cards; at "
                             f"trick {len(state.tricks)} you hold {6 - len(state.tricks)}")
        return state

    def _own_cards(self, ref: int) -> int:
        """The seat's cards: the discard question's six less the upcard (the engine adds it
        back), else what it holds and has played (added as the play goes)."""
        if self.discard_from is None:
            return self.deck.parse_hand(self.hand, size=None)
        six = self.deck.parse_hand(self.discard_from, size=6)
        if not six >> ref & 1 or self.up is None:
            raise FieldError("{discard_from} holds the dealer's five cards and the upcard")
        if self.seat != 4:
            raise FieldError("{discard_from} is the dealer's question ({seat} 4)")
        return six & ~bit(ref)

    def _thrown(self, state: HandState, seat: int, seen: int, spare: list[int]) -> int:
        """The dealer's discard: the seat's own (`discard`), or, hidden from the seat, a
        stand-in out of play (the first spare card)."""
        if state.dealer != seat:
            if self.discard is not None:
                raise FieldError("{discard} is the dealer's to give: only the dealer saw it")
            return spare[0]
        if self.discard is None:
            raise FieldError("you are the dealer and took the upcard: give {discard} (what "
                             "you threw) or {discard_from} (to ask it)")
        thrown = self.deck.parse_card(self.discard)
        if thrown != state.upcard and seen >> thrown & 1:
            raise UserError(f"the discard {self.deck.card_name(thrown)} is also held or played")
        return thrown

    def _bid(self, state: HandState, trump: int) -> None:
        """Every seat before the maker passes; the maker orders up (round 1) or calls."""
        round_no = 1 if self.up is not None else 2
        try:
            while state.phase == "bid":
                position = state.position(state.turn)
                if state.round == round_no and position == self.maker:
                    action = "order_up" if round_no == 1 else "call"
                    state.bid(Bid(state.turn, round_no, action, trump, self.alone))
                else:
                    state.bid(Bid(state.turn, state.round, "pass"))
        except IllegalMove as err:
            raise UserError(f"that call cannot be made: {err}") from None
        if state.passed_out or (round_no == 1 and state.trump != trump):
            raise FieldError("in round 1 trump is the upcard's suit (a call of another suit "
                             "turns the upcard down: give {turned_down})")

    def _play(self, state: HandState, tricks: list[list[int]], seat: int) -> None:
        """The cards played, each by the seat whose turn it is. The other hands are unknown,
        so a card is legal unless its seat showed a void in its suit before (a renege); the
        seat's own cards are checked against its hand as well."""
        eff = state.tables.eff_suit[state.trump]
        voids: dict[int, set[int]] = {}
        name = self.deck.card_name
        for number, trick in enumerate(tricks, 1):
            for card in trick:
                if state.phase != "play" or len(state.tricks) > number:
                    raise UserError(f"trick {number} has more cards than seats in play")
                player = state.turn
                where = f"trick {number}: {name(card)} by position {state.position(player)}"
                if int(eff[card]) in voids.get(player, ()):
                    raise UserError(f"{where}, who showed void in that suit before (renege)")
                led = state.led_suit()
                if led >= 0 and int(eff[card]) != led:
                    voids.setdefault(player, set()).add(led)
                state.hands[player] |= bit(card)
                try:
                    state.play(player, card)
                except IllegalMove as err:
                    raise UserError(f"{where}: {err}") from None
            if number < len(tricks) and len(state.tricks) == number:
                raise UserError(f"trick {number} is not complete")
        if any(int(eff[c]) in voids.get(seat, ()) for c in cards_of(state.hands[seat])):
            raise UserError("you hold a card of a suit you did not follow (renege)")

    def _fill(self, state: HandState, seat: int, spare: list[int], size: int) -> None:
        """Give every other seat in play the `size` cards it holds (one fewer once it has
        played to the current trick) as stand-ins: the worlds read only their number (the
        upcard stays with a dealer who took it and kept it)."""
        played = {p for p, _ in state.tricks[-1].plays} if state.tricks else set()
        for s in range(4):
            if s == seat or s in state.out:
                continue
            want = size - (s in played)
            while bin(state.hands[s]).count("1") < want:
                state.hands[s] |= bit(spare.pop(0))

    @property
    def work_units(self) -> int:
        """The progress total: the worlds."""
        return self.player.worlds

    def valuer(self) -> Valuer:
        return Valuer(self.player.worlds, self.seed, bidder_inference(self.player),
                      true_deal=False)


def answer_play(question: PlayQuestion,
                progress: Callable[[int, int], None] | None = None) -> dict:
    """The `advise --json` object of a play decision: every legal card (or discard) with its
    mean points to the seat's side over the worlds, its standard error and the share of
    worlds in which it is double-dummy best; `margin`, the top card's paired lead over the
    runner-up (`separation.worlds_margin`), and `best` when it is significant at 95 %, else
    null (too close to call)."""
    state = question.state
    options = card_options(state, question.valuer(), 0, progress=progress)
    options.sort(key=lambda o: -o["pimc"])
    found = worlds_margin(options, state.rules.max_hand_points)
    best = None
    if found is not None and found["separated"]:
        best = {k: found[k] for k in ("option", "lead", "lead_se")}
    elif len(options) == 1:
        best = {"option": options[0]["option"], "lead": None, "lead_se": None}
    for option in options:
        option.pop("values")
        option.pop("card")
        option.pop("dd")
    return {"kind": "discard" if state.phase == "discard" else "card",
            "seat": question.seat, "trump": question.trump.upper(), "maker": question.maker,
            "alone": question.alone, "trick": len(state.tricks) or None,
            "worlds": question.player.worlds, "bidding": question.player.bidder, "best": best,
            "margin": found, "options": options}
