"""The Tables tab: a finished simulation folder's facts, its tables filtered and sorted (as
`euchre-sim table` does), and its heatmaps as PNG (as `euchre-sim plot` draws them)."""

from __future__ import annotations

import json
import os
import tempfile

from ..api import Error as UserError
from ..api.runs import load_run
from ..api.tables import RowFilter, table_rows

PLOTS = {"heatmaps": "summary", "decisions": "decisions", "odds": "odds"}  # kind: table drawn
MAX_ROWS = 1_000


def run_overview(out_dir: str) -> dict:
    """run.json, the tables present and the plots that can be drawn."""
    run = load_run(out_dir)
    plots = [kind for kind, needs in PLOTS.items()
             if os.path.isfile(os.path.join(out_dir, f"{needs}.parquet"))]
    return {"dir": out_dir, "run": run.info, "tables": list(run.tables), "plots": plots}


def table_page(out_dir: str, name: str, rows: RowFilter, limit: int = 100) -> dict:
    """Rows of a table that `rows` keeps, at most `limit` of them, with the number that
    matched."""
    if not 1 <= limit <= MAX_ROWS:
        raise UserError(f"limit must be 1 to {MAX_ROWS:,}")
    frame, matched = table_rows(out_dir, name, rows, limit)
    shown = frame.drop(columns=["hand_key"], errors="ignore")
    return {"table": name, "matched": matched, "columns": list(shown.columns),
            "rows": json.loads(shown.to_json(orient="values"))}


def plot_png(out_dir: str, kind: str, round_no: int = 1) -> bytes:
    """One of the run's heatmap figures as PNG bytes."""
    from ..api.charts import write_plot

    if kind not in PLOTS:
        raise UserError(f"unknown plot {kind!r} (plots: {', '.join(PLOTS)})")
    if round_no not in (1, 2):
        raise UserError(f"round must be 1 or 2, got {round_no}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plot.png")
        write_plot(out_dir, path, PLOTS[kind], round_no)
        with open(path, "rb") as handle:
            return handle.read()
