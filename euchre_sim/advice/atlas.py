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
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..bidding.decision_keys import (
    join_decision_keys,
    relative_suit,
    split_decision_keys,
    turn_class,
)
from ..core.calls import may_pass
from ..core.errors import UserError
from ..core.handclass import KeyReader
from ..core.limits import MAX_POINTS
from ..core.package_data import damaged, manifest, shipped
from ..core.results import result_index, result_points
from ..core.rules import RuleSet, preset
from ..core.ruletables import compile_rules
from ..core.run_tables import count_names, share_names
from ..core.schema import (
    Column,
    Schema,
    file_schema,
    rates,
    read_keyed_rows,
    standard_errors,
)
from ..core.stats import bounded_figures
from ..game.odds import odds_array, odds_frame, result_wins
from ..play.player import people
from .atlas_index import open_index
from .possible_scores import action_scores
from .question import AdviceQuestion
from .separation import (
    chance_range,
    game_facts,
    label,
    margin,
    stated_best,
    summed_margin,
    we_deal_next,
)

ATLAS_PRESETS = ("standard", "online", "yooker")
ATLAS_FOLDER = "data"  # of the package (`core.package_data`)
# levels, tried in order, and their files; the pooled levels (`pooled_text`) widen by a spread
LEVEL_FILES = {"class": "atlas", "pooled": "pooled", "broad": "broad", "coarse": "coarse"}
POOLED_LEVELS = ("pooled", "broad", "coarse")
# the atlas's columns: the decision key, then the action's figures over the class's deals:
# how often it was chosen, its gain's standard error (paired with a pass on the same deals), its
# double-dummy points (a pass has none, a class of one deal no standard errors) and each
# result's count, from which its points, their standard error, its make and march rates and
# its gain over passing are read (`entry_figures`); the pooled level's spread ratios
ATLAS_SCHEMA = Schema((
    Column("key", "int", 0), Column("n", "int", 1), *rates("chosen_rate", missing=False),
    *standard_errors("gain_se"),
    Column("dd_mean_points", "float", missing=True), *standard_errors("dd_points_se"),
    *(Column(name, "float", 0, missing=True, required=False)
      for name in ("points_spread_ratio", "gain_spread_ratio", "dd_points_spread_ratio")),
    *(Column(name, "int", 0, required=False) for name in count_names(MAX_POINTS))),
    keys=("key",))
# the pooled level's standard errors widen by the spread of class means within a pool: the
# standard deviation of the pool's deals (`deals_sd`) times the ratio of its round, seat and
# action (`atlas_build.pool_spread`), one column for each standard error
SPREAD_RATIOS = {"points_se": "points_spread_ratio", "gain_se": "gain_spread_ratio",
                 "dd_points_se": "dd_points_spread_ratio"}
# every level's: a class's figure is the mean over its suit-swapped twins, which the learned
# player does not play quite alike, so a question's own hand strays from it by sqrt(c) times
# its deals' standard deviation (`widened_se`); c by round and kind of action (a key with a
# seat too overrides it at that seat: `twin_ratio`). Standard's and online's together (the
# same net and deck) measured by `studies/suit_twins.py` on 350 questions (seeds 6161 and
# 8181). Yooker's strayed more than its 200 twins (seed 9595) showed, and most at the
# dealer's calls in round 1: each chosen as the smallest c that brings its class-level
# actions to 95 % within on the four Yooker agreement draws (3,197 questions; seeds 9595,
# 9797, 6161, 9191), as the tail factors below are (docs/table-of-people.md, "Yooker's
# pools and a hand's suit twins"). Double dummy plays twins alike: its figures have no such
# spread.
_FRENCH_TWINS = {(1, "pass"): 1.9e-4, (1, "call"): 8.2e-5, (1, "alone"): 5.7e-4,
                 (2, "pass"): 1.8e-4, (2, "call"): 5.6e-5, (2, "alone"): 2.7e-4}
