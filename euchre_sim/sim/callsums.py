"""Integer sums of simulation records and the rates they give; the calls and decisions
tables' sums are keyed by one uint64 and merged bucket by bucket.

gkey = (round - 1) << 61 | (seat - 1) << 59 | alone << 58 | hand_key (58 bits), so sorting
by gkey sorts by round, seat, alone and class. A chunk stores its sums sorted, bucketed by
gkey >> 50 (round, seat, alone and the class key's top fields, a few hundred buckets in use),
one Parquet row group per block of 16 buckets, with its rows per bucket in the file's metadata;
the final merge reads consecutive buckets from every chunk at a time, so memory is bounded by
a batch of buckets, not by the run, and few row groups per chunk keep the open files small.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

SUMS = ["n", "makes", "marches", "euchres", "points_sum", "points_sq"]
BUCKET_SHIFT = 50
N_BUCKETS = 1 << 12
BLOCK = 16  # buckets per stored row group
_ROWS_KEY = b"bucket_rows"  # a chunk file's rows by bucket (int32[N_BUCKETS]) in its metadata
MERGE_BATCH = 16  # small aggregate files summed at a time


def group_key(records: dict[str, np.ndarray]) -> np.ndarray:
    """gkey of each call record (round, seat, alone, hand_key columns)."""
    return ((records["round"].astype(np.uint64) - np.uint64(1)) << np.uint64(61)
            | (records["seat"].astype(np.uint64) - np.uint64(1)) << np.uint64(59)
            | records["alone"].astype(np.uint64) << np.uint64(58)
            | records["hand_key"].astype(np.uint64))


def group_sums(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sum the rows of `values` (int64[n, k]) by key; keys come back sorted and unique."""
    if len(keys) == 0:
        return keys, values
    order = np.argsort(keys)
    keys = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(values[order], starts, axis=0)


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


def bucketed_parquet(keys: np.ndarray, sums: np.ndarray, names: list[str] = SUMS,
                     shift: int = BUCKET_SHIFT) -> bytes:
    """Sorted sums (columns `names`) as Parquet bytes: one row group per block of BLOCK
    buckets (key >> shift, below N_BUCKETS) and the rows of every bucket in the file's
    metadata (few row groups keep a merge of many chunks small; int32: one chunk's sums are
    small; zstd level 1 keeps temporary files small at little cost)."""
    buffer = io.BytesIO()
    edges = np.append(np.searchsorted(keys, np.arange(N_BUCKETS, dtype=np.uint64)
                                      << np.uint64(shift)), len(keys))
    rows = np.diff(edges).astype(np.int32)
    schema = pa.schema([("gkey", pa.uint64())] + [(s, pa.int32()) for s in names],
                       metadata={_ROWS_KEY: rows.tobytes()})
    with pq.ParquetWriter(buffer, schema, compression="zstd", compression_level=1,
                          use_dictionary=False) as writer:
        columns = [keys] + [sums[:, i].astype(np.int32) for i in range(len(names))]
        for lo, hi in zip(edges[:-1:BLOCK], edges[BLOCK::BLOCK], strict=True):
            if hi > lo:  # keys are sorted: each block is one slice
                writer.write_table(pa.Table.from_arrays([pa.array(c[lo:hi]) for c in columns],
                                                        schema=schema))
    return buffer.getvalue()


class ChunkSums:
    """The bucketed sums of every chunk, opened once: each file's row groups by block and its
    rows by bucket."""

    def __init__(self, paths: list[str], names: list[str] = SUMS, shift: int = BUCKET_SHIFT):
        self.names = names
        self.shift = shift
        self.files = []
        self.rows = np.zeros(N_BUCKETS, dtype=np.int64)
        for path in paths:
            handle = pq.ParquetFile(path)
            self.rows += np.frombuffer(handle.schema_arrow.metadata[_ROWS_KEY], np.int32)
            groups = {}
            for i in range(handle.metadata.num_row_groups):
                first = int(handle.metadata.row_group(i).column(0).statistics.min)
                groups[(first >> shift) // BLOCK] = i
            self.files.append((handle, groups))

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
        """Merged sums of some consecutive buckets over all chunks, sorted by key."""
        lo = np.uint64(buckets[0]) << np.uint64(self.shift)
        top = buckets[-1] + 1  # the key range ends past its last bucket (or at the last key)
        hi = np.uint64(top) << np.uint64(self.shift) if top < N_BUCKETS else None
        blocks = range(buckets[0] // BLOCK, buckets[-1] // BLOCK + 1)
        keys, values = [], []
        for handle, groups in self.files:
            indices = [groups[b] for b in blocks if b in groups]
            if indices:
                table = handle.read_row_groups(indices)
                key = table.column("gkey").to_numpy()
                take = slice(np.searchsorted(key, lo),
                             len(key) if hi is None else np.searchsorted(key, hi))
                keys.append(key[take])
                values.append(np.stack([table.column(s).to_numpy()[take] for s in self.names],
                                       axis=1).astype(np.int64))
        if not keys:
            return np.zeros(0, np.uint64), np.zeros((0, len(self.names)), np.int64)
        return group_sums(np.concatenate(keys), np.concatenate(values))


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
