"""`euchre-sim solve`: the double-dummy table of one deal or a batch."""

from __future__ import annotations

import sys

import click

from ..api import Error
from .app import cli
from .options import compass_seat, json_option, renamed_option, rules_options, workers_option
from .progress import notes_compiling


def _print_table(solved) -> None:
    click.echo(f"deal {solved.deal}  dealer {solved.dealer}")
    click.echo("trump  alone  leader  NS  EW")
    for row in solved.table:
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
    from ..api.solving import read_deals, solved_batches

    default_dealer = compass_seat("--dealer", dealer)
    if (deal is None) == (input_file is None):
        raise Error("give one DEAL or --input FILE")
    lines = [deal] if deal is not None else read_deals(input_file)
    for batch in solved_batches(lines, default_dealer, ruleset, workers):
        if as_json:
            sys.stdout.write("".join(line + "\n" for line in batch.json_lines(ruleset)))
            continue
        for solved in batch.deals(ruleset):
            _print_table(solved)
