"""`euchre-sim advise`: should this hand order up, call, go alone or pass (and during the
play: which card), and the tables that answer it."""

from __future__ import annotations

import click

from ..api.catalog import MODELS, SOLVER_PACE, PlayModel
from ..api.output import json_text
from .app import cli
from .options import json_option, player_fields, rules_options, seed_option, workers_option
from .progress import notes_compiling


def _deals_help() -> str:
    """--deals' default by the models' paces: the solver's, then any other's."""
    others: dict[int, list[str]] = {}
    for m in MODELS:
        if m.pace.advise_deals != SOLVER_PACE.advise_deals:
            others.setdefault(m.pace.advise_deals, []).append(m.name)
    return (f"up to {SOLVER_PACE.advise_deals:,} deals, stopping once the best action is "
            "clear; " + "; ".join(f"{deals:,} under --play {' or '.join(names)}"
                                  for deals, names in others.items()))


@cli.command()
@click.option("--hand", default=None,
              help='Your cards, e.g. "JS AS 9H 9D TC" (during the play: those you still hold).')
@click.option("--up", default=None, help="Round 1: the upcard.")
@click.option("--turned-down", default=None, help="Round 2: the card turned down.")
@click.option("--seat", type=int, required=True,
              help="Your position: 1 = dealer's left ... 4 = dealer.")
@click.option("--deals", type=click.IntRange(min=2), default=None,
              help="Deals to simulate; then exactly this many, never the atlas (default: "
                   f"the atlas where it covers the question, else {_deals_help()}).")
@seed_option
@rules_options
@player_fields(people_default=True)
@click.option("--score", default=None, metavar="US-THEM",
              help="With --bidding (or the default table of people): the game's score, e.g. "
                   "8-9; adds each action's chance of winning the game. Answered at once from "
                   "the atlas where it covers the hand (the standard, online, yooker and "
                   "drinking presets unchanged, no --deals).")
@click.option("--odds", type=click.Path(file_okay=False), default=None,
              help="With --score: a folder with odds.parquet (euchre-sim odds); default: at a "
                   "table of people under the standard, online, yooker or drinking preset "
                   "unchanged, the odds shipped beside the atlas (whether or not the atlas "
                   "covers the hand: a simulated hand takes seconds), else solved from fresh "
                   "deals bid the same way (a minute or more).")
@click.option("--trump", default=None, metavar="SUIT",
              help="During the play: trump (with --maker); asks your next card.")
@click.option("--maker", type=int, default=None, help="During the play: the maker's position.")
@click.option("--alone", is_flag=True, default=None, help="During the play: the maker is alone.")
@click.option("--played", default=None, metavar="TRICKS",
              help='During the play: the cards played so far in playing order, tricks '
                   'separated by "/", e.g. "AD KD 9D 9S / QC".')
@click.option("--discard-from", "discard_from", default=None, metavar="6 CARDS",
              help="The dealer's discard: your five cards and the upcard (with --trump).")
@click.option("--discard", default=None, metavar="CARD",
              help="During the play, as the dealer who took the upcard: what you threw.")
@workers_option
@json_option()
@notes_compiling("advise")
def advise(ruleset, as_json: bool, workers: int, **fields) -> None:
    """Should this hand order up, call, go alone or pass? Figures over random deals of the
    unseen cards (with --bidding: the deals where the auction reaches you, pass included).
    With neither --play nor --bidding: at a table of people (--bidding human --play learned),
    double dummy beside: read at once from the shipped atlas where it covers the question
    (the standard, online, yooker and drinking presets unchanged, no --deals; with or without
    --score), else simulated (a few seconds; the first run compiles for about a minute and
    says so). "Best" is named only where its lead over the runner-up is clear at 95 %, else
    "too close to call", with the margin either way.
    With --trump and --maker: which card to discard or play now, over worlds consistent
    with what you have seen.

    Example: euchre-sim advise --hand "JS AS 9H 9D TC" --up 9S --seat 1

    Example during the play: euchre-sim advise --hand "KS QH 9C TH 9D" --up 9S --seat 3
    --trump S --maker 4 --played "AD KD" --worlds 200
    """

    from .. import api
    from ..api.catalog import play_model

    result = api.advise(rules=ruleset, workers=workers, **fields).to_dict()
    if as_json:
        click.echo(json_text(result))
    elif "kind" in result:
        _print_play_advice(result)
    else:
        _print_advice(result, ruleset, fields["seat"], play_model(result["play"]))


