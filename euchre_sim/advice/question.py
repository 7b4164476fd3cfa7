"""An `advise` question as one typed object: its fields, checked in one place, whether they come
from the command line or a JSON body.

The library speaks of fields (`turned_down`, `bidder_table`); a mistake is a
`core.errors.FieldError` that names them as `{field}`, and each front end names them as its
users typed them: the CLI as options (`--turned-down`), the page as JSON fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ..bidding.params import BIDDERS
from ..core.calls import call_row, open_calls
from ..core.cards import JOKER, bit, cards_of
from ..core.errors import FieldError, UserError
from ..core.limits import MAX_ADVISE_DEALS, at_most, check_seed
from ..core.rules import RuleSet
from ..core.ruletables import compile_rules
from ..core.seats import seat_at
from ..game.odds import read_odds
from ..play.models import DEFAULT_PLAY
from ..play.player import PLAYER_FIELDS, Player, people, player_of

ADVISE_DEALER = 0  # N deals (as in `_solve_batch`); the advised seat sits at its position
PATH_FIELDS = ("bidder_params", "bidder_table", "odds")  # files and folders a question reads
# the fields of a decision during the play (`play_question.PlayQuestion`), beyond a bid's
PLAY_FIELDS = ("trump", "maker", "alone", "played", "discard_from", "discard")


class Cards(NamedTuple):
    """A question's cards, checked: the hand as a mask, the card turned up or down, the round,
    the position and the seat at it when N deals, the card ids dealt around the hand."""

    hand: int
    ref_card: int  # the upcard (round 1) or the turned-down card (round 2)
    round_no: int
    position: int
    seat: int
    unseen: np.ndarray


def models_of(play: str | None, bidding: str | None) -> tuple[str, str | None]:
    """(play, bidding) of a question that names either, both or neither: with neither, a
    table of people (`play.player.people`); a play model alone is the plain answer under it;
    a bidder alone bids for the default play (double dummy)."""
    if play is None and bidding is None:
        return people().play, people().bidder
    return play or DEFAULT_PLAY, bidding


def advice_player(rules: RuleSet, fields: dict) -> Player:
    """The player of a bid question's fields (PLAYER_FIELDS; None or absent where not
    given): a table of people where neither `play` nor `bidding` is named (`models_of`), its
    bidder one that advise takes (BIDDERS)."""
    given = {name: fields[name] for name in PLAYER_FIELDS if fields.get(name) is not None}
    given["play"], given["bidding"] = models_of(given.get("play"), given.get("bidding"))
    return player_of(rules, **given, bidders=BIDDERS)


@dataclass(frozen=True)
class AdviceQuestion:
    """Should this hand order up, call, go alone or pass? `seat` is the position from the
    dealer's left (1-4); exactly one of `up` (round 1) and `turned_down` (round 2).
    `player` (`play.player`; a table of people unless given: `advice_player` builds it from
    the fields a command line or a JSON body names) bids every seat and its model plays
    every card. With a bidder, pass is valued against the calls over the deals where the
    auction reaches the seat, and `score` ('US-THEM' or a pair) adds each action's chance of
    winning the game, from `odds` (a folder with odds.parquet), else the odds shipped beside the
    atlas at its table, else solved afresh (`atlas.table_odds`). `infer`:
    PIMC's worlds agree with the auction. `atlas`: answer from the shipped atlas where it
    covers the question (default: unless `deals` are asked for; `advice.atlas`);
    `stop_early`: in the auction, stop sampling once the best action is separated from the
    runner-up (at a score, for the game too, its odds known beforehand; default: unless
    `deals` are asked for; `auction_advice.CHECKPOINTS`)."""

    rules: RuleSet
    hand: str
    seat: int
    up: str | None = None
    turned_down: str | None = None
    deals: int | None = None
    seed: int = 0
    player: Player = field(default_factory=people)
    score: tuple[int, int] | str | None = None
    odds: str | None = None
    infer: bool = True
    atlas: bool | None = None  # None: from the shipped atlas when it covers the question
    stop_early: bool | None = None  # None: unless `deals` are asked for

    def __post_init__(self):
        if isinstance(self.score, str):
            object.__setattr__(self, "score", parse_score(self.score))
        if self.atlas is None:  # asking for deals asks for a simulation
            object.__setattr__(self, "atlas", self.deals is None)
        if self.stop_early is None:  # ... of that many deals
            object.__setattr__(self, "stop_early", self.deals is None)
        if self.deals is None:
            object.__setattr__(self, "deals", self.player.model.pace.advise_deals)
        self.check()

    def check(self) -> None:
        """Every field, alone and together; the first mistake found is a FieldError."""
        if self.deals < 2:
            raise FieldError("{deals} must be at least 2, got {got}", got=self.deals)
        at_most("deals", self.deals, MAX_ADVISE_DEALS)
        check_seed(self.seed)
        if self.bidding is None and self.score is not None:
            raise FieldError("{score} needs {bidding} (the game goes on after a pass)")
        if self.score is not None and not all(0 <= s < self.rules.target for s in self.score):
            raise FieldError("{score} must be two scores below the target {target}, got "
                             "{us}-{them}", target=self.rules.target, us=self.score[0],
                             them=self.score[1])
        self.cards  # noqa: B018 (checks the hand, the card and the seat)

    @cached_property
    def cards(self) -> Cards:
        deck = self.rules.card_deck
        if (self.up is None) == (self.turned_down is None):
            raise FieldError("give exactly one of {up} (round 1) or {turned_down} (round 2)")
        if self.seat not in (1, 2, 3, 4):
            raise FieldError("{seat} must be 1-4 (positions from the dealer's left), got {got}",
                             got=self.seat)
        hand = deck.parse_hand(self.hand)
        ref_card = deck.parse_card(self.up if self.up is not None else self.turned_down)
        if hand >> ref_card & 1:
            raise UserError(f"card {deck.card_name(ref_card)!r} is both in the hand and "
                            "turned up")
        round_no = 1 if self.up is not None else 2
        if round_no == 1 and ref_card == JOKER:
            raise UserError("Benny as the upcard names no suit: there is no round 1 to advise "
                            "on")
        unseen = np.array(cards_of(deck.mask & ~hand & ~bit(ref_card)), dtype=np.int64)
        return Cards(hand, ref_card, round_no, self.seat, seat_at(ADVISE_DEALER, self.seat), unseen)

    @property
    def bidding(self) -> str | None:
        """The player's bidder (None: no auction)."""
        return self.player.bidder

    @property
    def play(self) -> str:
        """The player's play model."""
        return self.player.play

    @cached_property
    def odds_table(self) -> np.ndarray | None:
        """p[us, them, we_deal] of the odds folder's odds.parquet (None: none given)."""
        return None if self.odds is None else read_odds(self.odds, self.rules)

    @property
    def work_units(self) -> int:
        """The progress total: deals per model played (plus the odds' deals when a score is
        given and no odds table answers it: `atlas.table_odds`)."""
        from .atlas import table_odds

        if self.bidding is None:
            return self.deals * (1 if self.player.model.solved else 2)
        solved = self.score is not None and table_odds(self) is None
        return self.deals + (self.odds_deals if solved else 0)

    @property
    def odds_deals(self) -> int:
        """Deals to solve the odds of every score when none are given."""
        return self.player.model.pace.odds_deals


