"""Reading finished simulation runs: their facts (run.json) and tables; filter, sort, and pool
rows (n-weighted)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from ..core.errors import FieldError, UserError
from ..core.files import read_json, refused
from ..core.run_tables import COUNT_COLUMNS, OUTPUT_TABLES, count_fault, table_schema
from ..core.schema import check_whole, read_table

# the fields of run.json the reports read, with their types (the rules are checked whole)
_RUN_FIELDS = {"kind": str, "play": str, "bidding": (str, type(None)),
               "worlds": (int, type(None)), "seed": int, "deals": int, "games": int,
               "duplicate": bool, "start": list, "players": dict, "players_described": dict,
               "summary": dict, "auction": dict}


def load_run(out_dir: str) -> dict:
    """The run.json of a finished run; a missing folder or an unfinished run is a UserError."""
    if not os.path.isdir(out_dir):
        raise UserError(f"no run folder {out_dir!r}")
    path = os.path.join(out_dir, "run.json")
    if not os.path.isfile(path):
        if os.path.isfile(os.path.join(out_dir, "manifest.json")):
            raise UserError(f"{out_dir!r} is an unfinished run (finish it with "
                            "'euchre-sim simulate ... --resume', or tournament)")
        raise UserError(f"no run.json in {out_dir!r} (run 'euchre-sim simulate' or "
                        "'tournament' first)")
    info = read_json(path, "run.json")
    if not isinstance(info, dict) or "rules" not in info:
        raise UserError(f"{path!r} is not a simulation's or tournament's run.json")
    from ..core.rules import rules_from_dict  # (numba's import waits for a run's work)

    try:
        rules_from_dict(info["rules"])
    except UserError as err:
        raise UserError(f"{path!r} is damaged: {err}") from None
    players = info.get("players", {})
    for key, kind in _RUN_FIELDS.items():
        if key in info and not isinstance(info[key], kind):
            raise UserError(f"{path!r} is damaged: {key!r} is {info[key]!r:.40}")
    if not all(isinstance(player, dict) for player in players.values()):
        raise UserError(f"{path!r} is damaged: 'players' is {players!r:.40}")
    return info


def _table_path(out_dir: str, name: str) -> str:
    if name not in OUTPUT_TABLES:
        raise UserError(f"unknown table {name!r} (tables: {', '.join(OUTPUT_TABLES)})")
    path = os.path.join(out_dir, f"{name}.parquet")
    if not os.path.isfile(path):
        raise UserError(f"no {name}.parquet in {out_dir!r} (run 'euchre-sim simulate' first)")
    return path


def load_table(out_dir: str, name: str = "calls", info: dict | None = None) -> pd.DataFrame:
    """A finished simulation's table, every value checked (`core.schema`) and its counts
    within what the run's deals could make (`count_fault`; info: its run.json, read when not
    given)."""
    path = _table_path(out_dir, name)
    frame = read_table(path, f"the {name} table", table_schema(name))
    _check_counts(out_dir, name, path, frame, info)
    return frame


def _check_counts(out_dir: str, name: str, path: str, frame: pd.DataFrame,
                  info: dict | None) -> None:
    """A one-line error where the counts of table `name` are more than its run could make."""
    info = load_run(out_dir) if info is None else info
    if isinstance(info.get("deals"), int):
        fault = count_fault(name, frame, info["deals"], info["rules"])
        if fault:
            raise refused(f"the {name} table", path, fault)


def table_rows(out_dir: str, name: str, rows: RowFilter, limit: int
               ) -> tuple[pd.DataFrame, int]:
    """The first `limit` rows of a table that `rows` keeps (filter_table), and how many it
    keeps: the whole table checked a slice at a time (`check_whole`), the columns the filter
    and the counts ask about read, then only the rows shown: never the whole table at once."""
    path, what, schema = _table_path(out_dir, name), f"the {name} table", table_schema(name)
    held = set(check_whole(path, what, schema))
    asked = [column for column in ("round", "seat", "trumps", "alone", "action")
             if getattr(rows, column) is not None]
    asked += ["n"] + ["hand"] * (rows.hand is not None) + [rows.sort] * (rows.sort is not None)
    counted = [column for column in COUNT_COLUMNS if column not in asked]
    narrow = read_table(path, what, schema, columns=dict.fromkeys(c for c in asked + counted
                                                                  if c in held),
                        categories=[c for c in asked + counted if c in held
                                    and schema.column(c).kind == "str"])
    _check_counts(out_dir, name, path, narrow, None)
    kept = filter_table(narrow if len(narrow.columns) else _positions(path), rows)
    return read_table(path, what, schema, rows=kept.index[:limit].to_numpy()), len(kept)


def _positions(path: str) -> pd.DataFrame:
    """A frame of no columns, one row a row of the Parquet file (its index the position)."""
    import pyarrow.parquet as pq

    return pd.DataFrame(index=pd.RangeIndex(pq.ParquetFile(path).metadata.num_rows))


@dataclass(frozen=True)
class RowFilter:
    """Which rows of a table to show, in which order: each filter given must match (`hand` a
    substring of the class text), at least `min_n` deals, sorted by `sort`."""

    round: int | None = None
    seat: int | None = None
    trumps: int | None = None
    alone: bool | None = None
    action: str | None = None
    hand: str | None = None
    min_n: int = 1
    sort: str | None = None
    descending: bool = True


def filter_table(frame: pd.DataFrame, rows: RowFilter = RowFilter()) -> pd.DataFrame:
    """The frame's rows that `rows` keeps, in its order."""
    mask = frame["n"] >= rows.min_n if "n" in frame else pd.Series(True, index=frame.index)
    for column in ("round", "seat", "trumps", "alone", "action"):
        value = getattr(rows, column)
        if value is not None:
            if column not in frame:
                raise UserError(f"this table has no {column!r} column to filter on")
            mask &= frame[column] == value
    if rows.hand is not None:
        if "hand" not in frame:
            raise FieldError("{hand} filters the calls and decisions tables only")
        mask &= frame["hand"].str.contains(rows.hand, regex=False)
    out = frame[mask]
    if rows.sort is not None:
        if rows.sort not in frame.columns:
            raise UserError(f"unknown column {rows.sort!r} to sort by "
                            f"(columns: {', '.join(frame.columns)})")
        out = out.sort_values(rows.sort, ascending=not rows.descending, kind="stable")
    return out


