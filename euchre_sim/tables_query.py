"""Reading finished simulation tables: filter, sort, export, and roll up by features."""

from __future__ import annotations

import os

import pandas as pd

from .errors import UserError

TABLES = ("calls", "summary")


def load_table(out_dir: str, name: str = "calls") -> pd.DataFrame:
    if name not in TABLES:
        raise UserError(f"unknown table {name!r} (tables: {', '.join(TABLES)})")
    path = os.path.join(out_dir, f"{name}.parquet")
    if not os.path.isfile(path):
        raise UserError(f"no {name}.parquet in {out_dir!r} (run 'euchre-sim simulate' first)")
    return pd.read_parquet(path)


def filter_table(frame: pd.DataFrame, round_no: int | None = None, seat: int | None = None,
                 trumps: int | None = None, alone: bool | None = None, hand: str | None = None,
                 min_n: int = 1, sort: str | None = None, descending: bool = True) -> pd.DataFrame:
    """Rows matching every filter given; `hand` matches a substring of the class text."""
    mask = frame["n"] >= min_n
    for column, value in (("round", round_no), ("seat", seat), ("trumps", trumps),
                          ("alone", alone)):
        if value is not None:
            mask &= frame[column] == value
    if hand is not None:
        if "hand" not in frame:
            raise UserError("--hand filters the calls table only")
        mask &= frame["hand"].str.contains(hand, regex=False)
    out = frame[mask]
    if sort is not None:
        if sort not in frame.columns:
            raise UserError(f"unknown column {sort!r} to sort by "
                            f"(columns: {', '.join(frame.columns)})")
        out = out.sort_values(sort, ascending=not descending, kind="stable")
    return out


def rollup(summary: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """n-weighted make rate and mean points of summary rows grouped by `by`."""
    weighted = summary.assign(makes=summary["make_rate"] * summary["n"],
                              points=summary["mean_points"] * summary["n"])
    sums = weighted.groupby(by)[["n", "makes", "points"]].sum()
    sums["make_rate"] = sums["makes"] / sums["n"]
    sums["mean_points"] = sums["points"] / sums["n"]
    return sums[["n", "make_rate", "mean_points"]].reset_index()
