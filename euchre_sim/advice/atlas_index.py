"""A shipped atlas file's rows in a lookup file of the user's cache, so that an answer from
the atlas reads a few rows without pyarrow (its import and the Parquet footer cost more than
the rest of such an answer).

The first answer from a level builds its index from the Parquet file, every value checked as
the Parquet route checks it (`core.schema.read_keyed_columns`): the rows sorted by key in
blocks of BLOCK_ROWS, each block its columns one after another, zlib-compressed (its own
checksum), and a header naming the
format, the source file's sha256 (the package manifest's), the columns' types, each block's
first key and place, and the atlas's provenance. An index is used only where all of that
holds, else it is built again; where the cache cannot be written, answers come from the
Parquet file as before. The cache lies in EUCHRE_SIM_CACHE_DIR, else $XDG_CACHE_HOME or
~/.cache, under euchre-sim/atlas; EUCHRE_SIM_NO_CACHE=1 turns it off with Numba's cache.
"""

from __future__ import annotations

import bisect
import json
import mmap
import os
import struct
import tempfile
import zlib
from pathlib import Path

import numpy as np

from ..core.schema import Schema, file_schema, read_keyed_columns

FORMAT = b"euchre-sim atlas index 1\n"
BLOCK_ROWS = 1024
MAX_HEADER_BYTES = 1 << 22
_LENGTH = struct.Struct("<Q")


def cache_folder() -> Path | None:
    """Where atlas indexes are kept (None: the on-disk caches are off)."""
    if os.environ.get("EUCHRE_SIM_NO_CACHE", "") in ("1", "true", "yes"):
        return None
    root = os.environ.get("EUCHRE_SIM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "euchre-sim")
    return Path(root) / "atlas"


class AtlasIndex:
    """The index of one atlas file: `rows(keys)` as the Parquet route gives them, its
    provenance and its columns."""

    def __init__(self, path: Path, source_sha256: str) -> None:
        """Open an index file; ValueError where it is not one of this format built from that
        source (or is cut short)."""
        with open(path, "rb") as handle:  # mapped: an answer reads the header and a block
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        if data[:len(FORMAT)] != FORMAT:
            raise ValueError("not an atlas index of this format")
        (size,) = _LENGTH.unpack_from(data, len(FORMAT))
        start = len(FORMAT) + _LENGTH.size
        if size > MAX_HEADER_BYTES or start + size > len(data):
            raise ValueError("an atlas index cut short")
        header = json.loads(data[start:start + size])
        if header.get("source_sha256") != source_sha256:
            raise ValueError("an atlas index of another file")
        self.columns = [(name, np.dtype(kind)) for name, kind in header["columns"]]
        self.names = [name for name, _ in self.columns]
        self.provenance = header["provenance"]
        self.first_keys = [int(k) for k, _, _, _ in header["blocks"]]
        body = start + size
        self.blocks = [(body + at, length, int(n)) for _, at, length, n in header["blocks"]]
        if self.blocks and self.blocks[-1][0] + self.blocks[-1][1] != len(data):
            raise ValueError("an atlas index cut short")
        self.data = data
        self._read: dict[int, np.ndarray] = {}

    def _block(self, b: int) -> dict[str, np.ndarray]:
        """Block b's columns."""
        if b not in self._read:
            at, length, n = self.blocks[b]
            try:
                packed = zlib.decompress(self.data[at:at + length])
            except zlib.error as error:
                raise ValueError(f"an atlas index's block is damaged ({error})") from None
            if len(packed) != n * sum(kind.itemsize for _, kind in self.columns):
                raise ValueError("an atlas index's block is not its size")
            block, start = {}, 0
            for name, kind in self.columns:
                block[name] = np.frombuffer(packed, kind, n, start)
                start += n * kind.itemsize
            self._read[b] = block
        return self._read[b]

    def rows(self, keys, columns: list[str] | None = None) -> list[dict]:
        """The rows whose key is one of `keys` (a dict of plain numbers each, in key order),
        of `columns` (default: all)."""
        names = self.names if columns is None else list(dict.fromkeys(["key", *columns]))
        found = []
        for key in sorted(set(int(k) for k in keys)):
            b = bisect.bisect_right(self.first_keys, key) - 1
            if b < 0:
                continue
            block = self._block(b)
            held = block["key"]
            i = int(np.searchsorted(held, np.uint64(key)))
            if i < len(held) and int(held[i]) == key:
                found.append({name: block[name][i].item() for name in names})
        return found


def build_index(target: Path, source_sha256: str, arrays: dict[str, np.ndarray],
                provenance: dict) -> None:
    """Write the index of an atlas's rows (`arrays`: its checked columns, no value missing
    but NaN) to `target`, whole or not at all (a temporary file renamed into place)."""
    order = np.argsort(arrays["key"], kind="stable")
    ordered = {name: np.ascontiguousarray(values[order]) for name, values in arrays.items()}
    columns = [(name, values.dtype.str) for name, values in ordered.items()]
    blocks, body = [], []
    at = 0
    for start in range(0, len(order), BLOCK_ROWS):
        part = [values[start:start + BLOCK_ROWS] for values in ordered.values()]
        packed = zlib.compress(b"".join(values.tobytes() for values in part), 1)
        blocks.append((int(ordered["key"][start]), at, len(packed), len(part[0])))
        body.append(packed)
        at += len(packed)
    header = json.dumps({"source_sha256": source_sha256, "columns": columns,
                         "blocks": blocks, "provenance": provenance}).encode()
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(dir=target.parent, prefix=target.name,
                                         suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(FORMAT + _LENGTH.pack(len(header)) + header)
            for packed in body:
                handle.write(packed)
        os.replace(handle.name, target)
    except BaseException:
        os.unlink(handle.name)
        raise


def open_index(path: str, sha256: str, what: str, schema: Schema) -> AtlasIndex | None:
    """The index of the atlas file at `path` (its sha256 the manifest's), built first where
    the cache holds none of it that can be used; None where there can be none (the cache off
    or not writable, a column with a missing whole number), and the Parquet file serves."""
    folder = cache_folder()
    if folder is None:
        return None
    target = folder / f"{sha256}.index"
    try:
        return AtlasIndex(target, sha256)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    arrays = read_keyed_columns(path, what, schema, None)
    if not all(values.dtype.kind in "iuf" for values in arrays.values()):
        return None
    metadata = file_schema(path, what, schema).metadata or {}
    try:
        build_index(target, sha256, arrays, json.loads(metadata.get(b"euchre_sim", b"{}")))
        return AtlasIndex(target, sha256)
    except (OSError, ValueError):
        return None
