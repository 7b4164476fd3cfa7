"""The realistic atlas (`advice.atlas`): built from a learned-play decisions table and the
double-dummy one of the same deals, looked up by a hand's class, and answered as `advise`
answers. Checked against the runs it came from, read here by the class text."""

import hashlib
from importlib import resources

import numpy as np
import pandas as pd
import pytest

from euchre_sim.advice import atlas as atlas_module
from euchre_sim.advice.atlas import (
    ATLAS_PRESETS,
    Atlas,
    atlas_answer,
    build_atlas,
    level_keys,
    pool_spread,
    pooled_text,
    shipped_atlas,
    write_table,
)
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.bidding.decision_keys import turn_class
from euchre_sim.core.dealing import deal_one
from euchre_sim.core.handclass import KeyReader
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.core.seats import seat_at
from euchre_sim.play.player import Player

from .helpers import run_cli

RULES = build_rules("standard")
SEED, DEALS = 6, 2000


@pytest.fixture(scope="module")
def tiny_atlas(tmp_path_factory):
    """An atlas of every class (min_n 1) from 2,000 deals, learned and double dummy."""
    root = tmp_path_factory.mktemp("atlas")
    for play in ("learned", "dd"):
        run_cli(["simulate", "--deals", str(DEALS), "--seed", str(SEED), "--bidding", "human",
                 "--play", play, "--tables", "decisions", "--out", str(root / play),
                 "--no-progress", "--workers", "1"])
    learned = pd.read_parquet(root / "learned" / "decisions.parquet")
    exact = pd.read_parquet(root / "dd" / "decisions.parquet")
    levels = {}
    for level in ("class", "pooled"):
        rows = build_atlas(learned, exact, RULES, min_n=1, level=level)
        if level == "pooled":
            rows = pool_spread(rows, learned, exact, RULES)
        write_table(rows, str(root / f"{level}.parquet"), {"deals": DEALS, "seed": SEED,
                                                           "min_n": 1})
        levels[level] = Atlas(root / f"{level}.parquet")
    return levels, learned, exact


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


def test_pooled_text_pools_the_cards_that_seldom_take_a_trick():
    """By hand, from the rule: off-suit cards below the king become x (round 1: the next suit
    and the others, these sorted as a set, keeping their jacks); round 2 pools only the
    turned-down suit, keeping its ace, king, bowers and Benny."""
    assert pooled_text("T=RA N=KQ O=Q/A9 up=9") == "T=RA N=Kx O=Ax/x up=9"
    assert pooled_text("T=RA N=- O=T9/- up=K") == "T=RA N=- O=-/xx up=K"
    assert pooled_text("T=R N=Q9 O=AQ/J9 up=A") == "T=R N=xx O=Ax/Jx up=A"  # jacks kept
    assert pooled_text("T=LAQ9 N=K9 O=QT/T down=9t") == "T=LAxx N=K9 O=QT/T down=9t"


def test_a_pool_is_its_classes_weighted_by_how_often_each_was_reached(tiny_atlas, monkeypatch):
    levels, learned, exact = tiny_atlas
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"pooled": levels["pooled"]})
    deck = RULES.card_deck
    hands, upcard = deal_one(RULES, SEED, 7, 0)
    hand = hands[seat_at(0, 1)]
    answer = atlas_answer(AdviceQuestion(RULES, deck.format_hand(hand), 1,
                                         up=deck.card_name(upcard)))
    assert answer["atlas"]["level"] == "pooled"
    pool = pooled_text(_class_text(hand, upcard))
    mine = learned[(learned["round"] == 1) & (learned["seat"] == 1)
                   & (learned["hand"].map(pooled_text) == pool)]
    dd = exact[(exact["round"] == 1) & (exact["seat"] == 1)
               & (exact["hand"].map(pooled_text) == pool)]
    def pick(frame, action):
        return frame[(frame["action"] == action["action"]) & (frame["alone"] == action["alone"])]

    for action in answer["actions"]:
        rows = pick(mine, action)
        assert action["n"] == rows["n"].sum()
        want = (rows["mean_points"] * rows["n"]).sum() / rows["n"].sum()
        assert action["mean_points"] == pytest.approx(want, abs=1e-5)
        if action["action"] != "pass":
            rows = pick(dd, action)
            want = (rows["mean_points"] * rows["n"]).sum() / rows["n"].sum()
            assert action["dd_mean_points"] == pytest.approx(want, abs=1e-5)
    assert len(set(level_keys(mine, "pooled"))) == 3  # one pool: pass, order up, alone


def _spread_twin(table: pd.DataFrame) -> dict:
    """The between-class standard deviation within pools, by hand from the table's rows: per
    (round, action, suit, alone), every seat, the classes grouped by seat and pooled text; over
    the pools of two or more classes, tau^2 = (sum SSB - sum (k - 1) s^2) / sum (N - sum n^2 /
    N), s^2 the variance of the pool's deals."""
    out = {}
    for group, rows in table.groupby(["round", "action", "suit", "alone"], dropna=False):
        ssb = chance = spread_df = 0.0
        for _, pool in rows.groupby([rows["seat"], rows["hand"].map(pooled_text)]):
            if len(pool) < 2:
                continue
            n, mean = pool["n"].to_numpy(float), pool["mean_points"].to_numpy(float)
            sq = (n - 1) * np.nan_to_num(pool["points_se"].to_numpy(float)) ** 2 * n
            big_n = n.sum()
            pool_mean = (n * mean).sum() / big_n
            deals_ss = sq.sum() + (n * (mean - pool_mean) ** 2).sum()
            ssb += (n * (mean - pool_mean) ** 2).sum()
            chance += (len(n) - 1) * deals_ss / (big_n - 1)
            spread_df += big_n - (n ** 2).sum() / big_n
        if spread_df > 0:
            out[group] = np.sqrt(max(0.0, (ssb - chance) / spread_df))
    return out


