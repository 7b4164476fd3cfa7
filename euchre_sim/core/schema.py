"""Parquet tables read through their schema: every column a table may hold declared with its
type and the values it may take, and the columns that key a row. A table is read by the
columns wanted and each is checked before any value is used (its type from the file's own
schema, then its values: within range, no infinities, empty only where it may be (NaN is
empty: a number column that may not be empty holds none), keys unique); a file that is not
such a table is one UserError naming it and the column."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from .files import refused, regular_file

if TYPE_CHECKING:  # numpy, pandas and pyarrow are imported where a table is read
    import numpy as np
    import pandas as pd
    import pyarrow as pa


class Column(NamedTuple):
    """One column: its kind (int, float, bool or str) and the values it may take (a str
    column's `high`: the most characters a value may hold)."""

    name: str
    kind: str
    low: float = -math.inf
    high: float = math.inf
    missing: bool = False  # may be empty (null; NaN in a float)
    values: tuple[str, ...] = ()  # a str column's values (empty: any)
    required: bool = True  # every table holds it (else only some do, e.g. the drinks)
    # (column, value): empty only in the rows where that column holds that value (e.g. an
    # auction's rates, only where it passed out: round 0); checked where both are read
    empty_only_where: tuple = ()


class Schema(NamedTuple):
    """A table's columns and the columns that key a row (unique together)."""

    columns: tuple[Column, ...]
    keys: tuple[str, ...] = ()

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


def counts(*names: str) -> tuple[Column, ...]:
    """Counts: whole numbers from 0."""
    return tuple(Column(name, "int", 0) for name in names)


def rates(*names: str, missing: bool = True, required: bool = True,
          empty_only_where: tuple = ()) -> tuple[Column, ...]:
    """Rates and shares: 0 to 1 (NaN where the table has none: a passed-out row's)."""
    return tuple(Column(name, "float", 0, 1, missing, required=required,
                        empty_only_where=empty_only_where) for name in names)


def standard_errors(*names: str, missing: bool = True, required: bool = True,
                    empty_only_where: tuple = ()) -> tuple[Column, ...]:
    """Standard errors: from 0 (NaN where there is none: one deal)."""
    return tuple(Column(name, "float", 0, missing=missing, required=required,
                        empty_only_where=empty_only_where) for name in names)


SLICE_ROWS = 1 << 15  # rows a whole-table check works on at a time (its memory)
_WORDS = {"int": "whole numbers", "float": "numbers", "bool": "true or false", "str": "text",
          "null": "nothing"}


def _kind_of(arrow_type: pa.DataType) -> str | None:
    import pyarrow as pa

    for kind, test in (("bool", pa.types.is_boolean), ("int", pa.types.is_integer),
                       ("float", pa.types.is_floating), ("str", pa.types.is_string),
                       ("str", pa.types.is_large_string), ("null", pa.types.is_null)):
        if test(arrow_type):
            return kind
    return None


def _fits(column: Column, arrow_type: pa.DataType) -> bool:
    kind = _kind_of(arrow_type)
    return kind == column.kind or (kind, column.kind) == ("int", "float") or (
        kind == "null" and column.missing)


def file_schema(path: str, what: str, schema: Schema) -> pa.Schema:
    """The file's own schema (its metadata with it), once the file is found to be Parquet
    holding every required column, each declared column of its kind."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    regular_file(path, what)
    try:
        found = pq.read_schema(path)
    except (pa.ArrowException, OSError) as err:
        raise refused(what, path, _first_line(err)) from None
    for column in schema.columns:
        if column.name not in found.names:
            if column.required:
                raise refused(what, path, f"no column {column.name!r}")
        elif not _fits(column, found.field(column.name).type):
            held = found.field(column.name).type
            raise refused(what, path, f"column {column.name!r} holds "
                          f"{_WORDS.get(_kind_of(held), held)}, not {_WORDS[column.kind]}")
    return found


def read_table(path: str, what: str, schema: Schema, columns: Iterable[str] | None = None,
               filters: list | None = None, rows: np.ndarray | None = None,
               categories: Iterable[str] = ()) -> pd.DataFrame:
    """The table at `path` (`what` names it in a mistake): `columns` (default: every
    declared column the file holds; a column it does not declare is never read), with
    `filters` (pyarrow's) only the rows they keep, with `rows` only those rows by position,
    in that order (only the row groups holding them are read); every value read checked
    against its column. Text columns named in `categories` are read as pandas categoricals
    (a code a row, not a string: for a check of their values and keys over a whole table)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = file_schema(path, what, schema).names
    declared = [c.name for c in schema.columns if c.name in names]
    wanted = declared if columns is None else list(columns)
    absent = [name for name in wanted if name not in names]
    if absent:
        raise refused(what, path, f"no column {absent[0]!r}")
    try:
        if rows is None:
            frame = pq.read_table(path, columns=wanted, filters=filters,
                                  read_dictionary=[c for c in categories if c in wanted]
                                  ).to_pandas()
        else:
            frame = _read_rows(pq.ParquetFile(path), wanted, np.asarray(rows, dtype=np.int64))
    except (pa.ArrowException, OSError) as err:
        raise refused(what, path, _first_line(err)) from None
    fault = _frame_fault(frame, schema, wanted)
    if fault:
        raise refused(what, path, fault)
    keys = list(schema.keys)
    if keys and set(keys) <= set(wanted):
        repeated = first_repeat(frame, keys)
        if repeated is not None:
            raise refused(what, path, f"row {repeated} repeats the key of an earlier row "
                          f"({', '.join(keys)})")
    return frame


def check_whole(path: str, what: str, schema: Schema) -> list[str]:
    """The declared columns of the table at `path`, once every value of the whole table is
    checked as `read_table` checks it, SLICE_ROWS rows at a time, and no key repeated (each
    row's key hashed: 8 bytes a row): its memory is a slice, never the table; a mistake names
    the row of the whole table."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = file_schema(path, what, schema).names
    columns = [c.name for c in schema.columns if c.name in names]
    keys = list(schema.keys) if schema.keys and set(schema.keys) <= set(columns) else []
    try:
        parquet = pq.ParquetFile(path)
        hashes = np.empty(parquet.metadata.num_rows, dtype=np.uint64)
        first = 0
        for batch in parquet.iter_batches(batch_size=SLICE_ROWS, columns=columns,
                                          use_threads=False):
            part = batch.to_pandas()
            fault = _frame_fault(part, schema, columns, first)
            if fault:
                raise refused(what, path, fault)
            if keys:
                hashes[first:first + len(part)] = pd.util.hash_pandas_object(part[keys],
                                                                             index=False)
            first += len(part)
        repeated = _first_shared(hashes, lambda rows: _read_rows(parquet, keys, rows)) \
            if keys else None
    except (pa.ArrowException, OSError) as err:
        raise refused(what, path, _first_line(err)) from None
    if repeated is not None:
        raise refused(what, path, f"row {repeated} repeats the key of an earlier row "
                      f"({', '.join(keys)})")
    return columns


def first_repeat(frame: pd.DataFrame, keys: list[str]) -> int | None:
    """The position of the first row whose `keys` an earlier row holds (None: no such row),
    as `DataFrame.duplicated` finds it, in a fraction of its memory: each row's key hashed
    (8 bytes a row, a slice of rows at a time), and only the rows whose hash another row
    shares compared in full."""
    import numpy as np
    import pandas as pd

    hashes = np.empty(len(frame), dtype=np.uint64)
    for start in range(0, len(frame), SLICE_ROWS):
        part = frame.iloc[start:start + SLICE_ROWS]
        hashes[start:start + len(part)] = pd.util.hash_pandas_object(part[keys], index=False)
    return _first_shared(hashes, lambda rows: frame.iloc[rows][keys])


def _first_shared(hashes: np.ndarray, keys_of: Callable[[np.ndarray], pd.DataFrame]
                  ) -> int | None:
    """The first row repeating an earlier row's key, of rows whose keys hash to `hashes`:
    only the rows whose hash another shares are read (`keys_of(positions)`) and compared."""
    import numpy as np

    ordered = np.sort(hashes)
    shared = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if not len(shared):
        return None
    rows = np.flatnonzero(np.isin(hashes, shared))  # in the table's order
    repeated = keys_of(rows).duplicated().to_numpy().nonzero()[0]
    return int(rows[repeated[0]]) if len(repeated) else None


def read_keyed_rows(path: str, what: str, schema: Schema, keys: Iterable[int],
                    columns: Iterable[str] | None = None) -> list[dict]:
    """The rows of a table keyed by one whole-number column whose key is one of `keys`, as
    dicts of plain numbers (`read_keyed_columns`: no pandas, an answer from the atlas reads
    a few rows)."""
    arrays = read_keyed_columns(path, what, schema, keys, columns)
    size = len(next(iter(arrays.values())))
    return [{name: values[i].item() if hasattr(values[i], "item") else values[i]
             for name, values in arrays.items()} for i in range(size)]


def read_keyed_columns(path: str, what: str, schema: Schema, keys: Iterable[int] | None,
                       columns: Iterable[str] | None = None) -> dict[str, np.ndarray]:
    """The columns of a table keyed by one whole-number column, in the rows whose key is one
    of `keys` (None: every row), read with pyarrow and numpy alone: only the row groups whose
    key range (the file's statistics) may hold one are read, every value read is checked as
    `read_table` checks it and no key may repeat. Missing values are NaN in a float column,
    as pandas reads them, else None."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    (key,) = schema.keys
    names = file_schema(path, what, schema).names
    wanted = [c.name for c in schema.columns if c.name in names] if columns is None \
        else list(dict.fromkeys([key, *columns]))
    absent = [name for name in wanted if name not in names]
    if absent:
        raise refused(what, path, f"no column {absent[0]!r}")
    asked = None if keys is None else np.array(sorted(set(keys)), dtype=np.uint64)
    try:  # (np.unique imports numpy.ma)
        parquet = pq.ParquetFile(path)
        groups = [g for g in range(parquet.num_row_groups)
                  if asked is None or _may_hold(parquet.metadata.row_group(g),
                                                names.index(key), asked)]
        table = parquet.read_row_groups(groups, columns=wanted)
    except (pa.ArrowException, OSError) as err:
        raise refused(what, path, _first_line(err)) from None
    found = slice(None) if asked is None else \
        np.isin(_array(table.column(key))[0], asked).nonzero()[0]
    arrays = {}
    for name in wanted:
        values, empty = (part[found] for part in _array(table.column(name)))
        fault = _values_fault(values, empty, schema.column(name))
        if fault:
            raise refused(what, path, f"column {name!r} {fault}")
        if empty.any():  # missing: NaN in a float column, as pandas reads it; else None
            values = np.where(empty, np.nan, values) if values.dtype.kind == "f" \
                else np.where(empty, None, values.astype(object))
        arrays[name] = values
    ordered = np.sort(arrays[key])
    if len(ordered) and (ordered[1:] == ordered[:-1]).any():
        raise refused(what, path, f"a row repeats the key of an earlier row ({key})")
    return arrays


def _array(column) -> tuple[np.ndarray, np.ndarray]:
    """A pyarrow column as (its values, where they are missing), chunk by chunk from the
    buffers (pyarrow's own `to_numpy` imports pandas): numbers as their numpy type, NaN
    counted missing as pandas counts it; any other type as Python objects."""
    import numpy as np

    values, empty = [], []
    for chunk in column.chunks:
        size, offset = len(chunk), chunk.offset
        validity, *data = chunk.buffers()
        missing = np.zeros(size, dtype=bool) if validity is None or not chunk.null_count else \
            np.unpackbits(np.frombuffer(validity, np.uint8), bitorder="little")[
                offset:offset + size] == 0
        numeric = _is_number(chunk.type)
        held = np.frombuffer(data[0], chunk.type.to_pandas_dtype(), size, offset
                             * chunk.type.bit_width // 8) if numeric \
            else np.array(chunk.to_pylist(), dtype=object)
        if held.dtype.kind == "f":
            missing |= np.isnan(held)
        values.append(held)
        empty.append(missing)
    if not values:
        return np.array([], dtype=object), np.array([], dtype=bool)
    return np.concatenate(values), np.concatenate(empty)


def _is_number(arrow_type) -> bool:
    """Whether a pyarrow type is an integer or a float (read from its buffer as numpy)."""
    import pyarrow as pa

    return pa.types.is_integer(arrow_type) or pa.types.is_floating(arrow_type)


def _may_hold(group, column: int, keys: np.ndarray) -> bool:
    """Whether a row group may hold one of `keys`: within its statistics' range (or none)."""
    import numpy as np

    stats = group.column(column).statistics
    if stats is None or not stats.has_min_max:
        return True
    return bool(np.any((keys >= np.uint64(stats.min)) & (keys <= np.uint64(stats.max))))


def _first_line(err: Exception) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def _read_rows(parquet, columns: list[str], rows: np.ndarray) -> pd.DataFrame:
    """Rows of a Parquet file by position: the row groups holding them read SLICE_ROWS rows
    at a time and only those rows kept (the memory of a slice, not of the groups)."""
    import numpy as np
    import pyarrow as pa

    if not len(rows):
        return parquet.schema_arrow.empty_table().select(columns).to_pandas()
    sizes = np.array([parquet.metadata.row_group(g).num_rows
                      for g in range(parquet.num_row_groups)], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes  # each group's first row in the file
    groups = np.unique(np.searchsorted(starts, rows, side="right") - 1)
    pieces, places = [], []
    for group in groups:
        first = int(starts[group])
        for batch in parquet.iter_batches(batch_size=SLICE_ROWS, row_groups=[int(group)],
                                          columns=columns, use_threads=False):
            at = np.flatnonzero((rows >= first) & (rows < first + batch.num_rows))
            if len(at):
                pieces.append(batch.take(pa.array(rows[at] - first)))
                places.append(at)
            first += batch.num_rows
    order = np.argsort(np.concatenate(places), kind="stable")
    return pa.Table.from_batches(pieces).take(pa.array(order)).to_pandas()


def _frame_fault(frame: pd.DataFrame, schema: Schema, names: list[str], first: int = 0
                 ) -> str | None:
    """What is wrong with the columns `names` of a frame holding the table's rows from row
    `first` on (None: nothing)."""
    for name in names:
        column = schema.column(name)
        values = frame[name]
        fault = _values_fault(values.to_numpy(), values.isna().to_numpy(), column, first) \
            or _empty_where_not(frame, column, first)
        if fault:
            return f"column {name!r} {fault}"
    return None


def _values_fault(values: np.ndarray, empty: np.ndarray, column: Column, first: int = 0
                  ) -> str | None:
    """What is wrong with a column's values, `empty` where they are missing (None: nothing);
    the values are the table's from row `first` on."""
    import numpy as np

    if empty.any() and not column.missing:
        return f"is empty in row {first + empty.nonzero()[0][0]}"
    if column.kind == "bool":
        return None
    held = values[~empty]
    if column.kind == "str":
        other = ~np.isin(held, column.values) if column.values else []
        if np.any(other):
            return f"holds {held[other.nonzero()[0][0]]!r:.40}, not one of " \
                f"{', '.join(column.values)}"
        longest = max(map(len, held), default=0)
        return f"holds a text of {longest:,} characters, more than {column.high:,.0f}" \
            if longest > column.high else None
    if column.kind == "float" and np.isinf(held.astype(np.float64)).any():
        return "holds an infinity"
    if len(held) and held.min() < column.low:
        return f"holds {held.min()}, below {column.low}"
    if len(held) and held.max() > column.high:
        return f"holds {held.max()}, above {column.high}"
    return None


def _empty_where_not(frame: pd.DataFrame, column: Column, first: int = 0) -> str | None:
    """A column empty in a row where it may not be (`Column.empty_only_where`), when the
    column it depends on was read too; the frame holds the table's rows from row `first` on."""
    if not column.empty_only_where or column.empty_only_where[0] not in frame:
        return None
    other, value = column.empty_only_where
    wrong = (frame[column.name].isna() & (frame[other] != value)).to_numpy().nonzero()[0]
    return f"is empty in row {first + wrong[0]} ({other} {frame[other].iloc[wrong[0]]}, where it " \
        f"may be empty only at {other} {value})" if len(wrong) else None
