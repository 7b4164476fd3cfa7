"""A strategy-free hand engine: bidding, the dealer's pickup, defending alone, play and score.

`HandState` takes one decision at a time and raises `IllegalMove` naming the rule broken, so
the same code drives self-play (strategies choose) and `replay` (a record chooses).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..core.calls import N_TRUMPS, call_open, may_pass, open_calls, opening_leader
from ..core.cards import JOKER, bit, cards_of
from ..core.rules import RuleSet
from ..core.ruletables import NO_TRUMP, RuleTables, compile_rules, make_points
from ..core.seats import SEAT_NAMES, left_of, partner_of, position_of, seat_at, team_of
from ..core.trick import playable


class IllegalMove(ValueError):
    """A decision the rules forbid; the message names the rule."""


@dataclass(frozen=True)
class Bid:
    seat: int
    round: int
    action: str  # "pass", "order_up" (round 1) or "call" (round 2)
    suit: int | None = None  # trump id for "call" (0-3, 4 = no-trump)
    alone: bool = False


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, int]] = field(default_factory=list)  # (seat, card)
    winner: int = -1


@dataclass(frozen=True)
class _Lists:
    """The rule tables as Python lists, for quick access in pure-Python play."""

    eff_suit: list
    suit_mask: list
    win_key: list
    lead_forbidden: list

    @classmethod
    def of(cls, tables: RuleTables) -> _Lists:
        return cls(
            tables.eff_suit.tolist(),
            [[int(m) for m in row] for row in tables.suit_mask],
            tables.win_key.tolist(),
            [int(m) for m in tables.lead_forbidden],
        )


@lru_cache(maxsize=64)
def _lists(rules: RuleSet) -> _Lists:
    return _Lists.of(compile_rules(rules))


class HandState:
    """One hand from the deal to the score."""

    def __init__(self, rules: RuleSet, dealer: int, hands: list[int], upcard: int):
        self.rules = rules
        self.tables = compile_rules(rules)
        self._t = _lists(rules)
        self.dealer = dealer
        self.dealt = list(hands)
        self.hands = list(hands)
        self.upcard = upcard
        self.bids: list[Bid] = []
        # A joker turned up names no suit: round 1 is skipped and every suit may be called.
        self.round = 2 if upcard == JOKER else 1
        self.turn = seat_at(dealer, 1)
        self.phase = "bid"
        self.trump = -1
        self.maker = -1
        self.maker_alone = False
        self.defender_alone = -1
        self.discarded = -1
        self.out: set[int] = set()
        self.tricks: list[Trick] = []
        self.renege: tuple[int, int, int] | None = None  # (trick index, seat, card)
        self.failed_follow: list[int] = []  # seats that could not follow, once per occurrence
        self.passed_out = False

    # ---------- bidding ----------
    def position(self, seat: int) -> int:
        """Position 1-4 of a seat from the dealer's left (4: the dealer)."""
        return position_of(self.dealer, seat)

    def legal_bids(self) -> list[Bid]:
        seat, rnd = self.turn, self.round
        pos = self.position(seat)
        flags = self.tables.flags
        bids = [Bid(seat, rnd, "pass")] if may_pass(flags, rnd, pos) else []
        action = "order_up" if rnd == 1 else "call"
        bids += [Bid(seat, rnd, action, trump, alone)
                 for trump, alone in open_calls(flags, rnd, pos, self.upcard)]
        return bids

    def bid(self, bid: Bid) -> None:
        if self.phase != "bid":
            raise IllegalMove("bid after trump was fixed")
        if bid.seat != self.turn:
            raise IllegalMove(f"bid out of turn (it is {SEAT_NAMES[self.turn]}'s turn)")
        if bid.round != self.round:
            raise IllegalMove(f"bid in round {bid.round} during round {self.round}")
        self._check_bid(bid)
        self.bids.append(bid)
        if bid.action == "pass":
            self._next_bidder()
            return
        self.trump = bid.suit if bid.action == "call" else self.upcard >> 3
        self.maker = bid.seat
        self.maker_alone = bid.alone
        if bid.alone:
            self.out.add(partner_of(bid.seat))
        if bid.action == "order_up" and self.dealer not in self.out:
            self.phase = "discard"
            self.hands[self.dealer] |= bit(self.upcard)
        else:
            self._after_trump_fixed()

    def _check_bid(self, bid: Bid) -> None:
        """Raise IllegalMove naming the rule a bid breaks; which bids are open is asked of
        `core.calls`, as `legal_bids` asks it."""
        pos = self.position(bid.seat)
        flags = self.tables.flags
        if bid.action == "pass":
            if bid.alone:
                raise IllegalMove("'alone' on a pass")
            if not may_pass(flags, self.round, pos):
                raise IllegalMove("stick the dealer: the dealer may not pass in round 2")
            return
        action = "order_up" if self.round == 1 else "call"
        if bid.action != action:
            raise IllegalMove(f"'{bid.action}' in round {self.round} (only pass or {action})")
        if self.round == 1:
            if bid.suit is not None and bid.suit != self.upcard >> 3:
                raise IllegalMove("order_up must name the upcard's suit")
            trump = self.upcard >> 3
        else:
            if bid.suit is None:
                raise IllegalMove("call without a suit")
            if bid.suit not in range(N_TRUMPS):
                raise IllegalMove(f"call of an unknown suit {bid.suit!r}")
            trump = bid.suit
        if not call_open(flags, self.round, pos, trump, int(bid.alone), self.upcard):
            raise IllegalMove(self._closed_because(bid))

    def _closed_because(self, bid: Bid) -> str:
        """The rule that closes an order or a call `call_open` refuses."""
        if bid.alone and not self.rules.allow_alone:
            return "going alone is not allowed in this rule set"
        if self.round == 1:
            return ("Canadian loner: the dealer's partner may only pass or order up alone in "
                    "round 1")
        if bid.suit == NO_TRUMP:
            return "no-trump is not allowed in this rule set"
        return "the turned-down suit cannot be called in round 2"

    def _next_bidder(self) -> None:
        if self.turn != self.dealer:
            self.turn = left_of(self.turn)
            return
        if self.round == 1:
            self.round = 2
            self.turn = seat_at(self.dealer, 1)
            return
        self.phase = "done"
        self.passed_out = True

    # ---------- discard and defending alone ----------
    def discard(self, card: int) -> None:
        if self.phase != "discard":
            raise IllegalMove("discard when the dealer has not taken the upcard")
        if not self.hands[self.dealer] >> card & 1:
            raise IllegalMove("the discard is not in the dealer's hand or the upcard")
        self.hands[self.dealer] &= ~bit(card)
        self.discarded = card
        self._after_trump_fixed()

    def _after_trump_fixed(self) -> None:
        self.phase = "defend" if self.rules.defend_alone else "play"
        if self.phase == "play":
            self._start_play()

    def defenders(self) -> list[int]:
        """Defenders in the order they are asked about defending alone (from dealer's left)."""
        order = [seat_at(self.dealer, k) for k in range(1, 5)]
        return [s for s in order if team_of(s) != team_of(self.maker)]

    def defend(self, seat: int | None) -> None:
        """The defender who plays alone (None: both defend)."""
        if self.phase != "defend":
            if seat is None:
                return
            raise IllegalMove("defending alone is not allowed in this rule set")
        if seat is not None:
            if team_of(seat) == team_of(self.maker):
                raise IllegalMove("only a defender may defend alone")
            self.defender_alone = seat
            self.out.add(partner_of(seat))
        self._start_play()

    # ---------- play ----------
    def active_seats(self) -> list[int]:
        return [s for s in range(4) if s not in self.out]

    def _first_active_from(self, seat: int) -> int:
        while seat in self.out:
            seat = left_of(seat)
        return seat

    def opening_leader(self) -> int:
        active = sum(1 << s for s in self.active_seats())
        loner = self.maker if self.maker_alone else -1
        return int(opening_leader(self.dealer, active, loner, self.rules.lone_player_plays_last))

    def _start_play(self) -> None:
        self.phase = "play"
        self.tricks.append(Trick(self.opening_leader()))
        self.turn = self.tricks[-1].leader

    def led_suit(self) -> int:
        trick = self.tricks[-1]
        if not trick.plays:
            return -1
        return self._t.eff_suit[self.trump][trick.plays[0][1]]

    def legal_cards(self, seat: int) -> int:
        led = self.led_suit()
        follow = self._t.suit_mask[self.trump][led] if led >= 0 else 0
        return int(playable(self.hands[seat], self._t.lead_forbidden[self.trump], follow))

    def play(self, seat: int, card: int) -> None:
        if self.phase != "play":
            raise IllegalMove("card played before play began")
        if seat != self.turn:
            raise IllegalMove(f"play out of turn (it is {SEAT_NAMES[self.turn]}'s turn)")
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalMove("card not held")
        legal = self.legal_cards(seat)
        led = self.led_suit()
        if not legal >> card & 1:
            if led < 0:
                raise IllegalMove("Benny may not be led in no-trump while other cards are held")
            if not self.rules.renege_penalty:
                raise IllegalMove("failure to follow suit (renege)")
            if self.renege is None:
                self.renege = (len(self.tricks) - 1, seat, card)
        elif led >= 0 and not hand & self._t.suit_mask[self.trump][led]:
            self.failed_follow.append(seat)
        self.hands[seat] = hand & ~bit(card)
        trick = self.tricks[-1]
        trick.plays.append((seat, card))
        if len(trick.plays) < 4 - len(self.out):
            self.turn = self._first_active_from(left_of(seat))
            return
        trick.winner = self._winner(trick)
        if len(self.tricks) == 5:
            self.phase = "done"
            return
        self.tricks.append(Trick(trick.winner))
        self.turn = trick.winner

    def _winner(self, trick: Trick) -> int:
        keys = self._t.win_key[self.trump]
        led = self._t.eff_suit[self.trump][trick.plays[0][1]]
        best_seat, best_key = trick.plays[0][0], keys[led][trick.plays[0][1]]
        for seat, card in trick.plays[1:]:
            if keys[led][card] > best_key:
                best_seat, best_key = seat, keys[led][card]
        return best_seat

    # ---------- result ----------
    def team_tricks(self) -> list[int]:
        won = [0, 0]
        for trick in self.tricks:
            if trick.winner >= 0:
                won[team_of(trick.winner)] += 1
        return won

    def points(self) -> list[int]:
        """Points to NS and EW once the hand is done."""
        if self.passed_out:
            return [0, 0]
        if self.renege is not None:
            scored = [0, 0]
            scored[1 - team_of(self.renege[1])] = self.rules.renege_penalty
            return scored
        maker_team = team_of(self.maker)
        value = make_points(self.rules, self.team_tricks()[maker_team], self.maker_alone,
                            self.defender_alone >= 0)
        scored = [0, 0]
        if value > 0:
            scored[maker_team] = value
        else:
            scored[1 - maker_team] = -value
        return scored

    def remaining(self) -> list[list[int]]:
        return [cards_of(h) for h in self.hands]
