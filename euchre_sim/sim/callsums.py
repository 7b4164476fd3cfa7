"""Integer sums of simulation records and the rates they give; the calls and decisions
tables' sums are keyed by one uint64 and merged bucket by bucket.

gkey = (round - 1) << 61 | (seat - 1) << 59 | alone << 58 | hand_key (58 bits), so sorting
by gkey sorts by round, seat, alone and class. A chunk stores its sums sorted, bucketed by
gkey >> 50 (round, seat, alone and the class key's top fields, a few hundred buckets in use),
in an Arrow IPC file of its own (a "sums file", below): one record batch per non-empty bucket,
zstd-compressed. The final merge reads a batch of consecutive buckets from every chunk at a
time (memory-mapped, each bucket found through the file's footer, no file held open between
batches), so its memory is bounded by the batch, not by the run or the number of chunks.

Sums file: columns key (uint64) and the sum columns (int32); the schema's metadata `buckets`
holds the non-empty buckets and their rows, as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa

SUMS = ["n", "makes", "marches", "euchres", "points_sum", "points_sq"]
BUCKET_SHIFT = 50
N_BUCKETS = 1 << 12
# one thread: a worker per core writes, and the merge's parent reads alone
_WRITE = pa.ipc.IpcWriteOptions(compression="zstd", use_threads=False)
_READ = pa.ipc.IpcReadOptions(use_threads=False)
MERGE_BATCH = 16  # small aggregate files summed at a time


def group_key(records: dict[str, np.ndarray]) -> np.ndarray:
    """gkey of each call record (round, seat, alone, hand_key columns)."""
    return ((records["round"].astype(np.uint64) - np.uint64(1)) << np.uint64(61)
            | (records["seat"].astype(np.uint64) - np.uint64(1)) << np.uint64(59)
            | records["alone"].astype(np.uint64) << np.uint64(58)
            | records["hand_key"].astype(np.uint64))


def group_sums(keys: np.ndarray, values: np.ndarray,
               sorted_runs: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Sum the rows of `values` (integers[n, k]) by key into int64; keys come back sorted and
    unique. sorted_runs: the keys are a few sorted runs one after another (a stable sort
    merges them in about linear time)."""
    if len(keys) == 0:
        return keys, np.zeros((0, values.shape[1]), dtype=np.int64)
    order = np.argsort(keys, kind="stable" if sorted_runs else "quicksort")
    keys = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    sums = np.empty((values.shape[1], len(starts)), dtype=np.int64)
    for j in range(values.shape[1]):  # a column at a time: 1-d gathers and sums are fast
        sums[j] = np.add.reduceat(values[:, j][order], starts, dtype=np.int64)
    return keys[starts], sums.T


def call_values(records: dict[str, np.ndarray]) -> np.ndarray:
    """Per-record addends in SUMS order: 1, made, marched, euchred, points, points^2."""
    tricks = records["maker_tricks"]
    points = records["points"]
    values = np.empty((len(tricks), len(SUMS)), dtype=np.int64)
    values[:, 0] = 1
    values[:, 1] = tricks >= 3
    values[:, 2] = tricks == 5
    values[:, 3] = tricks < 3
    values[:, 4] = points
    values[:, 5] = points * points
    return values


def record_sums(records: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Sums of each gkey over call records."""
    return group_sums(group_key(records), call_values(records))


def bucketed_sums(keys: np.ndarray, sums: np.ndarray, names: list[str] = SUMS,
                  shift: int = BUCKET_SHIFT) -> bytes:
    """Sorted sums (columns `names`) as a sums file, bucketed by key >> shift (below
    N_BUCKETS); int32: one chunk's sums are small."""
    edges = np.searchsorted(keys, np.arange(N_BUCKETS + 1, dtype=np.uint64) << np.uint64(shift))
    edges[-1] = len(keys)  # the last bucket ends at the last key (its edge would wrap)
    rows = np.diff(edges)
    used = np.flatnonzero(rows)
    schema = pa.schema([("key", pa.uint64())] + [(name, pa.int32()) for name in names],
                       metadata={"buckets": json.dumps([used.tolist(), rows[used].tolist()])})
    columns = np.ascontiguousarray(sums.astype(np.int32).T)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, schema, options=_WRITE) as writer:
        for bucket in used:
            lo, hi = edges[bucket], edges[bucket + 1]
            writer.write_batch(pa.record_batch([keys[lo:hi], *columns[:, lo:hi]],
                                               schema=schema))
    return sink.getvalue().to_pybytes()


