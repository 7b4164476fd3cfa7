"""The `table` bidder: bids read from a `decisions.parquet` of an earlier `simulate --bidding`.

At its turn a seat looks up every call open to it, by its hand's class
(`decision_keys.turn_class`) where that class has at least `table_min_n` deals of the call,
else by the hand's summary features (trumps, right, left, aces, voids: the classes pooled)
where those have. Among the calls found it takes the one with the largest mean gain over
passing, when that gain is positive, else it passes (a stuck dealer takes the largest mean
points). When no open call is found, the conventional bidder decides. Simulating again with
the table of the last run is policy iteration: each table values actions against the auction
of the bidder that wrote it.
"""

from __future__ import annotations

import hashlib
import os
from typing import NamedTuple

import numpy as np

from ..core.calls import call_open, call_row, may_pass, turn_position, turn_round
from ..core.errors import UserError
from ..core.files import read_json
from ..core.jit import njit
from ..core.run_tables import share_names, table_schema
from ..core.schema import file_schema, read_table
from .conventional import conventional_choice
from .decision_keys import (
    FEATURE_NAMES,
    PASS_CODE,
    SUIT_LABELS,
    action_code,
    decision_key,
    feature_key,
    join_decision_keys,
    pack_feature_columns,
    pack_features,
    relative_suit,
    turn_class,
    turn_features,
)
from .params import INDEX

_MIN_N = INDEX["table_min_n"]


class DecisionTable(NamedTuple):
    """A decisions table as sorted keys and their figures, by class and by features (arrays
    only: Numba reads it)."""

    keys: np.ndarray  # uint64, sorted decision keys (decision_keys.decision_key)
    gain: np.ndarray  # float64, mean gain over passing (NaN where the seat cannot pass)
    mean: np.ndarray  # float64, mean points to the seat's side
    n: np.ndarray  # int64, deals
    results: np.ndarray  # float64[keys, R]: shares of the hand's results (R = 0: none kept)
    feature_keys: np.ndarray  # the same by features (decision_keys.feature_key)
    feature_gain: np.ndarray
    feature_mean: np.ndarray
    feature_n: np.ndarray
    feature_results: np.ndarray


def empty_table() -> DecisionTable:
    """The table of bidders that read none."""
    none = (np.zeros(0, np.uint64), np.zeros(0), np.zeros(0), np.zeros(0, np.int64),
            np.zeros((0, 0)))
    return DecisionTable(*none, *none)


def _sorted(keys: np.ndarray, gain: np.ndarray, mean: np.ndarray, n: np.ndarray,
            results: np.ndarray) -> tuple:
    order = np.argsort(keys)
    return keys[order], gain[order], mean[order], n[order], results[order]