TWIN_RATIOS = {"standard": _FRENCH_TWINS, "online": _FRENCH_TWINS,
               "yooker": {(1, "pass"): 0.0, (1, "call"): 3.0e-4, (1, "alone"): 3.5e-4,
                          (1, "call", 4): 1.06e-3, (1, "alone", 4): 2.47e-3,
                          (2, "pass"): 7e-5, (2, "call"): 4.1e-4, (2, "alone"): 1.19e-3}}
# ... and the pooled levels' times its preset's and level's tail factor: the strays have
# longer tails than a normal law's, and 1.96 spreads can cover fewer than 95 % of them. Each
# factor is measured by the agreement study against fresh simulations, with the twins' spread
# above and the promoted cards' questions left to their class or a simulation
# (`pools_a_promoted_card`): the smallest (in steps of 0.05) that brings the level's actions
# to 95 %. Standard's chosen on 1,200 questions (seed 6161) and checked on 2,600 others
# (seeds 7171 and 9292); online (the same deals, the dealer stuck) shares them, checked on
# 2,600 of its own (seeds 8181 and 9393). Yooker's chosen on its four draws (3,197
# questions) and checked on 1,200 fresh ones (seed 4343).
STANDARD_TAILS = {"pooled": 0.9, "broad": 0.95, "coarse": 1.0}
SPREAD_TAILS = {"standard": STANDARD_TAILS, "online": STANDARD_TAILS,
                "yooker": {"pooled": 0.5, "coarse": 1.0}}


def atlas_file(preset_name: str, kind: str = "atlas") -> str:
    """The package data file of a preset's atlas, or its chart's cells ('chart') or its odds
    of the game ('odds')."""
    return f"{kind}_{preset_name}.parquet"


def _low(holding: str, keep: str) -> str:
    """A suit's holding with every card but those in `keep` written `x`."""
    return "".join(c if c in keep or c == "-" else "x" for c in holding)


# the ranks each level keeps where it pools a suit, by deck. A Yooker deck (ranks written as
# digits) has no bowers, Benny or next suit: its 6 and 5 play as a French deck's ace and king,
# and its 3 as a jack (the power card should the seat name that suit). Its broad level would
# be its pooled level (it keeps every card of a suit a call may name), so it has none.
#  pooled: round 1's next suit and other suits (those jacks a bower should the seat name that
#    suit or its partner in round 2), round 2's turned-down suit (no call can name it)
#  broad: round 2's suits a call may name: with the kings pooled too, the coarse level read
#    high for a hand without kings and low for one with two (the agreement study's records:
#    mean z +0.37 and -0.8 at seat 1 of round 2), so the broad level comes first
#  coarse: round 1's trumps (its other suits as at the pooled level); round 2's turned-down
#    suit and the suits a call may name
_KEPT = {"french": {"pooled": {"next": "AK", "other": "AKJ", "down": "AKRLB"},
                    "broad": {"named": "AKJ"},
                    "coarse": {"trumps": "RLBAK", "down": "ARLB", "named": "AJRLB"}},
         "yooker": {"pooled": {"other": "653", "down": "65"},
                    "broad": {},
                    "coarse": {"down": "65", "named": "653"}}}
_YOOKER_RANKS = set("123456")  # a Yooker class text's ranks (a French deck's: 7-9 and letters)
# a suit's plain ranks from the top, by deck: how the turned-down suit's cards take tricks (no
# call can name it; its jack, written R, is kept at every level as a bower-to-be)
_PLAIN_ORDER = {"french": "AKQT9", "yooker": "654321"}


def _rule(deck: str, level: str) -> dict:
    """The ranks a level keeps in each kind of suit (`_KEPT`): its own where it has a rule for
    that suit, else the pooled level's."""
    return _KEPT[deck]["pooled"] | _KEPT[deck][level]


