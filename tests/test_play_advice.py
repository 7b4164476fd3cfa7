"""`advise` during the play (`advice.play_question`): the position a player types reaches the
worlds exactly as the true hand would, and mistakes in it are named."""

from __future__ import annotations

import pytest

from euchre_sim.advice.play_question import PlayQuestion, answer_play
from euchre_sim.advice.position import Valuer, card_options
from euchre_sim.core.errors import UserError
from euchre_sim.core.rules import build_rules
from euchre_sim.game.engine import HandState
from euchre_sim.game.history import replay_record
from euchre_sim.play.player import Player

from .conftest import RULE_SETS
from .helpers import run_cli
from .kernels import random_hand_record

STD = build_rules("standard")


def _seat_view(state: HandState) -> dict:
    """The PlayQuestion fields of the seat to act, as that player would type them."""
    deck = state.rules.card_deck
    seat = state.dealer if state.phase == "discard" else state.turn
    call = state.bids[-1]
    ref = deck.card_name(state.upcard)
    played = " / ".join(" ".join(deck.card_name(c) for _, c in t.plays)
                        for t in state.tricks if t.plays)
    fields = {"seat": state.position(seat), "trump": deck.suit_name(state.trump),
              "maker": state.position(state.maker), "alone": state.maker_alone,
              ("up" if call.round == 1 else "turned_down"): ref, "played": played}
    if state.phase == "discard":
        fields["discard_from"] = deck.format_hand(state.hands[seat])
    else:
        fields["hand"] = deck.format_hand(state.hands[seat])
        if seat == state.dealer and state.discarded >= 0:
            fields["discard"] = deck.card_name(state.discarded)
    return fields


def _positions(rules, seed: int):
    """Decision points of random hands dealt by N (the advice's frame), no lone defender."""
    for index in range(0, 400, 4):
        final = replay_record(random_hand_record(rules, seed, index), rules)
        if final.passed_out or final.defender_alone >= 0:
            continue
        state = HandState(rules, final.dealer, final.dealt, final.upcard)
        for bid in final.bids:
            state.bid(bid)
        if state.phase == "discard":
            yield state
            state.discard(final.discarded)
        if state.phase == "defend":
            state.defend(None)
        for trick in final.tricks:
            for seat, card in trick.plays:
                yield state
                state.play(seat, card)


@pytest.mark.parametrize("name", ["standard", "online", "deck28"])
def test_a_typed_position_gives_the_true_hands_worlds_exactly(name):
    """Only the seat's own cards and what all saw reach the worlds: the typed position (a
    stand-in deal behind it) values every option exactly as the true hand does."""
    rules = RULE_SETS[name]
    checked = 0
    for k, state in enumerate(_positions(rules, 31)):
        if k % 7:
            continue
        question = PlayQuestion(rules, seed=k, player=Player(worlds=12), **_seat_view(state))
        answer = answer_play(question)
        want = card_options(state, Valuer(12, k, true_deal=False), 0)
        assert {o["option"]: o["pimc"] for o in answer["options"]} == \
            {o["option"]: o["pimc"] for o in want}, _seat_view(state)
        checked += 1
        if checked == 25:
            return
    pytest.fail(f"only {checked} positions")


@pytest.mark.parametrize("fields, message", [
    ({"hand": "KS QH 9C TH", "played": "AD KD"}, "holds 4 cards"),
    ({"hand": "KS QH 9C TH 9D", "played": "AD KD 9D"}, "played and still held"),
    ({"hand": "KS QH 9C TH", "played": "AD KD 9D 9S / QC"}, "position 1's turn"),
    ({"hand": "KS QH 9C TH", "played": "AD KD AH 9S / QD TD"}, "renege"),
    ({"hand": "KS QH 9C TH 9D", "played": "AD KD", "discard": "TS"}, "dealer's to give"),
])
def test_mistakes_in_a_position_are_named(fields, message):
    with pytest.raises(UserError, match=message):
        PlayQuestion(STD, seat=3, trump="S", maker=4, up="9S", **fields)


def test_advise_cli_asks_the_next_card_and_refuses_bid_options_with_it():
    out = run_cli(["advise", "--hand", "KS QH 9C TH", "--up", "9S", "--seat", "3",
                   "--trump", "S", "--maker", "4", "--played", "AD KD 9D 9S / QC TC AC",
                   "--worlds", "40", "--json"]).output
    assert '"kind": "card"' in out and '"trick": 2' in out
    refused = run_cli(["advise", "--hand", "KS QH 9C TH 9D", "--up", "9S", "--seat", "3",
                       "--trump", "S", "--maker", "4", "--deals", "100"], code=2)
    assert "--deals is for the bid" in refused.output
