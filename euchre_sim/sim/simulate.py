"""A simulation run: plan chunks, run them (locally or elsewhere), resume, and write tables.

The folder (`runner`) ends with run.json and the tables of `run_tables`: calls.parquet and
summary.parquet (and deals and outcomes with --keep-deals), decisions.parquet and
auction.parquet with a bidder.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import __version__
from ..bidding.params import CONVENTIONAL, bidder_weights, params_by_name
from ..bidding.table import DecisionTable, load_decision_table, table_digest
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..play.models import DEFAULT_WORLDS
from .callsums import SUMS, ChunkSums, add_rates, merge_frames, merged, split_key
from .chunk import ChunkJob, compute_chunk, warm_up_chunk
from .decisions import auction_facts, auction_table, decision_tables
from .parallel import worker_pool
from .runner import (
    checked_chunks,
    chunk_dir,
    chunk_storer,
    close_run,
    open_run,
    run_jobs_dask,
    run_jobs_local,
    stream_parquet,
    writing_run,
)
from .schema import AUCTION_KEYS, RUN_TABLES, SUMMARY_KEYS

_MERGE_ROWS = 300_000  # stored rows merged at once: the parent's memory at the end


@dataclass(frozen=True)
class RunPlan:
    out_dir: str
    rules: RuleSet
    seed: int
    deals: int
    chunk_size: int
    keep_deals: bool
    play: str = "dd"
    worlds: int = DEFAULT_WORLDS
    bidding: str | None = None
    bidder_params: tuple = ()  # the bidder's weights (rules, table); empty for dd
    bidder_table: str | None = None  # the table bidder's decisions: a finished run's folder
    decision_table: DecisionTable | None = field(default=None, compare=False)
    tables: tuple = ("calls",)  # of RUN_TABLES: what the run writes (run_tables)

    @property
    def n_chunks(self) -> int:
        return (self.deals + self.chunk_size - 1) // self.chunk_size

    def jobs(self) -> list[ChunkJob]:
        options = self.rules.options()
        return [ChunkJob(options, self.seed, i, i * self.chunk_size,
                         min(self.chunk_size, self.deals - i * self.chunk_size),
                         self.keep_deals, self.play, self.worlds, self.bidding,
                         self.bidder_params, self.decision_table, "calls" in self.tables)
                for i in range(self.n_chunks)]

    def pending(self) -> list[ChunkJob]:
        return [job for job in self.jobs()
                if not os.path.isdir(chunk_dir(self.out_dir, job.index))]

    def pending_deals(self) -> int:
        return sum(job.count for job in self.pending())

    def warm_up(self, workers: int = 1) -> None:
        """Compile (or load from Numba's cache) every kernel the run's chunks call, once, in
        this process (one deal of its first chunk), on two cores where the run has them.
        Worker processes started after it inherit or load them instead of each compiling
        them."""
        job = self.jobs()[0]._replace(count=1)
        if workers <= 1:
            warm_up_chunk(job)
            return
        with worker_pool(1) as helper:
            warm_up_chunk(job, helper)

    def identity(self) -> dict:
        """What the run computes: a resumed run must match it exactly."""
        return {"seed": self.seed, "deals": self.deals, "rules": self.rules.options(),
                "keep_deals": self.keep_deals, "play": self.play, "worlds": self.pimc_worlds,
                "bidding": self.bidding, "bidder_params": self.named_params,
                "bidder_table": self.table_source} | (
                    {} if self.tables == run_tables("dd", self.bidding)
                    else {"tables": list(self.tables)})

    @property
    def table_source(self) -> dict | None:
        """The table bidder's decisions: folder and the sha256 of its decisions.parquet."""
        if self.bidder_table is None:
            return None
        return {"dir": os.path.abspath(self.bidder_table),
                "sha256": table_digest(self.bidder_table)}

    @property
    def named_params(self) -> dict | None:
        """The bidder's weights by name (None for the dd bidder, which has none)."""
        if not self.bidder_params:
            return None
        return params_by_name(self.bidder_params)

    def manifest(self) -> dict:
        return self.identity() | {"chunk_size": self.chunk_size, "version": __version__}

    @property
    def pimc_worlds(self) -> int | None:
        """Worlds per decision, where the model samples any (PIMC); else None."""
        return self.worlds if self.play == "pimc" else None


def prepare_run(out_dir: str, rules: RuleSet, seed: int, deals: int, chunk_size: int | None,
                keep_deals: bool, resume: bool, play: str = "dd", worlds: int = DEFAULT_WORLDS,
                bidding: str | None = None, bidder_params: tuple = (),
                bidder_table: str | None = None,
                warn: Callable[[str], None] | None = None,
                tables: tuple | None = None) -> RunPlan:
    """Check the output folder and write (or check) the manifest; warn(line) names each
    damaged chunk a resume removes (`runner.open_run`); tables: see run_tables."""
    if play != "pimc":
        worlds = DEFAULT_WORLDS  # unused: never a reason to refuse a resume
    if bidding not in CONVENTIONAL:
        bidder_params = ()  # likewise
    elif not bidder_params:
        bidder_params = bidder_weights(None, bidding)
    if (bidding == "table") != (bidder_table is not None):
        raise UserError("--bidding table reads its decisions from --bidder-table DIR (and "
                        "only it does)")
    table = load_decision_table(bidder_table, rules) if bidder_table is not None else None
    if tables is None and keep_deals:  # the deals' outcomes are the per-call tables' rows
        tables = RUN_TABLES if bidding else ("calls",)
    tables = run_tables(play, bidding, tables)
    if keep_deals and "calls" not in tables:
        raise UserError("--keep-deals keeps each call's outcome: add calls to --tables")
    plan = RunPlan(out_dir, rules, seed, deals, chunk_size or default_chunk_size(deals, play),
                   keep_deals, play, worlds, bidding, tuple(bidder_params), bidder_table, table,
                   tables)
    resumed = open_run(out_dir, plan.identity(), chunk_size, resume, plan.manifest(), warn)
    return plan if resumed is None else dataclasses.replace(plan, chunk_size=resumed)


def run_tables(play: str, bidding: str | None, asked: tuple | None = None) -> tuple:
    """The tables a run writes (of RUN_TABLES, in that order): those asked, else the per-call
    tables (calls, summary) and, with a bidder, its decisions and auction; under a model that
    plays out (rules, pimc) with a bidder, only decisions and auction, so that only the calls
    the auction reaches are played (the per-call tables need every call of every deal)."""
    if asked is None:
        if bidding is None:
            return ("calls",)
        return RUN_TABLES if play == "dd" else ("decisions", "auction")
    unknown = sorted(set(asked) - set(RUN_TABLES))
    if unknown or not asked:
        raise UserError(f"--tables takes names of {', '.join(RUN_TABLES)} separated by "
                        f"commas, got {','.join(asked)!r}")
    if bidding is None and set(asked) & {"decisions", "auction"}:
        raise UserError("the decisions and auction tables need a bidder: add --bidding")
    return tuple(name for name in RUN_TABLES if name in asked)


def default_chunk_size(deals: int, play: str = "dd") -> int:
    """About a hundred chunks for big runs; at least 1,000 and at most 20,000 deals each (a
    worker's memory grows with its chunk: ~180 MB over its base at 20,000, ~360 MB at 50,000)
    (PIMC, ~10,000 times slower per deal: 10 to 200, so a chunk takes about a minute)."""
    if play == "pimc":
        return int(min(200, max(10, -(-deals // 100))))
    return int(min(20_000, max(1_000, -(-deals // 100))))


def run_local(plan: RunPlan, workers: int, on_done: Callable[[int], None]) -> None:
    """Run the pending chunks on `workers` local processes; on_done(deals) per chunk."""
    with writing_run(plan.out_dir):
        run_jobs_local(plan.pending(), compute_chunk, chunk_storer(plan.out_dir, on_done),
                       workers)


def run_dask(plan: RunPlan, scheduler: str, workers: int,
             on_done: Callable[[int], None], threads: int = 1) -> None:
    """Run the pending chunks as tasks on a Dask cluster (runner.run_jobs_dask)."""
    with writing_run(plan.out_dir):
        run_jobs_dask(plan.pending(), compute_chunk, chunk_storer(plan.out_dir, on_done),
                      scheduler, workers, threads)


def finish_run(plan: RunPlan, elapsed: float, workers: int, engine: str = "local",
               warn: Callable[[str], None] | None = None) -> dict:
    """Merge every chunk into the final tables and run.json; remove the chunk folders. Each
    chunk is checked first: a damaged one is computed again here (`runner.checked_chunks`)."""
    chunks = checked_chunks(plan.out_dir, plan.n_chunks,
                            lambda: run_local(plan, workers, lambda deals: None), warn)
    info = plan.manifest() | {"elapsed_seconds": round(elapsed, 3), "workers": workers,
                              "engine": engine,
                              "dealer": "N (seats are positions from the dealer's left)"}
    import pyarrow as pa
    import pyarrow.parquet as pq

    def out(name: str) -> str:
        return os.path.join(plan.out_dir, f"{name}.parquet")

    def parts(name: str, kind: str = "parquet") -> list[str]:
        return [os.path.join(c, f"{name}.{kind}") for c in chunks]

    if "calls" in plan.tables:
        stream_parquet(_calls_tables(plan, parts("calls", "sums")), out("calls"), info)
        summary = add_rates(merge_frames(parts("summary"), SUMMARY_KEYS))
        stream_parquet([pa.Table.from_pandas(summary, preserve_index=False)], out("summary"),
                       info)
    if plan.keep_deals:
        for name in ("deals", "outcomes"):  # streamed chunk by chunk, in deal order
            stream_parquet((pq.read_table(p) for p in parts(name)), out(name), info)
    if plan.bidding is not None:
        auction = auction_table(merge_frames(parts("auction"), AUCTION_KEYS), plan.deals)
        info["auction"] = auction_facts(auction, plan.deals)
        if "decisions" in plan.tables:
            stream_parquet(decision_tables(plan.rules, parts("decisions", "sums"),
                                           _MERGE_ROWS), out("decisions"), info)
        if "auction" in plan.tables:
            stream_parquet([pa.Table.from_pandas(auction, preserve_index=False)],
                           out("auction"), info)
    close_run(plan.out_dir, plan.manifest(), info)
    return info


def _calls_tables(plan: RunPlan, paths: list[str]):
    """calls.parquet tables, at most _MERGE_ROWS rows at a time (`callsums.merged`)."""
    import pyarrow as pa

    from ..core.handclass import KeyReader

    read = KeyReader(plan.rules)
    for keys, sums in merged(ChunkSums(paths), _MERGE_ROWS):
        columns = split_key(keys)
        frame = pd.DataFrame({name: columns[name] for name in ("round", "seat", "alone")})
        frame["hand_key"] = columns["hand_key"]
        frame["trumps"] = _popcount10(columns["hand_key"])
        for i, name in enumerate(SUMS):
            frame[name] = sums[:, i]
        table = pa.Table.from_pandas(add_rates(frame), preserve_index=False)
        yield table.add_column(3, "hand", read.many(columns["hand_key"]))


def _popcount10(keys: np.ndarray) -> np.ndarray:
    """Trumps held: the set bits of a class key's trump slot (10 low bits)."""
    low = (keys & np.uint64(0x3FF)).astype(np.int64)
    return np.array([bin(v).count("1") for v in range(1024)], dtype=np.int8)[low]
