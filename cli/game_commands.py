"""Commands about the game itself: rule sets, self-play and replaying hand histories."""

from __future__ import annotations

import json
import sys

import click

from euchre_sim.core.errors import UserError

from .app import cli
from .options import json_option, rules_options, seed_option


@cli.command()
@click.argument("preset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules(preset: str | None, as_json: bool) -> None:
    """List the presets, or every option of PRESET with its value and meaning.

    Example: euchre-sim rules drinking
    """
    from euchre_sim.core.rules import PRESETS, option_fields
    from euchre_sim.core.rules import preset as load_preset

    if preset is None:
        if as_json:
            click.echo(json.dumps({name: text for name, (text, _) in PRESETS.items()}))
            return
        for name, (text, _) in PRESETS.items():
            click.echo(f"{name:10} {text}")
        click.echo("\nShow a preset's options with: euchre-sim rules PRESET")
        return
    ruleset = load_preset(preset)
    values = ruleset.options()
    if as_json:
        click.echo(json.dumps(values))
        return
    for f in option_fields():
        value = values[f.name]
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        click.echo(f"{f.name:24} {shown:6} {f.metadata['meaning']}")


@cli.command()
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@seed_option
@rules_options
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Write the hand histories (JSON Lines) here.")
@click.option("--ns", "ns_player", type=click.Choice(["rules", "random"]), default="rules",
              show_default=True, help="Strategy of the NS partnership.")
@click.option("--ew", "ew_player", type=click.Choice(["rules", "random"]), default="random",
              show_default=True, help="Strategy of the EW partnership.")
@click.option("--play", "play_model", type=click.Choice(["dd", "rules", "pimc"]), default=None,
              help="Card play and discards of every seat by this model (dd, rules, pimc); "
              "the strategies then only bid.")
@click.option("--worlds", type=click.IntRange(1, 10_000), default=50, show_default=True,
              help="Worlds each PIMC decision samples.")
def play(games: int, seed: int, ruleset, out_path: str | None, ns_player: str,
         ew_player: str, play_model: str | None, worlds: int) -> None:
    """Self-play whole games with the shipped strategies; print the final scores.

    Example: euchre-sim play --games 10 --seed 7 --rules online --out hands.jsonl
    """
    from euchre_sim.game.history import state_to_record
    from euchre_sim.game.selfplay import play_games

    out = open(out_path, "w", encoding="utf-8") if out_path else None
    finals: dict[int, list[int]] = {}
    record_id = 0
    try:
        for hand in play_games(ruleset, games, seed, (ns_player, ew_player), play_model,
                               worlds):
            record_id += 1
            finals[hand.game] = hand.score_after
            if out:
                record = state_to_record(hand.state, record_id, game=hand.game + 1,
                                         hand=hand.number + 1)
                out.write(json.dumps(record) + "\n")
    finally:
        if out:
            out.close()
    wins = [0, 0]
    for game, (ns, ew) in sorted(finals.items()):
        click.echo(f"game {game + 1}: NS {ns} - EW {ew}")
        wins[0 if ns > ew else 1] += 1
    cards = f"; cards by {play_model}" if play_model else ""
    click.echo(f"{games} games, {record_id} hands: NS ({ns_player}) won {wins[0]}, "
               f"EW ({ew_player}) won {wins[1]}{cards}")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@rules_options
@json_option
def replay(file: str, ruleset, as_json: bool) -> None:
    """Re-derive recorded hands (JSON Lines): legality of every bid, discard and card, and points.

    Exit status 0 when every hand is ok, 1 when any is not, 2 when FILE cannot be read.

    Example: euchre-sim replay hands.jsonl --rules online --json
    """
    from euchre_sim.game.history import replay_lines

    lines = _read_lines(file)
    results = replay_lines(lines, ruleset)
    bad = 0
    for result in results:
        bad += not result["ok"]
        if as_json:
            click.echo(json.dumps(result))
        elif result["ok"]:
            t, p = result["tricks"], result["points"]
            line = (f"hand {result['id']}: ok  tricks NS {t['NS']} EW {t['EW']}  "
                    f"points NS {p['NS']} EW {p['EW']}")
            if "renege" in result:
                r = result["renege"]
                line += f"  renege by {r['seat']} in trick {r['trick']}"
            if "drinks" in result:
                line += "  drinks " + " ".join(f"{s} {n}" for s, n in result["drinks"].items())
            click.echo(line)
        else:
            click.echo(f"{result['error']}")
    if not as_json:
        click.echo(f"{len(results)} hands: {len(results) - bad} ok, {bad} rejected")
    return 1 if bad else 0


def _read_lines(file: str) -> list[str]:
    if file == "-":
        return sys.stdin.read().splitlines()
    try:
        with open(file, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except OSError as err:
        raise UserError(f"cannot read {file!r}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"cannot read {file!r}: not UTF-8 text") from None

