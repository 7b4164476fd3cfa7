"""The `table` bidder: bids read from a `decisions.parquet` of an earlier `simulate --bidding`.

At its turn a seat looks up its hand's class (`decision_keys.turn_class`) and every call open
to it. Among the calls whose class has at least `table_min_n` deals it takes the one with the
largest mean gain over passing, when that gain is positive, else it passes (a stuck dealer
takes the largest mean points). When no open call of the class has enough deals, the
conventional bidder decides. Simulating again with the table of the last run is policy
iteration: each table values actions against the auction of the bidder that wrote it.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import NamedTuple

import numpy as np

from ..core.calls import call_open, call_row, may_pass
from ..core.errors import UserError
from ..core.jit import njit
from .conventional import conventional_choice
from .decision_keys import (
    SUIT_LABELS,
    action_code,
    decision_key,
    join_decision_keys,
    relative_suit,
    turn_class,
)
from .params import INDEX

_MIN_N = INDEX["table_min_n"]


class DecisionTable(NamedTuple):
    """A decisions table as sorted keys and their figures (arrays only: Numba reads it)."""

    keys: np.ndarray  # uint64, sorted decision keys
    gain: np.ndarray  # float64, mean gain over passing (NaN where the seat cannot pass)
    mean: np.ndarray  # float64, mean points to the seat's side
    n: np.ndarray  # int64, deals


def empty_table() -> DecisionTable:
    """The table of bidders that read none."""
    return DecisionTable(np.zeros(0, np.uint64), np.zeros(0), np.zeros(0),
                         np.zeros(0, np.int64))


def table_digest(out_dir: str) -> str:
    """sha256 of a run's decisions.parquet (a resumed run must bid from the same table)."""
    digest = hashlib.sha256()
    with open(os.path.join(out_dir, "decisions.parquet"), "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_decision_table(out_dir: str, rules) -> DecisionTable:
    """The decisions of a finished `simulate --bidding` run under the same rules."""
    import pandas as pd

    path = os.path.join(out_dir, "decisions.parquet")
    info_path = os.path.join(out_dir, "run.json")
    if not os.path.isfile(path) or not os.path.isfile(info_path):
        raise UserError(f"no decisions.parquet and run.json in {out_dir!r} (run 'euchre-sim "
                        "simulate ... --bidding' first)")
    with open(info_path, encoding="utf-8") as handle:
        info = json.load(handle)
    if info.get("rules") != rules.options():
        raise UserError(f"the decisions in {out_dir!r} were simulated under other rules: "
                        "their hand classes do not apply")
    frame = pd.read_parquet(path, columns=["round", "seat", "hand_key", "suit", "alone", "n",
                                           "mean_points", "gain"])
    label = {name: i for i, name in enumerate(SUIT_LABELS)}
    suit = np.array([-1 if pd.isna(s) else label[s] for s in frame["suit"]], dtype=np.int64)
    keys = join_decision_keys(frame["round"].to_numpy(), frame["seat"].to_numpy(), suit,
                              frame["alone"].to_numpy(), frame["hand_key"].to_numpy())
    order = np.argsort(keys)
    return DecisionTable(keys[order], frame["gain"].to_numpy(np.float64)[order],
                         frame["mean_points"].to_numpy(np.float64)[order],
                         frame["n"].to_numpy(np.int64)[order])


@njit
def _find(keys, key):
    i = np.searchsorted(keys, key)
    return i if i < keys.shape[0] and keys[i] == key else -1


@njit
def table_choice(tb, params, table, hand, upcard, round_no, pos):
    """The call-table row the table bidder calls at this turn, or -1 to pass."""
    flags = tb.flags
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.uint64)
    key = turn_class(tb, hand, upcard, round_no, masks, others)
    can_pass = may_pass(flags, round_no, pos)
    best = -1
    best_score = -1e18
    for trump in range(5):
        for alone in range(2):
            if not call_open(flags, round_no, pos, trump, alone, upcard):
                continue
            code = action_code(relative_suit(tb, masks, upcard, round_no, trump), alone)
            i = _find(table.keys, decision_key(round_no, pos, code, key))
            if i < 0 or table.n[i] < params[_MIN_N]:
                continue
            score = table.gain[i] if can_pass else table.mean[i]
            if score > best_score:
                best = call_row(round_no, pos, trump, alone)
                best_score = score
    if best < 0:
        return conventional_choice(tb, params, hand, upcard, round_no, pos)
    if can_pass and best_score <= 0:
        return -1
    return best
