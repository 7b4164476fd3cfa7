"""Self-play players by the tournament's names: each side a bidder of `bidding.params.BIDDERS`
(or `random`: `SELF_PLAY_BIDDERS`) and a card-play model, the engine asking the kernels that
`tournament` runs.

A side's seats bid (and decide on defending alone) as `game.match` has that bidder bid:
the rules, human and table bidders from their own hands (`bidding.auction.bidder_choice`,
`defends_alone`), the dd bidder from the deal's call table under the play models and both
sides' bidders (`auction_choices`); `random` picks among the legal bids. Discards and cards
come from the side's play model (`model_strategy.ModelStrategy`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np

from ..bidding.auction import (
    NO_WINS,
    Auction,
    auction_choices,
    bidder_choice,
    defends_alone,
)
from ..bidding.params import SELF_PLAY_BIDDERS
from ..bidding.table import load_decision_table
from ..core.calls import (
    BOTH_ROUNDS,
    N_CALLS,
    N_ROWS,
    WITH_DEFENCE,
    call_row,
    defender_position,
    row_call,
    turn_at,
)
from ..core.dealing import Deal
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.ruletables import compile_rules
from ..core.seats import seat_at, team_of
from ..play.pimc import inference_of, new_pimc_work
from ..play.playout import ALL_ROWS, new_play_work, play_deal
from ..solver.calltable import analyze_deal
from ..solver.search import new_work, shared_tt
from .engine import Bid, HandState
from .model_strategy import ModelStrategy
from .strategies import RandomStrategy


@dataclass(frozen=True)
class Sides:
    """Both sides' players (NS first, `play.player.Player`), their decision tables loaded."""

    rules: RuleSet
    players: tuple

    @classmethod
    def of(cls, rules: RuleSet, players: tuple, table_dir: str | None = None) -> Sides:
        """Check the players (`play.player.side_players`) and what they need, with the table
        bidder's decisions read from `table_dir`; one line a user can act on if not."""
        bidders = [p.bidder for p in players]
        for name in bidders:
            if name not in SELF_PLAY_BIDDERS:
                raise UserError(f"unknown bidder {name!r} (bidders: "
                                f"{', '.join(SELF_PLAY_BIDDERS)})")
        if ("table" in bidders) != (table_dir is not None):
            raise UserError("the table bidder reads its decisions from --bidder-table DIR "
                            "(and only it does)")
        if "dd" in bidders and "random" in bidders:
            raise UserError("the dd bidder bids knowing how the other side bids: it plays "
                            "against the rules, human, table or dd bidder, not random")
        table = load_decision_table(table_dir, rules) if table_dir is not None else None
        return cls(rules, tuple(replace(p, table_dir=table_dir, table=table)
                                if p.bidder == "table" else p for p in players))

    @property
    def solved(self) -> bool:
        """Both sides play as the solver (`play.models.PlayModel.solved`)."""
        return all(p.model.solved for p in self.players)

    def label(self, side: int) -> str:
        return self.players[side].label()

    def seats(self, rng: random.Random) -> list:
        """The four players of one game, by seat."""
        auction = KernelAuction(self, rng)
        out = []
        for seat in range(4):
            player = self.players[team_of(seat)]
            bidder = RandomStrategy(rng) if player.bidder == "random" else KernelBidder(auction)
            out.append(ModelStrategy(player.play, bidder, rng, player.worlds))
        return out


class KernelAuction:
    """The kernels' auction of the hand in play, worked out once per hand for every seat of a
    game (`game.match.play_hand` without the score)."""

    def __init__(self, sides: Sides, rng: random.Random):
        self.tb = compile_rules(sides.rules)
        self.players = tuple(p.record() for p in sides.players)
        self.sides = sides
        self.rng = rng
        self.dd = any(p.bidder == "dd" for p in sides.players)
        self.state: HandState | None = None
        self.hands = np.zeros(4, dtype=np.uint64)
        self.contracts = np.zeros((N_CALLS, 3), dtype=np.int64)
        self.choices = np.zeros(8, dtype=np.int64)

    def _deal(self, state: HandState) -> None:
        """Read the hand's deal; with a dd bidder, its call table and the whole auction."""
        if self.state is state:
            return
        self.state = state
        self.hands[:] = np.array(state.dealt, dtype=np.uint64)
        if not self.dd:
            return
        calls = np.empty(N_ROWS, dtype=np.int8)
        rounds = BOTH_ROUNDS | WITH_DEFENCE
        deal = Deal(self.hands, state.upcard, state.dealer)
        if self.sides.solved:
            analyze_deal(self.tb, deal, True, 0, rounds, shared_tt(), new_work(), calls)
        else:
            ns, ew = self.players
            pws = (new_pimc_work(inference_of(), ns.nets), new_pimc_work(inference_of(), ew.nets))
            play_deal(new_play_work((ns.play, ew.play), self.tb, ns.worlds, pws), deal,
                      np.uint64(self.rng.getrandbits(64)), 0, rounds, ALL_ROWS, shared_tt(),
                      calls)
        auction_choices(self.players, self.tb, deal, Auction(calls, self.contracts, self.choices,
                                                             np.zeros(9, dtype=np.int64)))

    def row(self, state: HandState) -> int:
        """The call-table row the seat to act calls (-1: pass)."""
        self._deal(state)
        turn = turn_at(state.round, state.position(state.turn))
        if self.dd:
            return int(self.choices[turn])
        player = self.players[team_of(state.turn)]
        return int(bidder_choice(player.bidder, self.tb, player.weights, player.table,
                                 self.hands[state.turn], state.upcard, turn, NO_WINS))

    def defends_alone(self, state: HandState, seat: int) -> bool:
        """Does defender `seat` play alone against the contract made?"""
        self._deal(state)
        call = state.bids[-1]
        pos = state.position(call.seat)
        if self.dd:
            trump = call.suit if call.round == 2 else 0
            def_pos = self.contracts[call_row(call.round, pos, trump, int(call.alone)), 2]
            return bool(def_pos) and seat_at(state.dealer, def_pos) == seat
        j = 0 if seat_at(state.dealer, defender_position(pos, 0)) == seat else 1
        return bool(defends_alone(self.tb, self.players[team_of(seat)].weights,
                                  Deal(self.hands, state.upcard, state.dealer), call.round, pos,
                                  state.trump, j))


class KernelBidder:
    """An engine strategy that bids and decides on defending alone as its side's bidder."""

    def __init__(self, auction: KernelAuction):
        self.auction = auction

    def bid(self, state: HandState, options: list[Bid]) -> Bid:
        row = self.auction.row(state)
        if row < 0:
            return next(o for o in options if o.action == "pass")
        round_no, _, trump, alone = row_call(row)
        action = "order_up" if round_no == 1 else "call"
        return next(o for o in options if o.action == action and o.alone == bool(alone)
                    and (round_no == 1 or o.suit == trump))

    def defend_alone(self, state: HandState, seat: int) -> bool:
        return self.auction.defends_alone(state, seat)
