"""Building the realistic atlas (`advice.atlas`) for `tools/make_atlas.py`: each level's rows
from the decisions tables of a learned-play run and its double-dummy twin (the same deals
bid the same way), the pooled level's spreads, and the package data files written.

A run's rows are summed once per level (`run_sums`: counts, sums and sums of squares, which
add up); the class level's sums give both the class rows and the pooled level's spreads.
"""

from __future__ import annotations

import json
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..bidding.decision_keys import SUIT_LABELS, join_decision_keys, split_decision_keys
from ..core.rules import RuleSet
from ..core.run_tables import count_names, share_names
from ..core.stats import mean_se_of_sums, squares_of
from .atlas import (
    ATLAS_SCHEMA,
    LEVEL_FILES,
    POOLED_LEVELS,
    SPREAD_RATIOS,
    class_pools,
    pool_hash,
)

MIN_N = 100  # a class (or its pool) reached fewer times is not in the atlas
# nor a coarse pool reached fewer times than this: the last level before a simulation, which an
# answer of 30 deals (its pool's spread in its standard error) beats by being there at once
LAST_MIN_N = 30


def level_min_n(min_n: int = MIN_N) -> dict[str, int]:
    """The fewest deals an entry needs at each level (`LAST_MIN_N` at the last)."""
    last = POOLED_LEVELS[-1]
    return {level: min(min_n, LAST_MIN_N) if level == last else min_n
            for level in LEVEL_FILES}
ATLAS_COLUMNS = [column.name for column in ATLAS_SCHEMA.columns if column.required]
RATIO_COLUMNS = list(SPREAD_RATIOS.values())
# kept to 3 significant digits (float16: standard errors and rates), the double-dummy means to 7
# (float32), the results as counts (every other figure is read from them: `atlas.entry_figures`)
HALF = ["chosen_rate", "gain_se", "dd_points_se"]
ROW_GROUP = 16_384  # rows of an atlas file read at once: a lookup reads the groups it needs


def _suit_index(frame: pd.DataFrame) -> np.ndarray:
    return frame["suit"].map(lambda s: -1 if pd.isna(s) else SUIT_LABELS.index(s)).to_numpy(
        np.int64)


def level_keys(frame: pd.DataFrame, level: str) -> np.ndarray:
    """Atlas keys of decisions-table rows: the decision key ('class'), or the same with the
    class replaced by its pool's hash at a pooled level (`atlas.pool_hash`)."""
    columns = (frame["round"].to_numpy(), frame["seat"].to_numpy(), _suit_index(frame),
               frame["alone"].to_numpy())
    if level == "class":
        return join_decision_keys(*columns, hand_key=frame["hand_key"].to_numpy())
    hashes = {h: pool_hash(h, level) for h in frame["hand"].unique()}
    return join_decision_keys(*columns, packed_features=frame["hand"].map(hashes).to_numpy(
        np.uint64))


class RunSums(NamedTuple):
    """The sums of the two runs' decisions at one level, by atlas key (`run_sums`)."""

    learned: pd.DataFrame
    exact: pd.DataFrame


def run_sums(learned: pd.DataFrame, exact: pd.DataFrame, rules: RuleSet,
             level: str) -> RunSums:
    """The learned-play decisions table and its double-dummy twin summed by their keys at a
    level (`level_keys`)."""
    shares = share_names(rules.max_hand_points)
    return RunSums(*(_sums(frame, level_keys(frame, level), shares)
                     for frame in (learned, exact)))


def _sums(frame: pd.DataFrame, keys: np.ndarray, shares: list[str]) -> pd.DataFrame:
    """Per key: n, chosen, and the sums and sums of squares of points and gain, rebuilt from
    the rows' means and standard errors, and the results' counts."""
    n = frame["n"].to_numpy(np.float64)

    def squares(mean: str, se: str) -> np.ndarray:
        return squares_of(n, frame[mean].to_numpy(np.float64), frame[se].to_numpy(np.float64))

    out = pd.DataFrame({"key": keys, "n": n, "chosen": frame["chosen_rate"] * n,
                        "points": frame["mean_points"] * n,
                        "points_sq": squares("mean_points", "points_se"),
                        "gain": frame["gain"].fillna(0) * n,
                        "gain_sq": squares("gain", "gain_se")}
                       | {c: frame[c] * n for c in shares})
    return out.groupby("key", sort=True).sum()


