"""`review` and the valuation of play decisions: dd values against plain minimax, PIMC means
against the mean over every world, bids against the naive dd auction, the CLI's files."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre_sim.advice.bid_options import bid_options, bid_question
from euchre_sim.advice.position import Valuer, card_options, defence_options
from euchre_sim.advice.review import ReviewSettings, review_hand
from euchre_sim.core.cards import cards_of
from euchre_sim.core.seats import SEAT_NAMES, team_of
from euchre_sim.game.engine import HandState
from euchre_sim.game.history import replay_hand, replay_record, state_to_record
from euchre_sim.game.selfplay import play_games
from euchre_sim.play.player import Player
from euchre_sim.solver.calltable import analyze_deals

from . import naive
from .conftest import RULE_SETS
from .helpers import replayed_to_play, run_cli
from .kernels import random_hand_record


def _replayed_until(rules, seed: int, index: int, plays: int) -> HandState | None:
    """The random engine's hand `index`, replayed up to `plays` cards (None: passed out or
    shorter)."""
    final = replay_record(random_hand_record(rules, seed, index), rules)
    if final.passed_out:
        return None
    state = replayed_to_play(final)
    moves = [move for trick in final.tricks for move in trick.plays][:plays]
    if len(moves) < plays:
        return None
    for seat, card in moves:
        state.play(seat, card)
    return state if state.phase == "play" else None


def _naive_points(state: HandState, seat: int, card: int, hands=None) -> int:
    """Points to `seat`'s side when it plays `card` and all play perfectly (plain minimax of
    tests/naive.py; `hands`: another world than the true one)."""
    rules = state.rules
    hands = list(hands if hands is not None else state.hands)
    hands[seat] &= ~(1 << card)
    trick = state.tricks[-1]
    active = [s not in state.out for s in range(4)]
    plays = tuple(c for _, c in trick.plays) + (card,)
    ns = naive.brute_force_ns_tricks(hands, state.trump, trick.leader, active, rules.yooker,
                                     plays)
    maker_team = team_of(state.maker)
    left = 5 - sum(1 for t in state.tricks if t.winner >= 0)
    makers = state.team_tricks()[maker_team] + (ns if maker_team == 0 else left - ns)
    points = naive.call_points(rules, makers, state.maker_alone, state.defender_alone >= 0)
    return points if team_of(seat) == maker_team else -points


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 10_000),
       plays=st.integers(6, 17))
def test_every_cards_dd_value_is_plain_minimax_on_the_true_deal(name, seed, plays):
    rules = RULE_SETS[name]
    state = next((s for i in range(20) if (s := _replayed_until(rules, seed, i, plays))), None)
    if state is None:
        return
    seat = state.turn
    options = card_options(state, Valuer(2, seed), 0)
    assert sorted(o["card"] for o in options) == cards_of(state.legal_cards(seat))
    for option in options:
        assert option["dd"] == _naive_points(state, seat, option["card"]), option["option"]


def _records_of_a_game(rules, play: str, seed: int) -> list[dict]:
    hands = play_games(rules, 1, seed, play=play)
    return [state_to_record(hand.state, n) for n, hand in enumerate(hands, 1)]


@pytest.mark.parametrize("name", ["standard", "online", "benny_nt"])
def test_a_game_played_double_dummy_reviews_with_zero_dd_loss_on_every_card(name):
    rules = RULE_SETS[name]
    review = ReviewSettings(Player(worlds=2), seed=1)
    rows = [row for n, rec in enumerate(_records_of_a_game(rules, "dd", 5))
            for row in review_hand(replay_hand(rec, rules), rec["id"], n, review)]
    cards = [r for r in rows if r["kind"] in ("card", "discard")]
    assert len(cards) > 20
    assert all(r["dd_loss"] == 0 for r in cards), [r for r in cards if r["dd_loss"]]


def test_a_card_that_loses_a_sure_trick_loses_the_solvers_difference():
    """Reviewed loss = best naive value minus the chosen card's, on every card of random
    hands from the 8th card on; and some card in them does lose (the check can fail)."""
    rules = RULE_SETS["standard"]
    review = ReviewSettings(Player(worlds=2), seed=3)
    losses = 0
    for index in range(12):
        rec = random_hand_record(rules, 77, index)
        final = replay_hand(rec, rules)
        if final.state.passed_out:
            continue
        rows = [r for r in review_hand(final, index, index, review) if r["kind"] == "card"]
        for row in rows[7:]:
            state = _replayed_until(rules, 77, index, rows.index(row))
            seat = SEAT_NAMES.index(row["seat"])
            values = {rules.card_deck.card_name(c): _naive_points(state, seat, c)
                      for c in cards_of(state.legal_cards(seat))}
            assert row["dd_loss"] == max(values.values()) - values[row["chosen"]]
            losses += row["dd_loss"] > 0
    assert losses > 0


def _worlds_of(state: HandState, seat: int) -> list[list[int]]:
    """Every deal `seat` cannot tell from the true one (no void shown in these positions):
    its own hand kept, each other seat in play as many unseen cards as it holds, the upcard
    kept in the dealer's hand while unplayed."""
    known = state.hands[seat]
    played = sum(1 << c for t in state.tricks for _, c in t.plays)
    fixed = [0, 0, 0, 0]
    fixed[seat] = known
    took_up = state.bids[-1].action == "order_up" and state.dealer not in state.out
    unseen = state.rules.card_deck.mask & ~known & ~played
    if not took_up:
        unseen &= ~(1 << state.upcard)
    elif seat == state.dealer:
        unseen &= ~(1 << state.discarded)
    elif state.hands[state.dealer] >> state.upcard & 1:
        fixed[state.dealer] = 1 << state.upcard
        unseen &= ~fixed[state.dealer]
    others = [s for s in range(4) if s != seat and s not in state.out]
    sizes = [bin(state.hands[s]).count("1") - bin(fixed[s]).count("1") for s in others]
    worlds = []

    def place(i: int, left: list[int], hands: list[int]):
        if i == len(others):
            worlds.append(hands)
            return
        for chosen in itertools.combinations(left, sizes[i]):
            rest = [c for c in left if c not in chosen]
            new = list(hands)
            new[others[i]] = fixed[others[i]] | sum(1 << c for c in chosen)
            place(i + 1, rest, new)

    place(0, cards_of(unseen), list(fixed))
    return worlds


