"""Whole games: self-play between two sides, each a bidder and a card-play model (`euchre-sim
play`), and the page's practice games (a person at a table of people, each decision valued:
`PracticeSession`, read from its wing on first use, PEP 562).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from .lazy_names import lazy_names

if TYPE_CHECKING:
    from ..core.rules import RuleSet
    from ..game.bidders import Sides
    from ..report.practice import PracticeSession

__all__ = ["PlayedGame", "PracticeSession", "SelfPlay", "check_practice", "self_play"]

__getattr__, __dir__ = lazy_names(
    __name__, {"PracticeSession": ("..report.practice", "PracticeSession")}, __all__)


class PlayedGame(NamedTuple):
    """One self-played game: its number (from 1), its hands' records (docs/spec.md's hand
    history, with `game` and `hand`; the ids run on over the games) and the final score, NS
    first."""

    number: int
    records: list[dict]
    score: tuple[int, int]


class SelfPlay:
    """Games between two sides (`self_play`): iterating plays them, a `PlayedGame` each."""

    def __init__(self, rules: RuleSet, sides: Sides, games: int, seed: int):
        self.rules, self.sides, self.games, self.seed = rules, sides, games, seed

    def label(self, side: int) -> str:
        """How side 0 (NS) or 1 (EW) plays: 'rules bidder, dd play'."""
        return self.sides.label(side)

    def __iter__(self) -> Iterator[PlayedGame]:
        from ..game.history import state_to_record
        from ..game.selfplay import play_games

        record_id = 0
        hands = play_games(self.rules, self.games, self.seed, seats=self.sides.seats)
        for game, played in itertools.groupby(hands, key=lambda hand: hand.game):
            records, score = [], (0, 0)
            for hand in played:
                record_id += 1
                score = tuple(hand.score_after)
                records.append(state_to_record(hand.state, record_id, game=game + 1,
                                               hand=hand.number + 1))
            yield PlayedGame(game + 1, records, score)

    def egn(self, game: PlayedGame) -> dict:
        """The game as an EGN document (`api.hands.save_egn` writes it), its players named
        by seat and side."""
        from ..game.egn import write_egn

        players = [f"{seat} ({self.label(s % 2)})" for s, seat in enumerate("NESW")]
        return write_egn(game.records, self.rules, f"euchre-sim play, game {game.number}",
                         players)


def self_play(rules: RuleSet, players: tuple, games: int = 1, seed: int = 0,
              bidder_table: str | None = None) -> SelfPlay:
    """Whole games to the rules' target between two sides, as `euchre-sim play` plays them.

    Parameters
    ----------
    rules : RuleSet
        The rules of every game.
    players : (Player, Player)
        The sides' players, NS first (`api.options.side_players`).
    games : int
        Games to play (at most `api.catalog.MAX_PLAY_GAMES`).
    seed : int
        Fixes every deal and every random choice.
    bidder_table : str, optional
        The table bidders' decisions: a finished ``simulate --bidding`` run.

    Returns
    -------
    SelfPlay
        Checked; the games are played as it is iterated, a `PlayedGame` each.

    Raises
    ------
    euchre_sim.Error
        Too many games, a bad seed, or sides that cannot meet (the dd bidder against random
        bids, the table bidder without its table).

    Examples
    --------
    Iterating plays the games (``[(g.number, g.score) for g in match]``: the first call loads
    the kernels, a few seconds); the sides are checked at once:

    >>> from euchre_sim.api.catalog import preset
    >>> from euchre_sim.api.games import self_play
    >>> from euchre_sim.api.options import side_players
    >>> match = self_play(preset("standard"), side_players(("rules", "random"), ("rules",
    ...                   "rules")), games=2, seed=7)
    >>> match.label(0), match.label(1)
    ('rules bidder, rules play', 'random bidder, rules play')
    >>> self_play(preset("standard"), side_players(("dd", "random"), ("dd", "dd")))
    Traceback (most recent call last):
    ...
    euchre_sim.core.errors.UserError: the dd bidder bids knowing how the other side bids: it
    plays against the rules, human, table or dd bidder, not random
    """
    from ..core.limits import MAX_PLAY_GAMES, at_most, check_seed
    from ..game.bidders import Sides

    at_most("games", games, MAX_PLAY_GAMES)
    check_seed(seed)
    return SelfPlay(rules, Sides.of(rules, players, bidder_table), games, seed)


def check_practice(position: int, seed: int, table: str = "people",
                   rules: RuleSet | None = None) -> None:
    """Check a practice game's seat, seed and table before it is dealt (`PracticeSession`
    deals it).

    Parameters
    ----------
    position : int
        The player's position in the first hand, 1-4 from the dealer's left.
    seed : int
        Fixes the deals.
    table : str
        Who sits at the three other seats: ``people`` (the human bidder and the learned
        player), ``strong`` (the table bidder of the shipped atlas and learned-search, under
        the atlas's presets' rules) or ``beginners`` (the rules bidder and the conventional
        player).
    rules : RuleSet, optional
        The game's rules (default: standard).

    Raises
    ------
    euchre_sim.Error
        A position or a seed out of range, an unknown table, or the strong table under rules
        the atlas does not cover.

    Examples
    --------
    >>> from euchre_sim.api.games import check_practice
    >>> check_practice(5, 0)
    Traceback (most recent call last):
    ...
    euchre_sim.core.errors.UserError: seat must be 1-4 (your position from the dealer's left), got 5
    """
    from ..advice.practice_tables import check_table
    from ..core.limits import check_seed
    from ..core.rules import preset
    from ..game.practice import first_dealer

    first_dealer(position)
    check_seed(seed)
    check_table(preset("standard") if rules is None else rules, table)