def build_levels(learned: pd.DataFrame, exact: pd.DataFrame, rules: RuleSet,
                 min_n: int = MIN_N) -> dict[str, pd.DataFrame]:
    """Every level's atlas rows (LEVEL_FILES' levels) of a learned-play decisions table and
    its double-dummy twin, each pooled level with its spreads. A pooled level's entry holds
    the deals of the classes that reach it, those no level before answers: a question of a
    common class never reaches a pool, and the rare classes that do stray from the common
    ones (the Yooker atlas's round-2 pools of every class read high for the hands they
    answered: mean z up to +0.45)."""
    levels = {}
    for level, fewest in level_min_n(min_n).items():
        levels[level] = build_atlas(run_sums(learned, exact, rules, level), rules, fewest)
        if level in POOLED_LEVELS:
            levels[level] = pool_spread(levels[level], run_sums(learned, exact, rules, "class"),
                                        rules, level)
        learned, exact = (frame[~np.isin(level_keys(frame, level), levels[level]["key"])]
                          for frame in (learned, exact))
    return levels


def build_atlas(sums: RunSums, rules: RuleSet, min_n: int = MIN_N) -> pd.DataFrame:
    """The atlas rows (ATLAS_COLUMNS and the results' counts, sorted by key) of the runs'
    sums at a level (`run_sums`): the keys reached at least `min_n` times."""
    top = rules.max_hand_points
    learned = sums.learned[sums.learned["n"] >= min_n]
    dd = sums.exact.reindex(learned.index)
    if not (dd["n"] == learned["n"]).all():
        raise ValueError("the double-dummy run did not reach the same decisions")
    n = learned["n"]
    out = pd.DataFrame({"key": learned.index.to_numpy(np.uint64), "n": n.to_numpy()})
    out["chosen_rate"] = (learned["chosen"] / n).to_numpy()
    out["gain_se"] = np.asarray(mean_se_of_sums(learned["gain"], learned["gain_sq"], n)[1])
    calls = split_decision_keys(out["key"].to_numpy(np.uint64))["suit"] >= 0
    dd_mean, dd_se = mean_se_of_sums(dd["points"], dd["points_sq"], dd["n"])
    out["dd_mean_points"] = np.where(calls, np.asarray(dd_mean), np.nan)
    out["dd_points_se"] = np.where(calls, dd_se, np.nan)
    counts = count_names(top)
    for share, count in zip(share_names(top), counts, strict=True):  # shares summed: counts
        out[count] = np.rint(learned[share].to_numpy()).astype(np.uint32)
    return out.astype({"key": np.uint64, "n": np.uint32, "dd_mean_points": np.float32}
                      | {c: np.float16 for c in HALF})


def _pool_sums(n: np.ndarray, total: np.ndarray, squares: np.ndarray,
               pool: np.ndarray) -> pd.DataFrame:
    """Per pool of the classes given: k classes, the variance s^2 of its deals, the
    between-class sum of squares and N - sum n^2 / N (its classes' degrees of freedom,
    unbalanced; N its deals)."""
    frame = pd.DataFrame({"pool": pool, "n": n, "t": total, "q": squares,
                          "tt_n": total ** 2 / n, "nn": n ** 2})
    sums = frame.groupby("pool").agg(k=("n", "size"), n=("n", "sum"), t=("t", "sum"),
                                     q=("q", "sum"), tt_n=("tt_n", "sum"), nn=("nn", "sum"))
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = ((sums["q"] - sums["t"] ** 2 / sums["n"]) / (sums["n"] - 1)).fillna(0)
    return pd.DataFrame({"k": sums["k"], "variance": variance,
                         "between": sums["tt_n"] - sums["t"] ** 2 / sums["n"],
                         "spread_df": sums["n"] - sums["nn"] / sums["n"]})