def _pool_se(part: pd.DataFrame) -> float:
    """The standard error of the mean of a pool's deals, from its classes' rows."""
    n, mean = part["n"].to_numpy(float), part["mean_points"].to_numpy(float)
    squares = ((n - 1) * np.nan_to_num(part["points_se"].to_numpy(float)) ** 2 * n
               + n * mean ** 2).sum()
    total, big_n = (n * mean).sum(), n.sum()
    return float(np.sqrt((squares - total ** 2 / big_n) / (big_n - 1) / big_n))


def test_the_pooled_standard_error_widens_by_the_spread_of_classes_in_the_pool(tiny_atlas,
                                                                               monkeypatch):
    levels, learned, exact = tiny_atlas
    twins = {"mean_points": _spread_twin(learned), "dd_mean_points": _spread_twin(exact)}
    pools = {"mean_points": learned["hand"].map(pooled_text),
             "dd_mean_points": exact["hand"].map(pooled_text)}
    monkeypatch.setattr(atlas_module, "atlas_for", lambda question: {"pooled": levels["pooled"]})
    deck = RULES.card_deck
    checked = 0
    for index in range(300):
        hands, upcard = deal_one(RULES, SEED, index, 0)
        hand = hands[seat_at(0, 1)]
        pool = pooled_text(_class_text(hand, upcard))
        if (pools["mean_points"] == pool).sum() < 6:  # pass, order up, alone: n >= 2
            continue
        question = AdviceQuestion(RULES, deck.format_hand(hand), 1, up=deck.card_name(upcard))
        answer = atlas_answer(question)
        for action in answer["actions"]:
            for column, table in (("mean_points", learned), ("dd_mean_points", exact)):
                if action["action"] == "pass" and column == "dd_mean_points":
                    continue
                part = table[(table["round"] == 1) & (table["seat"] == 1)
                             & (pools[column] == pool) & (table["action"] == action["action"])
                             & (table["alone"] == action["alone"])]
                if part["n"].sum() < 2:  # one deal: no standard error
                    continue
                group = (1, action["action"], part["suit"].iloc[0], action["alone"])
                se = column.replace("mean_points", "points_se")
                want = np.hypot(_pool_se(part), twins[column][group])
                assert action[se] == pytest.approx(want, rel=2e-3, abs=1e-4)
                checked += 1
    assert checked >= 40
    assert max(twins["mean_points"].values()) > 0  # the classes of a pool do differ


def test_a_class_under_min_n_is_not_in_the_atlas(tiny_atlas):
    _, learned, exact = tiny_atlas
    rows = build_atlas(learned, exact, RULES, min_n=3)
    assert len(rows) == (learned["n"] >= 3).sum()
    assert (rows["n"] >= 3).all() and (np.diff(rows["key"].astype(np.float64)) > 0).all()


def test_asking_for_deals_or_other_models_is_simulated_not_looked_up():
    hand = "JS AS 9H 9D TC"
    assert AdviceQuestion(RULES, hand, 1, up="9S").atlas is True
    assert AdviceQuestion(RULES, hand, 1, up="9S", deals=500).atlas is False
    for fields in ({"player": Player("human", "dd")}, {"player": Player("rules", "learned")},
                   {"score": "8-9"}, {"deals": 500}):
        assert atlas_module.atlas_for(AdviceQuestion(RULES, hand, 1, up="9S", **fields)) is None
    changed = "false" if build_rules("online").no_trump else "true"
    online = build_rules("online", [f"no_trump={changed}"])  # a preset changed: not covered
    assert atlas_module.atlas_for(AdviceQuestion(online, hand, 1, up="9S")) is None


@pytest.mark.parametrize("level", ["class", "pooled"])
@pytest.mark.parametrize("preset_name", ATLAS_PRESETS)
def test_a_shipped_atlas_was_built_by_the_shipped_card_net(preset_name, level):
    """The atlas answers for `--play learned`: its runs must have played by the weights the
    package ships (the sha256 of card_net.npz, and of card_net_general.npz where the preset's
    deals are the general net's, read here from the files themselves). A new net ships with
    atlases rebuilt by `tools/make_atlas.py`."""
    atlas = shipped_atlas(preset_name, level)
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
    interval is the rule of three's over the class's deals, not -2.000 +/- 0.000."""
    result = atlas_answer(AdviceQuestion(build_rules(), "TS QC JC KS JD", 1, up="JH"))
    alone = next(a for a in result["actions"] if a["alone"])
    assert result["source"] == "atlas" and alone["points_se"] == 0
    n, bound = alone["n"], build_rules().max_hand_points
    assert alone["ci95"] == pytest.approx([-2 - 3 / n * (bound - 2), -2 + 3 / n * (bound + 2)])
