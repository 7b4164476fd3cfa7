"""Self-play: strategies drive the engine through hands and whole games."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..core.dealing import deal_one
from ..core.rules import RuleSet
from ..core.seats import left_of, team_of
from ..play.models import DEFAULT_WORLDS
from .engine import HandState
from .match import HANDS_PER_GAME, deal_index, unfinished_game
from .strategies import make_strategy


def play_hand(rules: RuleSet, dealer: int, hands: list[int], upcard: int, players) -> HandState:
    """Play one hand to the end; `players[seat]` is that seat's strategy."""
    state = HandState(rules, dealer, hands, upcard)
    while state.phase == "bid":
        state.bid(players[state.turn].bid(state, state.legal_bids()))
    if state.phase == "discard":
        state.discard(players[state.dealer].discard(state))
    if state.phase == "defend":
        chosen = None
        for seat in state.defenders():
            if players[seat].defend_alone(state, seat):
                chosen = seat
                break
        state.defend(chosen)
    while state.phase == "play":
        seat = state.turn
        state.play(seat, players[seat].play(state, seat))
    return state


@dataclass
class PlayedHand:
    game: int
    number: int  # hand number within the game
    state: HandState
    score_after: list[int]


def play_games(rules: RuleSet, games: int, seed: int,
               strategy_names: tuple[str, str] = ("rules", "random"), play: str | None = None,
               worlds: int = DEFAULT_WORLDS,
               seats: Callable[[random.Random], list] | None = None) -> Iterator[PlayedHand]:
    """Whole games to `rules.target`, the deal passing left; NS uses the first strategy. A
    game still short of the target after `match.HANDS_PER_GAME` hands is a UserError
    (`match.unfinished_game`) once its last hand is yielded.

    With `play` (a play model), every seat's discards and cards come from that model and the
    strategies only bid. seats(rng): a game's four players by seat instead (e.g.
    `bidders.Sides.seats`, the tournament's players). Deal h of game g is deal (g << 20 | h)
    of the counter-based generator for `seed`.
    """
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        if seats is not None:
            players = seats(rng)
        else:
            players = [make_strategy(strategy_names[team_of(s)], rng) for s in range(4)]
        if play is not None and seats is None:
            from .model_strategy import ModelStrategy

            players = [ModelStrategy(play, p, rng, worlds) for p in players]
        score = [0, 0]
        dealer = game % 4
        called = False
        for number in range(HANDS_PER_GAME):
            hands, upcard = deal_one(rules, seed, int(deal_index(game, number)), dealer)
            state = play_hand(rules, dealer, hands, upcard, players)
            for team, pts in enumerate(state.points()):
                score[team] += pts
            called = called or not state.passed_out
            yield PlayedHand(game, number, state, list(score))
            if max(score) >= rules.target:
                break
            dealer = left_of(dealer)
        else:  # no winner is made up
            raise unfinished_game(game + 1, HANDS_PER_GAME, *score, rules.target,
                                  all_passed=not called)
