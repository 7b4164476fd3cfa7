"""The realistic atlas (`advice.atlas`, built by `advice.atlas_build`): built from a
learned-play decisions table and the double-dummy one of the same deals, looked up by a hand's
class, and answered as `advise` answers. Checked against the runs it came from, read here by
the class text."""

import hashlib
from importlib import resources

import numpy as np
import pandas as pd
import pytest

from euchre_sim.advice import atlas as atlas_module
from euchre_sim.advice import atlas_build as atlas_build_module
from euchre_sim.advice.atlas import (
    ATLAS_PRESETS,
    LEVEL_FILES,
    Atlas,
    atlas_answer,
    pooled_text,
    shipped_atlas,
)
from euchre_sim.advice.atlas_build import (
    build_atlas,
    build_levels,
    level_keys,
    run_sums,
    write_table,
)
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.bidding.decision_keys import turn_class
from euchre_sim.core.dealing import deal_one
from euchre_sim.core.handclass import KeyReader
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.core.seats import seat_at
from euchre_sim.core.stats import bounded_interval95
from euchre_sim.play.player import Player

from .helpers import run_cli

RULES = build_rules("standard")
SEED, DEALS = 6, 2000
# the levels each preset's shipped atlas has (a Yooker atlas's broad level is empty)
SHIPPED_LEVELS = {"standard": ("class", "pooled", "broad", "coarse"),
                  "online": ("class", "pooled", "broad", "coarse"),
                  "yooker": ("class", "pooled", "coarse")}


POOL_MIN_N = 3  # the tiny atlas's pools: classes reached once or twice pooled
# each preset's tail factors by level (docs/table-of-people.md, "Tail factors")
TAIL_FACTORS = {"standard": {"pooled": 0.9, "broad": 0.95, "coarse": 1.0},
                "online": {"pooled": 0.9, "broad": 0.95, "coarse": 1.0},
                "yooker": {"pooled": 0.5, "coarse": 1.0}}
MADE_UP_RATIOS = {"points_spread_ratio": 0.25, "gain_spread_ratio": 0.125,
                  "dd_points_spread_ratio": 0.375}


@pytest.fixture
def raw_errors(monkeypatch):
    """An answer's standard errors as widened, before they are stated beside their intervals
    (`core.stats.bounded_figures`, tested in test_stats and below): the widening alone."""
    def raw(mean, se, n, low, high):
        return se, bounded_interval95(mean, se, n, low, high)

    monkeypatch.setattr(atlas_module, "bounded_figures", raw)


@pytest.fixture(scope="module")
def tiny_atlas(tmp_path_factory):
    """An atlas of every class (min_n 1) from 2,000 deals, learned and double dummy; its
    pooled and coarse levels those of an atlas of min_n POOL_MIN_N (a pool needs classes no
    level before answers)."""
    root = tmp_path_factory.mktemp("atlas")
    for play in ("learned", "dd"):
        run_cli(["simulate", "--deals", str(DEALS), "--seed", str(SEED), "--bidding", "human",
                 "--play", play, "--tables", "decisions", "--out", str(root / play),
                 "--no-progress", "--workers", "1"])
    learned = pd.read_parquet(root / "learned" / "decisions.parquet")
    exact = pd.read_parquet(root / "dd" / "decisions.parquet")
    levels = {}
    for min_n in (1, POOL_MIN_N):
        for level, rows in build_levels(learned, exact, RULES, min_n=min_n).items():
            if (level == "class") == (min_n == 1):
                write_table(rows, str(root / f"{level}.parquet"),
                            {"deals": DEALS, "seed": SEED, "min_n": min_n})
                levels[level] = Atlas(root / f"{level}.parquet")
    return levels, learned, exact


@pytest.fixture
def no_twin_spread(monkeypatch):
    """Answers without the suit twins' spread (`atlas.TWIN_RATIOS` all 0), for the tests of
    what else makes an answer."""
    monkeypatch.setattr(atlas_module, "TWIN_RATIOS", {
        name: dict.fromkeys(ratios, 0.0) for name, ratios in atlas_module.TWIN_RATIOS.items()})


def _unanswered(table: pd.DataFrame, level: str, min_n: int = POOL_MIN_N) -> pd.DataFrame:
    """The rows of a run's decisions table that reach `level` of an atlas of `min_n`, by
    hand: their class and action reached fewer than min_n times, then their pooled text (of
    each pooled level before `level`, in turn) and action, over the rows the levels before
    leave."""
    left = table
    for earlier in list(LEVEL_FILES)[:list(LEVEL_FILES).index(level)]:
        action = [left["round"], left["seat"], left["action"], left["suit"].fillna("-"),
                  left["alone"]]
        text = left["hand_key"] if earlier == "class" else left["hand"].map(
            lambda hand, earlier=earlier: pooled_text(hand, earlier))
        left = left[left.groupby([*action, text])["n"].transform("sum") < min_n]
    return left


def _class_text(hand: int, upcard: int) -> str:
    key = turn_class(compile_rules(RULES), np.uint64(hand), upcard, 1, np.zeros(5, np.uint64),
                     np.zeros(4, np.int64))
    return KeyReader(RULES)(int(key))


