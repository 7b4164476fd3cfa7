"""A simulation run: plan chunks, run them (locally or elsewhere), resume, and write tables.

Files under the output folder:
  manifest.json        what the run is (seed, deals, rules, chunking), written first;
  chunks/NNNNNN/       one finished chunk (renamed into place only when complete);
  calls.parquet, summary.parquet, run.json (and deals/outcomes with --keep-deals) at the end.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import __version__
from ..bidding.params import PARAMS
from ..bidding.table import DecisionTable, load_decision_table, table_digest
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..play.models import DEFAULT_WORLDS
from .callsums import SUMS, ChunkSums, add_rates, merge_frames, split_key
from .chunk import ChunkJob, chunk_dir, compute_chunk, store_chunk
from .decisions import auction_facts, auction_table, decision_tables
from .schema import AUCTION_KEYS, SUMMARY_KEYS

MANIFEST = "manifest.json"
_MERGE_ROWS = 1_000_000


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

    @property
    def n_chunks(self) -> int:
        return (self.deals + self.chunk_size - 1) // self.chunk_size

    def jobs(self) -> list[ChunkJob]:
        options = self.rules.options()
        return [ChunkJob(options, self.seed, i, i * self.chunk_size,
                         min(self.chunk_size, self.deals - i * self.chunk_size),
                         self.keep_deals, self.play, self.worlds, self.bidding,
                         self.bidder_params, self.decision_table)
                for i in range(self.n_chunks)]

    def pending(self) -> list[ChunkJob]:
        return [job for job in self.jobs()
                if not os.path.isdir(chunk_dir(self.out_dir, job.index))]

    def pending_deals(self) -> int:
        return sum(job.count for job in self.pending())

    def identity(self) -> dict:
        """What the run computes: a resumed run must match it exactly."""
        return {"seed": self.seed, "deals": self.deals, "rules": self.rules.options(),
                "keep_deals": self.keep_deals, "play": self.play, "worlds": self.pimc_worlds,
                "bidding": self.bidding, "bidder_params": self.named_params,
                "bidder_table": self.table_source}

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
        return {key: value for (key, _, _), value in zip(PARAMS, self.bidder_params,
                                                          strict=True)}

    def manifest(self) -> dict:
        return self.identity() | {"chunk_size": self.chunk_size, "version": __version__}

    @property
    def pimc_worlds(self) -> int | None:
        """Worlds per decision, where the model samples any (PIMC); else None."""
        return self.worlds if self.play == "pimc" else None


def _write_json(path: str, data: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def prepare_run(out_dir: str, rules: RuleSet, seed: int, deals: int, chunk_size: int | None,
                keep_deals: bool, resume: bool, play: str = "dd", worlds: int = DEFAULT_WORLDS,
                bidding: str | None = None, bidder_params: tuple = (),
                bidder_table: str | None = None) -> RunPlan:
    """Check the output folder and write (or check) the manifest."""
    if play != "pimc":
        worlds = DEFAULT_WORLDS  # unused: never a reason to refuse a resume
    if bidding not in ("rules", "table"):
        bidder_params = ()  # likewise
    if (bidding == "table") != (bidder_table is not None):
        raise UserError("--bidding table reads its decisions from --bidder-table DIR (and "
                        "only it does)")
    table = load_decision_table(bidder_table, rules) if bidder_table is not None else None
    manifest_path = os.path.join(out_dir, MANIFEST)
    exists = os.path.isdir(out_dir) and os.listdir(out_dir)
    if exists and not resume:
        raise UserError(f"output folder {out_dir!r} is not empty (use --resume to continue "
                        "a run there, or choose another folder)")
    if exists and not os.path.isfile(manifest_path):
        raise UserError(f"cannot resume in {out_dir!r}: it holds no {MANIFEST}")
    plan = RunPlan(out_dir, rules, seed, deals, chunk_size or default_chunk_size(deals, play),
                   keep_deals, play, worlds, bidding, tuple(bidder_params), bidder_table, table)
    if exists:
        with open(manifest_path, encoding="utf-8") as handle:
            old = json.load(handle)
        for key, value in plan.identity().items():
            if old.get(key) != value:
                raise UserError(f"cannot resume: the run in {out_dir!r} has a different "
                                f"{key.replace('_', '-')} ({old.get(key)!r})")
        if chunk_size is not None and chunk_size != old["chunk_size"]:
            raise UserError(f"cannot resume: the run in {out_dir!r} uses --chunk-size "
                            f"{old['chunk_size']}")
        return dataclasses.replace(plan, chunk_size=old["chunk_size"])
    os.makedirs(os.path.join(out_dir, "chunks"), exist_ok=True)
    _write_json(manifest_path, plan.manifest() | {"complete": False})
    return plan


def default_chunk_size(deals: int, play: str = "dd") -> int:
    """About a hundred chunks for big runs; at least 1,000 and at most 50,000 deals each
    (PIMC, ~10,000 times slower per deal: 10 to 200, so a chunk takes about a minute)."""
    if play == "pimc":
        return int(min(200, max(10, -(-deals // 100))))
    return int(min(50_000, max(1_000, -(-deals // 100))))


def _store(plan: RunPlan, result: tuple, on_done: Callable[[int], None]) -> None:
    index, count, files = result
    store_chunk(plan.out_dir, index, files)
    on_done(count)


def run_local(plan: RunPlan, workers: int, on_done: Callable[[int], None]) -> None:
    """Run the pending chunks on `workers` local processes; on_done(deals) per chunk."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from .parallel import worker_pool

    jobs = plan.pending()
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            _store(plan, compute_chunk(job), on_done)
        return
    with worker_pool(workers) as pool:
        pending = {pool.submit(compute_chunk, job) for job in jobs}
        try:
            while pending:  # finished futures are dropped at once, and their results with them
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    _store(plan, future.result(), on_done)
        except BaseException:  # Ctrl-C or a failed chunk: stop now, finished chunks are kept
            # No public terminate(). Futures are left uncancelled: the executor then marks them
            # broken itself (cancelling first trips a CPython 3.11 InvalidStateError).
            for process in list(pool._processes.values()):
                process.terminate()
            raise


