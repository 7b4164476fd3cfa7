"""`euchre-sim solve`: the double-dummy table of one deal or a batch."""

from __future__ import annotations

import sys

import click

from ..core.errors import UserError
from ..core.files import loads, read_input
from .app import cli
from .options import compass_seat, json_option, renamed_option, rules_options, workers_option


def _parse_line(line: str, number: int, deck, default_dealer: int) -> tuple[int, list[int]]:
    from ..core.seats import parse_seat

    text = line.strip()
    try:
        if text.startswith("{"):
            try:
                obj = loads(text)
            except ValueError as err:
                raise UserError(f"not JSON ({getattr(err, 'msg', err)})") from None
            if not isinstance(obj, dict) or "hands" not in obj:
                raise UserError("a JSON deal needs 'dealer' and 'hands'")
            dealer = parse_seat(obj.get("dealer", default_dealer))
            return dealer, deck.parse_hands_json(obj["hands"])
        return default_dealer, deck.parse_deal(text)
    except UserError as err:
        raise UserError(f"deal on line {number}: {err}") from None


BATCH = 256  # deals a worker solves in one call


def _solve_batch(job):
    """The solve tables of a batch of deals (one solver call)."""
    from ..solver.calltable import solve_tables

    ruleset, dealers, hands = job
    return solve_tables(ruleset, hands, dealers)


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
def solve(deal: str | None, dealer: str, input_file: str | None, ruleset, as_json: bool,
          workers: int) -> None:
    """Double-dummy table: tricks each side takes for every trump, with partner and alone.

    Example: euchre-sim solve "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
    --dealer W --json
    """
    from ..runs.parallel import ordered_map

    deck = ruleset.card_deck
    default_dealer = compass_seat("--dealer", dealer)
    if (deal is None) == (input_file is None):
        raise UserError("give one DEAL or --input FILE")
    if deal is not None:
        lines = [deal]
    else:
        lines = read_input(input_file, "the deals").splitlines()
    import numpy as np

    from ..solver.calltable import solve_json_lines, table_rows

    deals = [_parse_line(line, n, deck, default_dealer)
             for n, line in enumerate(lines, 1) if line.strip()]
    dealers = np.array([d for d, _ in deals], dtype=np.int64)
    hands = np.array([h for _, h in deals], dtype=np.uint64).reshape(-1, 4)
    batches = [(ruleset, dealers[i:i + BATCH], hands[i:i + BATCH])
               for i in range(0, len(deals), BATCH)]
    n_workers = workers if len(deals) >= 4 * BATCH else 1
    for (_, batch_dealers, batch_hands), tables in zip(
            batches, ordered_map(_solve_batch, batches, n_workers), strict=True):
        if as_json:
            sys.stdout.write("".join(line + "\n" for line in
                                     solve_json_lines(ruleset, batch_dealers, tables)))
            continue
        for dealer_seat, deal_hands, table in zip(batch_dealers, batch_hands, tables,
                                                  strict=True):
            _print_table(deck, int(dealer_seat), [int(h) for h in deal_hands],
                         table_rows(ruleset, table))