def _deck(parts: list[str]) -> str:
    """'yooker' for a Yooker class text's parts (ranks written as digits), else 'french'."""
    return "yooker" if any(c in _YOOKER_RANKS for p in parts
                           if not p.startswith(("up=", "down=")) for c in p.partition("=")[2]) \
        else "french"


def pooled_text(hand: str, level: str = "pooled") -> str:
    """A class text (`core.handclass.KeyReader`) with the cards that seldom take a trick
    pooled as `x`, for a level of the atlas (the ranks kept: `_KEPT`, by deck).

    'pooled': off-suit cards below the king (round 1: the next suit and the others, whose
    holdings then form an unordered set, keeping their jacks, a bower should the seat name
    that suit or its partner in round 2; round 2: the turned-down suit, which no call can
    name, keeping its bowers and Benny). The suits a call may name keep every card.
    'broad': round 2 keeps only the aces, kings and jacks of the suits a call may name (their
    queens and below pooled, in the class key's order), the turned-down suit as at the pooled
    level; round 1 as the pooled level (so that level, needing as many deals, leaves the broad
    level no round-1 entry). A Yooker hand is pooled there as at the pooled level (a Yooker
    atlas's broad level is empty).
    'coarse': round 1 pools the trumps below the king too (bowers and Benny kept); round 2
    keeps only the aces and jacks of the suits a call may name (their kings and below pooled,
    in the class key's order) and the turned-down suit's ace, bowers and Benny.
    A Yooker hand (ranks written as digits) keeps its 6s and 5s where a French one keeps its
    aces and kings, and its 3 (the power card should that suit be trump) where a French one
    keeps a jack: round 1's other suits and, at the coarse level, round 2's suits a call may
    name."""
    parts = hand.split()
    round_2 = any(p.startswith("down=") for p in parts)
    rule = _rule(_deck(parts), level)
    out = []
    for part in parts:
        name, _, holding = part.partition("=")
        if round_2 and name in ("N", "O") and "named" in rule:
            holding = "/".join(_low(g, rule["named"]) for g in holding.split("/"))
        elif round_2 and name == "T":
            holding = _low(holding, rule["down"])
        elif not round_2 and name == "T" and "trumps" in rule:
            holding = _low(holding, rule["trumps"])
        elif not round_2 and name == "N":
            holding = _low(holding, rule["next"])
        elif not round_2 and name == "O":
            holding = "/".join(sorted(_low(g, rule["other"]) for g in holding.split("/")))
        out.append(f"{name}={holding}")
    return " ".join(out)


def pools_a_promoted_card(hand: str, level: str) -> bool:
    """Does a level pool a card the turned-down card promoted (round 2)? The turned-down
    card is out of play, so a card of its suit below it takes tricks as the rank above it: a
    queen under a turned-down ace or king plays as a king, a Yooker 4 under a turned-down 6 or
    5 as a 5. Where it plays as a rank the pooled level keeps and the level pools the card,
    the level's pool mixes the hand with truly low cards, and its deals are not the hand's
    (the build answered them at an earlier level): it reads the hand low (the agreement
    study's records: mean z -0.3 to -1.0, 76-92 % within). Such a question skips the level."""
    split = hand.split()
    parts = dict(part.partition("=")[::2] for part in split)
    deck = _deck(split)
    order, down = _PLAIN_ORDER[deck], parts.get("down", "")[:-1]
    if not down or down not in order:  # round 1, or a turned-down jack: nothing moves up
        return False
    top, kept = _rule(deck, "pooled")["down"], _rule(deck, level)["down"]
    return any(card not in kept and order.index(card) > order.index(down)
               and order[order.index(card) - 1] in top
               for card in parts.get("T", "") if card in order)