def run_dask(plan: RunPlan, scheduler: str, workers: int,
             on_done: Callable[[int], None], threads: int = 1) -> None:
    """Run the pending chunks as tasks on a Dask cluster: `tcp://HOST:PORT`, or `local` for a
    LocalCluster of `workers` processes of `threads` threads each (chunks on threads of one
    process share its transposition table). Chunks are pure, so a lost worker's tasks are just
    computed again elsewhere; results come back as bytes and are stored here."""
    try:
        from dask.base import tokenize
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UserError("--scheduler needs dask: pip install 'euchre-sim[distributed]'") \
            from None
    cluster = None
    try:
        if scheduler == "local":
            cluster = LocalCluster(n_workers=workers, threads_per_worker=threads,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout="10s")
            except OSError as err:
                raise UserError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") \
                    from None
        with client:
            jobs = plan.pending()
            # a key names everything the chunk depends on, so runs sharing a cluster never
            # share results unless they are the same computation
            keys = [f"euchre-chunk-{job[2]}-{tokenize(job)}" for job in jobs]
            futures = client.map(compute_chunk, jobs, key=keys, retries=3)
            for future in as_completed(futures):
                _store(plan, future.result(), on_done)
                future.release()
    finally:
        if cluster is not None:
            cluster.close()


def _stream_parquet(tables: Iterable, out: str, info: dict) -> None:
    """Write pyarrow tables (one schema) into one Parquet file carrying the run's facts under
    the metadata key `euchre_sim`; written under a temporary name, then renamed."""
    import pyarrow.parquet as pq

    tmp = out + ".tmp"
    writer = None
    for table in tables:
        if writer is None:
            meta = dict(table.schema.metadata or {})
            meta[b"euchre_sim"] = json.dumps(info, sort_keys=True).encode()
            writer = pq.ParquetWriter(tmp, table.schema.with_metadata(meta))
        writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
    if writer is not None:
        writer.close()
        os.replace(tmp, out)


def finish_run(plan: RunPlan, elapsed: float, workers: int, engine: str = "local") -> dict:
    """Merge every chunk into the final tables and run.json; remove the chunk folders."""
    chunks = [chunk_dir(plan.out_dir, i) for i in range(plan.n_chunks)]
    missing = [c for c in chunks if not os.path.isdir(c)]
    if missing:
        raise UserError(f"{len(missing)} chunks are not finished; run again with --resume")
    info = plan.manifest() | {"elapsed_seconds": round(elapsed, 3), "workers": workers,
                              "engine": engine,
                              "dealer": "N (seats are positions from the dealer's left)"}
    import pyarrow as pa
    import pyarrow.parquet as pq

    def out(name: str) -> str:
        return os.path.join(plan.out_dir, f"{name}.parquet")

    def parts(name: str) -> list[str]:
        return [os.path.join(c, f"{name}.parquet") for c in chunks]

    _stream_parquet(_calls_tables(plan, parts("calls")), out("calls"), info)
    summary = add_rates(merge_frames(parts("summary"), SUMMARY_KEYS))
    _stream_parquet([pa.Table.from_pandas(summary, preserve_index=False)], out("summary"), info)
    if plan.keep_deals:
        for name in ("deals", "outcomes"):  # streamed chunk by chunk, in deal order
            _stream_parquet((pq.read_table(p) for p in parts(name)), out(name), info)
    if plan.bidding is not None:
        auction = auction_table(merge_frames(parts("auction"), AUCTION_KEYS), plan.deals)
        info["auction"] = auction_facts(auction, plan.deals)
        _stream_parquet(decision_tables(plan.rules, parts("decisions"), _MERGE_ROWS),
                        out("decisions"), info)
        _stream_parquet([pa.Table.from_pandas(auction, preserve_index=False)], out("auction"),
                        info)
    _write_json(os.path.join(plan.out_dir, "run.json"), info)
    _write_json(os.path.join(plan.out_dir, MANIFEST), plan.manifest() | {"complete": True})
    shutil.rmtree(os.path.join(plan.out_dir, "chunks"), ignore_errors=True)
    return info


def _calls_tables(plan: RunPlan, paths: list[str]):
    """calls.parquet tables, a batch of buckets at a time (about _MERGE_ROWS stored rows:
    bounded memory whatever the run's size)."""
    import pyarrow as pa

    from ..core.handclass import KeyReader

    read = KeyReader(plan.rules)
    chunks = ChunkSums(paths)
    for buckets in chunks.batches(_MERGE_ROWS):
        keys, sums = chunks.read(buckets)
        if not len(keys):
            continue
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


def is_complete(out_dir: str) -> bool:
    path = os.path.join(out_dir, MANIFEST)
    if not os.path.isfile(path):
        return False
    with open(path, encoding="utf-8") as handle:
        return bool(json.load(handle).get("complete"))
