"""A finished tournament's games as EGN. The tournament's kernels keep each hand's contract,
not its cards, so each hand is dealt again from the seed, bid as hands.parquet records it,
and its discard and cards are played through the engine by the players' play models: with
dd play every hand scores as in the tournament (the solver plays for the score, so the
tricks may differ within it); with rules or pimc play a hand may score otherwise (counted)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import NamedTuple

from ..core.dealing import deal_one
from ..core.rules import RuleSet
from ..core.run_tables import table_schema
from ..core.schema import read_table
from ..core.seats import SEAT_NAMES, team_of
from .egn import write_egn
from .engine import Bid, HandState
from .history import state_to_record
from .match import deal_index
from .model_strategy import ModelStrategy


class EgnGame(NamedTuple):
    name: str  # file name: game-G.egn, or game-G-C.egn for copy C of a duplicate pair
    document: dict
    differing: int  # hands that score otherwise than in the tournament


def tournament_games(out_dir: str, rules: RuleSet, seed: int, players: tuple,
                     duplicate: bool, worlds: int) -> Iterator[EgnGame]:
    """Every game of the tournament in `out_dir` (players: A and B, `Player` tuples)."""
    hands = read_table(os.path.join(out_dir, "hands.parquet"), "the hands table",
                       table_schema("hands"))
    for (game, copy), rows in hands.groupby(["game", "copy"], sort=True):
        ns, ew = (players[0], players[1]) if copy == 0 else (players[1], players[0])
        rng = random.Random(f"{seed}:{game}:{copy}")
        models = [ModelStrategy((ns, ew)[team_of(s)].play, None, rng, worlds)
                  for s in range(4)]
        records, differing = [], 0
        for row in rows.sort_values("hand").itertuples():
            state = _replay_row(rules, seed, int(game), row, models)
            differing += state.points() != [int(row.ns_points), int(row.ew_points)]
            records.append(state_to_record(state, len(records) + 1))
        first = rows.sort_values("hand").iloc[0]
        names = [f"{seat} ({'A' if (team_of(s) == 0) == (copy == 0) else 'B'}: "
                 f"{(ns, ew)[team_of(s)].label()})" for s, seat in enumerate(SEAT_NAMES)]
        name = f"game-{game + 1}-{copy + 1}.egn" if duplicate else f"game-{game + 1}.egn"
        document = write_egn(records, rules, f"euchre-sim tournament, {name[:-4]}", names,
                             (int(first.ns_before), int(first.ew_before)))
        yield EgnGame(name, document, differing)


def _replay_row(rules: RuleSet, seed: int, game: int, row, models) -> HandState:
    """One hand: the recorded deal and auction, the models' discard and cards."""
    dealer = SEAT_NAMES.index(row.dealer)
    hands, upcard = deal_one(rules, seed, int(deal_index(game, int(row.hand))), dealer)
    state = HandState(rules, dealer, hands, upcard)
    deck = rules.card_deck
    action = row.action if isinstance(row.action, str) else None  # None: passed out
    maker = SEAT_NAMES.index(row.maker) if action else -1
    contract_round = 1 if action == "order_up" else 2
    while state.phase == "bid":
        seat = state.turn
        if seat == maker and state.round == contract_round:
            suit = deck.parse_suit(row.trump) if action == "call" else None
            state.bid(Bid(seat, state.round, action, suit, bool(row.alone)))
        else:
            state.bid(Bid(seat, state.round, "pass"))
    if state.phase == "discard":
        state.discard(models[dealer].discard(state))
    if state.phase == "defend":
        defender = row.defender if isinstance(row.defender, str) else None
        state.defend(SEAT_NAMES.index(defender) if defender else None)
    while state.phase == "play":
        state.play(state.turn, models[state.turn].play(state, state.turn))
    return state