def pool_hash(class_text: str, level: str = "pooled") -> int:
    """A pooled level's stand-in for a class: a 56-bit hash of its `pooled_text` (the level
    in the hash too, so that a class and its pools never share a key)."""
    pooled = f"{level}:{pooled_text(class_text, level)}".encode() if level != "pooled" \
        else pooled_text(class_text).encode()
    return int.from_bytes(hashlib.blake2b(pooled, digest_size=7).digest(), "little")


def class_pools(class_keys: np.ndarray, rules: RuleSet, level: str = "pooled") -> np.ndarray:
    """Of each class-level key: its key at a pooled level (the same turn and action, the class
    replaced by its `pool_hash`). Each distinct class is read once."""
    read = KeyReader(rules)
    parts = split_decision_keys(class_keys)
    hands, where = np.unique(parts["hand_key"], return_inverse=True)
    hashes = np.array([pool_hash(read(int(h)), level) for h in hands], dtype=np.uint64)
    return join_decision_keys(parts["round"], parts["seat"], parts["suit"], parts["alone"],
                              packed_features=hashes[where.ravel()])


class Atlas:
    """An atlas file: its provenance, and rows read by key: from its index in the user's
    cache where it is a shipped file (`atlas_index`: `sha256`, the manifest's, given), else
    from the Parquet file (only the row groups that may hold them: the keys are sorted, so
    each group's key range is in the file's statistics)."""

    def __init__(self, path, sha256: str | None = None) -> None:
        self.path = str(path)
        self.index = None if sha256 is None else open_index(self.path, sha256, "the atlas",
                                                            ATLAS_SCHEMA)
        if self.index is not None:
            self.provenance, names = self.index.provenance, self.index.names
        else:
            schema = file_schema(self.path, "the atlas", ATLAS_SCHEMA)
            self.provenance = json.loads((schema.metadata or {}).get(b"euchre_sim", b"{}"))
            names = schema.names
        # the most points a hand scores: the last of the results' counts
        self.top = sum(name.startswith("n_us_") for name in names)
        if not self.top:
            raise UserError(f"cannot read the atlas {self.path!r}: it keeps no results' counts "
                            "(an atlas of an older version: rebuild it with tools/make_atlas.py)")

    def rows(self, keys: list[int]) -> list[dict | None]:
        """Each key's row (None where the atlas has none), read through its schema, with the
        figures its results give (`entry_figures`)."""
        found = {}
        for row in self._read(keys):
            row = {c: int(v) if c in ("key", "n") or c.startswith("n_") else float(v)
                   for c, v in row.items()}
            found[row["key"]] = entry_figures(row, self.top, self.path)
        return [found.get(key) for key in keys]

    def holds(self, keys: list[int]) -> bool:
        """Does the atlas have a row for every key? (Their keys alone read.)"""
        return set(keys) <= {row["key"] for row in self._read(keys, ["key"])}

    def _read(self, keys: list[int], columns: list[str] | None = None) -> list[dict]:
        if self.index is not None:
            try:
                return self.index.rows(keys, columns)
            except ValueError:  # a damaged block: the Parquet file serves from now on
                self.index = None
        return read_keyed_rows(self.path, "the atlas", ATLAS_SCHEMA, keys, columns)


def shipped_file(preset_name: str, kind: str) -> Path | None:
    """The path of a preset's shipped data file (`atlas_file`), once it is found to be the
    file this version ships (None when the package has none)."""
    return shipped(shipped_name(preset_name, kind))


def shipped_name(preset_name: str, kind: str) -> str:
    """A preset's data file's name under the package, as the manifest lists it."""
    return f"{ATLAS_FOLDER}/{atlas_file(preset_name, kind)}"


@lru_cache(maxsize=2 * len(ATLAS_PRESETS))
def shipped_atlas(preset_name: str, level: str = "class") -> Atlas | None:
    """The atlas shipped for a preset at a level (None when the package has none)."""
    found = shipped_file(preset_name, LEVEL_FILES[level])
    return None if found is None else Atlas(
        found, manifest()[shipped_name(preset_name, LEVEL_FILES[level])])