def test_an_eldest_hand_of_the_run_is_answered_with_its_class_rows(tiny_atlas, monkeypatch):
    atlas, learned, exact = tiny_atlas
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"class": atlas["class"]})
    deck = RULES.card_deck
    for index in range(5):  # the eldest hand (position 1) is always reached in round 1
        hands, upcard = deal_one(RULES, SEED, index, 0)
        hand = hands[seat_at(0, 1)]
        question = AdviceQuestion(RULES, deck.format_hand(hand), 1, up=deck.card_name(upcard))
        answer = atlas_answer(question)
        assert answer["source"] == "atlas" and answer["bidding"] == "human"
        assert answer["atlas"]["level"] == "class"
        text = _class_text(hand, upcard)
        mine = learned[(learned["round"] == 1) & (learned["seat"] == 1)
                       & (learned["hand"] == text)]
        dd = exact[(exact["round"] == 1) & (exact["seat"] == 1) & (exact["hand"] == text)]
        assert len(answer["actions"]) == len(mine) == 3
        for action in answer["actions"]:
            want = mine[(mine["action"] == action["action"]) & (mine["alone"] == action["alone"])]
            assert len(want) == 1
            assert action["n"] == int(want["n"].iloc[0]) == answer["deals"]
            for column in ("mean_points", "chosen_rate", "gain"):
                assert action[column] == pytest.approx(want[column].iloc[0], abs=1e-6)
            if action["action"] != "pass":
                shares = want[["p_us_1", "p_us_2", "p_us_4"]].iloc[0]
                assert action["make_rate"] == pytest.approx(shares.sum(), abs=1e-6)
                march = shares["p_us_4" if action["alone"] else "p_us_2"]
                assert action["march_rate"] == pytest.approx(march, abs=1e-6)
                same = dd[(dd["action"] == action["action"]) & (dd["alone"] == action["alone"])]
                assert action["dd_mean_points"] == pytest.approx(same["mean_points"].iloc[0],
                                                                 abs=1e-6)


def test_atlas_covers_says_what_atlas_answer_finds_from_the_keys_alone(tiny_atlas,
                                                                        monkeypatch):
    """The page's estimate asks `atlas_covers` whether the answer comes from the atlas: the
    same yes or no as `atlas_answer`, on hands of the atlas's run and of another seed, with
    no row read."""
    levels, _, _ = tiny_atlas
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"class": levels["class"]})
    deck = RULES.card_deck
    questions = []
    for seed in (SEED, SEED + 1):
        for index in range(10):
            hands, upcard = deal_one(RULES, seed, index, 0)
            questions.append(AdviceQuestion(RULES, deck.format_hand(hands[seat_at(0, 1)]), 1,
                                            up=deck.card_name(upcard)))
    answered = [atlas_answer(question) is not None for question in questions]
    assert any(answered) and not all(answered)
    monkeypatch.setattr(Atlas, "rows", lambda self, keys: pytest.fail("a row was read"))
    assert [atlas_module.atlas_covers(question) for question in questions] == answered


def test_pooled_text_pools_the_cards_that_seldom_take_a_trick():
    """By hand, from the rule: off-suit cards below the king become x (round 1: the next suit
    and the others, these sorted as a set, keeping their jacks); round 2 pools only the
    turned-down suit, keeping its ace, king, bowers and Benny. A Yooker hand (no bowers, no
    next suit) keeps its 6s and 5s where a French one keeps aces and kings, and in round 1's
    other suits its 3s (the power card should the seat name that suit) where a French one keeps
    jacks."""
    assert pooled_text("T=RA N=KQ O=Q/A9 up=9") == "T=RA N=Kx O=Ax/x up=9"
    assert pooled_text("T=RA N=- O=T9/- up=K") == "T=RA N=- O=-/xx up=K"
    assert pooled_text("T=R N=Q9 O=AQ/J9 up=A") == "T=R N=xx O=Ax/Jx up=A"  # jacks kept
    assert pooled_text("T=LAQ9 N=K9 O=QT/T down=9t") == "T=LAxx N=K9 O=QT/T down=9t"
    assert pooled_text("T=64 O=632/41/- up=5") == "T=64 O=-/63x/xx up=5"
    assert pooled_text("T=6421 O=53/-/- down=5t") == "T=6xxx O=53/-/- down=5t"


def test_the_broad_level_pools_the_queens_and_below_of_what_a_round_2_call_may_name():
    """By hand, from the rule: round 2 keeps the aces, kings and jacks of the suits a call may
    name (in the key's order), the turned-down suit as the pooled level pools it; round 1 and
    a Yooker hand as the pooled level."""
    assert pooled_text("T=LAQ9 N=K9 O=QT/J down=9t", "broad") == "T=LAxx N=Kx O=xx/J down=9t"
    assert pooled_text("T=- N=AKQJ O=KQ/AT9 down=Rt", "broad") == "T=- N=AKxJ O=Kx/Axx down=Rt"
    for hand in ("T=RA N=KQ O=Q/A9 up=9", "T=62 O=531/64/- down=4t"):
        assert pooled_text(hand, "broad") == pooled_text(hand)
    assert atlas_module.pool_hash("T=RA N=K O=A/x down=9t", "broad") != atlas_module.pool_hash(
        "T=RA N=K O=A/x down=9t")