def _spread_ratio(pools: pd.DataFrame) -> float:
    """c, the variance of class means about their pool's mean beyond chance as a share of
    the variance of the pool's deals, one for all the pools given (`_pool_sums`): a pool's
    tau^2 = c s^2 (a hopeless lone call's classes stray little, as its deals do; a good
    one's far). The one-way random-effects analysis of variance of the deals (classes within
    pools, unbalanced), each pool's chance spread its own s^2: E[SSB] = (k - 1) s^2 +
    tau^2 (N - sum n^2 / N), so c = (sum SSB - sum (k - 1) s^2) / sum s^2 (N - sum n^2 / N)
    over the pools of two or more classes; 0 when no more than chance (or no deal differs),
    NaN when no pool holds two classes."""
    pools = pools[pools["k"] >= 2]
    if pools.empty:
        return float("nan")
    excess = float((pools["between"] - (pools["k"] - 1) * pools["variance"]).sum())
    scale = float((pools["variance"] * pools["spread_df"]).sum())
    return max(0.0, excess / scale) if scale > 0 else 0.0  # no deal differs: none strays


def _turn_and_action(keys: np.ndarray) -> np.ndarray:
    """Atlas keys with only their round, seat and action kept (the hand left out)."""
    parts = split_decision_keys(keys)
    return join_decision_keys(parts["round"], parts["seat"], parts["suit"], parts["alone"],
                              packed_features=np.zeros(len(keys), np.uint64))


def pool_spread(pooled: pd.DataFrame, class_sums: RunSums, rules: RuleSet,
                level: str = "pooled") -> pd.DataFrame:
    """A pooled level's rows with each figure's spread ratio (`atlas.SPREAD_RATIOS`), from the
    two runs' sums at the class level of the classes the level answers for (`run_sums` of the
    rows the levels before leave): a question reaches the pooled level because its own class
    was reached too rarely, and its class's expectation differs from the pool's by about the
    pool's spread, sqrt(c) times the standard deviation of its deals (`atlas.deals_sd`), c
    one ratio per round, seat and action (`_spread_ratio`; the seats differ: in the Yooker
    atlas's study one spread for every seat left round 2's pooled answers a third too
    wide); an answer's standard error widens by it (`atlas.widened_se`)."""
    out = pooled[[c for c in pooled.columns if c not in RATIO_COLUMNS]].copy()
    figures = {"points_se": ("points", "points_sq"), "gain_se": ("gain", "gain_sq")}
    sums = {}
    for table, found in class_sums._asdict().items():
        keys = found.index.to_numpy(np.uint64)
        sums[table] = (found, _turn_and_action(keys), class_pools(keys, rules, level))
    out_group = _turn_and_action(out["key"].to_numpy(np.uint64))
    for se_name, ratio_name in SPREAD_RATIOS.items():
        table, group, pool = sums["exact" if se_name == "dd_points_se" else "learned"]
        total, squares = figures.get(se_name, figures["points_se"])
        ratio = np.full(len(out), np.nan)
        for g in np.unique(out_group):
            mine = (group == g) & np.isfinite(table[squares].to_numpy())
            if mine.any():
                pools = _pool_sums(*(table[c].to_numpy(np.float64)[mine]
                                     for c in ("n", total, squares)), pool[mine])
                ratio[out_group == g] = np.sqrt(_spread_ratio(pools))
        valued = out[se_name].notna() if se_name in out else True  # a pass: no dd points
        out[ratio_name] = np.where(valued, ratio, np.nan).astype(np.float16)
    return out


def write_table(frame: pd.DataFrame, path: str, provenance: dict) -> None:
    """A package data table as Parquet (row groups of ROW_GROUP rows), its provenance in the
    file's metadata."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({b"euchre_sim": json.dumps(provenance).encode()})
    keyed = {"use_dictionary": False, "column_encoding": {"key": "DELTA_BINARY_PACKED"}} \
        if "key" in frame.columns else {}  # sorted keys: small steps
    pq.write_table(table, path, compression="zstd", compression_level=19,
                   row_group_size=ROW_GROUP, **keyed)