def atlas_preset(rules: RuleSet) -> str | None:
    """The preset whose atlas answers under these rules: one whose rules they are as played
    (the drinking game's: standard's), unchanged otherwise; None when there is none."""
    return next((p for p in ATLAS_PRESETS if preset(p) == rules.as_played), None)


def _people_preset(question: AdviceQuestion) -> str | None:
    """The preset whose shipped atlas and odds are the question's table: asked at a table of
    people (the human bidder's own parameters, the learned player) under the rules of a preset
    with an atlas, unchanged (`atlas_preset`); else None."""
    player, table = question.player, people()
    if (player.play, player.bidder, player.weights) != (table.play, table.bidder, table.weights):
        return None
    return atlas_preset(question.rules)


class ShippedLevels(Mapping):
    """A preset's shipped atlas, level by level in order, each level's file read (and its
    sha256 checked) only when it is first asked for: an answer often needs one."""

    def __init__(self, preset_name: str) -> None:
        listed = manifest()
        self.preset_name = preset_name
        self.levels = [level for level, kind in LEVEL_FILES.items()
                       if shipped_name(preset_name, kind) in listed]

    def __getitem__(self, level: str) -> Atlas:
        if level not in self.levels:
            raise KeyError(level)
        return shipped_atlas(self.preset_name, level)

    def __iter__(self):
        return iter(self.levels)

    def __len__(self) -> int:
        return len(self.levels)


def atlas_for(question: AdviceQuestion) -> Mapping[str, Atlas] | None:
    """The shipped atlas's levels that may answer the question (`ShippedLevels`): a table of
    people under the rules of a preset with an atlas (`_people_preset`), deals not asked for."""
    name = _people_preset(question) if question.atlas else None
    if name is None:
        return None
    return ShippedLevels(name) or None


@lru_cache(maxsize=len(ATLAS_PRESETS))
def shipped_odds(preset_name: str) -> np.ndarray | None:
    """p[us, them, we_deal] shipped beside a preset's atlas (`euchre-sim odds` under the
    same bidder and play); None when the package has none."""
    found = shipped_file(preset_name, "odds")
    return None if found is None else odds_array(odds_frame(str(found), "the atlas's odds"))


def table_odds(question: AdviceQuestion) -> np.ndarray | None:
    """The odds of the game a question at a score reads: p[us, them, we_deal] of its `odds`
    folder where it names one, else those shipped beside the atlas where the question is asked
    at its table (`_people_preset`: whether or not the atlas answers it, deals asked for or
    not), else None (to be solved from fresh deals)."""
    if question.odds is not None:
        return question.odds_table
    name = _people_preset(question)
    return None if name is None else shipped_odds(name)


def _level_keys(question: AdviceQuestion, wanted: list[tuple], levels):
    """Level by level, lazily: (level, the atlas keys of the question's actions there), as
    `atlas_build.level_keys` keys a run's decisions ((trump or None, alone) each); a pooled
    level whose pools would misread the hand (`pools_a_promoted_card`) is left out. The hand's
    class is found once, its text read once (at the first pooled level)."""
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
    text = None
    for level in levels:
        if level not in POOLED_LEVELS:
            keys = join_decision_keys(*columns,
                                      hand_key=np.full(len(wanted), class_key, np.uint64))
        else:
            text = text or KeyReader(rules)(int(class_key))
            if pools_a_promoted_card(text, level):
                continue
            keys = join_decision_keys(*columns, packed_features=np.full(
                len(wanted), pool_hash(text, level), np.uint64))  # as `class_pools` keys
        yield level, [int(k) for k in keys]