def test_the_coarse_level_pools_more_of_what_a_round_2_call_may_name():
    """By hand, from the rule: round 1 pools the trumps below the king too (bowers kept);
    round 2 keeps the aces and jacks of the suits a call may name (in the key's order) and the
    turned-down suit's ace and bowers. A Yooker hand keeps its 6s and 5s, and in a suit a call
    may name its 3 (its power card should it be trump)."""
    assert pooled_text("T=RAQ9 N=KQ O=Q/A9 up=T", "coarse") == "T=RAxx N=Kx O=Ax/x up=T"
    assert pooled_text("T=LAQ9 N=K9 O=QT/J down=9t", "coarse") == "T=LAxx N=xx O=xx/J down=9t"
    assert pooled_text("T=- N=AKJ O=KQ/AT down=Rt", "coarse") == "T=- N=AxJ O=xx/Ax down=Rt"
    assert pooled_text("T=62 O=531/64/- down=4t", "coarse") == "T=6x O=53x/6x/- down=4t"
    assert pooled_text("T=62 O=531/64/- up=4", "coarse") == pooled_text("T=62 O=531/64/- up=4")
    assert atlas_module.pool_hash("T=RA N=K O=A/x up=9", "coarse") != atlas_module.pool_hash(
        "T=RA N=K O=A/x up=9")


def test_a_card_the_turned_down_card_promoted_is_one_the_pools_would_misread():
    """By hand, from the rules (the turned-down card is out of play, so a card of its suit
    below it takes tricks as the rank above it): a queen under a turned-down ace or king plays
    as a king, which the pooled level keeps, and every level pools the queen; a king under a
    turned-down ace plays as the ace, and only the coarse level pools the king. Yooker: a 4
    under a turned-down 6 or 5 plays as the 5 (6 high; the down suit is never the power shape,
    so its 3 is a plain 3). Round 1 has no card out of play."""
    promoted = atlas_module.pools_a_promoted_card
    for down in ("A", "K"):
        for level in ("pooled", "broad", "coarse"):
            assert promoted(f"T=Q9 N=- O=KJ/A down={down}t", level)
        assert not promoted(f"T=T9 N=- O=KJ/A down={down}t", "pooled")  # a ten plays as a J
    assert not promoted("T=Q9 N=- O=KJ/A down=Tt", "pooled")  # the ace and king still out
    assert not promoted("T=Q9 N=- O=KJ/A down=Rt", "pooled")  # the jack: no rank above moves
    assert promoted("T=K9 N=- O=QJ/A down=At", "coarse")
    assert not promoted("T=K9 N=- O=QJ/A down=At", "pooled")  # the king kept there
    assert not promoted("T=K9 N=- O=QJ/A down=9t", "coarse")  # nothing above the king moved
    for down in ("6", "5"):
        for level in ("pooled", "coarse"):
            assert promoted(f"T=41 O=2/63/- down={down}t", level)
    assert not promoted("T=31 O=2/64/- down=6t", "pooled")  # a 3 plays as a 4
    assert not promoted("T=41 O=2/63/- down=3t", "pooled")
    assert not promoted("T=Q9 N=- O=KJ/A up=A", "pooled")


@pytest.mark.parametrize(("preset_name", "low", "promoted", "seat", "down"), [
    ("standard", "TS 9S AD KH JH", "QS 9S AD KH JH", 1, "AS"),
    ("standard", "TS 9S TD KH 9H", "QS 9S TD KH 9H", 2, "KS"),
    ("yooker", "2S 1S 2Q 6O 3O", "4S 1S 2Q 6O 3O", 4, "6S"),
    ("yooker", "2S 1S 2Q 6O 3O", "4S 1S 2Q 6O 3O", 3, "5S")])
def test_a_hand_holding_a_promoted_card_skips_the_levels_that_would_pool_it(
        preset_name, low, promoted, seat, down):
    """Issue 55, the agreement study's records: pools that hold a promoted card as a low one
    read the hand low. The shipped atlas answers a hand with a truly low card of the
    turned-down suit at the pooled or broad level, and the same hand with the promoted card
    at no pooled level (its class or a simulation answers it)."""
    rules = build_rules(preset_name)
    answers = [atlas_answer(AdviceQuestion(rules, hand, seat, turned_down=down))
               for hand in (low, promoted)]
    assert answers[0] is not None and answers[0]["atlas"]["level"] in ("pooled", "broad")
    assert answers[1] is None or answers[1]["atlas"]["level"] == "class"
    assert atlas_module.atlas_covers(AdviceQuestion(rules, promoted, seat, turned_down=down)) \
        == (answers[1] is not None)