def test_pimc_values_on_small_endgames_match_the_mean_over_every_world():
    """Plain worlds (no inference, no void shown): each option's PIMC mean over 3,000 sampled
    worlds lies within 4.5 standard errors of its exact mean over every world."""
    rules = RULE_SETS["standard"]
    checked = 0
    for index in range(200):
        state = _replayed_until(rules, 13, index, 13)
        if state is None or state.failed_follow:
            continue
        seat = state.turn
        if len(cards_of(state.legal_cards(seat))) < 2:
            continue
        worlds = _worlds_of(state, seat)
        if len(worlds) > 4000:
            continue
        options = card_options(state, Valuer(3000, index, true_deal=False), 0)
        for option in options:
            exact = np.mean([_naive_points(state, seat, option["card"], w) for w in worlds])
            assert abs(option["pimc"] - exact) <= 4.5 * option["pimc_se"] + 1e-9, option
        checked += 1
        if checked == 3:
            return
    pytest.fail(f"only {checked} small endgames found")


def _outcome(calls):
    """outcome(round, position, trump, alone[, j]) read from a call table by its documented
    layout (core.calls)."""
    def outcome(round_no, pos, trump, alone, j=None):
        row = (pos - 1) * 2 + alone if round_no == 1 else 8 + ((pos - 1) * 5 + trump) * 2 + alone
        if j is not None:
            row = 48 + row * 2 + j
        return int(calls[row])
    return outcome


@pytest.mark.parametrize("name", ["standard", "online", "benny_nt", "deck28"])
def test_bids_dd_values_follow_the_naive_dd_auction(name):
    """On the true deal, a call is worth its contract after the defenders' choice and a pass
    the rest of the dd auction (tests/naive.py's backward induction, dealer turned to N)."""
    rules = RULE_SETS[name]
    checked = 0
    for index in range(16):
        final = replay_record(random_hand_record(rules, 21, index), rules)
        state = HandState(rules, final.dealer, final.dealt, final.upcard)
        rotated = [state.dealt[(final.dealer + s) % 4] for s in range(4)]
        calls = analyze_deals(rules, np.array([rotated], dtype=np.uint64),
                              np.array([state.upcard]), 0, exact=True, defence=True)[0]
        outcome = _outcome(calls)
        _, values = naive.dd_auction(rules, outcome, state.upcard)
        for bid in final.bids:
            turn = (state.round - 1) * 4 + state.position(state.turn) - 1
            side = 1 if state.position(state.turn) % 2 == 0 else -1
            question = bid_question(state, Player("dd"), 4, index)
            for option in bid_options(state, question, [state.dealt]):
                label = option["option"]
                if label["action"] == "pass":
                    want = side * values[turn + 1]
                else:
                    trump = rules.card_deck.parse_suit(label["suit"])
                    want = naive.dd_defence(rules, outcome, (state.round,
                                            state.position(state.turn), trump, label["alone"]))
                assert option["dd"] == want, (index, turn, label)
                checked += 1
            state.bid(bid)
    assert checked > 40


