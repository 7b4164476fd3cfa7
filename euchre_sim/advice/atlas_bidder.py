"""The table bidder reading the shipped realistic atlas: each class's calls valued against a
table of people (the atlas is the decisions table of a `simulate --bidding human --play
learned` run), so it bids as the best response to people, class by class; where the atlas
lacks the hand's class the rules bidder decides (`bidding.table`)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..bidding.table import DecisionTable
from ..core.errors import UserError
from ..core.results import result_points
from ..core.rules import RuleSet
from ..core.run_tables import count_names
from ..core.schema import read_table
from ..play.player import Player
from .atlas import ATLAS_PRESETS, ATLAS_SCHEMA, atlas_preset, shipped_file

_CODE_BITS = np.uint64(15 << 57)  # a decision key's action code (`decision_keys.decision_key`)


@lru_cache(maxsize=len(ATLAS_PRESETS))
def atlas_table(preset_name: str) -> DecisionTable:
    """The class-level atlas of a preset as the table bidder reads a decisions table: each
    entry's mean points and results' shares from its counts, its gain over the pass of the
    same turn and class (NaN where the seat may not pass); no feature level."""
    found = shipped_file(preset_name, "atlas")
    if found is None:
        raise UserError(f"no realistic atlas shipped for {preset_name!r}")
    frame = read_table(str(found), "the atlas", ATLAS_SCHEMA)
    top = sum(name.startswith("n_us_") for name in frame.columns)
    counts = frame[count_names(top)].to_numpy(np.float64)
    n = frame["n"].to_numpy(np.int64)
    shares = counts / n[:, None]
    points = np.array([result_points.py_func(k, top) for k in range(counts.shape[1])])
    mean = shares @ points
    keys = frame["key"].to_numpy().astype(np.uint64)
    order = np.argsort(keys)
    keys, mean, n, shares = keys[order], mean[order], n[order], shares[order]
    passes = keys & ~_CODE_BITS
    at = np.minimum(np.searchsorted(keys, passes), len(keys) - 1)
    gain = np.where(keys[at] == passes, mean - mean[at], np.nan)
    none = (np.zeros(0, np.uint64), np.zeros(0), np.zeros(0), np.zeros(0, np.int64),
            np.zeros((0, shares.shape[1])))
    return DecisionTable(keys, gain, mean, n, shares, *none)


def atlas_bidder(rules: RuleSet, play: str) -> Player:
    """A player bidding by the atlas's table under `rules` (one of `ATLAS_PRESETS`' rules as
    they are: `atlas.atlas_preset`) and playing by `play`."""
    return Player("table", play, table=atlas_table(atlas_preset(rules)))