def _points_margin(actions: list[dict], ranges: list[tuple[int, int]]) -> dict | None:
    """The margin in points of the top action over the runner-up (`separation.margin`):
    paired where one of them is the pass (the atlas keeps each call's gain over passing, on
    the same deals); between two calls the smaller of the sums of their errors and of their
    gains' errors (no paired error is larger)."""
    if len(actions) < 2:
        return None
    a, b = sorted(range(len(actions)), key=lambda i: -actions[i]["mean_points"])[:2]
    top, second = actions[a], actions[b]
    lead = top["mean_points"] - second["mean_points"]
    between = (ranges[a][0] - ranges[b][1], ranges[a][1] - ranges[b][0])
    if "pass" in (top["action"], second["action"]):
        call = second if top["action"] == "pass" else top
        return margin(label(top), label(second), lead, call["gain_se"], top["n"], between,
                      paired=True)
    se = top["points_se"] + second["points_se"]
    if top["gain_se"] is not None:
        se = min(se, top["gain_se"] + second["gain_se"])
    return margin(label(top), label(second), lead, se, top["n"], between, paired=False)


def _wanted(question: AdviceQuestion) -> list[tuple]:
    """The question's actions: (action, suit name, trump, alone), a pass first where the
    seat may pass."""
    from .question import call_actions

    rules, q = question.rules, question.cards
    open_pass = may_pass(compile_rules(rules).flags, q.round_no, q.position)
    wanted = [("pass", None, None, False)] if open_pass else []
    return wanted + [(action, rules.card_deck.suit_name(trump), trump, alone)
                     for action, trump, alone, _ in call_actions(rules, q.round_no, q.position,
                                                                 q.ref_card)]


def _asked(question: AdviceQuestion):
    """Level by level of the shipped atlas that may answer the question, in order: (level,
    atlas, the question's actions (`_wanted`), their keys), each level's file opened as it is
    reached; a level whose pools would misread the hand is left out (`_level_keys`)."""
    levels = atlas_for(question)
    if levels is None:
        return
    wanted = _wanted(question)
    for level, keys in _level_keys(question, [(trump, alone) for _, _, trump, alone in wanted],
                                   levels):
        yield level, levels[level], wanted, keys


def atlas_answer(question: AdviceQuestion) -> dict | None:
    """The `advise --json` object of a question the shipped atlas covers, else None."""
    for level, atlas, wanted, keys in _asked(question):
        rows = atlas.rows(keys)
        if None not in rows:  # else the class (or its pool) was reached too rarely
            return _answer(question, atlas, level, wanted, rows)
    return None