def test_a_pool_is_the_classes_no_level_before_answers_weighted_by_how_often_each_was_reached(
        tiny_atlas, monkeypatch):
    """A pooled entry's figures are those of the deals of its pool's classes that the class
    level leaves (reached fewer than min_n times), summed by hand from the run's rows."""
    levels, learned, exact = tiny_atlas
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"pooled": levels["pooled"]})
    deck = RULES.card_deck
    left = {"learned": _unanswered(learned, "pooled"), "dd": _unanswered(exact, "pooled")}
    checked = 0
    for index in range(300):
        hands, upcard = deal_one(RULES, SEED, index, 0)
        hand = hands[seat_at(0, 1)]
        answer = atlas_answer(AdviceQuestion(RULES, deck.format_hand(hand), 1,
                                             up=deck.card_name(upcard)))
        pool = pooled_text(_class_text(hand, upcard))
        mine = {play: rows[(rows["round"] == 1) & (rows["seat"] == 1)
                           & (rows["hand"].map(pooled_text) == pool)]
                for play, rows in left.items()}
        if answer is None:
            assert (mine["learned"].groupby(["action", "alone"])["n"].sum() < POOL_MIN_N).all()
            continue
        assert answer["atlas"]["level"] == "pooled"
        for action in answer["actions"]:
            for play, column in (("learned", "mean_points"), ("dd", "dd_mean_points")):
                rows = mine[play][(mine[play]["action"] == action["action"])
                                  & (mine[play]["alone"] == action["alone"])]
                assert action["n"] == rows["n"].sum()
                if action.get(column) is not None:
                    want = (rows["mean_points"] * rows["n"]).sum() / rows["n"].sum()
                    assert action[column] == pytest.approx(want, abs=1e-5)
        checked += 1
    assert checked >= 5


def _spread_twin(table: pd.DataFrame, level: str) -> dict:
    """The spread ratio sqrt(c) of each (round, seat, action, suit, alone), by hand from the
    table's rows (the classes a level answers for): its classes grouped by pooled text, c =
    (sum SSB - sum (k - 1) s^2) / sum s^2 (N - sum n^2 / N) over the pools of two or more
    classes (0 when negative or when no deal differs), s^2 the variance of a pool's
    deals."""
    out = {}
    for group, rows in table.groupby(["round", "seat", "action", "suit", "alone"],
                                     dropna=False):
        excess = scale = 0.0
        two = False  # a pool of two classes or more
        for _, pool in rows.groupby(rows["hand"].map(lambda h: pooled_text(h, level))):
            if len(pool) < 2:
                continue
            two = True
            n, mean = pool["n"].to_numpy(float), pool["mean_points"].to_numpy(float)
            within = ((n - 1) * np.nan_to_num(pool["points_se"].to_numpy(float)) ** 2 * n).sum()
            big_n = n.sum()
            ssb = (n * (mean - (n * mean).sum() / big_n) ** 2).sum()
            s2 = (within + ssb) / (big_n - 1)
            excess += ssb - (len(n) - 1) * s2
            scale += s2 * (big_n - (n ** 2).sum() / big_n)
        if two:
            out[group] = np.sqrt(max(0.0, excess / scale) if scale > 0 else 0.0)
    return out


def _pool_se(part: pd.DataFrame) -> float:
    """The standard error of the mean of a pool's deals, from its classes' rows."""
    n, mean = part["n"].to_numpy(float), part["mean_points"].to_numpy(float)
    squares = ((n - 1) * np.nan_to_num(part["points_se"].to_numpy(float)) ** 2 * n
               + n * mean ** 2).sum()
    total, big_n = (n * mean).sum(), n.sum()
    return float(np.sqrt((squares - total ** 2 / big_n) / (big_n - 1) / big_n))


@pytest.mark.parametrize("level", ["pooled", "coarse"])
def test_the_pooled_standard_error_widens_by_the_spread_of_classes_in_the_pool(
        tiny_atlas, monkeypatch, no_twin_spread, raw_errors, level):
    levels, learned, exact = tiny_atlas
    left = {"mean_points": _unanswered(learned, level),
            "dd_mean_points": _unanswered(exact, level)}
    twins = {column: _spread_twin(rows, level) for column, rows in left.items()}
    pools = {column: rows["hand"].map(lambda h: pooled_text(h, level))
             for column, rows in left.items()}
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {level: levels[level]})
    deck = RULES.card_deck
    checked = 0
    for index in range(800):
        hands, upcard = deal_one(RULES, SEED, index, 0)
        hand = hands[seat_at(0, 1)]
        pool = pooled_text(_class_text(hand, upcard), level)
        question = AdviceQuestion(RULES, deck.format_hand(hand), 1, up=deck.card_name(upcard))
        answer = atlas_answer(question)
        if answer is None:
            continue
        for action in answer["actions"]:
            for column, table in left.items():
                if action["action"] == "pass" and column == "dd_mean_points":
                    continue
                part = table[(table["round"] == 1) & (table["seat"] == 1)
                             & (pools[column] == pool) & (table["action"] == action["action"])
                             & (table["alone"] == action["alone"])]
                if part["n"].sum() < 2:  # one deal: no standard error
                    continue
                group = (1, 1, action["action"], part["suit"].iloc[0], action["alone"])
                se = column.replace("mean_points", "points_se")
                deals = part["n"].sum()  # the pool's deals' sd, at least one stray deal's
                deals_sd = max(_pool_se(part) * np.sqrt(deals), 4 * np.sqrt(deals - 1) / deals)
                want = np.hypot(_pool_se(part), TAIL_FACTORS["standard"][level]
                                * twins[column].get(group, np.nan) * deals_sd)
                assert action[se] == pytest.approx(want, rel=2e-3, abs=1e-4, nan_ok=True)
                checked += 1
    assert checked >= 40


