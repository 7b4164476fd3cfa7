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

import hashlib
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
from ..core.run_tables import share_names
from ..core.schema import Column, Schema, file_schema, rates, read_table, standard_errors
from ..core.stats import Z95, points_interval95
from ..play.player import people
from .question import AdviceQuestion

ATLAS_PRESETS = ("standard", "online", "yooker")
ATLAS_FOLDER = "data"  # of the package (`core.package_data`)
MIN_N = 100  # a class (or its pool) reached fewer times is not in the atlas
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
ATLAS_COLUMNS = [column.name for column in ATLAS_SCHEMA.columns if column.required]
# kept to 3 significant digits (float16: standard errors and rates), the means to 7 (float32)
HALF = ["chosen_rate", "points_se", "gain_se", "make_rate", "march_rate", "dd_points_se"]
_FLOAT = [c for c in ATLAS_COLUMNS[2:] if c not in HALF]
# the pooled level's standard errors widen by the spread of class means within a pool
SPREADS = {"points_se": ("mean_points", "points_spread"), "gain_se": ("gain", "gain_spread"),
           "dd_points_se": ("dd_mean_points", "dd_points_spread")}
_TOP_BITS = ~np.uint64((1 << 57) - 1)  # round, seat and action of a key: the rest is the hand


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


