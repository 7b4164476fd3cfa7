"""A page of a run's table (`report.query.table_rows`: the page's /api/run/table and the
command line's `table`) checks the table a slice at a time, reads whole only the columns its
filter and counts ask about, then the rows it shows (issue 58 item 9: twelve reads of a
1.56M-row table held 2.4 GB; issue 77 item 5), and shows what filtering the whole table
shows (`filter_table` of `load_table`)."""

import pandas as pd
import pyarrow.parquet as pq
import pytest

from euchre_sim.core.schema import SLICE_ROWS
from euchre_sim.report.query import RowFilter, filter_table, load_table, table_rows

from .helpers import run_cli

FILTERS = [RowFilter(), RowFilter(round=1, seat=2), RowFilter(sort="n"),
           RowFilter(hand="J", sort="mean_points", descending=False),
           RowFilter(trumps=3, alone=True, min_n=5), RowFilter(round=3),
           RowFilter(seat=4, sort="points_se")]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run whose calls table is written again in row groups of 97 rows."""
    out = tmp_path_factory.mktemp("rows") / "run"
    run_cli(["simulate", "--deals", "400", "--seed", "2", "--out", str(out), "--no-progress",
             "--workers", "1"])
    path = out / "calls.parquet"
    table = pq.read_table(path)
    pq.write_table(table, path, row_group_size=97)
    assert pq.ParquetFile(path).num_row_groups > 10
    return out


@pytest.mark.parametrize("rows", FILTERS)
@pytest.mark.parametrize("limit", [1, 30, 10_000])
def test_a_page_is_the_head_of_the_whole_table_filtered(run, rows, limit):
    whole = filter_table(load_table(str(run), "calls"), rows)
    page, matched = table_rows(str(run), "calls", rows, limit)
    assert matched == len(whole)
    pd.testing.assert_frame_equal(page, whole.head(limit).reset_index(drop=True),
                                  check_dtype=False)


def test_a_page_never_reads_the_whole_table(run, monkeypatch):
    """The table is checked whole a slice of rows at a time (issue 77 items 4 and 5: a NaN or
    a key twice anywhere is refused, never shown as data), the filter's and the counts'
    columns read whole (no hand text, no figures), and the rows shown read a slice at a time
    from their row groups: no read of every column of every row at once."""
    read = []
    real = pq.read_table

    def recorded(path, columns=None, **kwargs):
        read.append(columns)
        return real(path, columns=columns, **kwargs)

    monkeypatch.setattr(pq, "read_table", recorded)
    slices = []
    real_batches = pq.ParquetFile.iter_batches

    def recorded_batches(self, batch_size=65536, row_groups=None, columns=None, **kwargs):
        slices.append((batch_size, row_groups))
        return real_batches(self, batch_size=batch_size, row_groups=row_groups,
                            columns=columns, **kwargs)

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", recorded_batches)
    monkeypatch.setattr(pq.ParquetFile, "read_row_groups", None)  # never every group at once
    page, _ = table_rows(str(run), "calls", RowFilter(round=1, sort="n"), 3)
    assert len(page) == 3
    assert read == [["round", "n", "seat", "alone"]]
    assert all(size <= SLICE_ROWS for size, _ in slices)
    shown = [groups for _, groups in slices if groups is not None]
    assert 1 <= len(shown) <= 3 and all(len(groups) == 1 for groups in shown)