def _answer(question: AdviceQuestion, atlas: Atlas, level: str, wanted: list[tuple],
            rows: list[dict]) -> dict:
    """The `advise --json` object of the atlas rows of the question's actions: each figure's
    standard error widened (`widened_se`), its 95 % interval within what the action can score
    (`possible_scores`, `core.stats.bounded_figures`) and the error stated beside it."""
    from .question import describe_question

    actions, ranges = [], []
    name = atlas_preset(question.rules)
    tail = SPREAD_TAILS[name].get(level, 1.0)
    q = question.cards
    gains_over_passing(rows, wanted)
    for (action, suit, _, alone), row in zip(wanted, rows, strict=True):
        if action != "pass":
            row |= result_rates(row, question.rules, alone)
        row["twin"] = twin_ratio(name, q.round_no, q.position, action_kind(action, alone))
        row["pooled"] = tail * row.get("points_spread_ratio", np.nan)
        for se_name, ratio_name in SPREAD_RATIOS.items():
            row[se_name] = widened_se(row[se_name], row["n"], tail * row.get(ratio_name, np.nan),
                                      0.0 if se_name == "dd_points_se" else row["twin"],
                                      question.rules.max_hand_points)
        scores = action_scores(question.rules, q.round_no, q.position, q.ref_card, action,
                               alone)
        points_se, ci95 = bounded_figures(row["mean_points"], row["points_se"], row["n"],
                                          *scores)
        entry = {"action": action, "suit": suit, "alone": alone, "n": row["n"],
                 "chosen_rate": row["chosen_rate"], "mean_points": row["mean_points"],
                 "points_se": points_se, "ci95": ci95,
                 "gain": row["gain"], "gain_se": row["gain_se"]}
        if action == "pass":
            entry |= {"make_rate": None, "march_rate": None, "euchred_rate": None}
        else:
            if not np.isfinite(row["dd_mean_points"]):  # only a pass may have none
                call = f"{action.replace('_', ' ')} {suit}" + (" alone" if alone else "")
                raise damaged(atlas.path, f"its {call} holds no double-dummy mean points (NaN)")
            dd_se, dd_ci95 = bounded_figures(row["dd_mean_points"], row["dd_points_se"],
                                             row["n"], *scores)
            entry |= {"make_rate": row["make_rate"], "march_rate": row["march_rate"],
                      "euchred_rate": 1 - row["make_rate"],
                      "dd_mean_points": row["dd_mean_points"], "dd_points_se": dd_se,
                      "dd_ci95": dd_ci95}
        actions.append(entry)
        ranges.append(scores)
    points = _points_margin(actions, ranges)
    game = _game_figures(question, actions, rows, points) if question.score is not None \
        else {}
    order = sorted(range(len(actions)), key=lambda i: -actions[i]["mean_points"])
    n = actions[0]["n"]
    made = atlas.provenance
    return describe_question(question) | game | {
        "deals": n, "tried": None, "reached": None, "bidding": question.bidding,
        "play": question.play, "source": "atlas",
        "atlas": {"level": level, "deals": made.get("deals"), "seed": made.get("seed"),
                  "min_n": _level_min_n(made.get("min_n"), level),
                  "command": made.get("command")},
        "worlds": None, "best": stated_best(points), "margin": points, "inference": None,
        "actions": [actions[i] for i in order], "after_pass": []}


def action_kind(action: str, alone: bool) -> str:
    """An action's kind, as `TWIN_RATIOS` keys it: pass, call or alone (a lone call)."""
    return "pass" if action == "pass" else "alone" if alone else "call"


def twin_ratio(preset_name: str, round_no: int, seat: int, kind: str) -> float:
    """The suit twins' spread ratio c of an action (`TWIN_RATIOS`): its seat's where the
    preset keeps one, else its round's and kind's."""
    ratios = TWIN_RATIOS[preset_name]
    return ratios.get((round_no, kind, seat), ratios[round_no, kind])


def widened_se(se: float | None, n: int, pooled: float, twin: float,
               bound: float) -> float | None:
    """An entry's standard error widened by the spreads of what it stands for: its pool's
    classes (`pooled` times its deals' sd, `deals_sd`; NaN at the class level) and a hand's
    suit-swapped twins (`twin`, `TWIN_RATIOS`, times its deals' variance as they scored: an
    entry of n deals counts as at most 1 / twin deals of the question's own hand)."""
    if se is None:
        return None
    spread = pooled * deals_sd(se, n, bound) if np.isfinite(pooled) else 0.0
    return float(np.sqrt(se ** 2 * (1 + twin * n) + spread ** 2))


def deals_sd(se: float, n: int, bound: float) -> float:
    """The standard deviation of an entry's n deals, read from its mean's standard error; at
    least what one deal in n scoring `bound` away from the others would give (deals that all
    scored alike have not shown that none can differ: a hopeless call's pool still has
    classes that make now and then)."""
    return max(se * np.sqrt(n), bound * np.sqrt(n - 1) / n)


def _level_min_n(min_n, level: str):
    """The fewest deals the answering level's entries have (an atlas of one figure for every
    level keeps a number)."""
    return min_n.get(level) if isinstance(min_n, dict) else min_n


def _shares(row: dict, top: int) -> np.ndarray:
    """An entry's shares of results in `share_names(top)` order."""
    return np.array([row[name] for name in share_names(top)], dtype=np.float64)


