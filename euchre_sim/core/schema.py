"""Parquet tables read through their schema: every column a table may hold declared with its
type and the values it may take, and the columns that key a row. A table is read by the
columns wanted and each is checked before any value is used (its type from the file's own
schema, then its values: within range, no infinities, empty only where it may be (NaN is
empty: a number column that may not be empty holds none), keys unique); a file that is not
such a table is one UserError naming it and the column."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .files import refused, regular_file

if TYPE_CHECKING:  # pandas and pyarrow are imported where a table is read
    import pandas as pd
    import pyarrow as pa


class Column(NamedTuple):
    """One column: its kind (int, float, bool or str) and the values it may take."""

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


SLICE_ROWS = 1 << 18  # rows a whole-table check works on at a time (its memory)
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
    for name in wanted:
        column = schema.column(name)
        fault = _fault(frame[name], column) or _empty_where_not(frame, column)
        if fault:
            raise refused(what, path, f"column {name!r} {fault}")
    keys = list(schema.keys)
    if keys and set(keys) <= set(wanted):
        repeated = first_repeat(frame, keys)
        if repeated is not None:
            raise refused(what, path, f"row {repeated} repeats the key of an earlier row "
                          f"({', '.join(keys)})")
    return frame


def first_repeat(frame: pd.DataFrame, keys: list[str]) -> int | None:
    """The position of the first row whose `keys` an earlier row holds (None: no such row),
    as `DataFrame.duplicated` finds it, in a fraction of its memory: each row's key hashed
    (8 bytes a row, a slice of rows at a time), the hashes sorted, and only the rows whose
    hash another row shares compared in full."""
    import pandas as pd

    hashes = np.empty(len(frame), dtype=np.uint64)
    for start in range(0, len(frame), SLICE_ROWS):
        part = frame.iloc[start:start + SLICE_ROWS]
        hashes[start:start + len(part)] = pd.util.hash_pandas_object(part[keys], index=False)
    ordered = np.sort(hashes)
    shared = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if not len(shared):
        return None
    rows = np.flatnonzero(np.isin(hashes, shared))  # in the frame's order
    repeated = frame.iloc[rows].duplicated(keys).to_numpy().nonzero()[0]
    return int(rows[repeated[0]]) if len(repeated) else None


def _read_rows(parquet, columns: list[str], rows: np.ndarray) -> pd.DataFrame:
    """Rows of a Parquet file by position: the row groups holding them read, then taken."""
    if not len(rows):
        return parquet.schema_arrow.empty_table().select(columns).to_pandas()
    sizes = np.array([parquet.metadata.row_group(g).num_rows
                      for g in range(parquet.num_row_groups)], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes  # each group's first row in the file
    group_of = np.searchsorted(starts, rows, side="right") - 1
    groups = np.unique(group_of)
    part = parquet.read_row_groups(groups.tolist(), columns=columns).to_pandas()
    offset = np.zeros(len(sizes), dtype=np.int64)  # each group's first row in `part`
    offset[groups] = np.cumsum(sizes[groups]) - sizes[groups]
    return part.iloc[offset[group_of] + rows - starts[group_of]].reset_index(drop=True)


def _fault(values: pd.Series, column: Column) -> str | None:
    """What is wrong with a column's values (None: nothing)."""
    empty = values.isna().to_numpy()
    if empty.any() and not column.missing:
        return f"is empty in row {empty.nonzero()[0][0]}"
    if column.kind == "bool":
        return None
    held = values[~empty]
    if column.kind == "str":
        other = ~held.isin(column.values).to_numpy() if column.values else []
        return f"holds {held.iloc[other.nonzero()[0][0]]!r:.40}, not one of " \
            f"{', '.join(column.values)}" if np.any(other) else None
    numbers = held.to_numpy()
    if column.kind == "float" and np.isinf(numbers.astype(np.float64)).any():
        return "holds an infinity"
    if len(numbers) and numbers.min() < column.low:
        return f"holds {numbers.min()}, below {column.low}"
    if len(numbers) and numbers.max() > column.high:
        return f"holds {numbers.max()}, above {column.high}"
    return None


def _empty_where_not(frame: pd.DataFrame, column: Column) -> str | None:
    """A column empty in a row where it may not be (`Column.empty_only_where`), when the
    column it depends on was read too."""
    if not column.empty_only_where or column.empty_only_where[0] not in frame:
        return None
    other, value = column.empty_only_where
    wrong = (frame[column.name].isna() & (frame[other] != value)).to_numpy().nonzero()[0]
    return f"is empty in row {wrong[0]} ({other} {frame[other].iloc[wrong[0]]}, where it " \
        f"may be empty only at {other} {value})" if len(wrong) else None


def _first_line(err: Exception) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__