def _print_play_advice(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..api.catalog import Z95

    what = "discard" if result["kind"] == "discard" else f"card to play, trick {result['trick']}"
    table = Table(title=f"Seat {result['seat']}, trump {result['trump']}, maker "
                  f"{result['maker']}{' alone' if result['alone'] else ''}: your {what}, "
                  f"{result['worlds']} worlds")
    for name in ("card", "mean points", "95% interval", "dd best in"):
        table.add_column(name, justify="left" if name == "card" else "right")
    for o in result["options"]:
        se = o["pimc_se"] or 0.0
        table.add_row(o["option"], f"{o['pimc']:+.3f}",
                      f"{o['pimc'] - Z95 * se:+.3f} .. {o['pimc'] + Z95 * se:+.3f}",
                      f"{o['best_share']:.0%} of worlds")
    Console(width=140).print(table)
    best, margin = result["best"], result["margin"]
    if best is None:
        click.echo(f"Best: too close to call ({margin['option']} leads {margin['runner_up']} "
                   f"by {margin['lead']:+.3f} ± {Z95 * margin['lead_se']:.3f} points, paired "
                   "on the same worlds).")
    elif best["lead"] is None:
        click.echo(f"Only one card: {best['option']}.")
    else:
        click.echo(f"Best: {best['option']} (ahead of the runner-up by {best['lead']:+.3f} ± "
                   f"{Z95 * best['lead_se']:.3f} points, paired on the same worlds).")
    click.echo("Mean points go to your side; each world is solved double dummy from here.")


def _action_label(a: dict) -> str:
    if a["action"] == "pass":
        return "pass"
    return f"call {a['suit']}" if a["action"] == "call" else "order up"


def _chance_cell(action: dict) -> str:
    """P(win game) and its 95 % interval: ± its half-width where both sides print alike, else
    (the rule of three's or Wilson's interval near 0 or 1, not symmetric) its ends."""
    p, (low, high) = action["p_win"], action["p_win_ci95"]
    if f"{abs(high - p):.1%}" == f"{abs(p - low):.1%}":
        return f"{p:.1%} ± {abs(high - p):.1%}"
    return f"{p:.1%} ({low:.1%} .. {high:.1%})"


def _margin_text(margin: dict, percent: bool) -> str:
    """How far the top action leads the runner-up: its lead ± the wider side of its 95 %
    interval (1.96 times the stated lead_se), in points or in the chance of the game, and how
    its error was found."""
    from ..api.catalog import Z95

    lead, half = margin["lead"], Z95 * margin["lead_se"]
    amount = f"{lead:+.1%} ± {half:.1%}" if percent else f"{lead:+.3f} ± {half:.3f} points"
    how = ("paired on the same deals" if margin["paired"] else
           "the two errors added: the atlas keeps no paired one")
    return f"{amount}, {how}"


def _best_line(margin: dict | None, best: dict | None, percent: bool = False) -> str:
    """'LABEL (ahead of the runner-up by …)' where `best` is stated, else 'too close to call
    (LABEL leads RUNNER-UP by …)', with the margin; 'the only action' without a margin."""
    if margin is None:
        return "the only action"
    lead = _margin_text(margin, percent)
    if best is not None:
        return f"{_full_label(best)} (ahead of the runner-up by {lead})"
    return (f"too close to call ({_full_label(margin)} leads "
            f"{_full_label(margin['runner_up'])} by {lead})")


def _full_label(a: dict) -> str:
    return _action_label(a) + (" alone" if a["alone"] else "")


def _print_advice(result: dict, rules, seat: int, model: PlayModel) -> None:
    from rich.console import Console
    from rich.table import Table

    bidding = result.get("bidding")
    ref = f"upcard {result['up']}" if "up" in result else f"turned down {result['turned_down']}"
    worlds = result.get("worlds")
    played = model.name + (f", {worlds} worlds" if worlds else "")
    reached = "" if not bidding else f", bidding {bidding}" if result.get("reached") is None \
        else f" reaching you ({result['reached']:.0%} of deals), bidding {bidding}"
    if result.get("source") == "atlas":
        what = {"class": "class", "pooled": "pool of classes",
                "broad": "broad pool of classes",
                "coarse": "coarse pool of classes"}[result["atlas"]["level"]]
        reached = (f" of this hand's {what} in the realistic atlas "
                   f"({result['atlas']['deals']:,} deals){reached}")
    stopped = (" (stopped early: the best action separated from the next)"
               if result.get("stopped") == "separated" else "")
    table = Table(title=f"{result['hand']}, seat {seat}, {ref}: {result['deals']:,} deals"
                  f"{stopped}{reached}, {played}")
    columns = ["action", "alone", "make", "march", "euchred", "mean points", "95% interval"]
    exact = not model.solved  # the same deals solved double dummy, beside
    columns += (["bidder's choice"] + (["dd mean points"] if exact else [])) if bidding else (
        ["dd make", "dd mean points"] if exact else [])
    if "score" in result:
        columns.append("P(win game)")
    for name in columns:
        table.add_column(name, justify="left" if name == "action" else "right")
    for a in result["actions"]:
        lo, hi = a["ci95"]
        rates = ["-"] * 3 if a["make_rate"] is None else [
            f"{a[key]:.1%}" for key in ("make_rate", "march_rate", "euchred_rate")]
        cells = [_action_label(a), "yes" if a["alone"] else "no", *rates,
                 f"{a['mean_points']:+.3f}", f"{lo:+.3f} .. {hi:+.3f}"]
        if bidding:
            cells.append(f"{a['chosen_rate']:.1%}")
            if exact:
                cells.append("-" if a["action"] == "pass" else f"{a['dd_mean_points']:+.3f}")
        elif exact:
            cells += [f"{a['dd']['make_rate']:.1%}", f"{a['dd']['mean_points']:+.3f}"]
        if "score" in result:
            cells.append(_chance_cell(a))
        table.add_row(*cells)
    console = Console(width=140)
    console.print(table)
    if bidding:
        click.echo(f"Best: {_best_line(result['margin'], result['best'])}.")
        if "score" in result:
            score = f"{result['score']['us']}-{result['score']['them']}"
            line = _best_line(result["game_margin"], result["best_for_game"], percent=True)
            also = "" if result["best_for_game"] is None or result["best"] is None else (
                " — not the best for points" if result["game_differs"] else
                ", also the best for points")
            click.echo(f"At {score}, best for the game: {line}{also}.")
        if result["after_pass"]:
            after = Table(title="After you pass")
            for name in ("then", "share", "mean points to you"):
                after.add_column(name, justify="left" if name == "then" else "right")
            for e in result["after_pass"]:
                then = "passed out (redeal)" if e["action"] == "passed_out" else (
                    f"round {e['round']}, seat {e['seat']}: {e['action'].replace('_', ' ')} "
                    f"{e['suit']}{' alone' if e['alone'] else ''}")
                after.add_row(then, f"{e['share']:.1%}", f"{e['mean_points']:+.3f}")
            console.print(after)
    click.echo(f"Mean points go to your side ({rules.euchre_text}); play: {model.description}.")
    if result.get("source") == "atlas":
        click.echo("Read from the realistic atlas shipped with the package (docs: A table of "
                   "people); --deals N simulates this hand afresh.")
    if exact:
        click.echo("mean points: played out by that model from what each seat sees; dd mean "
                   "points: the same deals with every hand seen and perfect play (a bound, "
                   "not a table of people).")
