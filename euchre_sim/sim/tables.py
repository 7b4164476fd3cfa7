"""The simulation's output tables, one entry each in `FAMILIES`: which runs write them, the
files a chunk stores for them, and how the chunks' files merge into the run's tables. A new
output table is a new entry (its columns are its frames' and `schema`'s keys)."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..core.calls import N_ROWS
from ..core.dealing import deal_batch
from ..core.jit import freeze_compiled
from ..core.rules import RuleSet
from ..core.run_tables import AUCTION_KEYS, SUMMARY_KEYS
from ..play.player import PlayerRecord
from ..runs.runner import stream_parquet
from ..solver.search import compile_search
from .callsums import (
    SUMS,
    CallsBounds,
    ChunkSums,
    add_rates,
    bucketed_sums,
    merge_frames,
    merged,
    split_key,
)
from .chunk import (
    SIM_DEALER,
    ChunkJob,
    bids_own_auction,
    call_records,
    chunk_calls,
    chunk_sums,
    contract_sums,
    deal_frame,
    decision_bytes,
    outcome_frame,
    record_sums,
    run_auctions,
    summary_sums,
)
from .decisions import auction_facts, auction_table, decision_tables

MERGE_ROWS = 300_000  # stored rows merged at once: the parent's memory at the end


@dataclass
class ChunkDeals:
    """A chunk's deals and their call tables (`chunk_calls`), with what its tables are built
    from: the rules and the player as the kernels read it."""

    job: ChunkJob
    rules: RuleSet
    player: PlayerRecord
    hands: np.ndarray
    ups: np.ndarray
    calls: np.ndarray

    @cached_property
    def auctions(self) -> tuple:
        """Every deal's auction and its contract records (`chunk.run_auctions`)."""
        return run_auctions(self.rules, self.player, self.hands, self.ups, self.calls)

    @cached_property
    def records(self) -> dict[str, np.ndarray]:
        """Every open call of the chunk as columns (`call_records`), all at once."""
        return call_records(self.rules, self.job.start, self.hands, self.ups, self.calls)


class Merge(NamedTuple):
    """The finished chunks of a run being merged, and the facts its tables carry."""

    plan: object  # simulate.RunPlan
    chunks: list[str]
    info: dict

    def parts(self, name: str, kind: str = "parquet") -> list[str]:
        return [os.path.join(c, f"{name}.{kind}") for c in self.chunks]

    def write(self, name: str, tables) -> None:
        """`name`.parquet of the run from pyarrow tables (one schema), streamed."""
        stream_parquet(tables, os.path.join(self.plan.out_dir, f"{name}.parquet"), self.info)


@dataclass(frozen=True)
class TableFamily:
    """Output tables computed together: whether a chunk has them, its files for them (name ->
    bytes or a frame stored as Parquet), and their merge into the run's tables."""

    name: str
    has: Callable[[ChunkJob], bool]  # of a chunk's job, or of the run's plan
    fill: Callable[[ChunkDeals], dict]
    merge: Callable[[Merge], None]


def _fill_calls(deals: ChunkDeals) -> dict:
    if deals.job.keep_deals:  # the records are built for the outcomes anyway
        sums, summary = record_sums(deals.records), summary_sums(deals.records)
    else:  # a batch of records at a time
        sums, summary = chunk_sums(deals.rules, deals.job.start, deals.hands, deals.ups,
                                   deals.calls)
    return {"calls.sums": bucketed_sums(*sums), "summary.parquet": summary}


def _merge_calls(merge: Merge) -> None:
    import pyarrow as pa

    bounds = calls_bounds(merge.plan.rules, [count for _, _, count in merge.plan.chunks()])
    merge.write("calls", _calls_tables(merge.plan.rules, merge.parts("calls", "sums"), bounds))
    summary = add_rates(merge_frames(merge.parts("summary"), SUMMARY_KEYS))
    merge.write("summary", [pa.Table.from_pandas(summary, preserve_index=False)])


def calls_bounds(rules: RuleSet, deals: list[int]) -> CallsBounds:
    """What chunks of `deals` deals each can hold in their calls sums: a record for each call
    open to a seat, fewest and most over the upcards the deck can turn."""
    from ..core.calls import open_calls
    from ..core.ruletables import compile_rules

    flags = compile_rules(rules).flags
    made = {sum(len(open_calls(flags, round_no, pos, upcard))
                for round_no in (1, 2) for pos in range(1, 5))
            for upcard in rules.card_deck.cards}
    return CallsBounds(deals, min(made), max(made))