# a question's fields by name: its own, and the player's in its place
_FIELDS = tuple(name for f in fields(AdviceQuestion)
                for name in (PLAYER_FIELDS if f.name == "player" else (f.name,)))


def ask(rules: RuleSet, values: dict) -> AdviceQuestion:
    """A question from fields by name (unknown names refused), checked; its player from the
    player's fields (`advice_player`)."""
    unknown = sorted(set(values) - set(_FIELDS) - {"rules"})
    if unknown:
        raise UserError(f"unknown field {unknown[0]!r} for advise "
                        f"(fields: {', '.join(_FIELDS[1:])})")
    own = {k: v for k, v in values.items() if v is not None and k not in PLAYER_FIELDS}
    return AdviceQuestion(rules, **own, player=advice_player(rules, values))


def parse_score(text: str | None, field: str = "score") -> tuple[int, int] | None:
    """'8-9' -> (8, 9); a mistake names the field."""
    if text is None:
        return None
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) <= 3 for p in parts):
        raise FieldError(f"{{{field}}} must look like US-THEM, e.g. 8-9, got {{got!r}}",
                         got=text if len(text) <= 40 else f"{text[:37]}...")
    return int(parts[0]), int(parts[1])


def call_actions(rules: RuleSet, round_no: int, position: int, ref_card: int) -> list[tuple]:
    """(action, trump, alone, call-table row) for every call open to the position."""
    action = "order_up" if round_no == 1 else "call"
    flags = compile_rules(rules).flags
    return [(action, trump, alone, int(call_row(round_no, position, trump, int(alone))))
            for trump, alone in open_calls(flags, round_no, position, ref_card)]


def describe_question(question: AdviceQuestion) -> dict:
    """The question's fields of the JSON answer."""
    deck, q = question.rules.card_deck, question.cards
    return {"round": q.round_no, "seat": q.position, "hand": deck.format_hand(q.hand),
            ("up" if q.round_no == 1 else "turned_down"): deck.card_name(q.ref_card)}