def entry_figures(row: dict, top: int, path: str) -> dict:
    """An atlas row with what its results' counts give: each result's share, the mean points
    and their standard error over the entry's n deals (each result scores a known number of
    points). Counts that do not add up to n are a damaged file, never answered."""
    counts = np.array([row[name] for name in count_names(top)], dtype=np.float64)
    if counts.sum() != row["n"]:
        raise UserError(f"the atlas {path!r}: the results of key {row['key']} add up to "
                        f"{int(counts.sum())}, not its n ({row['n']})")
    n = row["n"]
    shares = counts / n
    points = np.array([result_points.py_func(k, top) for k in range(len(counts))],
                      dtype=np.float64)
    mean = float(shares @ points)
    spread = max(float(shares @ points ** 2) - mean ** 2, 0.0)
    return row | dict(zip(share_names(top), shares.tolist(), strict=True)) | {
        "mean_points": mean,
        "points_se": float(np.sqrt(spread / (n - 1))) if n > 1 else float("nan")}


def result_rates(row: dict, rules: RuleSet, alone: bool) -> dict:
    """A call's make and march rates, the shares of its results made and marched."""
    shares = _shares(row, rules.max_hand_points)
    march = rules.lone_march_points if alone else rules.march_points
    return {"make_rate": float(shares[:rules.max_hand_points].sum()),
            "march_rate": float(shares[march - 1])}


def gains_over_passing(rows: list[dict], wanted: list[tuple]) -> None:
    """Each row's gain over passing, paired on the same deals (an entry's actions were all
    valued on its deals): its mean points less the pass's; None where the seat may not pass,
    its standard error with it."""
    passed = next((row for (action, *_), row in zip(wanted, rows, strict=True)
                   if action == "pass"), None)
    for row in rows:
        if passed is None:
            row["gain"] = row["gain_se"] = None
        else:
            row["gain"] = row["mean_points"] - passed["mean_points"]


def _game_figures(question: AdviceQuestion, actions: list[dict], rows: list[dict],
                  points: dict | None) -> dict:
    """At a score, each action's chance of winning the game (p_win) from its entry's shares
    of results, each result weighted by the chance of winning after it (`table_odds`), as a
    simulation's answer has them: its standard error the spread over the entry's deals of
    their chances (a multinomial's), widened as its points are (`widened_se`, by the same
    ratios), its 95 % interval within 0..1 (`core.stats.bounded_figures`) and the error
    stated beside it; and the margin for the game (`separation.game_facts`: the atlas keeps
    no deal's results, so its error is the sum of the two actions')."""
    rules, (us, them) = question.rules, question.score
    top = rules.max_hand_points
    wins = np.zeros(len(share_names(top)))
    result_wins(table_odds(question), us, them, we_deal_next(question), top, wins)

    def chances_of(scores: np.ndarray) -> np.ndarray:
        return wins[[result_index.py_func(int(p), top) for p in scores]]

    ranges = []
    for action, row in zip(actions, rows, strict=True):
        shares = _shares(row, top)
        p_win = float(shares @ wins)
        spread = max(float(shares @ wins ** 2) - p_win ** 2, 0.0)
        se = widened_se(float(np.sqrt(spread / row["n"])), row["n"], row["pooled"],
                        row["twin"], 1.0)
        ranges.append(chance_range(question, chances_of, action))
        action["p_win"] = p_win
        action["p_win_se"], action["p_win_ci95"] = bounded_figures(p_win, se, row["n"],
                                                                   *ranges[-1])
    game = summed_margin(actions, "p_win", "p_win_se", actions[0]["n"], ranges)
    return game_facts(question.score, points, game)


def atlas_covers(question) -> bool:
    """Does the shipped atlas answer this question (a bid question it covers)? As
    `atlas_answer` decides, from the keys alone: no row read, no answer made."""
    return isinstance(question, AdviceQuestion) and any(
        atlas.holds(keys) for _, atlas, _, keys in _asked(question))
