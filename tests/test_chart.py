"""`euchre-sim chart`: the strategy chart of a `simulate --bidding` run (SPEC, `chart`): a
round-2 hand's features read against the suit it names (tied to the cards by the naive
features), the cells against the decisions table pooled here, and the files it writes."""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre_sim.bidding.decision_keys import turn_class
from euchre_sim.core.cards import JOKER, cards_of
from euchre_sim.core.handclass import KeyReader
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.game.odds import chance_after, odds_array
from euchre_sim.report.chart import BOWERS, chart_rows, chart_source, decide, named_suit_features

from . import naive
from .helpers import run_cli

FRENCH = {name: build_rules(*spec) for name, spec in {
    "standard": ("standard",), "online": ("online",), "deck28": ("standard", ["deck=28"]),
    "deck32_benny": ("standard", ["deck=32", "joker=true"])}.items()}


@pytest.mark.parametrize("name", sorted(FRENCH))
def test_round_2_features_of_each_suit_named_are_those_read_from_the_cards(name):
    """next is the turned-down card's colour; other1 and other2 the class key's other suits in
    its order: each one's (trumps, right, left, aces, voids) as the naive reading of the hand
    with that suit trump."""
    rules = FRENCH[name]
    deck, tb, reader = rules.card_deck, compile_rules(rules), KeyReader(rules)
    cards = cards_of(deck.mask)

    @settings(max_examples=150, deadline=None)
    @given(st.permutations(cards))
    def check(shuffled):
        down = next(c for c in shuffled if c != JOKER)
        hand = sum(1 << c for c in [c for c in shuffled if c != down][:5])
        others = np.zeros(4, np.int64)
        key = int(turn_class(tb, np.uint64(hand), down, 2, np.zeros(5, np.uint64), others))
        text = reader(key)
        suits = {"next": int(tb.next_suit[down >> 3]), "other1": int(others[0]),
                 "other2": int(others[1])}
        for label, suit in suits.items():
            assert named_suit_features(text, label) == naive.class_features(hand, suit, False), \
                (text, label, deck.format_hand(hand), deck.card_name(down))

    check()


@pytest.fixture(scope="module")
def human_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("chart") / "run"
    run_cli(["simulate", "--deals", "3000", "--seed", "4", "--bidding", "human", "--out",
             str(out), "--no-progress", "--workers", "1", "--tables", "decisions,auction"])
    return out


def _pooled_here(decisions: pd.DataFrame, round_no: int, seat: int) -> dict:
    """Cells of one round and seat pooled row by row (round 1 only: the upcard's suit)."""
    sums: dict = {}
    rows = decisions[(decisions["round"] == round_no) & (decisions["seat"] == seat)
                     & (decisions["suit"] == "up")]
    for r in rows.itertuples():
        cell = (int(r.trumps), BOWERS[2 * int(r.right) + int(r.left)], "012"[min(r.aces, 2)]
                .replace("2", "2+"))
        total = sums.setdefault(cell, {"n": 0, False: 0.0, True: 0.0})
        total[bool(r.alone)] += r.gain * r.n
        if not r.alone:
            total["n"] += r.n
    cells = {}
    for cell, total in sums.items():
        gains = {"pass": 0.0, "call": total[False] / total["n"], "alone": total[True] / total["n"]}
        best = max(gains, key=lambda a: (gains[a], -list(gains).index(a)))
        cells[cell] = (best, gains[best])
    return cells


def _cells(run, score=None):
    pooled, _, odds = chart_source(str(run), with_odds=score is not None)
    return decide(pooled, 4, score, odds)


def test_round_1_cells_are_the_decisions_pooled_by_trumps_bowers_and_aces(human_run):
    cells = _cells(human_run)
    decisions = pd.read_parquet(human_run / "decisions.parquet")
    for seat in range(1, 5):
        want = _pooled_here(decisions, 1, seat)
        got = cells[(cells["round"] == 1) & (cells["seat"] == seat)]
        assert len(got) == len(want) > 5
        for r in got.itertuples():
            action, gain = want[(r.trumps, r.bowers, r.aces)]
            assert r.action == action and r.gain == pytest.approx(gain)


