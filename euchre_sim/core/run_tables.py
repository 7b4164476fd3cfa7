"""A run's tables: their names, the columns that name a class (a row), and every column's
schema (`core.schema`): what `sim`, `tournament` and `odds` write, and what `report` and the
`table` bidder read.

No Numba here: reading finished tables must not load the kernels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .limits import MAX_POINTS
from .schema import Column, Schema, counts, rates, standard_errors

if TYPE_CHECKING:  # pandas and numpy are imported where a table is checked
    import pandas as pd

OUTPUT_TABLES = ("calls", "summary", "decisions", "auction", "forced")
# what `tournament` writes, after the players' standings `report` derives from them
TOURNAMENT_TABLES = ("players", "games", "hands")
# what simulate --tables names (calls: + summary); by default a run with a bidder writes the
# first three, and `forced` (round 2 after the round-1 caller's pass forced) only when asked
RUN_TABLES = ("calls", "decisions", "auction", "forced")
BIDDING_TABLES = RUN_TABLES[:3]
CALLS_KEYS = ["round", "seat", "alone", "hand_key"]  # a calls row's class
SUMMARY_KEYS = ["round", "seat", "alone", "trumps", "right", "left", "aces", "voids"]
DECISIONS_KEYS = ["round", "seat", "hand_key", "action", "suit", "alone"]
AUCTION_KEYS = ["round", "seat", "alone", "defended"]  # the contract; round 0: passed out
# core.seats' names of the seats and sides (that module loads Numba)
SEAT_LETTERS = tuple("NESW")
SIDES = ("NS", "EW")


def class_keys(table: str) -> list[str]:
    """The columns that name a class (a row) in output table `table`."""
    return list({"calls": CALLS_KEYS, "summary": SUMMARY_KEYS, "decisions": DECISIONS_KEYS,
                 "auction": AUCTION_KEYS, "forced": DECISIONS_KEYS}[table])


def result_names(top: int) -> list[str]:
    """The results' names in column order: us_1..us_top, them_1..them_top, none."""
    return ([f"us_{k}" for k in range(1, top + 1)] + [f"them_{k}" for k in range(1, top + 1)]
            + ["none"])


def share_names(top: int) -> list[str]:
    """The decision tables' columns of the results' shares (p_us_1 ... p_none)."""
    return [f"p_{name}" for name in result_names(top)]


def count_names(top: int) -> list[str]:
    """The atlas's columns of the results' counts (n_us_1 ... n_none)."""
    return [f"n_{name}" for name in result_names(top)]


_TURN = (Column("round", "int", 1, 2), Column("seat", "int", 1, 4))
HAND_TEXT_MOST = 64  # characters of a hand class's text (the longest made is under 30)
_HAND = (Column("hand", "str", high=HAND_TEXT_MOST), Column("hand_key", "int", 0))
_FEATURES = counts("trumps", "right", "left", "aces", "voids")
RATES = ("make_rate", "march_rate", "euchred_rate")
RATE_ERRORS = ("make_se", "march_se", "euchred_se")
# a class's results over its n deals (n >= 1: a row is a class that happened): its rates and
# their errors always there, the points' error empty for one deal (`core.stats`)
_RESULTS = (*rates(*RATES, missing=False), *standard_errors(*RATE_ERRORS, missing=False),
            Column("mean_points", "float"), *standard_errors("points_se"))
# an auction's contract's, whose passed-out row (round 0) has no rates (`sim.decisions`)
_CONTRACT_RESULTS = (*rates(*RATES, empty_only_where=("round", 0)),
                     *standard_errors(*RATE_ERRORS, empty_only_where=("round", 0)),
                     Column("mean_points", "float"), *standard_errors("points_se"))
_N = Column("n", "int", 1)  # deals of a row's class
_DECISIONS = (*_TURN, *_HAND, Column("action", "str", values=("pass", "order_up", "call")),
              Column("suit", "str", missing=True), Column("alone", "bool"), _N,
              *_FEATURES, *rates("chosen_rate", missing=False), Column("mean_points", "float"),
              *standard_errors("points_se"), Column("gain", "float", missing=True),
              *standard_errors("gain_se"),
              *rates(*share_names(MAX_POINTS), required=False))
_CONTRACT_SCHEMAS = {
    "calls": (*_TURN, Column("alone", "bool"), *_HAND, *counts("trumps"), _N, *_RESULTS),
    "summary": (*_TURN, Column("alone", "bool"), *_FEATURES, _N, *_RESULTS),
    "decisions": _DECISIONS,
    "forced": _DECISIONS,  # the same records at the forced turn
    "auction": (Column("round", "int", 0, 2), Column("seat", "int", 0, 4), Column("alone", "bool"),
                Column("defended", "bool"), *rates("share", missing=False), _N,
                *_CONTRACT_RESULTS),
}
_GAME = (*counts("game"), Column("copy", "int", 0, 1))
_DRINKS = tuple(Column(f"drinks_{seat.lower()}", "int", 0, required=False)
                for seat in SEAT_LETTERS)
