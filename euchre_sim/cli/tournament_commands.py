"""`euchre-sim tournament`: whole games between two players, in duplicate."""

from __future__ import annotations

import math
import os

import click

from ..api.output import json_text
from .app import cli, stopped
from .options import (
    compass_seat,
    json_option,
    rules_options,
    seed_option,
    sides_options,
    workers_option,
)
from .progress import ChunkBar, notes_compiling, warn


def _game_options(command):
    """The players (`sides_options`) and the game bidder's odds."""
    command = click.option("--odds", "odds_dir", default=None, metavar="DIR",
                           help="The game bidder's chances of the game: a folder with "
                           "odds.parquet (euchre-sim odds).")(command)
    return sides_options(("Player A", "Player B"), "rules",
                         "A holds NS in the first game of each duplicate pair; game: the "
                         "table bidder playing for the game, with --bidder-table and --odds",
                         game=True)(command)


@cli.command()
@click.option("--games", type=click.IntRange(min=1), required=True,
              help="Games (duplicate pairs unless --no-duplicate).")
@seed_option
@rules_options
@_game_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Output folder (must be empty unless --resume).")
@click.option("--from-score", "from_score", default=None, metavar="NS-EW",
              help="Start every game at this score, e.g. 8-9 (NS 8, EW 9).")
@click.option("--dealer", default=None, metavar="SEAT",
              help="The first dealer of every game (N E S W); default: rotates by game.")
@click.option("--no-duplicate", is_flag=True,
              help="Play each game once, A holding NS (default: twice, seats swapped).")
@workers_option
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Games per chunk (default: about 1% of the run).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run in --out.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local",
              help="Play the chunks on a Dask cluster ('local': a LocalCluster of --workers).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--egn", "egn_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR", help="Also write every game as EGN into DIR (its cards played "
              "again through the engine: slow, for looking at games).")
@json_option()
@notes_compiling("tournament")
def tournament(ruleset, players: tuple, from_score: str | None, dealer: str | None,
               no_duplicate: bool, workers: int, resume: bool, scheduler: str | None,
               no_progress: bool, egn_dir: str | None, as_json: bool, **fields) -> None:
    """Whole games to the target between player A (--ns) and player B (--ew).

    Each deal is played twice with the players' seats swapped (duplicate), so the luck of the
    cards cancels. Writes games.parquet (winner NS/EW, final score, hands; drinks per seat
    under the drinking rules) and hands.parquet (every hand's contract and points), and
    prints A's win rate with its 95% interval.

    Example: euchre-sim tournament --ns rules --ew dd --games 10000 --seed 1 --out t/
    """

    from ..api.tournaments import (
        is_complete,
        parse_score,
        play_tournament,
        tournament_plan,
        writable_folder,
    )

    if egn_dir is not None:
        writable_folder(egn_dir)  # before the games, not after them
    plan = tournament_plan(
        fields.pop("games"), out=fields.pop("out_dir"), players=players, rules=ruleset,
        resume=resume, warn=warn, duplicate=not no_duplicate,
        from_score=parse_score(from_score, "from_score"),
        dealer=None if dealer is None else compass_seat("--dealer", dealer),
        seed=fields.pop("seed"), odds=fields.pop("odds_dir"), **fields)
    out_dir = plan.out_dir
    if resume and is_complete(plan):
        click.echo(f"tournament in {out_dir} is already complete", err=True)
        return
    with ChunkBar("tournament", "games", out_dir, not no_progress) as bar:
        played = play_tournament(plan, workers, bar, scheduler)
    if egn_dir is not None:
        _write_egn(played, egn_dir)
    summary = played.summary
    if as_json:
        click.echo(json_text(summary | {"players": played.players}))
        return
    _print_summary(summary, played, out_dir)


def _write_egn(played, egn_dir: str) -> None:
    from ..api.tournaments import egn_games

    plan = played.plan
    written = differing = 0
    try:
        for _, hands in egn_games(played, egn_dir):
            written, differing = written + 1, differing + hands
    except KeyboardInterrupt:  # each file is written whole (save_egn) or not at all
        total = plan.games * (2 if plan.duplicate else 1)
        stopped(f"interrupted: {written:,} of {total:,} games are written as EGN to "
                f"{egn_dir}; the tournament itself is finished in {plan.out_dir}")
    note = f" ({differing} hands score otherwise than in the tournament)" if differing else ""
    click.echo(f"{written} games written as EGN to {egn_dir}{note}", err=True)


def _print_summary(summary: dict, played, out_dir: str) -> None:
    players = played.players
    low, high = summary["a_win_rate_95"]
    unit = f"{summary['pairs']:,} duplicate pairs" if summary["pairs"] else \
        f"{summary['games']:,} games"
    click.echo(f"A: {players['A']}\nB: {players['B']}")
    interval = f"95% interval {low:.1%} to {high:.1%}" if math.isfinite(low) else \
        "no interval: too few games"
    click.echo(f"A won {summary['a_win_rate']:.1%} of games ({interval}; {unit})")
    click.echo(f"NS seats won {summary['ns_win_rate']:.1%}; A's net points per hand "
               f"{summary['a_points_per_hand']:+.3f} (se {summary['a_points_per_hand_se']:.3f}); "
               f"{summary['hands_per_game']:.2f} hands per game, "
               f"{summary['passed_out_rate']:.1%} passed out")
    if "drinks_per_game_by_seat" in summary:
        seats = "  ".join(f"{s} {n:.1f}" for s, n in summary["drinks_per_game_by_seat"].items())
        by_player = summary["drinks_per_game_by_player"]
        click.echo(f"drinks per game by seat: {seats}; by player (both seats): "
                   f"A {by_player['A']:.1f}, B {by_player['B']:.1f}")
    click.echo(f"{played.played:,} games played this run ({played.games_per_second:,.0f} "
               "games/s) -> "
               f"{os.path.join(out_dir, 'games.parquet')}, hands.parquet, run.json", err=True)