def test_every_round_2_hand_reached_is_charted_once(human_run):
    decisions = pd.read_parquet(human_run / "decisions.parquet")
    rows = chart_rows(decisions, 4)
    second = decisions[decisions["round"] == 2]
    for seat in range(1, 5):
        reached = second[(second["seat"] == seat) & (second["action"] == "pass")]
        assert rows[(rows["round"] == 2) & (rows["seat"] == seat)]["n"].sum() == reached["n"].sum()


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"),
                                           (".html", b"<!doctype html>")])
def test_chart_writes_the_file_its_suffix_names(human_run, tmp_path, suffix, magic):
    path = tmp_path / f"chart{suffix}"
    result = run_cli(["chart", str(human_run), "--output", str(path)])
    assert path.read_bytes().startswith(magic) and "wrote" in result.output
    if suffix == ".html":
        cells = _cells(human_run)
        text = path.read_text()
        assert text.count("<td data-action=") == len(cells)
        for action in ("pass", "call", "alone"):
            assert text.count(f"data-action='{action}'") == (cells["action"] == action).sum()


def test_chart_refuses_a_run_without_an_auction_and_an_unknown_suffix(tmp_path, human_run):
    plain = tmp_path / "plain"
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(plain), "--no-progress",
             "--workers", "1"])
    result = run_cli(["chart", str(plain), "--output", str(tmp_path / "c.png")], code=2)
    assert "simulate --bidding" in result.output and len(result.output.splitlines()) == 1
    result = run_cli(["chart", str(human_run), "--output", str(tmp_path / "c.pdf")], code=2)
    assert "png, svg, html" in result.output and len(result.output.splitlines()) == 1


def test_at_a_score_a_cells_gain_is_its_pooled_results_weighed_by_the_odds(human_run):
    """Round 1, seat 1 at 8-9: the call's gain over passing is the pooled result shares of the
    call minus those of the pass, each result weighted by the chance of winning after it
    (the run's own odds, from its auction table); seat 1 sits left of the dealer, so its side
    deals next."""
    from euchre_sim.report.query import run_odds

    score = (8, 9)
    cells = _cells(human_run, score)
    odds = odds_array(run_odds(str(human_run))[1])
    decisions = pd.read_parquet(human_run / "decisions.parquet")
    rows = decisions[(decisions["round"] == 1) & (decisions["seat"] == 1)]
    shares = [c for c in decisions.columns if c.startswith("p_")]
    points = [int(c.split("_")[2]) if c.startswith("p_us") else -int(c.split("_")[2])
              if c.startswith("p_them") else 0 for c in shares]
    wins = np.array([chance_after(odds, *score, p, True) for p in points])
    checked = 0
    for cell in cells[(cells["round"] == 1) & (cells["seat"] == 1)].itertuples():
        mine = rows[(rows["trumps"] == cell.trumps)
                    & (BOWERS[0:4].index(cell.bowers) == 2 * rows["right"] + rows["left"])
                    & (rows["aces"].clip(upper=2) == "012".index(cell.aces[0]))]
        value = {}
        for kind, want in (("pass", mine["action"] == "pass"),
                           ("call", (mine["action"] != "pass") & ~mine["alone"])):
            part = mine[want]
            value[kind] = (part[shares].to_numpy() * part[["n"]].to_numpy()).sum(axis=0) @ wins \
                / part["n"].sum()
        assert cell.gain_call == pytest.approx(value["call"] - value["pass"], abs=1e-9)
        checked += 1
    assert checked > 5
    result = run_cli(["chart", str(human_run), "--output", str(human_run / "at.html"),
                      "--score", "8-9"])
    assert "at 8-9" in (human_run / "at.html").read_text() and "wrote" in result.output


