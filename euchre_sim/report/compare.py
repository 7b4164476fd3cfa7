"""Comparing two finished simulation runs class by class (e.g. double dummy against a play model).

Both runs' tables are joined on their class columns; each joined row carries both runs' counts,
rates (make rate; the bidder's chosen rate in decisions) and mean points, the differences B - A,
and a z-score of the points difference from the standard errors the tables already hold.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ..core.errors import UserError
from ..core.run_tables import class_keys
from ..play.models import DEFAULT_PLAY
from .query import load_run, load_table, pooled

SORTS = ("points", "make_rate", "chosen_rate", "z")
_SORT_COLUMNS = {"points": "mean_points_diff", "make_rate": "make_rate_diff",
                 "chosen_rate": "chosen_rate_diff", "z": "z"}
RATES = ("make_rate", "chosen_rate")  # compared where a table has them
_LABELS = {"calls": ["hand", "trumps"], "decisions": ["hand"]}  # fixed by the key: from A


def check_same_rules(info_a: dict, info_b: dict, units: str = "classes") -> None:
    """Raise if the runs' rules differ (their `units` would not match)."""
    rules_a, rules_b = info_a["rules"], info_b["rules"]
    differ = sorted(k for k in set(rules_a) | set(rules_b) if rules_a.get(k) != rules_b.get(k))
    if differ:
        shown = ", ".join(f"{k}: {json.dumps(rules_a.get(k))} vs {json.dumps(rules_b.get(k))}"
                          for k in differ)
        raise UserError(f"the runs have different rules ({shown}); their {units} are not "
                        "comparable")


def check_comparable(info_a: dict, info_b: dict) -> list[str]:
    """Raise if the rules differ (class keys would not match); a note if seed or deals differ."""
    check_same_rules(info_a, info_b)
    differ = [f"{field} ({info_a.get(field)} vs {info_b.get(field)})" for field in ("seed", "deals")
              if info_a.get(field) != info_b.get(field)]
    notes = []
    if differ:
        notes.append(f"the runs differ in {' and '.join(differ)}: they do not play the same "
                     "deals (a same-deal comparison needs the same seed and deal count)")
    return notes


def describe(info: dict) -> str:
    """'play dd, seed 1, 200 deals' for a header line."""
    return (f"play {info.get('play', DEFAULT_PLAY)}, seed {info.get('seed')}, "
            f"{info.get('deals')} deals")


def overall(frame_a: pd.DataFrame, frame_b: pd.DataFrame) -> dict:
    """Both runs pooled, and the differences B - A."""
    a, b = pooled(frame_a), pooled(frame_b)
    out = {"a": a, "b": b}
    for field in ("make_rate", "mean_points"):
        both = a[field] is not None and b[field] is not None
        out[f"{field}_diff"] = b[field] - a[field] if both else None
    return out


def join_runs(frame_a: pd.DataFrame, frame_b: pd.DataFrame, name: str,
              min_n: int = 1) -> pd.DataFrame:
    """Rows of both tables with the same class and n >= min_n in each, with differences B - A.

    z = (points B - points A) / sqrt(se_A^2 + se_B^2); empty (NaN) where a standard error is
    missing (n = 1) or both are zero.
    """
    keys = class_keys(name)
    labels = _LABELS.get(name, [])
    rates = [r for r in RATES if r in frame_a and r in frame_b]
    measures = ["n", *rates, "mean_points", "points_se"]
    a = frame_a.loc[frame_a["n"] >= min_n, keys + labels + measures]
    b = frame_b.loc[frame_b["n"] >= min_n, keys + measures]
    out = a.merge(b, on=keys, how="inner", suffixes=("_a", "_b"), sort=True)
    for field in (*rates, "mean_points"):
        out[f"{field}_diff"] = out[f"{field}_b"] - out[f"{field}_a"]
    se = np.sqrt(out["points_se_a"] ** 2 + out["points_se_b"] ** 2)
    out["z"] = out["mean_points_diff"] / se.where(se > 0)
    order = keys + labels + ["n_a", "n_b"]
    for field in (*rates, "mean_points"):
        order += [f"{field}_a", f"{field}_b", f"{field}_diff"]
    return out[order + ["points_se_a", "points_se_b", "z"]].reset_index(drop=True)


def sort_rows(joined: pd.DataFrame, by: str = "points") -> pd.DataFrame:
    """Largest absolute difference (or |z|) first; ties keep class order; NaN z last."""
    if by not in SORTS:
        raise UserError(f"unknown sort {by!r} (one of {', '.join(SORTS)})")
    if _SORT_COLUMNS[by] not in joined:
        raise UserError(f"this table has no {by.replace('_', ' ')} to sort by")
    size = joined[_SORT_COLUMNS[by]].abs()
    return joined.loc[size.sort_values(ascending=False, kind="stable",
                                       na_position="last").index]


def compare_runs(dir_a: str, dir_b: str, name: str = "calls", min_n: int = 30,
                 by: str = "points") -> tuple[dict, pd.DataFrame, list[str]]:
    """(facts and pooled figures of both runs, joined rows sorted by `by`, notes)."""
    info_a, info_b = load_run(dir_a), load_run(dir_b)
    notes = check_comparable(info_a, info_b)
    frame_a, frame_b = load_table(dir_a, name), load_table(dir_b, name)
    head = overall(frame_a, frame_b)
    for side, out_dir, info in (("a", dir_a, info_a), ("b", dir_b, info_b)):
        head[side] = {"dir": out_dir, "play": info.get("play", DEFAULT_PLAY),
                      "seed": info.get("seed"), "deals": info.get("deals")} | head[side]
    joined = join_runs(frame_a, frame_b, name, min_n)
    head["joined"] = len(joined)
    return head, sort_rows(joined, by), notes
