"""A player: how a side bids and how it plays, one object from the edge to the kernels.

`Player` is the typed specification: built and checked once where a command line or a JSON
body gives it (`player_of`), then carried whole through plans, jobs and questions.
`Player.record()` is the same player as the kernels read it: a `PlayerRecord`, a named tuple
of scalars and arrays, down to the bidder's choice, the card player and PIMC's inference.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..bidding.params import (
    ALL_BIDDERS,
    CONVENTIONAL,
    KERNEL_BIDDER,
    bidder_params,
    bidder_weights,
    params_by_name,
)
from ..core.errors import FieldError
from ..core.limits import MAX_WORLDS, at_most
from .models import DEFAULT_PLAY, DEFAULT_WORLDS, VALUED_WORLDS, PlayModel, play_model

if TYPE_CHECKING:  # a decision table's reader and the nets are imported where they are read
    from ..bidding.table import DecisionTable
    from .net_weights import CardNets

NO_BIDDER = -1  # a record's bidder when the player bids by no kernel (no auction, or random)
TABLE_BIDDERS = ("table", "game")  # the bidders that read a decision table
# the fields that name a player (`player_of`), as a command line and a JSON body spell them
PLAYER_FIELDS = ("play", "worlds", "bidding", "bidder_params", "bidder_table")


def check_bidder(bidder: str | None, bidders: tuple[str, ...] = ALL_BIDDERS) -> None:
    """A FieldError naming {bidding} unless `bidder` is None or one of `bidders`."""
    if bidder is not None and bidder not in bidders:
        raise FieldError("{bidding} must be one of {bidders}, got {got!r}",
                         bidders=", ".join(bidders), got=bidder)


class PlayerRecord(NamedTuple):
    """A player as the kernels read it: its bidder (bidding.params BIDDER_*, NO_BIDDER: none),
    that bidder's weights (float64, PARAMS order) and decision table, its card player (the
    model's `kernel`, play.models KERNEL_*), worlds per PIMC decision and the nets of a model
    that uses them (net_weights.CardNets; empty for every other model)."""

    bidder: int
    weights: np.ndarray
    table: DecisionTable
    play: int
    worlds: int
    nets: CardNets


@dataclass(frozen=True)
class Player:
    """How a side bids and plays: `bidder` (a name of ALL_BIDDERS; None: no auction), its
    `weights` (PARAMS order; the bidder's own unless given), `table_dir` (a finished run whose
    decisions the table and game bidders read, loaded into `table`), `play` (a name of
    `play.models.MODELS`) and `worlds` per PIMC decision. Checked where it is made; a mistake
    is a FieldError naming the user's fields."""

    bidder: str | None = None
    play: str = DEFAULT_PLAY
    worlds: int = DEFAULT_WORLDS
    weights: tuple = ()
    table_dir: str | None = None
    table: DecisionTable | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        play_model(self.play)
        check_bidder(self.bidder)
        if self.worlds < 1:
            raise FieldError("{worlds} must be at least 1, got {got}", got=self.worlds)
        at_most("worlds", self.worlds, MAX_WORLDS)
        if self.bidder in CONVENTIONAL and not self.weights:
            object.__setattr__(self, "weights", bidder_weights(None, self.bidder))
        object.__setattr__(self, "weights", tuple(float(w) for w in self.weights))

    @property
    def model(self) -> PlayModel:
        """The play model's record (`play.models`)."""
        return play_model(self.play)

    def valuing(self) -> Player:
        """Itself, checked to value a decision's options over its worlds (during the play, in
        a review): each world is solved (its model is the solver's) and a value's standard
        error needs VALUED_WORLDS."""
        if not self.model.solved:
            raise FieldError("{play} is for the bid: a decision during the play samples "
                             "{worlds} worlds and solves each")
        if self.worlds < VALUED_WORLDS:
            raise FieldError("{worlds} must be at least {least}, got {got}",
                             least=VALUED_WORLDS, got=self.worlds)
        return self

    def loaded(self, rules) -> Player:
        """The player with its decision table read from `table_dir` (checked against the
        rules); itself when it has it. A table or game bidder needs the folder, no other
        bidder takes one."""
        if (self.bidder in TABLE_BIDDERS) != (self.table_dir is not None):
            raise FieldError("{bidding} table reads its decisions from {bidder_table} (and "
                             "only it does)")
        if self.table_dir is None or self.table is not None:
            return self
        from ..bidding.table import load_decision_table

        return replace(self, table=load_decision_table(self.table_dir, rules))

    def settled(self) -> Player:
        """The player less what it does not use, so that two plans that compute the same
        differ in nothing: worlds only where the model samples any, weights only for a
        point-count bidder."""
        return replace(self, worlds=self.worlds if self.sampled_worlds else DEFAULT_WORLDS,
                       weights=self.weights if self.bidder in CONVENTIONAL else ())

    @property
    def sampled_worlds(self) -> int | None:
        """Worlds per decision, where the model samples any (`PlayModel.samples_worlds`);
        else None."""
        return self.worlds if self.model.samples_worlds else None

    @property
    def named_weights(self) -> dict | None:
        """The bidder's weights by name (None when it has none)."""
        return params_by_name(self.weights) if self.weights else None

    def net_source(self) -> dict:
        """The learned player's weights as a manifest names them (their sha256); empty for
        every other model."""
        from .net_weights import card_net_digests

        return card_net_digests() if self.model.uses_net else {}

    def identity(self) -> dict:
        """What a run's manifest says of the player."""
        from ..bidding.table import file_source

        return {"play": self.play, "worlds": self.sampled_worlds, "bidding": self.bidder,
                "bidder_params": self.named_weights,
                "bidder_table": file_source(self.table_dir)} | self.net_source()

    def record(self, bids: bool = True) -> PlayerRecord:
        """The player as the kernels read it; bids=False: a record whose bidder is NO_BIDDER
        (its PIMC worlds infer nothing from the auction)."""
        from ..bidding.table import empty_table
        from .net_weights import nets_for

        weights = np.array(self.weights or bidder_params(None, self.bidder), dtype=np.float64)
        bidder = KERNEL_BIDDER.get(self.bidder, NO_BIDDER) if bids else NO_BIDDER
        return PlayerRecord(np.int64(bidder), weights,
                            self.table if self.table is not None else empty_table(),
                            np.int64(self.model.kernel), np.int64(self.worlds),
                            nets_for(self.play))

    def label(self) -> str:
        return f"{self.bidder} bidder, {self.play} play"