def test_review_cli_writes_rows_and_per_seat_totals(tmp_path):
    rules = RULE_SETS["standard"]
    records = _records_of_a_game(rules, "rules", 2)[:3]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "review"
    result = run_cli(["review", str(path), "--worlds", "4", "--json", "--out", str(out)])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    moves = sum(len(r["bids"]) + (r["discard"] is not None) + sum(len(t["plays"])
                for t in r["tricks"]) for r in records)
    assert len(rows) == moves
    for row in rows:
        assert row["kind"] in ("bid", "discard", "defend_alone", "card")
        assert row["dd_loss"] is None or row["dd_loss"] >= 0
        assert any(o["option"] == row["chosen"] for o in row["options"])
    table = pd.read_parquet(out / "review.parquet")
    assert len(table) == moves
    info = json.loads((out / "run.json").read_text())
    assert sum(seat["decisions"] for seat in info["seats"].values()) == moves
    text = run_cli(["review", str(path), "--worlds", "4", "--no-progress"]).output
    assert "points lost by seat" in text


def test_review_rejects_a_bad_line_with_its_reason_and_an_unreadable_file(tmp_path):
    rules = RULE_SETS["standard"]
    good = _records_of_a_game(rules, "rules", 4)[0]
    bad = dict(good, id=99, upcard="ZZ")
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\nnot json\n")
    result = run_cli(["review", str(path), "--worlds", "2", "--json"], code=1)
    errors = [json.loads(x) for x in result.stdout.splitlines() if '"ok": false' in x]
    assert [e["id"] for e in errors] == [None, 99] or [e["id"] for e in errors] == [99, None]
    missing = run_cli(["review", str(tmp_path / "nope.jsonl")], code=2)
    assert "cannot read" in missing.output


def test_valuing_only_some_kinds_gives_those_rows_unchanged():
    rules = RULE_SETS["online"]
    records = _records_of_a_game(rules, "rules", 6)[:3]
    full, cards = [], []
    for n, rec in enumerate(records):
        final = replay_hand(rec, rules)
        full += list(review_hand(final, n, n, ReviewSettings(Player(worlds=6), seed=2)))
        cards += list(review_hand(final, n, n, ReviewSettings(Player(worlds=6), seed=2,
                                                              kinds=("card",))))
    assert cards == [r for r in full if r["kind"] == "card"] and cards


def test_defend_alone_options_are_plain_minimax_on_the_true_deal():
    """Defending alone or not, each valued by tests/naive.py's minimax from the opening lead
    of the hand that option makes (the lone defender's partner out, its points doubled)."""
    rules = RULE_SETS["benny_nt"]
    assert rules.defend_alone
    checked = 0
    for index in range(60):
        final = replay_record(random_hand_record(rules, 9, index), rules)
        if final.passed_out:
            continue
        state = HandState(rules, final.dealer, final.dealt, final.upcard)
        for bid in final.bids:
            state.bid(bid)
        if state.phase == "discard":
            state.discard(final.discarded)
        seat = state.defenders()[0]
        options = {o["option"]: o["dd"]
                   for o in defence_options(state, seat, Valuer(2, index), 0)}
        for label, alone in (("partner", None), ("alone", seat)):
            after = replayed_to_play(final, alone)
            active = [s not in after.out for s in range(4)]
            ns = naive.brute_force_ns_tricks(after.hands, after.trump, after.opening_leader(),
                                             active, rules.yooker)
            makers = ns if team_of(after.maker) == 0 else 5 - ns
            points = naive.call_points(rules, makers, after.maker_alone, alone is not None)
            assert options[label] == -points, (index, label)
        checked += 1
        if checked == 4:
            return
    pytest.fail(f"only {checked} hands")


EGN_GAME = "tests/data/egn/VWEC Finals.egn"