def test_a_yooker_chart_names_its_columns_by_the_power_3_and_the_off_suit_sixes(tmp_path):
    """Yooker (rules text 000): no bowers, the power 3 on top. Its chart's column groups are the
    power 3 held or not and the off-suit 6s, round 1 only (round 2's class texts are French);
    every cell drawn, none under a bower's name."""
    run = tmp_path / "yooker"
    run_cli(["simulate", "--rules", "yooker", "--deals", "400", "--seed", "3", "--bidding",
             "rules", "--no-progress", "--out", str(run)])
    path = tmp_path / "yooker.html"
    run_cli(["chart", str(run), "--output", str(path)])
    text = path.read_text()
    cells = decide(*chart_source(str(run))[:1], build_rules("yooker").max_hand_points)
    assert set(cells["round"]) == {1}
    assert set(cells["bowers"]) <= {"none", "right"}
    assert text.count("<td data-action=") == len(cells) > 0
    assert "power 3<br>" in text and "no power 3<br>" in text and " 6s</th>" in text
    head = "".join(re.findall(r"<th>[^<]*(?:<br>[^<]*)?</th>", text))  # the column names
    assert "left" not in head and "both" not in head and "aces" not in head


@pytest.mark.parametrize("options", [
    ["--set", "joker=true"], ["--set", "deck=28"], ["--set", "deck=32", "--set", "joker=true"],
    ["--set", "no_trump=true", "--set", "joker=true"]], ids=" ".join)
def test_a_chart_draws_benny_no_trump_and_every_deck(tmp_path, options):
    """Benny turned up reads the auction's hands against no-trump ('NT T=- O=…'): those
    classes are left out, like no-trump calls; every other hand class of the run is charted,
    whatever the deck."""
    run = tmp_path / "run"
    run_cli(["simulate", *options, "--deals", "300", "--seed", "1", "--bidding", "rules",
             "--no-progress", "--workers", "1", "--out", str(run)])
    decisions = pd.read_parquet(run / "decisions.parquet")
    if "joker=true" in options:
        assert decisions["hand"].str.startswith("NT T=").any()
    path = tmp_path / "chart.html"
    run_cli(["chart", str(run), "--output", str(path)])
    cells = _cells(run)
    assert set(cells["round"]) == {1, 2}
    assert path.read_text().count("<td data-action=") == len(cells) > 0


@pytest.mark.parametrize("suffix", [".svg", ".html"])
def test_the_printed_chart_says_what_its_numbers_are_and_which_seat_is_which(human_run,
                                                                             tmp_path, suffix):
    """Issue 55: the legend names the unit (gain over passing, points a hand) and the seats
    (1 the dealer's left ... 4 the dealer), in the figure and the page alike."""
    path = tmp_path / f"chart{suffix}"
    run_cli(["chart", str(human_run), "--output", str(path)])
    text = path.read_text().replace("&#39;", "'").replace("&apos;", "'")
    for words in ("gain over passing", "points a hand", "1 the dealer's left",
                  "4 the dealer"):
        assert words in text, words


def _class_rows(deals_by_class: list[np.ndarray], cell: tuple) -> pd.DataFrame:
    """chart_rows-like rows of one cell: each class's n, means and standard errors (the sample
    sd over sqrt(n); none for a class reached once) of deals whose columns are the points of
    passing, calling and going alone."""
    rows = []
    for deals in deals_by_class:
        n = len(deals)
        row = dict(zip(["round", "seat", "trumps", "bowers", "aces"], cell, strict=True))
        row |= {"n": n, "may_pass": True}
        for k, kind in enumerate(("pass", "call", "alone")):
            points = deals[:, k]
            gain = points - deals[:, 0]
            row[f"{kind}_mean_points"] = points.mean()
            row[f"{kind}_points_se"] = points.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
            row[f"{kind}_gain"] = gain.mean()
            row[f"{kind}_gain_se"] = gain.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=8), st.integers(0, 2**32 - 1))
