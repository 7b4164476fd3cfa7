"""`euchre-sim solve`: the double-dummy table of one deal or a batch."""

from __future__ import annotations

import sys

import click

from ..core.errors import UserError
from ..core.files import read_input
from .app import cli
from .options import compass_seat, json_option, renamed_option, rules_options, workers_option
from .progress import notes_compiling


def _print_table(deck, dealer: int, hands: list[int], rows: list[dict]) -> None:
    from ..core.seats import seat_name

    click.echo(f"deal {deck.format_deal(hands)}  dealer {seat_name(dealer)}")
    click.echo("trump  alone  leader  NS  EW")
    for row in rows:
        alone = row["alone"] or "-"
        click.echo(f"{row['trump']:<6} {alone:<6} {row['leader']:<7} "
                   f"{row['ns_tricks']:>2}  {row['ew_tricks']:>2}")


@cli.command()
@click.argument("deal", required=False)
@click.option("--dealer", default="N", show_default=True, metavar="SEAT",
              help="The dealer: N E S W.")
@renamed_option("--input", "--deals", "input_file", metavar="FILE", default=None,
                type=click.Path(dir_okay=False, allow_dash=True),
                help="File of deals, one a line (deal string or JSON object); '-' for stdin.")
@rules_options
@json_option(rows=True)
@workers_option
@notes_compiling("solve")
def solve(deal: str | None, dealer: str, input_file: str | None, ruleset, as_json: bool,
          workers: int) -> None:
    """Double-dummy table: tricks each side takes for every trump, with partner and alone.

    Example: euchre-sim solve "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
    --dealer W --json
    """
    from ..api.solving import solved_batches
    from ..solver.calltable import solve_json_lines, table_rows

    deck = ruleset.card_deck
    default_dealer = compass_seat("--dealer", dealer)
    if (deal is None) == (input_file is None):
        raise UserError("give one DEAL or --input FILE")
    lines = [deal] if deal is not None else read_input(input_file, "the deals").splitlines()
    for batch in solved_batches(lines, default_dealer, ruleset, workers):
        if as_json:
            sys.stdout.write("".join(line + "\n" for line in
                                     solve_json_lines(ruleset, batch.dealers, batch.tables)))
            continue
        for dealer_seat, deal_hands, table in zip(batch.dealers, batch.hands, batch.tables,
                                                  strict=True):
            _print_table(deck, int(dealer_seat), [int(h) for h in deal_hands],
                         table_rows(ruleset, table))