def _calls_tables(rules: RuleSet, paths: list[str], bounds: CallsBounds | None = None):
    """calls.parquet tables, at most MERGE_ROWS rows at a time (`callsums.merged`), each
    chunk's sums checked against its deals where `bounds` are given."""
    import pyarrow as pa

    from ..core.handclass import KeyReader

    read = KeyReader(rules)
    for keys, sums in merged(ChunkSums(paths, bounds=bounds), MERGE_ROWS):
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


def _fill_deals(deals: ChunkDeals) -> dict:
    return {"deals.parquet": deal_frame(deals.rules, deals.job.start, deals.hands, deals.ups),
            "outcomes.parquet": outcome_frame(deals.rules, deals.records)}


def _merge_deals(merge: Merge) -> None:
    import pyarrow.parquet as pq

    for name in ("deals", "outcomes"):  # streamed chunk by chunk, in deal order
        merge.write(name, (pq.read_table(p) for p in merge.parts(name)))


def _fill_auction(deals: ChunkDeals) -> dict:
    auctions, contracts = deals.auctions
    return {"auction.parquet": contract_sums(contracts),
            "decisions.sums": decision_bytes(deals.rules, deals.hands, deals.ups, auctions)}


def _merge_auction(merge: Merge) -> None:
    import pyarrow as pa

    plan = merge.plan
    auction = auction_table(merge_frames(merge.parts("auction"), AUCTION_KEYS), plan.deals)
    merge.info["auction"] = auction_facts(auction, plan.deals)
    if "decisions" in plan.tables:
        merge.write("decisions", decision_tables(plan.rules, merge.parts("decisions", "sums"),
                                                 MERGE_ROWS))
    if "auction" in plan.tables:
        merge.write("auction", [pa.Table.from_pandas(auction, preserve_index=False)])


def _fill_forced(deals: ChunkDeals) -> dict:
    return {"forced.sums": decision_bytes(deals.rules, deals.hands, deals.ups,
                                          deals.auctions[0], forced=True)}


def _merge_forced(merge: Merge) -> None:
    merge.write("forced", decision_tables(merge.plan.rules, merge.parts("forced", "sums"),
                                          MERGE_ROWS))


FAMILIES = (
    TableFamily("calls", lambda job: job.per_call, _fill_calls, _merge_calls),
    TableFamily("deals", lambda job: job.per_call and job.keep_deals, _fill_deals,
                _merge_deals),
    TableFamily("auction", bids_own_auction, _fill_auction, _merge_auction),
    TableFamily("forced", lambda job: "forced" in job.tables, _fill_forced, _merge_forced),
)


def chunk_files(deals: ChunkDeals) -> dict[str, bytes]:
    """A chunk's files, every family its job has: frames stored as Parquet bytes."""
    files = {}
    for family in FAMILIES:
        if family.has(deals.job):
            files |= family.fill(deals)
    for name, value in files.items():
        if isinstance(value, pd.DataFrame):
            buffer = io.BytesIO()
            value.to_parquet(buffer, index=False)
            files[name] = buffer.getvalue()
    return files


def merge_tables(merge: Merge) -> None:
    """The run's tables from its chunks, every family the run has."""
    for family in FAMILIES:
        if family.has(merge.plan):
            family.merge(merge)


def compute_chunk(job: ChunkJob) -> tuple[int, int, dict[str, bytes]]:
    """Compute one chunk anywhere (a local process or a cluster worker); returns (index,
    count, files) with the chunk's files as bytes, so workers need no shared file system."""
    player = job.player.record()  # once a chunk: its playouts' and its auctions'
    deals = chunk_calls(job, record=player)
    files = chunk_files(ChunkDeals(job, job.rules, player, *deals))
    freeze_compiled()
    return job.index, job.count, files


def warm_up_chunk(job: ChunkJob, helper=None) -> None:
    """Compile (or load from Numba's cache) every kernel `job` calls, in this process, by
    computing it (one deal is enough). With `helper` (an executor of one process) two cores
    compile at once: the helper compiles the search while this process compiles the kernels
    of the chunk's files (on empty call tables) and then, the search loaded from the cache,
    the chunk's kernels above it."""
    search = helper.submit(compile_search) if helper is not None else None
    if search is not None:
        _warm_up_files(job)
        search.result()
    player = job.player.record()
    chunk_files(ChunkDeals(job, job.rules, player, *chunk_calls(job, record=player)))


def _warm_up_files(job: ChunkJob) -> None:
    rules = job.rules
    hands, ups = deal_batch(rules, job.seed, job.start, job.count, SIM_DEALER)
    calls = np.zeros((job.count, N_ROWS), dtype=np.int8)
    chunk_files(ChunkDeals(job, rules, job.player.record(), hands, ups, calls))
