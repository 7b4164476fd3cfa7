"""Commands about the game itself: rule sets, self-play and replaying hand histories."""

from __future__ import annotations

import click

from ..api.output import json_text
from .app import cli, stopped
from .options import (
    json_option,
    player_fields,
    renamed_option,
    rules_options,
    seed_option,
    sides_options,
    workers_option,
)
from .progress import notes_compiling


@cli.command()
@click.argument("preset", required=False)
@json_option()
def rules(preset: str | None, as_json: bool) -> None:
    """List the presets, or every option of PRESET with its value and meaning.

    Example: euchre-sim rules drinking
    """
    from ..api.catalog import PRESETS, option_fields
    from ..api.catalog import preset as load_preset

    if preset is None:
        if as_json:
            click.echo(json_text({name: text for name, (text, _) in PRESETS.items()}))
            return
        for name, (text, _) in PRESETS.items():
            click.echo(f"{name:10} {text}")
        click.echo("\nShow a preset's options with: euchre-sim rules PRESET")
        return
    ruleset = load_preset(preset)
    values = ruleset.options()
    if as_json:
        click.echo(json_text(values))
        return
    for f in option_fields():
        value = values[f.name]
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        click.echo(f"{f.name:24} {shown:6} {f.metadata['meaning']}")


@cli.command()
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@seed_option
@rules_options
@renamed_option("--output", "--out", "out_path", type=click.Path(dir_okay=False), default=None,
                metavar="FILE", help="Write the hand histories here: JSON Lines, or EGN when "
                "FILE ends in .egn (one file per game: FILE-1.egn ... for several games).")
@sides_options(("The NS side", "The EW side"), "random",
               "random: any legal bid, a coin for defending alone")
@notes_compiling("play")
def play(games: int, seed: int, ruleset, out_path: str | None, players: tuple,
         bidder_table: str | None) -> None:
    """Self-play whole games, each side a bidder and a card-play model as in tournament; print
    the final scores and write the hand histories.

    Example: euchre-sim play --games 10 --seed 7 --ns rules --ew dd --output hands.jsonl
    """
    import contextlib

    from ..api.games import self_play
    from ..api.hands import check_writable, game_path, save_egn, written_records

    match = self_play(ruleset, players, games, seed, bidder_table)
    egn = out_path is not None and out_path.lower().endswith(".egn")
    if out_path:
        check_writable(game_path(out_path, 1, games) if egn else out_path)
    finals: dict[int, tuple[int, int]] = {}
    hands = kept = 0  # hands played; games written whole
    out = None
    try:
        with written_records(out_path) if out_path and not egn else \
                contextlib.nullcontext() as out:
            for game in match:
                hands += len(game.records)
                finals[game.number] = game.score
                if egn:
                    save_egn(game_path(out_path, game.number, games), match.egn(game))
                elif out is not None:
                    out.write("".join(json_text(record) + "\n" for record in game.records))
                    out.mark()
                kept += 1
    except KeyboardInterrupt:
        if out_path:
            stopped(_kept_games(out_path, egn, games, kept, out))
        raise
    wins = [0, 0]
    for number, (ns, ew) in sorted(finals.items()):
        click.echo(f"game {number}: NS {ns} - EW {ew}")
        wins[0 if ns > ew else 1] += 1
    click.echo(f"{games} games, {hands} hands: NS ({match.label(0)}) won {wins[0]}, "
               f"EW ({match.label(1)}) won {wins[1]}")


