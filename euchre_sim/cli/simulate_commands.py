"""`euchre-sim simulate`: Monte Carlo call tables written to Parquet."""

from __future__ import annotations

import os

import click

from .app import cli
from .options import (
    player_options,
    rules_options,
    seed_option,
    workers_option,
)
from .progress import run_chunks, warn


def print_headline(out_dir: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..play.models import DEFAULT_PLAY, describe_model
    from ..report.query import headline, load_run

    frame = headline(out_dir)
    info = load_run(out_dir)
    model = describe_model(info.get("play", DEFAULT_PLAY), info.get("worlds"))
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
@player_options
@click.option("--tables", default=None, metavar="NAMES",
              help="Tables to write, of calls (with summary), decisions, auction, forced, "
                   "separated by commas (default: calls, and decisions,auction with --bidding; "
                   "under --play rules|pimc|learned with --bidding only decisions,auction, "
                   "which play just the calls the auction reaches; forced: round 2 after the "
                   "round-1 caller's own pass forced, only when asked).")
def simulate(ruleset, out_dir: str, workers: int, resume: bool, no_progress: bool,
             scheduler: str | None, tables: str | None, **fields) -> None:
    """Deal and solve DEALS random deals; write call and lone-hand win-rate tables (Parquet);
    with --bidding, also each deal's auction: decisions.parquet and auction.parquet.

    Example: euchre-sim simulate --deals 100000 --seed 1 --out out/ --bidding dd
    """
    from ..sim.simulate import RunPlan

    asked = tuple(name.strip() for name in tables.split(",")) if tables is not None else None
    plan = RunPlan(out_dir, ruleset, tables=asked, **fields)
    run_simulation(plan, workers, resume, not no_progress, scheduler)
    if os.path.isfile(os.path.join(out_dir, "summary.parquet")):
        print_headline(out_dir)


def run_simulation(plan, workers: int, resume: bool, progress: bool = True,
                   scheduler: str | None = None) -> None:
    """simulate's work: open the plan's folder (or resume it), run the chunks on `workers`
    local processes or a Dask `scheduler`, write the tables; Ctrl-C keeps what is
    finished."""
    from ..core.run_tables import OUTPUT_TABLES
    from ..runs.runner import is_complete
    from ..sim.simulate import finish_run, prepare_run, run_dask, run_local

    out_dir, deals = plan.out_dir, plan.deals
    # a resumed run is the same run; warn names each damaged chunk it computes again
    plan = prepare_run(plan, resume, warn)
    if resume and is_complete(out_dir):
        click.echo(f"run in {out_dir} is already complete", err=True)
        return
    done = deals - plan.pending_count()

    def run(advance) -> None:
        if scheduler:
            run_dask(plan, scheduler, workers, advance)
        else:
            run_local(plan, workers, advance)

    # the kernels compiled here once, before the workers start (not for a remote cluster,
    # whose workers compile their own)
    warm_up = (lambda: plan.warm_up(workers)) if scheduler in (None, "local") else None
    seconds = run_chunks("simulate", "deals", deals, plan.pending_count, out_dir, progress, run,
                         warm_up)
    info = finish_run(plan, seconds, workers,
                      engine=f"dask {scheduler}" if scheduler else "local", warn=warn)
    rate = (deals - done) / max(info["elapsed_seconds"], 1e-9)
    written = ", ".join(f"{name}.parquet" for name in OUTPUT_TABLES
                        if os.path.isfile(os.path.join(out_dir, f"{name}.parquet")))
    click.echo(f"{deals:,} deals ({deals - done:,} this run, {rate:,.0f} deals/s) -> "
               f"{out_dir}/{written}, run.json", err=True)