@pytest.mark.parametrize("preset_name", sorted(TAIL_FACTORS))
@pytest.mark.parametrize("level", ["pooled", "broad", "coarse"])
def test_a_pooled_answer_widens_by_its_preset_s_tail_factor_times_the_spread(
        tiny_atlas, monkeypatch, no_twin_spread, raw_errors, tmp_path, level, preset_name):
    """The level's file again with made-up spread ratios (each column its own, exact in
    float16) and with none, read as the preset's atlas: every standard error se of an answer
    of n deals is hypot(se, factor x ratio x the deals' sd), their sd se sqrt(n) but at least
    what one deal in n scoring 4 points (standard's most) away from the rest would give; the
    chance of winning's by the points' ratio likewise, its deals' sd at least what one deal in
    n a chance of 1 away would give (issue 76: an entry whose deals all scored alike widens
    too)."""
    assert sorted(TAIL_FACTORS) == sorted(ATLAS_PRESETS)  # every shipped atlas has its own
    levels, _, _ = tiny_atlas
    monkeypatch.setattr(atlas_module, "atlas_preset", lambda rules: preset_name)
    frame = pd.read_parquet(levels[level].path)
    versions = {}
    for name, scale in (("none", 0.0), ("made_up", 1.0)):
        for column, ratio in MADE_UP_RATIOS.items():
            frame[column] = np.where(frame[column].notna(), scale * ratio,
                                     np.nan).astype(np.float16)
        write_table(frame, str(tmp_path / f"{name}.parquet"), levels[level].provenance)
        versions[name] = Atlas(tmp_path / f"{name}.parquet")
    deck, factor, checked = RULES.card_deck, TAIL_FACTORS[preset_name].get(level, 1.0), 0
    for index in range(1600 if level == "broad" else 800):  # few round-2 broad pools
        hands, upcard = deal_one(RULES, SEED, index, 0)
        ref = {"up": deck.card_name(upcard)} if level != "broad" else \
            {"turned_down": deck.card_name(upcard)}  # the broad level holds round 2 only
        question = AdviceQuestion(RULES, deck.format_hand(hands[seat_at(0, 1)]), 1, **ref,
                                  score=(8, 9))
        answers = {}
        for name, version in versions.items():
            monkeypatch.setattr(atlas_module, "atlas_for", lambda q, v=version: {level: v})
            answers[name] = atlas_answer(question)
        if answers["none"] is None:
            continue
        for plain, wide in zip(answers["none"]["actions"], answers["made_up"]["actions"],
                               strict=True):
            assert (plain["action"], plain["suit"]) == (wide["action"], wide["suit"])
            n = plain["n"]
            for se, ratio in (("points_se", 0.25), ("gain_se", 0.125), ("dd_points_se", 0.375)):
                if plain.get(se) is not None:
                    deals_sd = max(plain[se] * np.sqrt(n), 4 * np.sqrt(n - 1) / n)
                    assert wide[se] == pytest.approx(
                        np.hypot(plain[se], factor * ratio * deals_sd), rel=1e-6)
                    checked += 1
            # the chance of winning widens as the points do, by the points' ratio times its
            # own deals' sd (at least what one deal in n a chance of 1 away would give)
            chance_sd = max(plain["p_win_se"] * np.sqrt(n), np.sqrt(n - 1) / n)
            assert wide["p_win_se"] == pytest.approx(np.hypot(
                plain["p_win_se"], factor * MADE_UP_RATIOS["points_spread_ratio"] * chance_sd),
                rel=1e-6)
    assert checked >= (30 if level == "broad" else 100)  # few round-2 broad pools


def test_an_answer_widens_by_the_spread_of_a_hand_s_suit_twins(tiny_atlas, monkeypatch,
                                                                raw_errors, tmp_path):
    """Issue 55: a class's deals mix suit-swapped twins that the learned player plays a little
    differently, so a question's own hand strays from the class's mean: with made-up twin
    ratios c (by round and kind of action, the dealer's own in round 1), every points and gain
    standard error se of an entry of n deals is se sqrt(1 + c n), double dummy's (which plays
    twins alike) is as it was, and the chance of winning's widens as its points'. (The pooled
    level's file with no spread ratios, so that its entries, of more deals than the tiny
    atlas's classes, are widened by the twins alone.)"""
    every_turn = {(round_no, kind) for round_no in (1, 2) for kind in ("pass", "call", "alone")}
    for ratios in atlas_module.TWIN_RATIOS.values():  # every shipped atlas has its own
        assert every_turn <= set(ratios)
        assert all(key[:2] in every_turn and key[2] in (1, 2, 3, 4)
                   for key in set(ratios) - every_turn)  # a seat's own
    assert set(atlas_module.TWIN_RATIOS) == set(ATLAS_PRESETS)
    levels, _, _ = tiny_atlas
    frame = pd.read_parquet(levels["pooled"].path)
    for column in MADE_UP_RATIOS:
        frame[column] = np.nan
    write_table(frame, str(tmp_path / "pooled.parquet"), levels["pooled"].provenance)
    unspread = Atlas(tmp_path / "pooled.parquet")
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"pooled": unspread})
    made_up = {(round_no, kind): ratio for round_no in (1, 2)
               for kind, ratio in (("pass", 0.001), ("call", 0.002), ("alone", 0.004))}
    made_up |= {(1, "call", 4): 0.008, (1, "alone", 4): 0.016}
    deck, checked = RULES.card_deck, {1: 0, 4: 0}
    for index in range(800):
        hands, upcard = deal_one(RULES, SEED, index, 0)
        for position in checked:
            question = AdviceQuestion(RULES, deck.format_hand(hands[seat_at(0, position)]),
                                      position, up=deck.card_name(upcard), score=(8, 9))
            answers = {}
            for name, ratios in (("none", dict.fromkeys(made_up, 0.0)), ("made_up", made_up)):
                monkeypatch.setattr(atlas_module, "TWIN_RATIOS", {"standard": ratios})
                answers[name] = atlas_answer(question)
            if answers["none"] is None:
                continue
            for plain, wide in zip(answers["none"]["actions"], answers["made_up"]["actions"],
                                   strict=True):
                kind = "pass" if plain["action"] == "pass" else \
                    "alone" if plain["alone"] else "call"
                ratio = made_up.get((1, kind, position), made_up[1, kind])
                factor = np.sqrt(1 + ratio * plain["n"])
                for se in ("points_se", "p_win_se", "gain_se"):
                    if plain[se] is not None:  # a pass has no gain; one deal no standard error
                        assert wide[se] == pytest.approx(plain[se] * factor, rel=1e-9,
                                                         nan_ok=True)
                assert wide.get("dd_points_se") == pytest.approx(plain.get("dd_points_se"),
                                                                  nan_ok=True)
                checked[position] += plain["points_se"] > 0
    assert checked[1] >= 20 and checked[4] >= 3  # the dealer's classes pool less often


