"""`tournament`: whole games between two players, in duplicate, as one call (or planned, then
played: `tournament_plan`, `play_tournament`); a finished tournament's games as EGN files
(`egn_games`); two tournaments compared player by player (`compare_tournaments`).

`MEASURES` is read on first use (its module loads numpy and pandas); the functions import
what they need when called."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.errors import UserError
from ..core.output import writable_folder
from .lazy_names import lazy_names
from .options import checked_options, path_text, rules_of
from .runs import RunProgress, run_chunked, usable_workers

if TYPE_CHECKING:
    import pandas as pd

    from ..advice.question import parse_score
    from ..core.rules import RuleSet
    from ..report.tournament import MEASURES

__all__ = ["MEASURES", "TOURNAMENT_OPTIONS", "Tournament", "compare_tournaments",
           "describe_tournament", "egn_games", "is_complete", "parse_score", "play_tournament",
           "tournament", "tournament_plan", "writable_folder"]

TOURNAMENT_OPTIONS = ("from_score", "dealer", "duplicate", "chunk_size", "bidder_table", "odds",
                      "scheduler")
_PLAYER_FIELDS = ("bidding", "play", "worlds", "bidder_params")


# names read from their one definition when first asked for (`__getattr__`)
__getattr__, __dir__ = lazy_names(__name__, {
    "MEASURES": ("..report.tournament", "MEASURES"),
    "parse_score": ("..advice.question", "parse_score")}, __all__)


@dataclass(frozen=True)
class Tournament:
    """A finished tournament's folder: `info` (its run.json; `summary`: A's win rate with its
    95% interval, points per hand, ...), its tables by `table(name)` (players, games,
    hands), `played`: the games this call played (0 for one already complete), and
    `complete_before`: a resumed tournament was already complete."""

    path: str
    info: dict
    played: int = 0
    complete_before: bool = False
    plan: object = field(default=None, repr=False, compare=False)

    @property
    def summary(self) -> dict:
        """A's win rate (`a_win_rate`, its 95% interval `a_win_rate_95`), net points per
        hand, NS's win rate, hands per game, hands passed out (run.json's summary)."""
        return self.info["summary"]

    @property
    def players(self) -> dict:
        """Each player ("A", "B") in words."""
        return self.info["players_described"]

    @property
    def games_per_second(self) -> float:
        """The games this call played over the run's elapsed seconds."""
        return self.played / max(float(self.info.get("elapsed_seconds", 0.0)), 1e-9)

    def table(self, name: str = "players") -> pd.DataFrame:
        """players (each player's games won and points per hand by the side it held), games
        or hands, checked against its schema."""
        from .tables import read_table

        return read_table(self.path, name)[2]


def _player(given, rules):
    """A player: a `Player` as it is, or one from a mapping of bidding (default rules), play,
    worlds and bidder_params."""
    from ..bidding.params import GAME_BIDDERS
    from ..play.models import DEFAULT_PLAY, DEFAULT_WORLDS
    from ..play.player import Player, check_bidder, side_players

    if isinstance(given, Player):
        return given
    if not isinstance(given, Mapping):
        raise UserError(f"a player is a mapping of {', '.join(_PLAYER_FIELDS)}, got "
                        f"{given!r:.40}")
    fields = checked_options(given, _PLAYER_FIELDS, "a tournament's player")
    bidding = fields.get("bidding", "rules")
    check_bidder(bidding, GAME_BIDDERS)
    return side_players((bidding,), (fields.get("play", DEFAULT_PLAY),),
                        path_text(fields.get("bidder_params")),
                        fields.get("worlds", DEFAULT_WORLDS))[0]


