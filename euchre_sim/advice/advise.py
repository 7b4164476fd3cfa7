"""Advice for one hand: deal the unseen cards at random around it and solve every deal.

Deal i of seed s shuffles the unseen cards with the counter-based generator of `core.dealing`
(key(s, i)), so the sampled deals are reproducible and independent of batching.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..core.calls import N_ROWS
from ..core.dealing import Deal, deal_key, seed_to_u64, shuffle
from ..core.jit import njit
from ..core.ruletables import compile_rules
from ..core.seats import seat_at
from ..core.stats import bounded_figures, mean_se
from ..play.pimc import inference_of, new_pimc_work
from ..play.player import Player
from ..play.playout import ALL_ROWS, call_play_deal, new_play_work, searches
from ..solver.calltable import call_analyze_deal
from ..solver.search import new_tt, new_work
from .possible_scores import action_scores
from .question import AdviceQuestion, call_actions, describe_question
from .separation import points_margin, stated_best

Progress = Callable[[int, int], None]  # (done, total): called between batches; may raise to stop


class SampledDeals(NamedTuple):
    """A question's deals as the kernels read them: deal i deals the `unseen` cards by the
    `seed` around the `hand` (a mask) at `seat` (`deal_around`), N dealing; the card turned
    up or down (`ref_card`), the round (`round_no`) and the seat's `position`."""

    unseen: np.ndarray
    seed: np.uint64
    seat: int
    hand: np.uint64
    ref_card: int
    round_no: int
    position: int


def sampled_deals(question: AdviceQuestion) -> SampledDeals:
    """The question's deals (`SampledDeals`)."""
    q = question.cards
    return SampledDeals(q.unseen, seed_to_u64(question.seed), q.seat, np.uint64(q.hand),
                        q.ref_card, q.round_no, q.position)


@njit
def deal_around(unseen, seed, index, seat, hand, hands, work):
    """Seat keeps `hand`; the other three seats get five unseen cards each, in turn."""
    for j in range(unseen.shape[0]):  # a loop: a slice copy compiles its shape error's text
        work[j] = unseen[j]
    shuffle(deal_key(seed, np.uint64(index)), work, work.shape[0])
    k = 0
    for offset in range(1, 4):
        other = seat_at(seat, offset)
        mask = np.uint64(0)
        for _ in range(5):
            mask |= np.uint64(1) << np.uint64(work[k])
            k += 1
        hands[other] = mask
    hands[seat] = hand


@njit
def _solve_batch(tb, sampled, start, stop, tt, out):
    """Call tables of the seat's round of sampled deals start..stop-1 (into the same rows of
    `out`), solved."""
    unseen, seed, seat, hand, ref_card, rounds, pos = sampled
    hands = np.zeros(4, dtype=np.uint64)
    work = np.empty_like(unseen)
    solver_work = new_work()
    deal = Deal(hands, ref_card, 0)
    for i in range(start, stop):
        deal_around(unseen, seed, i, seat, hand, hands, work)
        call_analyze_deal(tb, deal, False, pos, rounds, tt, solver_work, out[i])


@njit
def _play_batch(tb, sampled, start, stop, player, inference, tt, out):
    """Call tables of the seat's round of sampled deals start..stop-1 (into the same rows of
    `out`), played out by `player`'s model (a record, `play.player`; a kernel of its own: a
    double-dummy question compiles no player); tt None where the model searches nothing
    (`play.playout.searches`)."""
    unseen, seed, seat, hand, ref_card, rounds, pos = sampled
    hands = np.zeros(4, dtype=np.uint64)
    work = np.empty_like(unseen)
    pimc_work = new_pimc_work(inference, player.nets)
    cards = new_play_work((player.play, player.play), tb, player.worlds, (pimc_work, pimc_work))
    deal = Deal(hands, ref_card, 0)
    for i in range(start, stop):
        deal_around(unseen, seed, i, seat, hand, hands, work)
        call_play_deal(cards, deal, deal_key(seed, np.uint64(i)), pos, rounds, ALL_ROWS, tt,
                       out[i])


