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

`tools/make_atlas.py` builds the files (`advice.atlas_build`, from the two finished runs); this
module reads them.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources

import numpy as np

from ..bidding.decision_keys import (
    join_decision_keys,
    relative_suit,
    split_decision_keys,
    turn_class,
)
from ..core.calls import may_pass
from ..core.handclass import KeyReader
from ..core.package_data import shipped
from ..core.rules import RuleSet, preset
from ..core.ruletables import compile_rules
from ..core.schema import Column, Schema, file_schema, rates, read_table, standard_errors
from ..core.stats import Z95, points_interval95
from .question import PEOPLE, AdviceQuestion

ATLAS_PRESETS = ("standard", "online", "yooker")
ATLAS_FOLDER = "data"  # of the package (`core.package_data`)
LEVEL_FILES = {"class": "atlas", "pooled": "pooled"}  # levels, tried in order, and their files
# the atlas's columns: the decision key, then the action's figures over the class's deals (a
# pass has no make or march rate and no double-dummy points, a class of one deal no standard
# errors); the pooled level's spreads
ATLAS_SCHEMA = Schema((
    Column("key", "int", 0), Column("n", "int", 1), *rates("chosen_rate", missing=False),
    Column("mean_points", "float"), *standard_errors("points_se"), Column("gain", "float"),
    *standard_errors("gain_se"), *rates("make_rate", "march_rate"),
    Column("dd_mean_points", "float", missing=True), *standard_errors("dd_points_se"),
    *standard_errors("points_spread", "gain_spread", "dd_points_spread", required=False)),
    keys=("key",))
# the pooled level's standard errors widen by the spread of class means within a pool
SPREADS = {"points_se": ("mean_points", "points_spread"), "gain_se": ("gain", "gain_spread"),
           "dd_points_se": ("dd_mean_points", "dd_points_spread")}


def atlas_file(preset_name: str, kind: str = "atlas") -> str:
    """The package data file of a preset's atlas, or its chart's cells ('chart') or its odds
    of the game ('odds')."""
    return f"{kind}_{preset_name}.parquet"


def pooled_text(hand: str) -> str:
    """A class text (`core.handclass.KeyReader`) with the cards that seldom take a trick
    pooled as `x`: off-suit cards below the king (round 1: the next suit and the others, whose
    holdings then form an unordered set, keeping their jacks, a bower should the seat name
    that suit or its partner in round 2; round 2: the turned-down suit, which no call can
    name, keeping its bowers and Benny). The suits a call may name keep every card."""
    parts = hand.split()
    round_2 = any(p.startswith("down=") for p in parts)

    def low(holding: str, keep: str = "AK") -> str:
        return "".join(c if c in keep or c == "-" else "x" for c in holding)

    out = []
    for part in parts:
        name, _, holding = part.partition("=")
        if name == "T" and round_2:
            holding = low(holding, "AKRLB")
        elif name == "N" and not round_2:
            holding = low(holding)
        elif name == "O" and not round_2:
            holding = "/".join(sorted(low(g, "AKJ") for g in holding.split("/")))
        out.append(f"{name}={holding}")
    return " ".join(out)


def pool_hash(class_text: str) -> int:
    """The pooled level's stand-in for a class: a 56-bit hash of its `pooled_text`."""
    pooled = pooled_text(class_text).encode()
    return int.from_bytes(hashlib.blake2b(pooled, digest_size=7).digest(), "little")


