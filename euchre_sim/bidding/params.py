"""Bidder names and the conventional bidder's weights and thresholds: one data table.

No Numba nor numpy at import here (the CLI reads the names at start-up). The `human` bidder is
the rules bidder with the numbers of `human.json` (fitted to an online site's published call
shares by `tools/fit_human_bidder.py`; the file names its source and the fit).
`--bidder-params FILE` (JSON, a subset of the keys below) changes any of them; `bidder_params`
returns the array the kernels read, in the order of `PARAMS`.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING

from ..core.errors import UserError, shown
from ..core.files import read_json

if TYPE_CHECKING:  # numpy is imported where the kernels' array is made, not at start-up
    import numpy as np

BIDDERS = ("dd", "rules", "human", "table")
BIDDER_DD, BIDDER_RULES, BIDDER_TABLE, BIDDER_GAME = range(4)  # the kernels' bidders
GAME_BIDDERS = (*BIDDERS, "game")  # a game's players: the game bidder needs a score
SELF_PLAY_BIDDERS = (*BIDDERS, "random")  # play --ns/--ew: also uniformly random bids
ALL_BIDDERS = (*BIDDERS, "game", "random")  # every bidder a player may have
KERNEL_BIDDER = {"dd": BIDDER_DD, "rules": BIDDER_RULES, "human": BIDDER_RULES,
                 "table": BIDDER_TABLE, "game": BIDDER_GAME}
# the bidders that bid from their own hand and have weights (the table bidder falls back on the
# rules bidder's)
CONVENTIONAL = ("rules", "human", "table")
MAX_PARAMS_BYTES = 64 * 1024  # a bidder's file: a few dozen numbers
HUMAN_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "human.json")
DESCRIPTIONS = {
    "dd": "perfect-information auction: each seat takes the action best for its side, "
          "seeing every hand and the auction's continuation",
    "rules": "conventional bidder: a point count of the hand against seat thresholds",
    "human": "the conventional bidder with thresholds fitted so that each seat makes trump as "
             "often as people did at an online site's tables",
    "table": "bids from a decisions table: the call with the best gain over passing in the "
             "hand's class, where the class has enough deals (else the rules bidder)",
    "game": "the table bidder playing for the game: the action (passing included) with the "
            "best chance of winning the game from the score, by the table's result shares and "
            "an odds table",
}

# (key, default, meaning). Trump ranks count from the top of the trump suit in the rule set:
# right bower, left bower, ace ... (Benny first when in play; Yooker: the power 3 first).
PARAMS: list[tuple[str, float, str]] = [
    ("trump_1", 3.0, "the highest trump"),
    ("trump_2", 2.5, "the second trump"),
    ("trump_3", 2.0, "the third trump"),
    ("trump_4", 1.5, "the fourth trump"),
    ("trump_low", 1.0, "any lower trump"),
    ("off_ace", 1.0, "the top card (ace) of a plain suit"),
    ("off_king", 0.3, "the second card (king) of a plain suit"),
    ("void", 0.5, "each plain suit void, when holding a trump"),
    ("upcard_partner", 0.5, "round 1, the dealer's partner: this share of the upcard's trump "
                            "value is added (the dealer takes it)"),
    ("upcard_opponent", 0.5, "round 1, the dealer's opponents: this share of the upcard's trump "
                             "value is subtracted"),
    ("nt_ace", 2.0, "no-trump: each ace"),
    ("nt_king", 0.8, "no-trump: each king"),
    ("nt_joker", 2.5, "no-trump: Benny"),
    ("call_1_1", 6.0, "round 1, dealer's left: points to order up"),
    ("call_1_2", 5.5, "round 1, dealer's partner: points to order up"),
    ("call_1_3", 6.0, "round 1, dealer's right: points to order up"),
    ("call_1_4", 5.5, "round 1, dealer (counting the upcard, less the worst card): to take it"),
    ("call_2_1", 5.5, "round 2, dealer's left: points to name the best suit"),
    ("call_2_2", 5.5, "round 2, dealer's partner: points to name the best suit"),
    ("call_2_3", 5.5, "round 2, dealer's right: points to name the best suit"),
    ("call_2_4", 5.0, "round 2, dealer: points to name the best suit"),
    ("alone", 9.0, "points to go alone (any round and seat)"),
    ("defend_alone", 9.0, "points of a defender's hand for the trump named to defend alone "
                          "(defend_alone rules)"),
    ("nt_call", 6.5, "no-trump points to call no-trump"),
    ("nt_alone", 10.0, "no-trump points to call no-trump alone"),
    ("table_min_n", 30.0, "table bidder: deals a class's call needs before its gain is trusted"),
]
INDEX = {key: i for i, (key, _, _) in enumerate(PARAMS)}


def bidder_id(name: str) -> int:
    """The kernels' bidder for a bidder's name (`human` is the rules bidder's kernel)."""
    return KERNEL_BIDDER[name]


def _finite(value: int | float) -> bool:
    """Whether a JSON number is a finite float: NaN, Infinity (which Python's JSON reads) and
    an integer past every float are not."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _change(values: np.ndarray, given, path: str) -> None:
    """values[key] = number for each key of the JSON object `given` (read from `path`)."""
    if not isinstance(given, dict):
        raise UserError(f"bidder parameters {path!r} must be a JSON object of key: number")
    for key, value in given.items():
        if key not in INDEX:
            raise UserError(f"unknown bidder parameter {key!r} in {path!r} (see README: the "
                            "rules bidder)")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UserError(f"bidder parameter {key!r} must be a number, got {shown(value)}")
        if not _finite(value):
            raise UserError(f"bidder parameter {key!r} in {path!r} must be a finite number, "
                            f"got {shown(value)}")
        values[INDEX[key]] = float(value)


def human_fit(path: str | None = None) -> dict:
    """The human bidder's file (default HUMAN_FILE): {"source", "published_shares_percent",
    "fit", "params"}."""
    return read_json(path or HUMAN_FILE, "the human bidder's parameters", MAX_PARAMS_BYTES)


def bidder_weights(path: str | None = None, bidding: str | None = None) -> tuple:
    """`bidder_params` as a tuple of floats (what run plans and manifests keep)."""
    return tuple(float(x) for x in bidder_params(path, bidding))


def params_by_name(values) -> dict:
    """{key: value} of weights in PARAMS order."""
    return {key: value for (key, _, _), value in zip(PARAMS, values, strict=True)}


def bidder_params(path: str | None = None, bidding: str | None = None) -> np.ndarray:
    """The weights and thresholds (float64, in PARAMS order) of a bidder: the defaults (the
    fitted ones for `human`), changed by a JSON file of {key: number}."""
    import numpy as np

    values = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
    if bidding == "human":
        _change(values, human_fit().get("params"), HUMAN_FILE)
    if path is not None:
        _change(values, read_json(path, "bidder parameters", MAX_PARAMS_BYTES), path)
    return values