def mean_figures(points: np.ndarray, scores: tuple[int, int]) -> dict:
    """n, mean points (each within `scores`, the action's fewest and most:
    `possible_scores`), its 95% interval within them (never of zero width where they differ:
    `core.stats.bounded_interval95`) and the standard error stated beside it."""
    mean, se = mean_se(points)
    se, interval = bounded_figures(mean, se, len(points), *scores)
    return {"n": len(points), "mean_points": mean, "points_se": se, "ci95": interval}


def rates(tricks: np.ndarray) -> dict:
    """Make, march and euchred rates of makers' tricks."""
    return {"make_rate": float((tricks >= 3).mean()),
            "march_rate": float((tricks == 5).mean()),
            "euchred_rate": float((tricks < 3).mean())}


def figures(tables, tricks: np.ndarray, alone: bool, scores: tuple[int, int]) -> dict:
    """Rates and mean points (with standard error and 95% interval; points within `scores`)
    of makers' tricks, both defenders playing."""
    return rates(tricks) | mean_figures(tables.score[int(alone), 0, tricks], scores)


def batch_size(player: Player) -> int:
    """Deals a kernel call handles between progress reports (well under a second each; small
    enough that the batches in flight when the last deal is kept cost little): the pace's."""
    return player.model.pace.batch


def batches(count: int, size: int) -> list[tuple[int, int]]:
    """(start, stop) ranges covering 0..count-1 in steps of `size`."""
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def part_of(progress: Progress | None, offset: int, total: int) -> Progress | None:
    """A stage's progress reported as part of a longer job: `offset + done` of `total`."""
    if progress is None:
        return None
    return lambda done, _: progress(offset + done, total)


def held_at(progress: Progress | None, done: int, total: int) -> Progress | None:
    """A step that adds no work units (the odds' DP) reported as `done` of `total`: each of
    its reports lets a cancel through."""
    if progress is None:
        return None
    return lambda *_: progress(done, total)


def advise(question: AdviceQuestion, progress: Progress | None = None,
           batch: int | None = None) -> dict:
    """Make, march and euchred rates and mean points of every call open to the hand, under
    the play model (and, for a model that plays out, double dummy on the same deals beside
    them).
    `progress(done, total)` is called after each batch of deals (`batch_size`); the batching
    does not change the answer, since deal i depends only on (seed, i)."""
    rules, player, deals, q = question.rules, question.player, question.deals, question.cards
    deck = rules.card_deck
    tables = compile_rules(rules)
    sampled = sampled_deals(question)
    tt = new_tt()
    record = player.record()
    play_tt = tt if searches(record.play, record.nets) else None
    solved = player.model.solved
    runs = (True,) if solved else (False, True)  # played out first, then solved beside
    results = {}
    steps = batches(deals, batch or batch_size(player))
    for done, solve in enumerate(runs):
        out = np.full((deals, N_ROWS), -1, dtype=np.int8)
        for start, stop in steps:
            if solve:
                _solve_batch(tables, sampled, start, stop, tt, out)
            else:
                _play_batch(tables, sampled, start, stop, record, inference_of(), play_tt, out)
            if progress is not None:
                progress(done * deals + stop, len(runs) * deals)
        results[solve] = out
    actions, per_deal, ranges = [], [], []
    for action, trump, alone, column in call_actions(rules, q.round_no, q.position,
                                                     q.ref_card):
        scores = action_scores(rules, q.round_no, q.position, q.ref_card, action, alone)
        entry = {"action": action, "suit": deck.suit_name(trump), "alone": alone}
        tricks = results[solved][:, column].astype(np.int64)
        entry |= figures(tables, tricks, alone, scores)
        if not solved:
            entry["dd"] = figures(tables, results[True][:, column].astype(np.int64), alone,
                                  scores)
        actions.append(entry)
        per_deal.append(tables.score[int(alone), 0, tricks])
        ranges.append(scores)
    margin = points_margin(actions, per_deal, ranges)
    order = sorted(range(len(actions)), key=lambda i: -actions[i]["mean_points"])
    return describe_question(question) | {
        "deals": deals, "play": player.play, "worlds": player.sampled_worlds,
        "best": stated_best(margin), "margin": margin,
        "actions": [actions[i] for i in order]}
