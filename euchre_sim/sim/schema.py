"""The output tables' names and class columns: what `sim` writes and `report` reads.

No Numba here: reading finished tables must not load the kernels.
"""

OUTPUT_TABLES = ("calls", "summary")
CALLS_KEYS = ["round", "seat", "alone", "hand_key"]  # a calls row's class
SUMMARY_KEYS = ["round", "seat", "alone", "trumps", "right", "left", "aces", "voids"]


def class_keys(table: str) -> list[str]:
    """The columns that name a class (a row) in output table `table`."""
    return list(CALLS_KEYS if table == "calls" else SUMMARY_KEYS)