class ChunkSums:
    """The sums files of every chunk: their buckets, read once from each schema; each batch of
    buckets is then read from each file through its footer."""

    def __init__(self, paths: list[str], names: list[str] = SUMS):
        self.names = names
        self.files = []  # (path, non-empty buckets, their rows)
        self.rows = np.zeros(N_BUCKETS, dtype=np.int64)
        for path in paths:
            with pa.memory_map(path) as source:
                schema = pa.ipc.open_file(source).schema
            if schema.names != ["key", *names]:
                raise ValueError(f"{path} is not a sums file of columns {names}")
            used, rows = (np.array(x, dtype=np.int64)
                          for x in json.loads(schema.metadata[b"buckets"]))
            self.rows[used] += rows
            self.files.append((path, used, rows))

    def batches(self, max_rows: int) -> list[list[int]]:
        """Consecutive buckets grouped so that each group holds about max_rows stored rows."""
        out: list[list[int]] = [[]]
        rows = 0
        for bucket in np.flatnonzero(self.rows):
            if out[-1] and rows + self.rows[bucket] > max_rows:
                out.append([])
                rows = 0
            out[-1].append(int(bucket))
            rows += self.rows[bucket]
        return [batch for batch in out if batch]

    def read(self, buckets: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Merged sums of some consecutive buckets over all chunks, sorted by key (a bucket
        is never split, so a batch may hold more than was asked: see `merged`)."""
        k = len(self.names)
        batches = []
        for path, used, _ in self.files:
            first, last = np.searchsorted(used, [buckets[0], buckets[-1] + 1])
            if first == last:
                continue
            with pa.memory_map(path) as source:
                reader = pa.ipc.open_file(source, options=_READ)
                batches.extend(reader.get_batch(i) for i in range(first, last))
        if not batches:
            return np.zeros(0, np.uint64), np.zeros((0, k), np.int64)
        table = pa.Table.from_batches(batches)
        del batches
        all_keys = table.column(0).to_numpy()
        all_values = np.empty((k, len(all_keys)), dtype=np.int32)
        for j in range(k):
            all_values[j] = table.column(j + 1).to_numpy()
        del table  # the decompressed batches, before the sort's copies
        return group_sums(all_keys, all_values.T, sorted_runs=True)


def merged(chunks: ChunkSums, max_rows: int) -> Iterable[tuple[np.ndarray, np.ndarray]]:
    """The merged sums of every chunk in key order, at most max_rows rows at a time (stored
    rows read a batch of buckets at a time)."""
    for buckets in chunks.batches(max_rows):
        keys, sums = chunks.read(buckets)
        for lo in range(0, len(keys), max_rows):
            yield keys[lo:lo + max_rows], sums[lo:lo + max_rows]


def split_key(keys: np.ndarray) -> dict[str, np.ndarray]:
    """round, seat, alone and hand_key columns from gkeys."""
    return {"round": ((keys >> np.uint64(61)) + np.uint64(1)).astype(np.int8),
            "seat": (((keys >> np.uint64(59)) & np.uint64(3)) + np.uint64(1)).astype(np.int8),
            "alone": ((keys >> np.uint64(58)) & np.uint64(1)).astype(bool),
            "hand_key": keys & np.uint64((1 << 58) - 1)}


def merge_frames(paths: Iterable[str], keys: list[str], names: list[str] = SUMS) -> pd.DataFrame:
    """Sum the small chunk aggregates (columns `names` by `keys`) found at `paths`, a batch of
    files at a time."""
    total: pd.DataFrame | None = None
    batch: list[pd.DataFrame] = []

    def fold(frames: list[pd.DataFrame]) -> pd.DataFrame:
        return pd.concat(frames, ignore_index=True).groupby(keys, sort=True)[names].sum() \
            .reset_index()

    for path in paths:
        batch.append(pd.read_parquet(path))
        if len(batch) == MERGE_BATCH:
            total = fold(([total] if total is not None else []) + batch)
            batch = []
    if batch or total is None:
        total = fold(([total] if total is not None else []) + batch)
    return total


def add_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Rates, mean points and their standard errors from the integer sums."""
    n = frame["n"].astype(np.float64)
    out = frame.drop(columns=["makes", "marches", "euchres", "points_sum", "points_sq"])
    for name, column in (("make", "makes"), ("march", "marches"), ("euchred", "euchres")):
        p = frame[column] / n
        out[f"{name}_rate"] = p
        out[f"{name}_se"] = np.sqrt(p * (1 - p) / n)
    out["mean_points"], out["points_se"] = mean_and_se(frame["points_sum"], frame["points_sq"],
                                                       n)
    return out


def mean_and_se(total: pd.Series, squares: pd.Series, n: pd.Series) -> tuple:
    """Mean and its standard error from a sum, a sum of squares and a count (NaN se at n=1)."""
    var = (squares - total ** 2 / n) / (n - 1).where(n > 1)
    return total / n, np.sqrt(var.clip(lower=0) / n)
