"""A run's tables: their names, the columns that name a class (a row), and every column's
schema (`core.schema`): what `sim`, `tournament` and `odds` write, and what `report` and the
`table` bidder read.

No Numba here: reading finished tables must not load the kernels.
"""

from .limits import MAX_POINTS
from .schema import Column, Schema, counts, rates, standard_errors

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
_HAND = (Column("hand", "str"), Column("hand_key", "int", 0))
_FEATURES = counts("trumps", "right", "left", "aces", "voids")
_RESULTS = (*rates("make_rate", "march_rate", "euchred_rate"),
            *standard_errors("make_se", "march_se", "euchred_se"), Column("mean_points", "float"),
            *standard_errors("points_se"))
_DECISIONS = (*_TURN, *_HAND, Column("action", "str", values=("pass", "order_up", "call")),
              Column("suit", "str", missing=True), Column("alone", "bool"), *counts("n"),
              *_FEATURES, *rates("chosen_rate", missing=False), Column("mean_points", "float"),
              *standard_errors("points_se"), Column("gain", "float", missing=True),
              *standard_errors("gain_se"),
              *rates(*share_names(MAX_POINTS), required=False))
_CONTRACT_SCHEMAS = {
    "calls": (*_TURN, Column("alone", "bool"), *_HAND, *counts("trumps", "n"), *_RESULTS),
    "summary": (*_TURN, Column("alone", "bool"), *_FEATURES, *counts("n"), *_RESULTS),
    "decisions": _DECISIONS,
    "forced": _DECISIONS,  # the same records at the forced turn
    "auction": (Column("round", "int", 0, 2), Column("seat", "int", 0, 4), Column("alone", "bool"),
                Column("defended", "bool"), *rates("share", missing=False), *counts("n"),
                *_RESULTS),
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