def _kept_games(out_path: str, egn: bool, games: int, kept: int, out) -> str:
    """The line of an interrupted `play --output`: the games written whole, and where."""
    from ..api.hands import game_path

    if egn and kept:
        where = game_path(out_path, 1, games) + (
            f" to {game_path(out_path, kept, games)}" if kept > 1 else "")
        return f"interrupted: {kept:,} of {games:,} games are written as EGN ({where})"
    if not egn and out is not None and out.kept:
        return (f"interrupted: {out.records:,} of {games:,} games played are kept in "
                f"{out.kept} (not {out_path}: the run did not finish)")
    return f"interrupted: no game was finished; nothing is written to {out_path}"


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@rules_options
@json_option(rows=True)
def replay(file: str, ruleset, as_json: bool) -> None:
    """Re-derive recorded hands (JSON Lines, EGN or PTN): legality of every bid, discard and
    card, and points. An EGN file's ruleset applies on top of --rules.

    Exit status 0 when every hand is ok, 1 when any is not, 2 when FILE cannot be read.

    Example: euchre-sim replay hands.jsonl --rules online --json
    """
    from ..api.hands import replay_stream

    bad = count = 0
    for result in replay_stream(file, ruleset):  # a hand at a time: JSON Lines read by line
        count += 1
        bad += not result["ok"]
        if as_json:
            click.echo(json_text(result))
        elif result["ok"]:
            t, p = result["tricks"], result["points"]
            line = (f"hand {result['id']}: ok  tricks NS {t['NS']} EW {t['EW']}  "
                    f"points NS {p['NS']} EW {p['EW']}")
            if "hidden" in result:
                line += f"  {result['hidden']} cards hidden"
            if "renege" in result:
                r = result["renege"]
                line += f"  renege by {r['seat']} in trick {r['trick']}"
            if "drinks" in result:
                line += "  drinks " + " ".join(f"{s} {n}" for s, n in result["drinks"].items())
            click.echo(line)
        else:
            click.echo(f"{result['error']}")
    if not as_json:
        click.echo(f"{count} hands: {count - bad} ok, {bad} rejected")
    return 1 if bad else 0


@cli.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for odds.parquet (and the simulation, unless --from).")
@click.option("--from", "from_dir", type=click.Path(file_okay=False), default=None,
              help="Take the hand results from this finished simulate --bidding run.")
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Deals to simulate (without --from).")
@seed_option
@rules_options
@player_fields
@workers_option
@click.option("--resume", is_flag=True, help="Continue an interrupted simulation in --out.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@json_option(rows=True)
@notes_compiling("odds")
def odds(out_dir: str, from_dir: str | None, ruleset, workers: int, resume: bool,
         no_progress: bool, as_json: bool, **fields) -> None:
    """The chance of winning the game from every score, for either side dealing next.

    Simulates DEALS deals with the auction (--bidding, default rules) into --out, or reads
    --from a finished simulate --bidding run, and solves the game by dynamic programming over
    one hand's result. Writes odds.parquet (us, them, we_deal, p_win, p_win_se).

    Example: euchre-sim odds --out odds/ --deals 200000 --bidding rules
    """
    from .. import api
    from .simulate_commands import RunOptions, run_simulation

    if from_dir is None:  # the hands bid, by the rules bidder unless another is named
        fields["bidding"] = fields["bidding"] or "rules"
        run_simulation(ruleset, out_dir, workers, RunOptions(resume, not no_progress), fields)
    table = api.odds(from_dir or out_dir, out=out_dir)
    if as_json:
        for line in table.to_json(orient="records", lines=True).splitlines():
            click.echo(line)
        return
    _print_odds(table, table.attrs["run"])


def _print_odds(table, info: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    target = int(table["us"].max())
    console = Console(width=160)
    for we_deal in (True, False):
        part = table[table["we_deal"] == we_deal].set_index(["us", "them"])["p_win"]
        out = Table(title=f"P(win) when {'we' if we_deal else 'they'} deal next "
                          f"(rows: our score, columns: theirs; {info['deals']:,} deals, "
                          f"bidding {info['bidding']}, play {info['play']})")
        out.add_column("us \\ them", justify="right")
        for b in range(target):
            out.add_column(str(b), justify="right")
        for a in range(target):
            out.add_row(str(a), *[f"{part[(a, b)]:.0%}" for b in range(target)])
        console.print(out)
