"""Instant answers at a table of people: a realistic decisions atlas shipped with the package.

The atlas of a preset is the decisions table (`sim.decisions`) of one `simulate --bidding human
--play learned --tables decisions` run, with each call's double-dummy points from the same
deals bid the same way (`--play dd`, the same seed: the human bidder's auction does not depend
on the play, so both runs reach the same decisions), kept for the hand classes the run reached
at least `min_n` times. A question maps to its entry by its decision key (`bidding.decision_keys`):
the turn, the action and the hand's class read against the upcard or the turned-down card. A
class holds every hand that plays alike (suit-swapped twins), so its entry is the same
expectation a fresh simulation of the hand estimates; a class reached fewer times is not in
the atlas and the question is simulated.

`tools/make_atlas.py` builds the file (`build_atlas` from the two finished runs).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..bidding.decision_keys import (
    PASS_CODE,
    SUIT_LABELS,
    action_code,
    decision_key,
    join_decision_keys,
    relative_suit,
    turn_class,
)
from ..core.calls import may_pass
from ..core.files import read_parquet
from ..core.rules import PRESETS, RuleSet, preset
from ..core.ruletables import compile_rules
from ..core.stats import Z95, interval95
from .question import PEOPLE, AdviceQuestion

ATLAS_PRESETS = ("standard", "online")
ATLAS_PACKAGE = "euchre_sim.data"
MIN_N = 100  # a class reached fewer times is simulated instead
# the atlas's columns: the decision key, then each action's figures over the class's deals
ATLAS_COLUMNS = ["key", "n", "chosen_rate", "mean_points", "points_se", "gain", "gain_se",
                 "make_rate", "march_rate", "dd_mean_points", "dd_points_se"]
_FLOAT = ATLAS_COLUMNS[2:]


def atlas_file(preset_name: str) -> str:
    return f"atlas_{preset_name}.parquet"


def _keys(frame: pd.DataFrame) -> np.ndarray:
    """Decision keys of decisions-table rows."""
    suit = frame["suit"].map(lambda s: -1 if pd.isna(s) else SUIT_LABELS.index(s))
    return join_decision_keys(frame["round"].to_numpy(), frame["seat"].to_numpy(),
                              suit.to_numpy(np.int64), frame["alone"].to_numpy(),
                              frame["hand_key"].to_numpy())


def build_atlas(learned: pd.DataFrame, exact: pd.DataFrame, rules: RuleSet,
                min_n: int = MIN_N) -> pd.DataFrame:
    """The atlas rows (ATLAS_COLUMNS, sorted by key) of a learned-play decisions table and the
    double-dummy one of the same deals: classes reached at least `min_n` times."""
    top = rules.max_hand_points
    us = [f"p_us_{k}" for k in range(1, top + 1)]
    frame = learned.assign(key=_keys(learned))
    exact = pd.DataFrame({"key": _keys(exact), "dd_mean_points": exact["mean_points"],
                          "dd_points_se": exact["points_se"], "dd_n": exact["n"]})
    frame = frame[frame["n"] >= min_n].merge(exact, on="key", how="left")
    if not (frame["dd_n"] == frame["n"]).all():
        raise ValueError("the double-dummy run did not reach the same decisions")
    calls = frame["action"] != "pass"
    march = np.where(frame["alone"], rules.lone_march_points, rules.march_points)
    shares = frame[us].to_numpy()
    frame["make_rate"] = np.where(calls, shares.sum(axis=1), np.nan)
    frame["march_rate"] = np.where(calls, shares[np.arange(len(frame)), march - 1], np.nan)
    frame.loc[~calls, ["dd_mean_points", "dd_points_se"]] = np.nan
    out = frame[ATLAS_COLUMNS].sort_values("key", ignore_index=True)
    return out.astype({"key": np.uint64, "n": np.uint32} | {c: np.float32 for c in _FLOAT})


def write_atlas(rows: pd.DataFrame, path: str, provenance: dict) -> None:
    """The atlas as Parquet, its provenance in the file's metadata (key b'euchre_sim')."""
    table = pa.Table.from_pandas(rows, preserve_index=False)
    table = table.replace_schema_metadata({b"euchre_sim": json.dumps(provenance).encode()})
    pq.write_table(table, path, compression="zstd", compression_level=19)


class Atlas:
    """A read atlas: sorted keys and their rows, with the provenance of the runs."""

    def __init__(self, path) -> None:
        frame = read_parquet(str(path), "the atlas", ATLAS_COLUMNS)
        self.keys = frame["key"].to_numpy(np.uint64)
        self.rows = {c: frame[c].to_numpy() for c in ATLAS_COLUMNS[1:]}
        meta = pq.read_schema(str(path)).metadata or {}
        self.provenance = json.loads(meta.get(b"euchre_sim", b"{}"))

    def row(self, key: int) -> dict | None:
        at = int(np.searchsorted(self.keys, np.uint64(key)))
        if at == len(self.keys) or self.keys[at] != np.uint64(key):
            return None
        return {c: self.rows[c][at].item() for c in ATLAS_COLUMNS[1:]}


