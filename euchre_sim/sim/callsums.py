"""Integer sums of simulation records and the rates they give; the calls and decisions
tables' sums are keyed by one uint64 and merged bucket by bucket.

gkey = (round - 1) << 61 | (seat - 1) << 59 | alone << 58 | hand_key (58 bits), so sorting
by gkey sorts by round, seat, alone and class. A chunk stores its sums sorted, bucketed by
gkey >> 50 (round, seat, alone and the class key's top fields, a few hundred buckets in use),
in a small file of its own (a "sums file", below): each bucket a zstd block of its own, an
index of rows and sizes up front. The final merge reads a batch of consecutive buckets from
every chunk at a time (one read per chunk, no file held open), so its memory is bounded by
the batch, not by the run or the number of chunks.

Sums file: MAGIC, then int32 columns k, int32 index size, the zstd index (int32[2, N_BUCKETS]:
rows and stored bytes of each bucket), then each non-empty bucket in order: its keys (uint64)
and its k sum columns (int32), column after column, as one zstd block.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core.calls import N_TRUMPS
from ..core.errors import UserError
from ..core.stats import mean_se_of_sums, rate_se

SUMS = ["n", "makes", "marches", "euchres", "points_sum", "points_sq"]
BUCKET_SHIFT = 50
N_BUCKETS = 1 << 12
MAGIC = b"ESSUMS1\n"
_CODEC = "zstd"
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
    index = np.zeros((2, N_BUCKETS), dtype=np.int32)
    index[0] = np.diff(edges)
    blocks = []
    for bucket in np.flatnonzero(index[0]):
        lo, hi = edges[bucket], edges[bucket + 1]
        raw = keys[lo:hi].tobytes() + sums[lo:hi].astype(np.int32).T.tobytes()
        blocks.append(pa.compress(raw, codec=_CODEC, asbytes=True))
        index[1, bucket] = len(blocks[-1])
    head = pa.compress(index.tobytes(), codec=_CODEC, asbytes=True)
    return b"".join([MAGIC, np.array([len(names), len(head)], dtype=np.int32).tobytes(), head,
                     *blocks])


class CallsBounds(NamedTuple):
    """What each chunk's calls sums can hold: its deals (by file, in the order given) and the
    records a deal makes (`fewest`, `most`: one per open call, the same for every upcard under
    the presets). A round-1 group gets at most one record a deal, a round-2 group one a trump."""

    deals: list[int]
    fewest: int
    most: int


class ChunkSums:
    """The sums files of every chunk: their indexes, read once; each batch of buckets is then
    one read per file. A file that is no sums file, or (given `bounds`) holds calls sums its
    chunk's deals cannot make, is a UserError naming the chunk: checked block by block as it
    is read, each chunk's total count once every batch is read (`merged`)."""

    def __init__(self, paths: list[str], names: list[str] = SUMS,
                 bounds: CallsBounds | None = None):
        self.names, self.bounds = names, bounds
        self.files = []  # (path, non-empty buckets, their rows, their byte offsets and ends)
        self.rows = np.zeros(N_BUCKETS, dtype=np.int64)
        self.counted = np.zeros(len(paths), dtype=np.int64)  # each chunk's n read so far
        for path in paths:
            try:
                index, size = self._index(path)
            except (OSError, ValueError) as error:
                raise _bad_chunk(path, f"is not a sums file of {len(names)} columns "
                                       f"({error})") from None
            used = np.flatnonzero(index[0])
            if (index[:, used] <= 0).any():
                raise _bad_chunk(path, "is not a sums file (its index is damaged)")
            ends = len(MAGIC) + 8 + size + np.cumsum(index[1, used], dtype=np.int64)
            self.rows[used] += index[0, used]
            self.files.append((path, used, index[0, used], ends - index[1, used], ends))

    def _index(self, path: str) -> tuple[np.ndarray, int]:
        with open(path, "rb") as handle:
            magic = handle.read(len(MAGIC))
            k, size = np.frombuffer(handle.read(8), np.int32)
            if magic != MAGIC or k != len(self.names) or size <= 0:
                raise ValueError("another header")
            return np.frombuffer(pa.decompress(handle.read(size), 8 * N_BUCKETS,
                                               codec=_CODEC, asbytes=True),
                                 np.int32).reshape(2, N_BUCKETS), int(size)

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
        keys, values = [], []
        for number, (path, used, rows, starts, ends) in enumerate(self.files):
            first, last = np.searchsorted(used, [buckets[0], buckets[-1] + 1])
            if first == last:
                continue
            try:
                with open(path, "rb") as handle:
                    data = os.pread(handle.fileno(), int(ends[last - 1] - starts[first]),
                                    int(starts[first]))
                view, base = memoryview(data), starts[first]
                for i in range(first, last):
                    raw = pa.decompress(view[starts[i] - base:ends[i] - base],
                                        int(rows[i]) * (8 + 4 * k), codec=_CODEC,
                                        asbytes=True)
                    keys.append(np.frombuffer(raw, np.uint64, rows[i]))
                    values.append(np.frombuffer(raw, np.int32, rows[i] * k, 8 * rows[i])
                                  .reshape(k, rows[i]))
            except (OSError, ValueError) as error:
                raise _bad_chunk(path, f"is not a sums file of {k} columns ({error})") from None
            for block in range(len(keys) - (last - first), len(keys)):
                self._check(number, keys[block], values[block])
        if not keys:
            return np.zeros(0, np.uint64), np.zeros((0, k), np.int64)
        all_keys, all_values = np.concatenate(keys), np.concatenate(values, axis=1).T
        del keys, values  # the decompressed blocks, before the sort's copies
        return group_sums(all_keys, all_values, sorted_runs=True)

    def _check(self, number: int, keys: np.ndarray, values: np.ndarray) -> None:
        """A block of chunk `number`'s calls sums (columns SUMS, one row each) against what
        its deals could make: a UserError naming the chunk otherwise."""
        if self.bounds is None:
            return
        deals = self.bounds.deals[number]
        n, makes, marches, euchres, points, squares = values.astype(np.int64)
        most = np.where(keys >> np.uint64(61) == 0, 1, N_TRUMPS) * deals
        for bad, why in ((n < 1, "a group of no calls"),
                         (n > most, "a group counted more often than its deals allow"),
                         (makes + euchres != n, "makes and euchres that do not add up to n"),
                         ((marches < 0) | (marches > makes), "marches that are no makes"),
                         ((squares < np.abs(points)) | (points * points > n * squares),
                          "points and their squares that no calls make")):
            if bad.any():
                raise _bad_chunk(self.files[number][0],
                                 f"holds calls sums its {deals:,} deals cannot make ({why})")
        self.counted[number] += n.sum()

    def check_totals(self) -> None:
        """Once every batch is read: each chunk's calls, counted, are what its deals make."""
        if self.bounds is None:
            return
        for number, counted in enumerate(self.counted):
            deals = self.bounds.deals[number]
            if not deals * self.bounds.fewest <= counted <= deals * self.bounds.most:
                made = (f"{deals * self.bounds.fewest:,}" if self.bounds.fewest ==
                        self.bounds.most else f"{deals * self.bounds.fewest:,} to "
                        f"{deals * self.bounds.most:,}")
                raise _bad_chunk(self.files[number][0],
                                 f"holds calls sums its {deals:,} deals cannot make "
                                 f"({counted:,} calls counted, not {made})")


def _bad_chunk(path: str, why: str) -> UserError:
    """The line of a chunk whose sums file cannot be merged (its checksum matched: it was
    changed with its checksum, or written wrong)."""
    folder = os.path.dirname(path)
    name = os.path.basename(folder)
    chunk = f"chunk {int(name)} ({folder})" if name.isdigit() else folder
    return UserError(f"{chunk}: {os.path.basename(path)} {why}; delete its folder and run "
                     "again with --resume")


def merged(chunks: ChunkSums, max_rows: int) -> Iterable[tuple[np.ndarray, np.ndarray]]:
    """The merged sums of every chunk in key order, at most max_rows rows at a time (stored
    rows read a batch of buckets at a time); with bounds, each chunk's total is checked after
    the last batch (the table being written is then never finished)."""
    for buckets in chunks.batches(max_rows):
        keys, sums = chunks.read(buckets)
        for lo in range(0, len(keys), max_rows):
            yield keys[lo:lo + max_rows], sums[lo:lo + max_rows]
    chunks.check_totals()


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
        out[f"{name}_se"] = rate_se(p, n)
    out["mean_points"], out["points_se"] = mean_se_of_sums(frame["points_sum"],
                                                           frame["points_sq"], n)
    return out