@pytest.mark.parametrize("level", ["pooled", "coarse"])
def test_the_spread_is_the_analysis_of_variance_of_the_classes_a_level_answers(tiny_atlas,
                                                                              level):
    """The tiny run's classes are reached once or twice, too rarely to tell classes apart
    from chance (its spread ratios are 0): here its round-1 rows get made-up counts (2-29 deals,
    below min_n 30: every class reaches the pooled level), means and standard errors, and
    each entry's spread ratio is `_spread_twin`'s by hand."""
    _, learned, _ = tiny_atlas
    rng = np.random.default_rng(11)
    fake = learned[learned["round"] == 1].copy()
    fake["n"] = rng.integers(2, 30, len(fake))
    fake["mean_points"] = rng.normal(0.0, 0.8, len(fake))
    fake["points_se"] = rng.uniform(0.8, 1.6, len(fake)) / np.sqrt(fake["n"])
    levels = build_levels(fake, fake, RULES, min_n=30)
    left = fake if level == "pooled" else _unanswered(fake, level, 30)
    twin = _spread_twin(left, level)
    group = zip(left["round"], left["seat"], left["action"], left["suit"], left["alone"],
                strict=True)
    want = dict(zip(level_keys(left, level), (twin.get(g, np.nan) for g in group),
                    strict=True))
    rows = levels[level]
    assert len(rows) > 50
    got = rows["points_spread_ratio"].astype(np.float64)
    expected = np.array([want[k] for k in rows["key"]])
    assert got.to_numpy() == pytest.approx(expected, rel=2e-3, abs=1e-4, nan_ok=True)
    assert np.nanmax(expected) > 0.3  # the classes of a pool do differ


def test_a_class_under_min_n_is_not_in_the_atlas(tiny_atlas):
    _, learned, exact = tiny_atlas
    rows = build_atlas(run_sums(learned, exact, RULES, "class"), RULES, min_n=3)
    assert len(rows) == (learned["n"] >= 3).sum()
    assert (rows["n"] >= 3).all() and (np.diff(rows["key"].astype(np.float64)) > 0).all()


def test_asking_for_deals_or_other_models_is_simulated_not_looked_up():
    hand = "JS AS 9H 9D TC"
    assert AdviceQuestion(RULES, hand, 1, up="9S").atlas is True
    assert AdviceQuestion(RULES, hand, 1, up="9S", deals=500).atlas is False
    for fields in ({"player": Player("human", "dd")}, {"player": Player("rules", "learned")},
                   {"deals": 500}):
        assert atlas_module.atlas_for(AdviceQuestion(RULES, hand, 1, up="9S", **fields)) is None
    changed = "false" if build_rules("online").no_trump else "true"
    online = build_rules("online", [f"no_trump={changed}"])  # a preset changed: not covered
    assert atlas_module.atlas_for(AdviceQuestion(online, hand, 1, up="9S")) is None


@pytest.mark.parametrize("level", LEVEL_FILES)
@pytest.mark.parametrize("preset_name", ATLAS_PRESETS)
def test_a_shipped_atlas_was_built_by_the_shipped_card_net(preset_name, level):
    """The atlas answers for `--play learned`: its runs must have played by the weights the
    package ships (the sha256 of card_net.npz, and of card_net_general.npz where the preset's
    deals are the general net's, read here from the files themselves). A new net ships with
    atlases rebuilt by `tools/make_atlas.py`. Every preset ships its class and pooled levels;
    a preset built before the coarse level was added has none (SHIPPED_LEVELS)."""
    atlas = shipped_atlas(preset_name, level)
    assert (atlas is not None) == (level in SHIPPED_LEVELS[preset_name])
    if atlas is None:
        return
    rules = build_rules(preset_name)
    names = {"card_net": "card_net.npz"}
    if rules.yooker or rules.joker or rules.deck != 24 or rules.no_trump:
        names["card_net_general"] = "card_net_general.npz"
    for key, name in names.items():
        shipped = (resources.files("euchre_sim.play") / name).read_bytes()
        assert atlas.provenance[key] == hashlib.sha256(shipped).hexdigest(), key


