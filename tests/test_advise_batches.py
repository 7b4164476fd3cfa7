"""advise in batches of deals (for progress and cancellation) gives the answer of one batch:
deal i depends only on (seed, i), and the transposition table only caches exact values."""

import numpy as np
import pytest

from euchre_sim.advice.advise import advise
from euchre_sim.advice.auction_advice import reached_deals
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.rules import build_rules
from euchre_sim.play.player import Player

HAND = ("JS AS 9H 9D TC", 1, "9S")


@pytest.mark.parametrize("play, deals", [("dd", 600), ("rules", 600), ("pimc", 12)])
def test_batches_do_not_change_the_answer(play, deals):
    rules = build_rules("online", ["no_trump=true"])
    hand, seat, up = HAND
    question = AdviceQuestion(rules, hand, seat, up, deals=deals, seed=5,
                              player=Player(None, play, 5))
    whole = advise(question, batch=deals)
    pieces = advise(question, batch=7)
    assert pieces == whole


def test_progress_counts_every_deal_of_every_model():
    reports = []
    advise(AdviceQuestion(build_rules(), *HAND, deals=50, player=Player(play="rules")), batch=20,
           progress=lambda done, total: reports.append((done, total)))
    assert reports == [(20, 100), (40, 100), (50, 100), (70, 100), (90, 100), (100, 100)]


def test_a_progress_callback_that_raises_stops_the_advice():
    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop

    with pytest.raises(Stop):
        advise(AdviceQuestion(build_rules(), *HAND, deals=500, player=Player()), batch=100,
               progress=stop)


@pytest.mark.parametrize("seat", [1, 3])
def test_reached_deals_in_batches_keep_the_same_deals(seat):
    rules = build_rules()
    q = AdviceQuestion(rules, "JS AS 9H 9D TC", seat, "9S", deals=200, seed=3,
                       player=Player("rules"))
    whole = reached_deals(q, batch=10**6)
    reports = []
    pieces = reached_deals(q, batch=13,
                           progress=lambda done, total: reports.append((done, total)))
    assert pieces["tried"] == whole["tried"]
    for key in ("contracts", "choices", "values", "indices", "exact"):
        assert (pieces[key] == whole[key]).all(), key
    assert reports[-1] == (200, 200)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)


@pytest.mark.parametrize("seat, play", [(3, "pimc"), (4, "rules")])
def test_reached_deals_in_worker_processes_are_the_deals_of_one_process(seat, play):
    """Batches tried in two worker processes, some past the last deal needed: the same deals,
    the same count tried and the same worlds' counters as one batch in this process."""
    q = AdviceQuestion(build_rules(), "JS AS 9H 9D TC", seat, "9S", deals=24, seed=3,
                       player=Player("rules", play, 5))
    whole = reached_deals(q, batch=10**6)
    pieces = reached_deals(q, batch=5, workers=2)
    assert pieces["tried"] == whole["tried"] > 24
    assert (pieces["worlds"] == whole["worlds"]).all()
    if play == "pimc":
        assert whole["worlds"][0] > 0
    for key in ("contracts", "choices", "values", "indices", "exact"):
        assert (pieces[key] == whole[key]).all(), key


def test_an_answer_holds_about_a_third_of_a_kilobyte_a_deal_with_the_bidding():
    """Issue 77 item 5: the deals an answer under a bidder keeps took 2.6 KB each as 64-bit
    numbers (500,000 deals: 2.7 GB, the docs said 750 MB); each is now held in the
    narrowest type that keeps it whole, about 0.3 KB a deal (docs/commands.md's limits)."""
    q = AdviceQuestion(build_rules(), "JS AS 9H 9D TC", 1, "9S", deals=300, seed=5,
                       player=Player("rules", "dd"))
    kept = reached_deals(q)
    arrays = [value for value in kept.values() if isinstance(value, np.ndarray)
              and len(value) == 300]
    assert {"contracts", "choices", "values", "exact"} <= {
        key for key, value in kept.items() if any(value is a for a in arrays)}
    assert sum(a.nbytes for a in arrays) / 300 <= 320