def tournament_plan(games: int, *, out: str | os.PathLike, players: Sequence, seed: int = 0,
                    rules: str | RuleSet = "standard", resume: bool = False,
                    warn: Callable[[str], None] | None = None, **options):
    """A tournament checked and its folder opened (or a resumed one's checked), not played
    (`play_tournament` plays it). `warn(line)` tells each damaged chunk a resume removes.
    The arguments are `tournament`'s; returns the plan (`game.tournament.TournamentPlan`:
    `out_dir`, `games`, `pending_count()`, ...).

    Examples
    --------
    >>> import tempfile, euchre_sim
    >>> from euchre_sim.api.tournaments import tournament_plan
    >>> try:
    ...     tournament_plan(0, out=tempfile.mkdtemp(), players=({}, {}))
    ... except euchre_sim.Error as err:
    ...     print(err)
    games must be a whole number of at least 1, got 0
    """
    from ..advice.question import parse_score
    from ..game.tournament import TournamentPlan, prepare_tournament

    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise UserError(f"games must be a whole number of at least 1, got {games!r:.40}")
    given = checked_options(options, TOURNAMENT_OPTIONS, "tournament")
    given.pop("scheduler", None)
    ruleset = rules_of(rules)
    if isinstance(players, str | bytes | Mapping) or len(players) != 2:
        raise UserError("players must be two: (A, B)")
    start = given.pop("from_score", None)
    if isinstance(start, str):
        start = parse_score(start, "from_score")
    plan = TournamentPlan(out_dir=os.fspath(out), rules=ruleset, seed=seed, games=games,
                          players=tuple(_player(p, ruleset) for p in players),
                          start=start or (0, 0),
                          dealer=-1 if given.get("dealer") is None else given["dealer"],
                          duplicate=given.get("duplicate", True),
                          chunk_size=given.get("chunk_size"),
                          bidder_table=path_text(given.get("bidder_table")),
                          odds_dir=path_text(given.get("odds")))
    return prepare_tournament(plan, resume, warn)


def is_complete(plan) -> bool:
    """Whether a planned tournament's folder holds it finished (a resume has nothing to
    play)."""
    from ..runs.runner import is_complete as finished

    return finished(plan.out_dir)


def play_tournament(plan, workers: int | None = None,
                    progress: Callable[[RunProgress], None] | None = None,
                    scheduler: str | None = None) -> Tournament:
    """Play a planned tournament's pending chunks (`tournament_plan`) on `workers` local
    processes or a Dask `scheduler`, told to `progress` (a `RunProgress`, "games" its
    units), and merge its tables. A KeyboardInterrupt leaves every finished chunk saved."""
    from ..game.tournament import finish_tournament, run_tournament

    tell, workers = progress or (lambda update: None), usable_workers(workers)
    total, pending = plan.games, plan.pending_count()
    local = scheduler in (None, "local")  # a remote cluster's workers compile their own
    seconds = run_chunked(plan, lambda advance: run_tournament(plan, workers, advance,
                                                               scheduler),
                          plan.warm_up if local else None, tell)
    info = finish_tournament(plan, seconds, workers,
                             engine=f"dask {scheduler}" if scheduler else "local",
                             warn=lambda line: tell(RunProgress("note", total, total, line)))
    copies = 2 if plan.duplicate else 1
    return Tournament(plan.out_dir, info, copies * pending, plan=plan)


