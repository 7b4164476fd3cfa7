"""`euchre-sim solve`: the double-dummy table of one deal or a batch."""

from __future__ import annotations

import json
import sys

import click

from euchre_sim.core.errors import UserError

from .app import cli
from .options import json_option, rules_options, workers_option


def _parse_line(line: str, number: int, deck, default_dealer: int) -> tuple[int, list[int]]:
    from euchre_sim.core.seats import parse_seat

    text = line.strip()
    try:
        if text.startswith("{"):
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as err:
                raise UserError(f"not JSON ({err.msg})") from None
            if not isinstance(obj, dict) or "hands" not in obj:
                raise UserError("a JSON deal needs 'dealer' and 'hands'")
            dealer = parse_seat(obj.get("dealer", default_dealer))
            return dealer, deck.parse_hands_json(obj["hands"])
        return default_dealer, deck.parse_deal(text)
    except UserError as err:
        raise UserError(f"deal on line {number}: {err}") from None


def _solve_one(job) -> tuple[int, list[dict]]:
    from euchre_sim.solver.calltable import solve_table

    ruleset, dealer, hands = job
    return dealer, solve_table(ruleset, hands, dealer)


def _print_table(deck, dealer: int, hands: list[int], rows: list[dict]) -> None:
    from euchre_sim.core.seats import seat_name

    click.echo(f"deal {deck.format_deal(hands)}  dealer {seat_name(dealer)}")
    click.echo("trump  alone  leader  NS  EW")
    for row in rows:
        alone = row["alone"] or "-"
        click.echo(f"{row['trump']:<6} {alone:<6} {row['leader']:<7} "
                   f"{row['ns_tricks']:>2}  {row['ew_tricks']:>2}")


@cli.command()
@click.argument("deal", required=False)
@click.option("--dealer", default="N", show_default=True, help="Dealer seat (N E S W or 0-3).")
@click.option("--deals", "deals_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="File of deals, one a line (deal string or JSON object); '-' for stdin.")
@rules_options
@json_option
@workers_option
def solve(deal: str | None, dealer: str, deals_file: str | None, ruleset, as_json: bool,
          workers: int | None) -> None:
    """Double-dummy table: tricks each side takes for every trump, with partner and alone.

    Example: euchre-sim solve "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
    --dealer W --json
    """
    from euchre_sim.core.seats import parse_seat, seat_name
    from euchre_sim.sim.parallel import default_workers, ordered_map

    deck = ruleset.card_deck
    default_dealer = parse_seat(dealer)
    if (deal is None) == (deals_file is None):
        raise UserError("give one DEAL or --deals FILE")
    if deal is not None:
        lines = [deal]
    elif deals_file == "-":
        lines = sys.stdin.read().splitlines()
    else:
        try:
            with open(deals_file, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except OSError as err:
            raise UserError(f"cannot read {deals_file!r}: {err.strerror}") from None
    jobs = [(ruleset, *_parse_line(line, n, deck, default_dealer))
            for n, line in enumerate(lines, 1) if line.strip()]
    n_workers = workers or default_workers()
    if len(jobs) < 64:
        n_workers = 1
    for (_, _, hands), (dealer_seat, rows) in zip(
            jobs, ordered_map(_solve_one, jobs, n_workers, chunksize=32), strict=True):
        if as_json:
            click.echo(json.dumps({"dealer": seat_name(dealer_seat), "table": rows}))
        else:
            _print_table(deck, dealer_seat, hands, rows)