def test_the_drinking_game_is_answered_by_the_standard_atlas_and_nothing_else_changed_is():
    """The drinking game's rules are standard's but for a renege's price and the drinks
    counted (rules text 002: same deck and play): no simulated deal plays or scores otherwise,
    so standard's atlas answers it; any other change is not covered."""
    hand = "JS AS 9H 9D TC"
    drinking = build_rules("drinking")
    assert drinking != RULES and drinking.renege_penalty == 4 and drinking.drinks
    assert atlas_module.atlas_preset(drinking) == "standard"
    assert atlas_module.atlas_for(AdviceQuestion(drinking, hand, 1, up="9S")) is not None
    for change in ("target=11", "defend_alone=true", "euchre_points=3"):
        changed = build_rules("drinking", [change])
        assert atlas_module.atlas_preset(changed) is None
        assert atlas_module.atlas_for(AdviceQuestion(changed, hand, 1, up="9S")) is None


def test_a_hopeless_lone_call_from_the_atlas_has_an_interval_not_a_point():
    """Issue 55: every deal of this class euchred the lone caller (-2 points each); the
    interval is the rule of three's over the class's deals, not -2.000 +/- 0.000. Issue 76:
    only as far as a lone call can score (-2 .. 4, never below -2), and its standard error
    says as much (the interval's wider side over 1.96), never 0 beside it."""
    result = atlas_answer(AdviceQuestion(build_rules(), "TS QC JC KS JD", 1, up="JH"))
    alone = next(a for a in result["actions"] if a["alone"])
    assert result["source"] == "atlas" and alone["mean_points"] == -2
    n = alone["n"]
    assert alone["ci95"] == pytest.approx([-2, -2 + 3 / n * 6])
    assert alone["points_se"] == pytest.approx(3 / n * 6 / 1.959964, rel=1e-6)


def test_a_hopeless_lone_call_at_a_score_has_a_chance_interval_not_a_point():
    """Issue 55: at 8-9 the lone call euchred on every deal of its class gives the other side
    2 points and the game (10): p_win 0 on each deal; the interval is the rule of three's
    over the class's deals, 0 .. 3 / n, in the JSON and the text, and (issue 76) its standard
    error 3 / n / 1.96, not 0."""
    question = AdviceQuestion(build_rules(), "TS QC JC KS JD", 1, up="JH", score=(8, 9))
    alone = next(a for a in atlas_answer(question)["actions"] if a["alone"])
    assert alone["p_win"] == 0
    assert alone["p_win_ci95"] == pytest.approx([0.0, 3 / alone["n"]])
    assert alone["p_win_se"] == pytest.approx(3 / alone["n"] / 1.959964, rel=1e-6)
    text = run_cli(["advise", "--hand", "TS QC JC KS JD", "--up", "JH", "--seat", "1",
                    "--score", "8-9"]).output
    row = next(line for line in text.splitlines() if "│   yes │" in line)
    assert row.rstrip("│ ").endswith(f"0.0% (0.0% .. {3 / alone['n']:.1%})")


def test_at_a_score_an_entry_answers_with_its_results_chances_of_the_game(
        tiny_atlas, monkeypatch, no_twin_spread, raw_errors):
    """Issue 55: `--score` from the atlas. Each action's chance of winning is its class's
    shares of results (the run's decisions rows), each weighted by the odds' chance after it,
    read here by hand from the shipped odds table p[us, them, we deal next] (seat 1 deals
    next); its standard error the spread of those chances over the class's deals."""
    levels, learned, _ = tiny_atlas
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"class": levels["class"]})
    odds = atlas_module.shipped_odds("standard")
    target, deck = odds.shape[0] - 1, RULES.card_deck
    us, them = 8, 9
    hands, upcard = deal_one(RULES, SEED, 3, 0)
    hand = hands[seat_at(0, 1)]
    answer = atlas_answer(AdviceQuestion(RULES, deck.format_hand(hand), 1,
                                         up=deck.card_name(upcard), score=f"{us}-{them}"))
    assert answer["score"] == {"us": us, "them": them}
    mine = learned[(learned["round"] == 1) & (learned["seat"] == 1)
                   & (learned["hand"] == _class_text(hand, upcard))]
    for action in answer["actions"]:
        row = mine[(mine["action"] == action["action"])
                   & (mine["alone"] == action["alone"])].iloc[0]
        chances, shares = [], []
        for points in (1, 2, 3, 4):
            chances += [odds[min(us + points, target), them, 1],
                        odds[us, min(them + points, target), 1]]
            shares += [row[f"p_us_{points}"], row[f"p_them_{points}"]]
        chances.append(odds[us, them, 1])
        shares.append(row["p_none"])
        chances, shares = np.array(chances), np.array(shares)
        p_win = float(shares @ chances)
        assert action["p_win"] == pytest.approx(p_win, abs=1e-9)  # the results as counts
        spread = np.sqrt(max(float(shares @ chances ** 2) - p_win ** 2, 0) / row["n"])
        assert action["p_win_se"] == pytest.approx(spread, abs=1e-9)
    # the atlas keeps no deal's results: the margin's error is the sum of the two actions'
    first, second = sorted(answer["actions"], key=lambda a: -a["p_win"])[:2]
    margin = answer["game_margin"]
    assert {k: margin[k] for k in ("action", "suit", "alone")} == \
        {k: first[k] for k in ("action", "suit", "alone")}
    assert margin["lead"] == pytest.approx(first["p_win"] - second["p_win"])
    assert margin["lead_se"] >= first["p_win_se"] + second["p_win_se"] - 1e-12
    assert not margin["paired"]
    stated = answer["best_for_game"]
    assert (stated is not None) == margin["separated"]
    if stated is not None:
        assert margin["lead"] - 1.959964 * (first["p_win_se"] + second["p_win_se"]) > 0