_TOURNAMENT_SCHEMAS = {
    "games": (*_GAME, *(Column(f"{side}_player", "str", values=("A", "B"))
                        for side in ("ns", "ew")),
              *(Column(f"{side}_{what}", "str") for side in ("ns", "ew")
                for what in ("bidder", "play")),
              *counts("ns_start", "ew_start"), Column("first_dealer", "str", values=SEAT_LETTERS),
              *counts("hands", "ns_score", "ew_score"), Column("winner", "str", values=SIDES),
              Column("a_won", "bool"), *_DRINKS),
    "hands": (*_GAME, *counts("hand"), Column("dealer", "str", values=SEAT_LETTERS),
              *counts("ns_before", "ew_before"), Column("upcard", "str"),
              Column("action", "str", missing=True, values=("order_up", "call")),
              Column("trump", "str", missing=True),
              Column("maker", "str", missing=True, values=SEAT_LETTERS), Column("alone", "bool"),
              Column("defender", "str", missing=True, values=SEAT_LETTERS),
              Column("tricks", "int", 0, 5, missing=True), *counts("ns_points", "ew_points"),
              *_DRINKS),
}
_TOURNAMENT_KEYS = {"games": ["game", "copy"], "hands": ["game", "copy", "hand"]}


def table_schema(table: str) -> Schema:
    """The schema of a run's table `table` (an output table, or a tournament's games or
    hands), keyed by its class."""
    if table in _CONTRACT_SCHEMAS:
        return Schema(_CONTRACT_SCHEMAS[table], tuple(class_keys(table)))
    return Schema(_TOURNAMENT_SCHEMAS[table], tuple(_TOURNAMENT_KEYS[table]))


def calls_a_deal(table: str, round_no: int, rules: dict) -> int:
    """How many times one deal may add to one row of output table `table` at round
    `round_no` under `rules` (run.json's): a calls or summary row at round 2 once for each
    suit a seat may name (three; all four when Benny, the joker, was turned up; no-trump where
    the rules have it), every other row once (a seat's call in round 1, an action at a turn, a
    contract)."""
    if table not in ("calls", "summary") or round_no == 1:
        return 1
    return 3 + bool(rules.get("joker")) + bool(rules.get("no_trump"))


# the columns whose rows one deal adds to as one (`count_fault`): a seat's calls at (round,
# alone) in calls and summary; an action at a seat's turn in decisions and forced; the deal's
# one contract (or pass) in the auction: the whole table
_ONCE_A_DEAL = {"calls": ["round", "seat", "alone"], "summary": ["round", "seat", "alone"],
                "decisions": ["round", "seat", "action", "suit", "alone"],
                "forced": ["round", "seat", "action", "suit", "alone"], "auction": []}
COUNT_COLUMNS = ("n", "round", "seat", "alone", "action", "suit")  # what count_fault reads


def count_fault(table: str, frame: pd.DataFrame, deals: int, rules: dict) -> str | None:
    """What is wrong with the counts (n) of output table `table` of a run of `deals` deals
    under `rules` (run.json's), None where they are counts such a run can make: each row's n
    at most what the deals could add (`calls_a_deal` times the deals), and the rows one deal
    adds to as one (`_ONCE_A_DEAL`: a seat's calls at a round, an action at a turn, every
    contract) no more together. Checked as far as `frame` holds the columns, a slice of rows
    at a time (`core.schema.SLICE_ROWS`: its memory, whatever the table's size)."""
    import numpy as np
    import pandas as pd

    from .schema import SLICE_ROWS

    if "n" not in frame:
        return None
    keys = _ONCE_A_DEAL[table]
    grouped = set(keys) <= set(frame.columns)
    per_round = {r: deals * calls_a_deal(table, r, rules) for r in (0, 1, 2)}
    sums: list[pd.Series] = []
    for start in range(0, len(frame), SLICE_ROWS):
        part = frame.iloc[start:start + SLICE_ROWS]
        n = part["n"].to_numpy()
        # the most a row may count (every round's bound where the rounds are not read); as
        # floats, exact below 2^53 where every bound is: a count near 2^64 is no wrapped int
        most = part["round"].map(per_round).to_numpy() if "round" in part else \
            max(per_round.values())
        over = np.flatnonzero(n.astype(np.float64) > most)
        if len(over):
            return f"row {start + over[0]} counts {int(n[over[0]]):,} deals, more than " \
                f"the run's {deals:,} deals could make"
        if grouped:  # each n now at most 5 MAX_DEALS: the sums fit in int64
            counts = part["n"].astype(np.int64)
            sums.append(counts.groupby([part[k] for k in keys], dropna=False, observed=True)
                        .sum() if keys else pd.Series([counts.sum()]))
    if not sums:
        return None
    if not keys:
        total = int(sum(int(s.iloc[0]) for s in sums))
        return None if total <= deals else f"its rows count {total:,} deals together, " \
            f"more than the run's {deals:,} deals"
    totals = pd.concat(sums).groupby(level=list(range(len(keys))), dropna=False).sum()
    for at, count in totals.items():
        row = dict(zip(keys, at, strict=True))
        most = per_round[row["round"]]
        if count > most:
            where = ", ".join(f"{key} {value}" for key, value in row.items()
                              if not pd.isna(value))  # a pass names no suit
            return f"its rows at {where} count {count:,} deals together, more than the " \
                f"run's {deals:,} deals could make ({most:,})"
    return None