def pooled_keys(class_keys: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The pooled-level key of each class-level key: the same turn and action, the class
    replaced by its `pool_hash`."""
    read = KeyReader(rules)
    parts = split_decision_keys(class_keys)
    hands, where = np.unique(parts["hand_key"], return_inverse=True)
    hashes = np.array([pool_hash(read(int(h))) for h in hands], dtype=np.uint64)
    return join_decision_keys(parts["round"], parts["seat"], parts["suit"], parts["alone"],
                              packed_features=hashes[where.ravel()])


class Atlas:
    """An atlas file: its provenance, and rows read by key (only the row groups that may
    hold them: the keys are sorted, so each group's key range is in the file's statistics)."""

    def __init__(self, path) -> None:
        self.path = str(path)
        schema = file_schema(self.path, "the atlas", ATLAS_SCHEMA)
        self.provenance = json.loads((schema.metadata or {}).get(b"euchre_sim", b"{}"))

    def rows(self, keys: list[int]) -> list[dict | None]:
        """Each key's row (None where the atlas has none), read through its schema."""
        table = self._read(keys)
        found = {int(row["key"]): {c: int(v) if c == "n" else float(v) for c, v in row.items()}
                 for row in table.to_dict("records")}
        return [found.get(key) for key in keys]

    def holds(self, keys: list[int]) -> bool:
        """Does the atlas have a row for every key? (Their keys alone read.)"""
        return set(keys) <= {int(k) for k in self._read(keys, ["key"])["key"]}

    def _read(self, keys: list[int], columns: list[str] | None = None):
        return read_table(self.path, "the atlas", ATLAS_SCHEMA, columns,
                          filters=[("key", "in", [np.uint64(k) for k in keys])])


def shipped_file(preset_name: str, kind: str):
    """The path of a preset's shipped data file (`atlas_file`), in a context, once it is
    found to be the file this version ships (None when the package has none)."""
    source = shipped(f"{ATLAS_FOLDER}/{atlas_file(preset_name, kind)}")
    return None if source is None else resources.as_file(source)


@lru_cache(maxsize=2 * len(ATLAS_PRESETS))
def shipped_atlas(preset_name: str, level: str = "class") -> Atlas | None:
    """The atlas shipped for a preset at a level (None when the package has none)."""
    found = shipped_file(preset_name, LEVEL_FILES[level])
    if found is None:
        return None
    with found as path:
        return Atlas(path)


def atlas_preset(rules: RuleSet) -> str | None:
    """The preset whose atlas answers under these rules: one whose rules they are as played
    (the drinking game's: standard's), unchanged otherwise; None when there is none."""
    return next((p for p in ATLAS_PRESETS if preset(p) == rules.as_played), None)


def atlas_for(question: AdviceQuestion) -> dict[str, Atlas] | None:
    """The shipped atlas's levels that may answer the question: a table of people (the human
    bidder's own parameters, the learned player), no score, deals not asked for, and the rules
    of a preset with an atlas, unchanged."""
    if (question.play, question.bidding) != (PEOPLE[1], PEOPLE[0]) or not question.atlas:
        return None
    if question.bidder_params or question.score is not None:
        return None
    name = atlas_preset(question.rules)
    if name is None:
        return None
    levels = {level: shipped_atlas(name, level) for level in LEVEL_FILES}
    return {level: found for level, found in levels.items() if found is not None} or None


def _question_keys(question: AdviceQuestion, wanted: list[tuple], level: str) -> list[int]:
    """The atlas keys of the question's actions at a level (as `atlas_build.level_keys`
    keys a run's decisions): (trump or None, alone)."""
    q, rules = question.cards, question.rules
    tb = compile_rules(rules)
    others = np.zeros(4, dtype=np.int64)
    class_key = turn_class(tb, np.uint64(q.hand), q.ref_card, q.round_no,
                           np.zeros(5, dtype=np.uint64), others)
    suits = np.array([-1 if trump is None else
                      relative_suit(tb, others, q.ref_card, q.round_no, trump)
                      for trump, _ in wanted], dtype=np.int64)
    columns = (np.full(len(wanted), q.round_no), np.full(len(wanted), q.position), suits,
               np.array([alone for _, alone in wanted]))
    keys = join_decision_keys(*columns, hand_key=np.full(len(wanted), class_key, np.uint64))
    if level == "pooled":
        keys = pooled_keys(keys, rules)
    return [int(k) for k in keys]


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


def _wanted(question: AdviceQuestion) -> list[tuple]:
    """The question's actions: (action, suit name, trump, alone), a pass first where the
    seat may pass."""
    from .advise import call_actions

    rules, q = question.rules, question.cards
    open_pass = may_pass(compile_rules(rules).flags, q.round_no, q.position)
    wanted = [("pass", None, None, False)] if open_pass else []
    return wanted + [(action, rules.card_deck.suit_name(trump), trump, alone)
                     for action, trump, alone, _ in call_actions(rules, q.round_no, q.position,
                                                                 q.ref_card)]


def _asked(question: AdviceQuestion):
    """Level by level of the shipped atlas that may answer the question, in order: (level,
    atlas, the question's actions (`_wanted`), their keys)."""
    levels = atlas_for(question)
    if levels is None:
        return
    wanted = _wanted(question)
    for level, atlas in levels.items():
        yield level, atlas, wanted, _question_keys(
            question, [(trump, alone) for _, _, trump, alone in wanted], level)


def atlas_answer(question: AdviceQuestion) -> dict | None:
    """The `advise --json` object of a question the shipped atlas covers, else None."""
    for level, atlas, wanted, keys in _asked(question):
        rows = atlas.rows(keys)
        if None not in rows:  # else the class (or its pool) was reached too rarely
            return _answer(question, atlas, level, wanted, rows)
    return None


def _answer(question: AdviceQuestion, atlas: Atlas, level: str, wanted: list[tuple],
            rows: list[dict]) -> dict:
    """The `advise --json` object of the atlas rows of the question's actions."""
    from .advise import describe_question

    actions = []
    for (action, suit, _, alone), row in zip(wanted, rows, strict=True):
        for se_name, (_, spread_name) in SPREADS.items():
            if spread_name in row and np.isfinite(row[spread_name]):
                row[se_name] = float(np.hypot(row[se_name], row[spread_name]))
        entry = {"action": action, "suit": suit, "alone": alone, "n": row["n"],
                 "chosen_rate": row["chosen_rate"], "mean_points": row["mean_points"],
                 "points_se": row["points_se"],
                 "ci95": points_interval95(row["mean_points"], row["points_se"], row["n"],
                                           question.rules.max_hand_points),
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
        "atlas": {"level": level, "deals": made.get("deals"), "seed": made.get("seed"),
                  "min_n": made.get("min_n"), "command": made.get("command")},
        "worlds": None, "best": _best(actions), "inference": None, "actions": actions,
        "after_pass": []}


def atlas_covers(question) -> bool:
    """Does the shipped atlas answer this question (a bid question it covers)? As
    `atlas_answer` decides, from the keys alone: no row read, no answer made."""
    return isinstance(question, AdviceQuestion) and any(
        atlas.holds(keys) for _, atlas, _, keys in _asked(question))
