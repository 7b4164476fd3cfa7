"""A finished run's table as `export` writes it, read a row group at a time: every value is
checked first a column at a time (`core.schema.check_whole`: the row named in a mistake is
the whole table's, as a whole read names it), then the rows are read
in batches, so that the memory of an export is a column and a batch, not the table."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple

import pandas as pd

from ..core.errors import UserError
from ..core.files import refused
from ..core.run_tables import COUNT_COLUMNS, count_fault, table_schema
from ..core.schema import check_whole, read_table
from .query import load_run
from .tables import check_table, run_kind


class TableRows(NamedTuple):
    """A checked table's row count, and its rows in order, a frame at a time (read once)."""

    rows: int
    parts: Iterator[pd.DataFrame]


def exported_rows(out_dir: str, name: str | None, batch_rows: int) -> TableRows:
    """Table `name` of a finished run (default: a simulation's calls, a tournament's games),
    checked as `report.tables.read_table` checks it, as frames of at most `batch_rows` rows
    holding what its whole read holds (the same columns, types and values). A tournament's
    players table (computed, a few rows) is read whole."""
    info = load_run(out_dir)
    kind = run_kind(info)
    name = name or {"simulation": "calls", "tournament": "games"}[kind]
    check_table(out_dir, kind, name)
    if name == "players":
        from .tables import read_table as whole

        frame = whole(out_dir, name)[2]
        return TableRows(len(frame), iter([frame]))
    path = os.path.join(out_dir, f"{name}.parquet")
    if not os.path.isfile(path):
        command = "simulate" if kind == "simulation" else "tournament"
        raise UserError(f"no {name}.parquet in {out_dir!r} (run 'euchre-sim {command}' first)")
    what, schema = f"the {name} table", table_schema(name)
    columns = check_whole(path, what, schema)
    if kind == "simulation" and isinstance(info.get("deals"), int):
        counted = read_table(path, what, schema, [c for c in COUNT_COLUMNS if c in columns])
        fault = count_fault(name, counted, info["deals"], info["rules"])
        if fault:
            raise refused(what, path, fault)
        del counted
    return _batches(path, what, columns, batch_rows)


def _batches(path: str, what: str, columns: list[str], batch_rows: int) -> TableRows:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
        rows = parquet.metadata.num_rows
        # an int column empty anywhere is read whole as floats: so is each batch of it
        floats = {name for name in columns if pa.types.is_integer(parquet.schema_arrow.field(
            name).type) and _nulls(parquet, name)}
    except (pa.ArrowException, OSError) as err:
        raise refused(what, path, str(err).splitlines()[0]) from None

    def parts() -> Iterator[pd.DataFrame]:
        try:
            if not rows:
                yield parquet.schema_arrow.empty_table().select(columns).to_pandas()
                return
            for batch in parquet.iter_batches(batch_size=batch_rows, columns=columns,
                                               use_threads=False):
                table = pa.Table.from_batches([batch]).select(columns)
                for name in floats & set(columns):
                    at = table.schema.get_field_index(name)
                    table = table.set_column(at, name, table[name].cast(pa.float64()))
                yield table.to_pandas()
        except (pa.ArrowException, OSError) as err:
            raise refused(what, path, str(err).splitlines()[0]) from None

    return TableRows(rows, parts())


def _nulls(parquet, name: str) -> bool:
    """Whether column `name` of the file is empty in any row (its row groups' statistics,
    else the column read)."""
    import pyarrow.compute as pc

    at = parquet.schema_arrow.get_field_index(name)
    meta = parquet.metadata
    for group in range(meta.num_row_groups):
        stats = meta.row_group(group).column(at).statistics
        if stats is None or not stats.has_null_count:
            return bool(pc.any(pc.is_null(parquet.read([name]).column(0))).as_py())
        if stats.null_count:
            return True
    return False