def pooled_keys(class_keys: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The pooled-level key of each class-level key (`level_keys`)."""
    read = KeyReader(rules)
    hands, where = np.unique(split_decision_keys(class_keys)["hand_key"], return_inverse=True)
    hashes = np.array([_hash56(pooled_text(read(int(h)))) for h in hands], dtype=np.uint64)
    return (class_keys & _TOP_BITS) | hashes[where.ravel()]


def _hash56(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=7).digest(), "little")


def _suit_index(frame: pd.DataFrame) -> np.ndarray:
    return frame["suit"].map(lambda s: -1 if pd.isna(s) else SUIT_LABELS.index(s)).to_numpy(
        np.int64)


def level_keys(frame: pd.DataFrame, level: str) -> np.ndarray:
    """Atlas keys of decisions-table rows: the decision key ('class'), or the same with the
    class replaced by a 56-bit hash of its `pooled_text` ('pooled')."""
    columns = (frame["round"].to_numpy(), frame["seat"].to_numpy(), _suit_index(frame),
               frame["alone"].to_numpy())
    if level == "class":
        return join_decision_keys(*columns, hand_key=frame["hand_key"].to_numpy())
    hashes = {h: _hash56(pooled_text(h)) for h in frame["hand"].unique()}
    return join_decision_keys(*columns, packed_features=frame["hand"].map(hashes).to_numpy(
        np.uint64))


def _sums(frame: pd.DataFrame, keys: np.ndarray, shares: list[str]) -> pd.DataFrame:
    """Per key: n, chosen, and the sums and sums of squares of points and gain, rebuilt from
    the rows' means and standard errors, and the results' counts."""
    n = frame["n"].to_numpy(np.float64)

    def squares(mean: str, se: str) -> np.ndarray:
        var = np.nan_to_num(frame[se].to_numpy(np.float64)) ** 2 * n
        return (n - 1) * var + n * frame[mean].to_numpy(np.float64) ** 2

    out = pd.DataFrame({"key": keys, "n": n, "chosen": frame["chosen_rate"] * n,
                        "points": frame["mean_points"] * n,
                        "points_sq": squares("mean_points", "points_se"),
                        "gain": frame["gain"].fillna(0) * n,
                        "gain_sq": squares("gain", "gain_se")}
                       | {c: frame[c] * n for c in shares})
    return out.groupby("key", sort=True).sum()


def _mean_se(total: pd.Series, squares: pd.Series, n: pd.Series) -> tuple:
    var = ((squares - total ** 2 / n) / (n - 1)).clip(lower=0).where(n > 1)
    return total / n, np.sqrt(var / n)


def build_atlas(learned: pd.DataFrame, exact: pd.DataFrame, rules: RuleSet,
                min_n: int = MIN_N, level: str = "class") -> pd.DataFrame:
    """The atlas rows (ATLAS_COLUMNS, sorted by key) of a learned-play decisions table and the
    double-dummy one of the same deals at a level (`level_keys`): the keys reached at least
    `min_n` times."""
    top = rules.max_hand_points
    shares = share_names(top)
    sums = _sums(learned, level_keys(learned, level), shares)
    sums = sums[sums["n"] >= min_n]
    dd = _sums(exact, level_keys(exact, level), shares).reindex(sums.index)
    if not (dd["n"] == sums["n"]).all():
        raise ValueError("the double-dummy run did not reach the same decisions")
    n = sums["n"]
    out = pd.DataFrame({"key": sums.index.to_numpy(np.uint64), "n": n.to_numpy()})
    out["chosen_rate"] = (sums["chosen"] / n).to_numpy()
    for name, total, sq in (("points", "points", "points_sq"), ("gain", "gain", "gain_sq")):
        mean, se = _mean_se(sums[total], sums[sq], n)
        out["mean_points" if name == "points" else "gain"] = mean.to_numpy()
        out["points_se" if name == "points" else "gain_se"] = se.to_numpy()
    calls = (out["key"].to_numpy(np.uint64) >> np.uint64(57)) & np.uint64(15) != PASS_CODE
    alone = ((out["key"].to_numpy(np.uint64) >> np.uint64(57)) & np.uint64(15)) % 2 == 0
    us = sums[shares[:top]].to_numpy()
    march = np.where(alone, rules.lone_march_points, rules.march_points)
    out["make_rate"] = np.where(calls, us.sum(axis=1) / n.to_numpy(), np.nan)
    out["march_rate"] = np.where(calls, us[np.arange(len(out)), march - 1] / n.to_numpy(),
                                 np.nan)
    dd_mean, dd_se = _mean_se(dd["points"], dd["points_sq"], dd["n"])
    out["dd_mean_points"] = np.where(calls, dd_mean.to_numpy(), np.nan)
    out["dd_points_se"] = np.where(calls, dd_se.to_numpy(), np.nan)
    return out.astype({"key": np.uint64, "n": np.uint32} | {c: np.float32 for c in _FLOAT}
                      | {c: np.float16 for c in HALF})


def _between_class_variance(n: np.ndarray, total: np.ndarray, squares: np.ndarray,
                            pool: np.ndarray) -> float:
    """tau^2, the variance of class means about their pool's mean beyond chance, one for all
    the pools given: the one-way random-effects analysis of variance of the deals (classes
    within pools, unbalanced) with each pool's chance spread read from the variance s^2 of
    its own deals (pools differ in variance far more than the classes of one pool do):
    (sum SSB - sum (k - 1) s^2) / sum (N - sum n^2 / N) over the pools of two or more
    classes; 0 when no more than chance, NaN when no pool holds two classes."""
    frame = pd.DataFrame({"pool": pool, "n": n, "t": total, "q": squares,
                          "tt_n": total ** 2 / n, "nn": n ** 2})
    sums = frame.groupby("pool").agg(k=("n", "size"), n=("n", "sum"), t=("t", "sum"),
                                     q=("q", "sum"), tt_n=("tt_n", "sum"), nn=("nn", "sum"))
    sums = sums[sums["k"] >= 2]
    if sums.empty:
        return float("nan")
    variance = (sums["q"] - sums["t"] ** 2 / sums["n"]) / (sums["n"] - 1)
    between = sums["tt_n"] - sums["t"] ** 2 / sums["n"]
    spread_df = float((sums["n"] - sums["nn"] / sums["n"]).sum())
    chance = float(((sums["k"] - 1) * variance).sum())
    return max(0.0, (float(between.sum()) - chance) / spread_df)


def _round_and_action(keys: np.ndarray) -> np.ndarray:
    """The round and action bits of atlas keys (the seat's left out)."""
    return (keys >> np.uint64(57)) & np.uint64(0b100_1111)


def pool_spread(pooled: pd.DataFrame, learned: pd.DataFrame, exact: pd.DataFrame,
                rules: RuleSet) -> pd.DataFrame:
    """The pooled level's rows with the spread of each figure among the classes of a pool
    (`SPREADS`), from the decisions tables of a learned-play run and its double-dummy twin
    (every class they reached): a question reaches the pooled level because its own class
    was reached too rarely, and its class's expectation differs from the pool's by about that
    much. One variance per round and action, every seat together (`_between_class_variance`);
    an answer's standard error is hypot(se, spread)."""
    out = pooled[ATLAS_COLUMNS].copy()
    shares = share_names(rules.max_hand_points)
    figures = {"points_se": ("points", "points_sq"), "gain_se": ("gain", "gain_sq")}
    sums = {}
    for table, frame in (("learned", learned), ("exact", exact)):
        found = _sums(frame, level_keys(frame, "class"), shares)
        keys = found.index.to_numpy(np.uint64)
        sums[table] = found, _round_and_action(keys), pooled_keys(keys, rules)
    out_group = _round_and_action(out["key"].to_numpy(np.uint64))
    for se_name, (mean_name, spread_name) in SPREADS.items():
        table, group, pool = sums["exact" if se_name == "dd_points_se" else "learned"]
        total, squares = figures.get(se_name, figures["points_se"])
        spread = np.full(len(out), np.nan)
        for g in np.unique(out_group):
            mine = (group == g) & np.isfinite(table[squares].to_numpy())
            if mine.any():
                tau2 = _between_class_variance(*(table[c].to_numpy(np.float64)[mine]
                                                 for c in ("n", total, squares)), pool[mine])
                spread[out_group == g] = np.sqrt(tau2)
        out[spread_name] = np.where(out[mean_name].notna(), spread, np.nan).astype(np.float16)
    return out


ROW_GROUP = 16_384  # rows of an atlas file read at once: a lookup reads the groups it needs


class Atlas:
    """An atlas file: its provenance, and rows read by key (only the row groups that may
    hold them: the keys are sorted, so each group's key range is in the file's statistics)."""

    def __init__(self, path) -> None:
        self.path = str(path)
        schema = file_schema(self.path, "the atlas", ATLAS_SCHEMA)
        self.provenance = json.loads((schema.metadata or {}).get(b"euchre_sim", b"{}"))

    def rows(self, keys: list[int]) -> list[dict | None]:
        """Each key's row (None where the atlas has none), read through its schema."""
        table = read_table(self.path, "the atlas", ATLAS_SCHEMA,
                           filters=[("key", "in", [np.uint64(k) for k in keys])])
        found = {int(row["key"]): {c: int(v) if c == "n" else float(v) for c, v in row.items()}
                 for row in table.to_dict("records")}
        return [found.get(key) for key in keys]


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


def write_table(frame: pd.DataFrame, path: str, provenance: dict) -> None:
    """A package data table as Parquet (row groups of ROW_GROUP rows), its provenance in the
    file's metadata."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({b"euchre_sim": json.dumps(provenance).encode()})
    keyed = {"use_dictionary": False, "column_encoding": {"key": "DELTA_BINARY_PACKED"}} \
        if "key" in frame.columns else {}  # sorted keys: small steps
    pq.write_table(table, path, compression="zstd", compression_level=19,
                   row_group_size=ROW_GROUP, **keyed)


def atlas_preset(rules: RuleSet) -> str | None:
    """The preset whose atlas answers under these rules: one whose rules they are as played
    (the drinking game's: standard's), unchanged otherwise; None when there is none."""
    return next((p for p in ATLAS_PRESETS if preset(p) == rules.as_played), None)


def atlas_for(question: AdviceQuestion) -> dict[str, Atlas] | None:
    """The shipped atlas's levels that may answer the question: a table of people (the human
    bidder's own parameters, the learned player), no score, deals not asked for, and the rules
    of a preset with an atlas, unchanged."""
    player, table = question.player, people()
    if (player.play, player.bidder, player.weights) != (table.play, table.bidder, table.weights):
        return None
    if not question.atlas or question.score is not None:
        return None
    name = atlas_preset(question.rules)
    if name is None:
        return None
    levels = {level: shipped_atlas(name, level) for level in LEVEL_FILES}
    return {level: found for level, found in levels.items() if found is not None} or None


def _question_keys(question: AdviceQuestion, wanted: list[tuple], level: str) -> list[int]:
    """The atlas keys (`level_keys`) of the question's actions: (trump or None, alone)."""
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


def atlas_answer(question: AdviceQuestion) -> dict | None:
    """The `advise --json` object of a question the shipped atlas covers, else None."""
    from .advise import call_actions

    levels = atlas_for(question)
    if levels is None:
        return None
    rules, q = question.rules, question.cards
    open_pass = may_pass(compile_rules(rules).flags, q.round_no, q.position)
    wanted = [("pass", None, None, False)] if open_pass else []
    wanted += [(action, rules.card_deck.suit_name(trump), trump, alone)
               for action, trump, alone, _ in call_actions(rules, q.round_no, q.position,
                                                           q.ref_card)]
    for level, atlas in levels.items():
        keys = _question_keys(question, [(trump, alone) for _, _, trump, alone in wanted],
                              level)
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
    """Does the shipped atlas answer this question (a bid question it covers)?"""
    return isinstance(question, AdviceQuestion) and atlas_answer(question) is not None