def test_a_cells_standard_errors_are_those_of_its_deals_pooled(sizes, seed):
    """The cell's mean points and gains over passing, and their standard errors, equal the
    plain sample figures of every deal in the cell together (classes reached once included)."""
    from euchre_sim.report.chart import pooled_cells

    rng = np.random.default_rng(seed)
    deals = [rng.choice([-2.0, -1.0, 1.0, 2.0, 4.0], size=(n, 3)) for n in sizes]
    pooled = pooled_cells(_class_rows(deals, (1, 1, 2, "none", "0"))).iloc[0]
    every = np.concatenate(deals)
    total = len(every)
    for k, kind in enumerate(("pass", "call", "alone")):
        points, gain = every[:, k], every[:, k] - every[:, 0]
        assert pooled[f"{kind}_mean_points"] == pytest.approx(points.mean())
        if total == 1:
            assert np.isnan(pooled[f"{kind}_mean_points_se"])
            continue
        assert pooled[f"{kind}_mean_points_se"] == pytest.approx(
            points.std(ddof=1) / np.sqrt(total), abs=1e-9)
        if kind != "pass":
            assert pooled[f"{kind}_gain"] == pytest.approx(gain.mean())
            assert pooled[f"{kind}_gain_se"] == pytest.approx(
                gain.std(ddof=1) / np.sqrt(total), abs=1e-9)


def test_a_close_call_is_a_lead_inside_its_95_percent_interval():
    """Hand-made cells: call leads pass by 0.10 with a paired se of 0.06 (close: 0.10 < 0.118)
    or 0.04 (separated); alone leads call by 0.30 with se 0.1 and 0.12 (unpaired: 0.156,
    0.30 < 0.306 close) or 0.05 and 0.05 (0.071: separated); the stuck dealer's call leads
    alone by 1.0 with points se 0.3 each (0.42: separated)."""
    def cell(trumps, may_pass, call, alone, call_se, alone_se):
        return {"round": 2 if not may_pass else 1, "seat": 4 if not may_pass else 1,
                "trumps": trumps, "bowers": "none", "aces": "0", "n": 100,
                "may_pass": may_pass, "pass_mean_points": 0.0 if may_pass else np.nan,
                "call_mean_points": call, "alone_mean_points": alone,
                "pass_mean_points_se": 0.1, "call_mean_points_se": 0.3,
                "alone_mean_points_se": 0.3, "call_gain": call, "alone_gain": alone,
                "call_gain_se": call_se, "alone_gain_se": alone_se}
    cells = pd.DataFrame([cell(1, True, 0.10, -1.0, 0.06, 0.1),
                          cell(2, True, 0.10, -1.0, 0.04, 0.1),
                          cell(3, True, 0.50, 0.80, 0.10, 0.12),
                          cell(4, True, 0.50, 0.80, 0.05, 0.05),
                          cell(5, False, 1.0, 0.0, np.nan, np.nan)])
    got = decide(cells, 4)
    assert list(got["action"]) == ["call", "call", "alone", "alone", "call"]
    assert list(got["close"]) == [True, False, True, False, False]


def test_the_printed_chart_marks_its_close_calls(human_run, tmp_path):
    """The HTML chart marks exactly the cells `decide` finds close, with the legend's mark."""
    from euchre_sim.report.chart import CLOSE_MARK

    path = tmp_path / "chart.html"
    run_cli(["chart", str(human_run), "--output", str(path)])
    page = path.read_text(encoding="utf-8")
    cells = _cells(human_run)
    assert 0 < cells["close"].sum() < len(cells)
    assert page.count("data-close='1'") == cells["close"].sum()
    assert page.count(f">{CLOSE_MARK}") == cells["close"].sum()
    assert "close call" in page