def test_an_atlas_without_counts_is_one_line(tiny_atlas, tmp_path):
    """A file of a version before the atlas kept its results (its figures kept instead) is
    refused, naming the file, rather than answered without them."""
    levels, _, _ = tiny_atlas
    frame = pd.read_parquet(levels["class"].path)
    old = frame[[c for c in frame.columns if not c.startswith("n_")]].assign(
        mean_points=0.0, gain=0.0, points_se=0.1)
    write_table(old, str(tmp_path / "old.parquet"), {})
    with pytest.raises(atlas_module.UserError, match="old.parquet.*keeps no results' counts"):
        Atlas(tmp_path / "old.parquet")


def test_the_gain_over_passing_is_the_pass_paired_difference_and_none_for_a_stuck_dealer():
    """By hand: every action of an entry was valued on the same deals, so a call's gain is its
    mean points less the pass's; a stuck dealer (stick the dealer, round 2, seat 4) has no pass
    to gain over."""
    wanted = [("pass", None, None, False), ("call", "H", 1, False), ("call", "H", 1, True)]
    rows = [{"mean_points": -0.25, "gain_se": 0.0}, {"mean_points": 0.5, "gain_se": 0.05},
            {"mean_points": 1.75, "gain_se": 0.2}]
    atlas_module.gains_over_passing(rows, wanted)
    assert [row["gain"] for row in rows] == [0.0, 0.75, 2.0]
    stuck = [{"mean_points": 0.5, "gain_se": 0.0}, {"mean_points": 1.75, "gain_se": 0.0}]
    atlas_module.gains_over_passing(stuck, wanted[1:])
    assert all(row["gain"] is None and row["gain_se"] is None for row in stuck)


def test_an_entry_reads_its_figures_from_its_results_counts():
    """By hand, standard rules (a hand scores at most 4): counts 3 x +1, 1 x +2, 2 x -2,
    1 x +4 (lone march), 1 x 0 over n = 8: mean (3 + 2 - 4 + 4) / 8 = 0.625; the shares
    are the counts over n; the standard error sqrt(var / (n - 1)) with var the population
    variance: (3 + 4 + 8 + 16) / 8 - 0.625^2."""
    names = ["n_us_1", "n_us_2", "n_us_3", "n_us_4", "n_them_1", "n_them_2", "n_them_3",
             "n_them_4", "n_none"]
    row = {"key": 7, "n": 8} | dict(zip(names, [3, 1, 0, 1, 0, 2, 0, 0, 1], strict=True))
    out = atlas_module.entry_figures(row, 4, "atlas.parquet")
    assert out["mean_points"] == pytest.approx(0.625)
    assert out["p_us_1"] == pytest.approx(3 / 8) and out["p_none"] == pytest.approx(1 / 8)
    variance = 31 / 8 - 0.625 ** 2
    assert out["points_se"] == pytest.approx(np.sqrt(variance / 7))
    rates = atlas_module.result_rates(out, RULES, alone=True)
    assert rates == {"make_rate": pytest.approx(5 / 8), "march_rate": pytest.approx(1 / 8)}
    with pytest.raises(atlas_module.UserError, match="add up to 9, not its n"):
        atlas_module.entry_figures(row | {"n_none": 2}, 4, "atlas.parquet")


@pytest.mark.parametrize("level", ["broad", "coarse"])
def test_a_later_level_answers_the_deals_the_levels_before_leave(tiny_atlas, monkeypatch,
                                                                 level):
    """With min_n POOL_MIN_N and the coarse level's own minimum (LAST_MIN_N) 2: the broad
    (coarse) entries are the broad (coarse) pools of the deals the levels before leave (each
    class and action, then each pooled text and action, reached fewer than min_n times)
    reached at least min_n times (twice), with their counts; summed by hand from the class
    texts. The broad level holds round 2 only (round 1 pools as the pooled level does)."""
    _, learned, exact = tiny_atlas
    monkeypatch.setattr(atlas_build_module, "LAST_MIN_N", 2)
    levels = build_levels(learned, exact, RULES, min_n=POOL_MIN_N)
    left = _unanswered(learned, level)
    assert 0 < len(left) < len(learned)
    left = left.assign(key=level_keys(left, level))
    want = left.groupby("key")["n"].sum()
    want = want[want >= (2 if level == "coarse" else POOL_MIN_N)]
    got = pd.Series(levels[level]["n"].to_numpy(), index=levels[level]["key"].to_numpy())
    assert len(want) >= (5 if level == "broad" else 20)  # 2,000 deals reach few broad pools
    assert got.sort_index().to_dict() == want.sort_index().to_dict()
    if level == "broad":
        assert set(left[np.isin(left["key"], want.index)]["round"]) == {2}
