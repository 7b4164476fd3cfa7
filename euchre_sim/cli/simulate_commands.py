"""`euchre-sim simulate`: Monte Carlo call tables written to Parquet."""

from __future__ import annotations

import os
from typing import NamedTuple

import click

from .app import cli
from .options import player_fields, rules_options, seed_option, workers_option
from .progress import ChunkBar, notes_compiling


def print_headline(run) -> None:
    """The summary's round 1 and round 2 tables of a finished run (`api.Run`)."""
    from rich.console import Console
    from rich.table import Table

    from ..api.tables import describe_play, headline

    frame = headline(run.path)
    model = describe_play(run.info)
    console = Console()
    for round_no, title in ((1, "Round 1: order up"), (2, "Round 2: name a suit")):
        part = frame[frame["round"] == round_no]
        if part.empty:
            continue
        table = Table(title=f"{title} — make rate / mean points ({model})")
        table.add_column("seat")
        table.add_column("trumps")
        table.add_column("n", justify="right")
        table.add_column("partner", justify="right")
        table.add_column("alone", justify="right")
        for (seat, trumps), rows in part.groupby(["seat", "trumps"]):
            cells = {}
            for _, row in rows.iterrows():
                cells[bool(row["alone"])] = f"{row['make_rate']:.1%} / {row['mean_points']:+.2f}"
            table.add_row(str(seat), str(trumps), f"{int(rows['n'].max()):,}",
                          cells.get(False, "-"), cells.get(True, "-"))
        console.print(table)


@cli.command()
@click.option("--deals", type=click.IntRange(min=1), required=True, help="Deals to simulate.")
@seed_option
@rules_options
@workers_option
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Output folder (must be empty unless --resume).")
@click.option("--keep-deals", is_flag=True, help="Also write deals.parquet and outcomes.parquet.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Deals per chunk (default: about 1% of the run, 1,000-20,000).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run in --out.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local",
              help="Run the chunks on a Dask cluster ('local': a LocalCluster of --workers).")
@player_fields
@click.option("--tables", default=None, metavar="NAMES",
              help="Tables to write, of calls (with summary), decisions, auction, forced, "
                   "separated by commas (default: calls, and decisions,auction with --bidding; "
                   "under --play rules|pimc|learned with --bidding only decisions,auction, "
                   "which play just the calls the auction reaches; forced: round 2 after the "
                   "round-1 caller's own pass forced, only when asked).")
@notes_compiling("simulate")
def simulate(ruleset, out_dir: str, workers: int, resume: bool, no_progress: bool,
             scheduler: str | None, tables: str | None, **fields) -> None:
    """Deal and solve DEALS random deals; write call and lone-hand win-rate tables (Parquet);
    with --bidding, also each deal's auction: decisions.parquet and auction.parquet.

    Example: euchre-sim simulate --deals 100000 --seed 1 --out out/ --bidding dd
    """
    run = run_simulation(ruleset, out_dir, workers,
                         RunOptions(resume, not no_progress, scheduler, tables), fields)
    if run is not None and "summary" in run.tables:
        print_headline(run)


class RunOptions(NamedTuple):
    """How a command runs its simulation: resumed, with a progress bar, where, which tables."""

    resume: bool = False
    progress: bool = True
    scheduler: str | None = None
    tables: str | None = None


def run_simulation(ruleset, out_dir: str, workers: int, how: RunOptions, fields: dict):
    """simulate's work through the library (`euchre_sim.simulate`) under a progress bar; the
    line that says what was written. Ctrl-C keeps what is finished. None when a resumed run
    was already complete (a note says so)."""
    from .. import api

    with ChunkBar("simulate", "deals", out_dir, how.progress) as bar:
        run = api.simulate(fields.pop("deals"), out=out_dir, rules=ruleset, workers=workers,
                           resume=how.resume, progress=bar, scheduler=how.scheduler,
                           tables=how.tables, **fields)
    if run.complete_before:
        return None
    written = ", ".join(f"{name}.parquet" for name in run.tables)
    click.echo(f"{run.info['deals']:,} deals ({run.new_deals:,} this run, "
               f"{run.deals_per_second:,.0f} deals/s) -> {os.path.join(out_dir, written)}, "
               "run.json", err=True)
    return run