@lru_cache(maxsize=1)
def people() -> Player:
    """A table of people: the human bidder (bidding as people did at an online site's tables)
    and the learned card player (its file read when first asked for)."""
    return Player("human", "learned")


def player_of(rules, bidding: str | None = None, play: str = DEFAULT_PLAY,
              worlds: int = DEFAULT_WORLDS, bidder_params: str | None = None,
              bidder_table: str | None = None, *,
              bidders: tuple[str, ...] = ALL_BIDDERS) -> Player:
    """A player from the fields a command line or a JSON body names (PLAYER_FIELDS:
    `bidder_params` a JSON file of weights on top of the bidder's own, `bidder_table` a run
    folder), its bidder one of `bidders`, checked and with its files read."""
    check_bidder(bidding, bidders)
    weights = bidder_weights(bidder_params, bidding) if bidder_params is not None else ()
    return Player(bidding, play, worlds, weights, bidder_table).loaded(rules)


def side_players(bidders: tuple[str, str], plays: tuple[str, str],
                 bidder_params: str | None = None,
                 worlds: int = DEFAULT_WORLDS) -> tuple[Player, Player]:
    """The two sides' players (NS first) from their bidders and play models, one file of
    weights (`bidder_params`) on top of each bidder's own; their decision tables are read
    where the players meet (a tournament's plan, self-play's sides)."""
    return tuple(Player(bidder, play, worlds, bidder_weights(bidder_params, bidder))
                 for bidder, play in zip(bidders, plays, strict=True))