def test_a_real_egn_game_reviews_every_card_with_exact_dd_values():
    """The VWEC final (people's game, EGN): one row per card the file records (counted from
    the file's JSON itself), every card's dd value plain minimax on the replayed hand (the
    hidden discards and a loner's partner are out of play), hidden discards not reviewed, and
    the bids of hands with hidden cards marked sampled."""
    from euchre_sim.advice.review import read_hands

    with open(EGN_GAME, encoding="utf-8") as handle:
        document = json.load(handle)
    cards_in_file = sum(len(trick) for deal in document["deals"] for phase in deal["phases"]
                        if phase["type"] == "TRICK_PLAY" for trick in phase["tricks"])
    rules, hands, errors = read_hands(EGN_GAME, RULE_SETS["standard"])
    assert not errors and len(hands) == len(document["deals"])
    settings = ReviewSettings(Player(worlds=4), seed=5)
    rows = [row for index, (record_id, hand) in enumerate(hands)
            for row in review_hand(hand, record_id, index, settings)]
    cards = [r for r in rows if r["kind"] == "card"]
    assert len(cards) == cards_in_file
    assert not [r for r in rows if r["kind"] == "discard"]  # EGN does not record them
    hidden = [hand for _, hand in hands if any(hand.filled)]
    assert hidden and all(r.get("sampled") for r in rows if r["kind"] == "bid"
                          and any(dict(hands)[r["id"]].filled))
    checked = 0
    for record_id, hand in hands[:6]:
        final = hand.state
        state = replayed_to_play(final)
        moves = [m for t in final.tricks for m in t.plays]
        mine = [r for r in cards if r["id"] == record_id]
        for number, (seat, card) in enumerate(moves):
            if number >= 8:
                values = {rules.card_deck.card_name(c): _naive_points(state, seat, c)
                          for c in cards_of(state.legal_cards(seat))}
                row = mine[number]
                assert {o["option"]: o["dd"] for o in row["options"]} == values
                checked += 1
            state.play(seat, card)
    assert checked > 40


def test_the_cli_reviews_an_egn_file(tmp_path):
    out = run_cli(["review", EGN_GAME, "--worlds", "4", "--kinds", "card", "--out",
                   str(tmp_path / "r")]).output
    assert "13 hands reviewed, 0 rejected" in out
    assert len(pd.read_parquet(tmp_path / "r" / "review.parquet")) > 200


def test_review_writes_egn_that_replays_with_each_loss_annotated(tmp_path):
    """`review --egn`: the reviewed real game as EGN again (it replays, deal for deal), the
    hidden cards still hidden, and an annotation exactly where a bid or card lost points."""
    out = tmp_path / "reviewed.egn"
    rows = [json.loads(line) for line in run_cli(
        ["review", EGN_GAME, "--worlds", "4", "--json", "--egn", str(out)]).output.splitlines()]
    document = json.loads(out.read_text())
    assert run_cli(["replay", str(out)]).output.strip().endswith("13 ok, 0 rejected")
    with open(EGN_GAME, encoding="utf-8") as handle:
        original = json.load(handle)
    for deal, before in zip(document["deals"], original["deals"], strict=True):
        assert deal["phases"][1]["tricks"] == next(
            p["tricks"] for p in before["phases"] if p["type"] == "TRICK_PLAY")
    for number, deal in enumerate(document["deals"]):
        mine = [r for r in rows if r["id"] == number + 1]  # EGN deals count from 1 here
        for kind, phase, key in (("bid", 0, "callAnnotations"), ("card", 1, "playAnnotations")):
            lost = {str(i) for i, r in enumerate(x for x in mine if x["kind"] == kind)
                    if (r["dd_loss"] or 0) > 1e-9 or (r["pimc_loss"] or 0) > 1e-9}
            assert set(deal["phases"][phase].get(key, {})) == lost
    assert any("playerCards" not in d["initialState"] for d in document["deals"])


def test_every_real_egn_game_and_the_ptn_file_review():
    """All the real games of tests/data/egn (and the PTN file): every deal replays and
    reviews, one card row per card the file records (counted from the file's JSON)."""
    from euchre_sim.advice.review import read_hands, review_states

    paths = sorted(str(p) for p in Path("tests/data/egn").rglob("*.egn"))
    assert len(paths) >= 20
    settings = ReviewSettings(Player(worlds=2), seed=0, kinds=("bid", "card"))
    for path in paths:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        cards = sum(len(trick) for deal in document["deals"] for phase in deal["phases"]
                    if phase["type"] == "TRICK_PLAY" for trick in phase["tricks"])
        _, hands, errors = read_hands(path, RULE_SETS["standard"])
        assert not errors and len(hands) == len(document["deals"]), path
        rows = review_states(hands, settings)
        assert sum(r["kind"] == "card" for r in rows) == cards, path
    _, hands, errors = read_hands("tests/data/ptn/vwec-two-deals.ptn", RULE_SETS["standard"])
    assert not errors and len(hands) == 2
    assert review_states(hands, settings)
