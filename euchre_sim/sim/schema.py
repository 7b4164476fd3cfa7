"""The output tables' names and class columns: what `sim` writes and `report` reads.

No Numba here: reading finished tables must not load the kernels.
"""

OUTPUT_TABLES = ("calls", "summary", "decisions", "auction")
# what `tournament` writes, after the players' standings `report` derives from them
TOURNAMENT_TABLES = ("players", "games", "hands")
RUN_TABLES = ("calls", "decisions", "auction")  # what simulate --tables names (calls: + summary)
CALLS_KEYS = ["round", "seat", "alone", "hand_key"]  # a calls row's class
SUMMARY_KEYS = ["round", "seat", "alone", "trumps", "right", "left", "aces", "voids"]
DECISIONS_KEYS = ["round", "seat", "hand_key", "action", "suit", "alone"]
AUCTION_KEYS = ["round", "seat", "alone", "defended"]  # the contract; round 0: passed out


def class_keys(table: str) -> list[str]:
    """The columns that name a class (a row) in output table `table`."""
    return list({"calls": CALLS_KEYS, "summary": SUMMARY_KEYS, "decisions": DECISIONS_KEYS,
                 "auction": AUCTION_KEYS}[table])
