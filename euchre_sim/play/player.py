"""A player: how a side bids and how it plays, one object from the edge to the kernels.

`Player` is the typed specification: built and checked once where a command line or a JSON
body gives it (`player_of`), then carried whole through plans, jobs and questions.
`Player.record()` is the same player as the kernels read it: a `PlayerRecord`, a named tuple
of scalars and arrays, down to the bidder's choice, the card player and PIMC's inference.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from ..bidding.params import (
    ALL_BIDDERS,
    CONVENTIONAL,
    KERNEL_BIDDER,
    bidder_params,
    bidder_weights,
    params_by_name,
)
from ..bidding.table import DecisionTable, empty_table, file_source, load_decision_table
from ..core.errors import FieldError
from ..core.limits import MAX_WORLDS, at_most
from .models import DEFAULT_WORLDS, LEARNED_MODELS, PLAY_MODELS, SAMPLING_MODELS, model_id
from .net_weights import CardNets, card_net_digests, nets_for

NO_BIDDER = -1  # a record's bidder when the player bids by no kernel (no auction, or random)
TABLE_BIDDERS = ("table", "game")  # the bidders that read a decision table


class PlayerRecord(NamedTuple):
    """A player as the kernels read it: its bidder (bidding.params BIDDER_*, NO_BIDDER: none),
    that bidder's weights (float64, PARAMS order) and decision table, its card-play model
    (play.models MODEL_*), worlds per PIMC decision and the learned player's nets
    (net_weights.CardNets; empty for every other model)."""

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
    decisions the table and game bidders read, loaded into `table`), `play` (PLAY_MODELS) and
    `worlds` per PIMC decision. Checked where it is made; a mistake is a FieldError naming
    the user's fields."""

    bidder: str | None = None
    play: str = "dd"
    worlds: int = DEFAULT_WORLDS
    weights: tuple = ()
    table_dir: str | None = None
    table: DecisionTable | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if self.play not in PLAY_MODELS:
            raise FieldError("{play} must be one of {models}, got {got!r}",
                             models=", ".join(PLAY_MODELS), got=self.play)
        if self.bidder is not None and self.bidder not in ALL_BIDDERS:
            raise FieldError("{bidding} must be one of {bidders}, got {got!r}",
                             bidders=", ".join(ALL_BIDDERS), got=self.bidder)
        if self.worlds < 1:
            raise FieldError("{worlds} must be at least 1, got {got}", got=self.worlds)
        at_most("worlds", self.worlds, MAX_WORLDS)
        if self.bidder in CONVENTIONAL and not self.weights:
            object.__setattr__(self, "weights", bidder_weights(None, self.bidder))
        object.__setattr__(self, "weights", tuple(float(w) for w in self.weights))

    def loaded(self, rules) -> Player:
        """The player with its decision table read from `table_dir` (checked against the
        rules); itself when it has it. A table or game bidder needs the folder, no other
        bidder takes one."""
        if (self.bidder in TABLE_BIDDERS) != (self.table_dir is not None):
            raise FieldError("{bidding} table reads its decisions from {bidder_table} (and "
                             "only it does)")
        if self.table_dir is None or self.table is not None:
            return self
        return replace(self, table=load_decision_table(self.table_dir, rules))

    def settled(self) -> Player:
        """The player less what it does not use, so that two plans that compute the same
        differ in nothing: worlds only under PIMC, weights only for a point-count bidder."""
        return replace(self, worlds=self.worlds if self.pimc_worlds else DEFAULT_WORLDS,
                       weights=self.weights if self.bidder in CONVENTIONAL else ())

    @property
    def pimc_worlds(self) -> int | None:
        """Worlds per decision, where the model samples any (PIMC; learned-search at its
        close calls); else None."""
        return self.worlds if self.play in SAMPLING_MODELS else None

    @property
    def named_weights(self) -> dict | None:
        """The bidder's weights by name (None when it has none)."""
        return params_by_name(self.weights) if self.weights else None

    def net_source(self) -> dict:
        """The learned player's weights as a manifest names them (their sha256); empty for
        every other model."""
        return card_net_digests() if self.play in LEARNED_MODELS else {}

    def identity(self) -> dict:
        """What a run's manifest says of the player."""
        return {"play": self.play, "worlds": self.pimc_worlds, "bidding": self.bidder,
                "bidder_params": self.named_weights,
                "bidder_table": file_source(self.table_dir)} | self.net_source()

    def record(self, bids: bool = True) -> PlayerRecord:
        """The player as the kernels read it; bids=False: a record whose bidder is NO_BIDDER
        (its PIMC worlds infer nothing from the auction)."""
        weights = np.array(self.weights or bidder_params(None, self.bidder), dtype=np.float64)
        bidder = KERNEL_BIDDER.get(self.bidder, NO_BIDDER) if bids else NO_BIDDER
        return PlayerRecord(np.int64(bidder), weights,
                            self.table if self.table is not None else empty_table(),
                            np.int64(model_id(self.play)), np.int64(self.worlds),
                            nets_for(self.play))

    def label(self) -> str:
        return f"{self.bidder} bidder, {self.play} play"


def player_of(rules, bidding: str | None = None, play: str = "dd",
              worlds: int = DEFAULT_WORLDS, bidder_params: str | None = None,
              bidder_table: str | None = None) -> Player:
    """A player from the fields a command line or a JSON body names (`bidder_params` a JSON
    file of weights on top of the bidder's own, `bidder_table` a run folder), checked and
    with its files read."""
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