def tournament(games: int, *, out: str | os.PathLike, players: Sequence, seed: int = 0,
               rules: str | RuleSet = "standard", workers: int | None = None,
               resume: bool = False, progress: Callable[[RunProgress], None] | None = None,
               **options) -> Tournament:
    """Whole games to the target between player A and player B, as `euchre-sim tournament`
    plays them: in duplicate pairs by default (each deal played twice, the seats swapped), so
    the luck of the cards cancels. The same seed gives the same tables whatever the workers.

    Parameters
    ----------
    games : int
        Games (duplicate pairs unless ``duplicate=False``).
    out : str or PathLike
        The tournament's folder: empty, or with ``resume=True`` an interrupted one.
    players : (A, B)
        Each a mapping of ``bidding`` (rules, dd, table, game, ...; default rules), ``play``,
        ``worlds`` and ``bidder_params`` (a JSON file of weights). A holds NS in the first
        game of each pair.
    seed : int
        Fixes every random choice.
    rules : str or RuleSet
        A preset's name, or a RuleSet.
    workers : int, optional
        Worker processes (default and most: all cores).
    progress : callable, optional
        Called with a `RunProgress` as the games start, compile, each chunk is saved, or a
        note.
    **options
        ``from_score`` ("NS-EW" or a pair: every game's start), ``dealer`` (the first
        dealer's seat, 0-3 from North; default: rotates by game), ``duplicate``,
        ``chunk_size``, ``bidder_table`` (the table and game bidders' run folder), ``odds``
        (the game bidder's odds folder), ``scheduler`` ("tcp://HOST:PORT" or "local").

    Returns
    -------
    Tournament

    Examples
    --------
    ``tournament(10_000, seed=1, out="t", players=({"bidding": "rules"}, {"bidding": "dd"}))``
    plays 10,000 duplicate pairs; ``.summary["a_win_rate"]`` is A's share of the pairs won.

    >>> import tempfile, euchre_sim
    >>> from euchre_sim.api.tournaments import tournament
    >>> try:
    ...     tournament(10, out=tempfile.mkdtemp(), players=({"bidding": "rules"},))
    ... except euchre_sim.Error as err:
    ...     print(err)
    players must be two: (A, B)
    """
    plan = tournament_plan(games, out=out, players=players, seed=seed, rules=rules,
                           resume=resume,
                           warn=lambda line: (progress or _quiet)(RunProgress("note", 0, 0,
                                                                              line)),
                           **options)
    if resume and is_complete(plan):
        (progress or _quiet)(RunProgress("note", plan.games, plan.games,
                                         f"tournament in {plan.out_dir} is already complete"))
        from .runs import load_run

        return Tournament(plan.out_dir, load_run(plan.out_dir).info, complete_before=True,
                          plan=plan)
    return play_tournament(plan, workers, progress, options.get("scheduler"))


def _quiet(update: RunProgress) -> None:
    """A progress callback that shows nothing."""


def egn_games(played: Tournament, folder: str | os.PathLike) -> Iterator[tuple[str, int]]:
    """Write every game of a tournament this session played as an EGN file into `folder`
    (its cards played again through the engine: slow), yielding (the file's name, the hands
    that score otherwise than in the tournament) after each file, written whole."""
    from ..game.egn import save_egn
    from ..game.tournament_egn import tournament_games

    plan = played.plan
    if plan is None:
        raise UserError("a tournament's games are written as EGN by the call that plays it")
    for game in tournament_games(plan.out_dir, plan.rules, plan.seed, plan.players,
                                 plan.duplicate, plan.worlds):
        save_egn(os.path.join(os.fspath(folder), game.name), game.document)
        yield game.name, game.differing


def describe_tournament(info: dict) -> str:
    """A tournament for a header line: its players, seed and games (from its run.json).

    Examples
    --------
    >>> from euchre_sim.api.tournaments import describe_tournament
    >>> describe_tournament({"players_described": {"A": "rules bidder, dd play",
    ...                      "B": "dd bidder, dd play"}, "seed": 1, "games": 20,
    ...                      "duplicate": True})
    'A: rules bidder, dd play vs B: dd bidder, dd play; seed 1, 20 duplicate pairs'
    """
    from ..report.tournament import describe

    return describe(info)


def compare_tournaments(path_1: str, path_2: str) -> tuple[dict, pd.DataFrame, list[str]]:
    """Two finished tournaments of the same rules compared player by player and side by side,
    as `euchre-sim compare` does.

    Returns
    -------
    (dict, pandas.DataFrame, list of str)
        Both tournaments' facts; their players tables joined on player and side, each
        measure (`MEASURES`) in each (_1, _2) and its difference 2 - 1, z (net points per
        hand) and win_z (win rate); notes (e.g. they do not play the same deals).

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tournaments import compare_tournaments
    >>> try:
    ...     compare_tournaments("no-such-run", "other")
    ... except Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.query import load_run
    from ..report.tournament import compare_tournaments as joined

    return joined(path_1, load_run(path_1), path_2, load_run(path_2))