@lru_cache(maxsize=len(ATLAS_PRESETS))
def shipped_atlas(preset_name: str) -> Atlas | None:
    """The atlas shipped for a preset (None when the package has none)."""
    try:
        source = resources.files(ATLAS_PACKAGE) / atlas_file(preset_name)
    except ModuleNotFoundError:  # a package built without any atlas
        return None
    if not source.is_file():
        return None
    with resources.as_file(source) as path:
        return Atlas(path)


def atlas_for(question: AdviceQuestion) -> Atlas | None:
    """The shipped atlas that answers the question: a table of people (the human bidder's own
    parameters, the learned player), no score, deals not asked for, and the rules of a preset
    with an atlas, unchanged."""
    if (question.play, question.bidding) != (PEOPLE[1], PEOPLE[0]) or not question.atlas:
        return None
    if question.bidder_params or question.score is not None:
        return None
    name = next((p for p in ATLAS_PRESETS if p in PRESETS and preset(p) == question.rules),
                None)
    return shipped_atlas(name) if name else None


def _action_key(tb, class_key, others, q, trump, alone) -> int:
    if trump is None:
        code = PASS_CODE
    else:
        code = action_code(relative_suit(tb, others, q.ref_card, q.round_no, trump), alone)
    return int(decision_key(q.round_no, q.position, code, np.uint64(class_key)))


def _best(actions: list[dict]) -> dict | None:
    """The top action when its lead over the runner-up is significant at 95 %: paired against
    a pass (the atlas keeps each call's gain over passing), unpaired between two calls."""
    if len(actions) < 2:
        return None
    top, second = actions[0], actions[1]
    if second["action"] == "pass":
        lead, se = top["gain"], top["gain_se"]
    elif top["action"] == "pass":
        lead, se = -second["gain"], second["gain_se"]
    else:
        lead = top["mean_points"] - second["mean_points"]
        se = float(np.hypot(top["points_se"], second["points_se"]))
    if not lead - Z95 * se > 0:
        return None
    return {"action": top["action"], "suit": top["suit"], "alone": top["alone"], "lead": lead,
            "lead_se": se}


def atlas_answer(question: AdviceQuestion) -> dict | None:
    """The `advise --json` object of a question the shipped atlas covers, else None."""
    from .advise import call_actions, describe_question

    atlas = atlas_for(question)
    if atlas is None:
        return None
    rules, q = question.rules, question.cards
    tb = compile_rules(rules)
    others = np.zeros(4, dtype=np.int64)
    class_key = turn_class(tb, np.uint64(q.hand), q.ref_card, q.round_no,
                           np.zeros(5, dtype=np.uint64), others)
    wanted = [("pass", None, None, False)] if may_pass(tb.flags, q.round_no, q.position) else []
    wanted += [(action, rules.card_deck.suit_name(trump), trump, alone)
               for action, trump, alone, _ in call_actions(rules, q.round_no, q.position,
                                                           q.ref_card)]
    actions = []
    for action, suit, trump, alone in wanted:
        row = atlas.row(_action_key(tb, class_key, others, q, trump, alone))
        if row is None:
            return None  # a class reached too rarely (or an action never open there)
        entry = {"action": action, "suit": suit, "alone": alone, "n": row["n"],
                 "chosen_rate": row["chosen_rate"], "mean_points": row["mean_points"],
                 "points_se": row["points_se"],
                 "ci95": interval95(row["mean_points"], row["points_se"]),
                 "gain": row["gain"], "gain_se": row["gain_se"]}
        if action == "pass":
            entry |= {"make_rate": None, "march_rate": None, "euchred_rate": None}
        else:
            entry |= {"make_rate": row["make_rate"], "march_rate": row["march_rate"],
                      "euchred_rate": 1 - row["make_rate"],
                      "dd_mean_points": row["dd_mean_points"],
                      "dd_points_se": row["dd_points_se"]}
        actions.append(entry)
    actions.sort(key=lambda a: -a["mean_points"])
    n = actions[0]["n"]
    made = atlas.provenance
    return describe_question(question) | {
        "deals": n, "tried": None, "reached": None, "bidding": question.bidding,
        "play": question.play, "source": "atlas",
        "atlas": {"deals": made.get("deals"), "seed": made.get("seed"), "min_n": made.get("min_n"),
                  "command": made.get("command")},
        "worlds": None, "best": _best(actions), "inference": None, "actions": actions,
        "after_pass": []}


def atlas_covers(question) -> bool:
    """Does the shipped atlas answer this question (a bid question it covers)?"""
    return isinstance(question, AdviceQuestion) and atlas_answer(question) is not None
