"""A simulation run: plan chunks, run them (locally or elsewhere), resume, and write tables.

The folder (`runner`) ends with run.json and the tables of `run_tables`: calls.parquet and
summary.parquet (and deals and outcomes with --keep-deals), decisions.parquet and
auction.parquet with a bidder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import FieldError, UserError
from ..core.limits import MAX_DEALS, check_seed
from ..core.rules import RuleSet
from ..core.run_tables import BIDDING_TABLES, RUN_TABLES
from ..play.models import chunk_size
from ..play.player import Player
from ..runs.parallel import worker_pool
from ..runs.runner import (
    ChunkedPlan,
    checked_chunks,
    chunk_storer,
    close_run,
    run_jobs_dask,
    run_jobs_local,
    writing_run,
)
from .chunk import ChunkJob
from .tables import Merge, compute_chunk, merge_tables, warm_up_chunk


@dataclass(frozen=True)
class RunPlan(ChunkedPlan):
    """A simulation run, checked: `deals` random deals of the seed under the rules, in chunks
    of `chunk_size` (default: `default_chunk_size`), played and, where it has a bidder, bid by
    `player` (`play.player`); `tables` of RUN_TABLES (default: `run_tables`); `keep_deals`:
    deals and outcomes too."""

    out_dir: str
    rules: RuleSet
    seed: int
    deals: int
    chunk_size: int | None = None
    keep_deals: bool = False
    player: Player = Player()
    tables: tuple | None = None  # of RUN_TABLES: what the run writes (run_tables)

    def __post_init__(self):
        def settle(name: str, value) -> None:
            object.__setattr__(self, name, value)

        # what the player does not use is never a reason to refuse a resume
        settle("player", self.player.settled().loaded(self.rules))
        bidder = self.player.bidder
        tables = self.tables
        if tables is None and self.keep_deals:  # the deals' outcomes are the per-call rows
            tables = BIDDING_TABLES if bidder else ("calls",)
        settle("tables", run_tables(bidder, tables, plays_out=not self.player.model.solved))
        if self.keep_deals and "calls" not in self.tables:
            raise FieldError("{keep_deals} keeps each call's outcome: add calls to {tables}")
        self.check_size("deals", MAX_DEALS)
        check_seed(self.seed)

    @property
    def per_call(self) -> bool:
        """Whether the run writes the per-call tables (calls, summary; deals and outcomes)."""
        return "calls" in self.tables

    @property
    def total(self) -> int:
        return self.deals

    @property
    def chunk_items(self) -> int:
        """Deals per chunk: as asked, else `default_chunk_size`."""
        return self.chunk_size or default_chunk_size(self.deals, self.player)

    def job(self, index: int, first: int, count: int) -> ChunkJob:
        """Chunk `index`'s job: `count` deals from deal `first`."""
        return ChunkJob(self.rules.options(), self.seed, index, first, count, self.keep_deals,
                        self.player, self.tables)

    def warm_up(self, workers: int = 1) -> None:
        """Compile (or load from Numba's cache) every kernel the run's chunks call, once, in
        this process (one deal of its first chunk), on two cores where the run has them.
        Worker processes started after it inherit or load them instead of each compiling
        them."""
        job = self.job(0, 0, 1)
        if workers <= 1:
            warm_up_chunk(job)
            return
        with worker_pool(1) as helper:
            warm_up_chunk(job, helper)

    def identity(self) -> dict:
        """What the run computes: a resumed run must match it exactly."""
        return {"seed": self.seed, "deals": self.deals, "rules": self.rules.options(),
                "keep_deals": self.keep_deals} | self.player.identity() | (
                    {} if self.tables == run_tables(self.player.bidder)
                    else {"tables": list(self.tables)})


def prepare_run(plan: RunPlan, resume: bool = False,
                warn: Callable[[str], None] | None = None) -> RunPlan:
    """Check the output folder and write (or check) the manifest; warn(line) names each
    damaged chunk a resume removes (`runner.open_run`). A resumed run keeps its chunk size
    unless the plan names one (then they must agree)."""
    return plan.opened(resume, warn)


def run_tables(bidding: str | None, asked: tuple | None = None, plays_out: bool = False
               ) -> tuple:
    """The tables a run writes (of RUN_TABLES, in that order): those asked, else the per-call
    tables (calls, summary) and, with a bidder, its decisions and auction; where the model
    `plays_out` its hands (it is not solved) with a bidder, only decisions and auction, so
    that only the calls the auction reaches are played (the per-call tables need every call
    of every deal)."""
    if asked is None:
        if bidding is None:
            return ("calls",)
        return BIDDING_TABLES[1:] if plays_out else BIDDING_TABLES
    unknown = sorted(set(asked) - set(RUN_TABLES))
    if unknown or not asked:
        raise UserError(f"--tables takes names of {', '.join(RUN_TABLES)} separated by "
                        f"commas, got {','.join(asked)!r}")
    if bidding is None and set(asked) & {"decisions", "auction", "forced"}:
        raise UserError("the decisions, auction and forced tables need a bidder: add --bidding")
    return tuple(name for name in RUN_TABLES if name in asked)


def default_chunk_size(deals: int, player: Player) -> int:
    """About a hundred chunks for big runs, each within the player's pace
    (`play.models.Pace`: a worker's memory grows with its chunk, ~180 MB over its base at
    20,000 deals, ~360 MB at 50,000)."""
    return chunk_size(deals, player.model.pace.chunk_deals)


def run_local(plan: RunPlan, workers: int, on_done: Callable[[int], None]) -> None:
    """Run the pending chunks on `workers` local processes; on_done(deals) per chunk."""
    with writing_run(plan.out_dir):
        run_jobs_local(plan.pending(), compute_chunk, chunk_storer(plan, on_done), workers)


def run_dask(plan: RunPlan, scheduler: str, workers: int,
             on_done: Callable[[int], None], threads: int = 1) -> None:
    """Run the pending chunks as tasks on a Dask cluster (runner.run_jobs_dask)."""
    with writing_run(plan.out_dir):
        run_jobs_dask(plan.pending(), compute_chunk, chunk_storer(plan, on_done), scheduler,
                      workers, threads)


def finish_run(plan: RunPlan, elapsed: float, workers: int, engine: str = "local",
               warn: Callable[[str], None] | None = None) -> dict:
    """Merge every chunk into the final tables and run.json; remove the chunk folders. Each
    chunk is checked first: a damaged one is computed again here (`runner.checked_chunks`)."""
    chunks = checked_chunks(plan, lambda: run_local(plan, workers, lambda deals: None), warn)
    info = plan.manifest() | {"elapsed_seconds": round(elapsed, 3), "workers": workers,
                              "engine": engine,
                              "dealer": "N (seats are positions from the dealer's left)"}
    merge_tables(Merge(plan, chunks, info))
    close_run(plan.out_dir, plan.manifest(), info)
    return info