def rollup(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """n-weighted make rate and mean points of table rows grouped by `by` (all rows pooled
    when `by` is empty)."""
    weighted = frame.assign(makes=frame["make_rate"] * frame["n"],
                            points=frame["mean_points"] * frame["n"], _all=0)
    sums = weighted.groupby(by or ["_all"])[["n", "makes", "points"]].sum()
    sums["make_rate"] = sums["makes"] / sums["n"].where(sums["n"] > 0)
    sums["mean_points"] = sums["points"] / sums["n"].where(sums["n"] > 0)
    out = sums[["n", "make_rate", "mean_points"]]
    return out.reset_index(drop=not by)


def pooled(frame: pd.DataFrame) -> dict:
    """n-weighted make rate and mean points over every row (None where there are none, or
    where the table has no make rate)."""
    has_rate = "make_rate" in frame
    row = rollup(frame if has_rate else frame.assign(make_rate=0.0), []).iloc[0] \
        if len(frame) else None
    n = int(row["n"]) if row is not None else 0
    return {"n": n, "make_rate": float(row["make_rate"]) if n and has_rate else None,
            "mean_points": float(row["mean_points"]) if n else None}


def headline(out_dir: str) -> pd.DataFrame:
    """Make rate and mean points by round, seat and trumps, with partner and alone."""
    return rollup(load_table(out_dir, "summary"), ["round", "seat", "trumps", "alone"])


def class_regret(decisions: pd.DataFrame, min_n: int = 1,
                 by: tuple[str, ...] = ("hand_key",)) -> dict:
    """How far a bidder is from the best action class by class: over the classes of a
    decisions table (round, seat and `by`: the hand class, or e.g. the summary features, its
    rows pooled n-weighted) whose every action has at least `min_n` deals, the n-weighted mean
    of (best action's mean points - the bidder's mix of actions' mean points). 0: no class
    would gain by another fixed action against the same continuation (a policy-iteration
    fixed point)."""
    keys = ["round", "seat", *by]
    actions = keys + ["action", "suit", "alone"]
    frame = decisions.assign(suit=decisions["suit"].fillna("-"),
                             chosen=decisions["chosen_rate"] * decisions["n"],
                             points=decisions["mean_points"] * decisions["n"])
    pooled_rows = frame.groupby(actions)[["n", "chosen", "points"]].sum().reset_index()
    pooled_rows["mean"] = pooled_rows["points"] / pooled_rows["n"]
    pooled_rows["mix"] = pooled_rows["chosen"] / pooled_rows["n"] * pooled_rows["mean"]
    per_class = pooled_rows.groupby(keys).agg(n=("n", "max"), n_min=("n", "min"),
                                              best=("mean", "max"), chosen=("mix", "sum"))
    per_class = per_class[per_class["n_min"] >= min_n]
    deals = int(per_class["n"].sum())
    regret = per_class["best"] - per_class["chosen"]
    return {"classes": len(per_class), "decisions": deals,
            "regret": float((regret * per_class["n"]).sum() / deals) if deals else None}


def run_odds(run_dir: str) -> tuple[dict, pd.DataFrame]:
    """(run.json, the odds table) of a finished `simulate --bidding` run: the chance of
    winning the game from every score (`game.odds`), from its auction table."""
    from ..core.rules import rules_from_dict
    from ..game.odds import check_results, odds_table, results_from_auction

    info = load_run(run_dir)
    if not info.get("bidding"):
        raise UserError(f"{run_dir!r} was simulated without --bidding: it has no auction to "
                        "take a hand's results from")
    rules = rules_from_dict(info["rules"])
    what = f"the auction table {_table_path(run_dir, 'auction')!r}"
    results = results_from_auction(load_table(run_dir, "auction", info), rules, what)
    deals = info.get("deals")  # every run this version writes says how many
    check_results(results, deals if isinstance(deals, int) else results.deals, what)
    return info, odds_table(results, rules.target)