def table_digest(out_dir: str, name: str = "decisions.parquet") -> str:
    """sha256 of a run's decisions.parquet (or another file of it): a resumed run must bid
    from the same table."""
    digest = hashlib.sha256()
    with open(os.path.join(out_dir, name), "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_source(out_dir: str | None, name: str = "decisions.parquet") -> dict | None:
    """A run folder a manifest names: its absolute path and the sha256 of the file read from
    it (None: no folder)."""
    if out_dir is None:
        return None
    return {"dir": os.path.abspath(out_dir), "sha256": table_digest(out_dir, name)}


# what the table bidder reads of decisions.parquet (the action: its class's keys are unique)
DECISION_COLUMNS = ("round", "seat", "action", "suit", "alone", "hand_key", "gain",
                    "mean_points", "n", *FEATURE_NAMES)


def load_decision_table(out_dir: str, rules) -> DecisionTable:
    """The decisions of a finished `simulate --bidding` run under the same rules."""
    import pandas as pd

    path = os.path.join(out_dir, "decisions.parquet")
    info_path = os.path.join(out_dir, "run.json")
    if not os.path.isfile(path) or not os.path.isfile(info_path):
        raise UserError(f"no decisions.parquet and run.json in {out_dir!r} (run 'euchre-sim "
                        "simulate ... --bidding' first)")
    info = read_json(info_path, "run.json")
    if not isinstance(info, dict) or info.get("rules") != rules.options():
        raise UserError(f"the decisions in {out_dir!r} were simulated under other rules: "
                        "their hand classes do not apply")
    schema = table_schema("decisions")
    shares = share_names(rules.max_hand_points)
    if not set(shares) <= set(file_schema(path, "the decisions table", schema).names):
        shares = []  # a table simulated before the results' shares were kept
    frame = read_table(path, "the decisions table", schema, [*DECISION_COLUMNS, *shares])
    label = {name: i for i, name in enumerate(SUIT_LABELS)}
    if not set(frame["suit"].dropna()) <= set(label):
        raise UserError(f"the decisions in {out_dir!r} name a suit other than "
                        f"{', '.join(SUIT_LABELS)}")
    frame["suit_index"] = [-1 if pd.isna(s) else label[s] for s in frame["suit"]]
    keys = join_decision_keys(frame["round"].to_numpy(), frame["seat"].to_numpy(),
                              frame["suit_index"].to_numpy(), frame["alone"].to_numpy(),
                              frame["hand_key"].to_numpy())
    by_class = _sorted(keys, frame["gain"].to_numpy(np.float64),
                       frame["mean_points"].to_numpy(np.float64), frame["n"].to_numpy(np.int64),
                       frame[shares].to_numpy(np.float64))
    weighted = frame.assign(gains=frame["gain"].fillna(0) * frame["n"],
                            points=frame["mean_points"] * frame["n"],
                            **{c: frame[c] * frame["n"] for c in shares})
    sums = weighted.groupby(["round", "seat", "suit_index", "alone", *FEATURE_NAMES])[
        ["n", "gains", "points", *shares]].sum().reset_index()
    feature_keys = join_decision_keys(sums["round"].to_numpy(), sums["seat"].to_numpy(),
                                      sums["suit_index"].to_numpy(), sums["alone"].to_numpy(),
                                      packed_features=pack_feature_columns(sums))
    n = sums["n"].to_numpy(np.int64)
    by_features = _sorted(feature_keys, sums["gains"].to_numpy(np.float64) / n,
                          sums["points"].to_numpy(np.float64) / n, n,
                          sums[shares].to_numpy(np.float64) / n[:, None])
    return DecisionTable(*by_class, *by_features)


@njit
def _find(keys, key):
    i = np.searchsorted(keys, key)
    return i if i < keys.shape[0] and keys[i] == key else -1


@njit
def _lookup(params, table, round_no, pos, code, key, packed):
    """Where the table knows this action of the hand: (0, i) in its class, (1, i) by its
    features, (-1, -1) nowhere with at least `table_min_n` deals."""
    i = _find(table.keys, decision_key(round_no, pos, code, key))
    if i >= 0 and table.n[i] >= params[_MIN_N]:
        return 0, i
    i = _find(table.feature_keys, feature_key(round_no, pos, code, packed))
    if i >= 0 and table.feature_n[i] >= params[_MIN_N]:
        return 1, i
    return -1, -1


@njit
def _game_chance(table, level, i, wins):
    """The chance of winning the game after this action: its results' shares times wins."""
    shares = table.results[i] if level == 0 else table.feature_results[i]
    total = 0.0
    for c in range(wins.shape[0]):
        total += shares[c] * wins[c]
    return total


@njit
def table_choice(tb, params, table, hand, upcard, turn, wins):
    """The call-table row the table bidder calls at auction turn `turn`
    (`core.calls.turn_round`), or -1 to pass. With `wins` (the chance of winning the game
    after each result, in the order of the table's result shares; empty: points) it is the
    `game` bidder."""
    return table_choice_into(tb, params, table, hand, upcard, turn, wins,
                             (np.zeros(5, dtype=np.uint64), np.zeros(9, dtype=np.int64)))


@njit(nrt=False)
def table_choice_into(tb, params, table, hand, upcard, turn, wins, work):
    """table_choice with its work given (masks: uint64[5], ints: int64[9]), so that it
    allocates nothing."""
    masks, ints = work
    round_no, pos = turn_round(turn), turn_position(turn)
    flags = tb.flags
    others = ints[0:4]
    key = turn_class(tb, hand, upcard, round_no, masks, others)
    feats = ints[4:9]
    turn_features(tb, masks, upcard, feats)
    packed = pack_features(feats)
    can_pass = may_pass(flags, round_no, pos)
    for_game = wins.shape[0] > 0
    best = -1
    best_score = -1e18
    if for_game and can_pass:
        level, i = _lookup(params, table, round_no, pos, np.int64(PASS_CODE), key, packed)
        if level >= 0:
            best_score = _game_chance(table, level, i, wins)
    for trump in range(5):
        for alone in range(2):
            if not call_open(flags, round_no, pos, trump, alone, upcard):
                continue
            code = action_code(relative_suit(tb, others, upcard, round_no, trump), alone)
            level, i = _lookup(params, table, round_no, pos, code, key, packed)
            if level < 0:
                continue
            if for_game:
                score = _game_chance(table, level, i, wins)
            elif level == 0:
                score = table.gain[i] if can_pass else table.mean[i]
            else:
                score = table.feature_gain[i] if can_pass else table.feature_mean[i]
            if score > best_score:
                best = call_row(round_no, pos, trump, alone)
                best_score = score
    if best < 0 and best_score == -1e18:
        return conventional_choice(tb, params, hand, upcard, round_no, pos)
    if can_pass and not for_game and best_score <= 0:
        return -1
    return best
