"""The queries the worker runs, computed as the CLI computes them: `advise --json` and
`solve --json` objects; and the warm-up's steps (`WARM_UP`), which load the kernels and
measure their speed: first what a practice hand calls, so that practice is served as soon as
it is ready, then advice and solve."""

from __future__ import annotations

import dataclasses
import functools
import time

from ..api.catalog import RuleSet
from ..api.games import PracticeSession
from ..api.options import rules_of
from ..api.questions import AdviceQuestion, answer, solved_deal
from .bodies import advise_question, rate_key
from .worker import PRACTICE, Measured, Query, Step

WARM_HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
WARM_DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
# The warm-up's practice hand, as the page deals it (a game at the table of people): the
# player deals (position 4), the others pass, the player orders up spades, discards 9C and
# plays out (leads and follows with a choice).
WARM_PRACTICE = {"position": 4, "seed": 0, "deal": 1, "table": "people", "game": True}
WARM_ORDER_UP = {"action": "order_up", "suit": "S", "alone": False}
WARM_DISCARD = "9C"


def advise_query(question: AdviceQuestion) -> Query:
    """The `advise --json` object of a checked question (bodies.advise_question)."""
    return lambda progress: answer(question, progress)


def solve_query(rules: RuleSet, hands: list[int], dealer: int) -> Query:
    """The `solve --json` object of one deal."""
    return lambda progress: solved_deal(rules, hands, dealer)


class WarmPractice:
    """The warm-up's practice hand, one step a phase (a step finding the hand not dealt, its
    deal having failed on a damaged install, deals it first and fails alike), after a deal
    alone."""

    def __init__(self) -> None:
        self.session: PracticeSession | None = None

    def deal(self, measured: Measured) -> None:
        """A hand dealt where the player bids first (page's first seat): the deal alone."""
        PracticeSession(rules_of(), **WARM_PRACTICE | {"position": 1}).state()

    def others_bid(self, measured: Measured) -> None:
        """The warm hand dealt and bid by the others up to the player's bid (the human
        bidder)."""
        self.session = PracticeSession(rules_of(), **WARM_PRACTICE)
        self.session.state()

    def bid(self, measured: Measured) -> None:
        """The player's order up valued (at the game's score) and taken."""
        self._act(WARM_ORDER_UP)

    def discard(self, measured: Measured) -> None:
        """The player's discard valued (worlds from the player's view) and taken, then the
        others' cards up to the player's (the learned player)."""
        self._act(WARM_DISCARD)

    def play(self, measured: Measured) -> None:
        """The player's cards valued and played to the hand's end."""
        while self._dealt().state()["decision"] is not None:
            self._act()

    def _act(self, action=None) -> None:
        """`action` (None: the first legal) valued and taken, and the state made."""
        session = self._dealt()
        session.state(session.act(session.state()["legal"][0] if action is None else action))

    def _dealt(self) -> PracticeSession:
        if self.session is None:
            self.others_bid(None)
        return self.session


def advice_step(extra: dict, measured: Measured) -> None:
    """A small question of one kind (the warm hand, `extra` added) loaded or compiled, then
    asked again and its speed measured (work units a second, as the worker measures jobs)."""
    question = advise_question(WARM_HAND | extra)
    answer(dataclasses.replace(question, deals=2))  # loads (or compiles), untimed
    start = time.perf_counter()
    answer(question)
    measured(rate_key(question), question.work_units / (time.perf_counter() - start))


def solve_step(measured: Measured) -> None:
    """A deal solved."""
    solved_deal(rules_of(), rules_of().card_deck.parse_deal(WARM_DEAL), 3)


def default_step(measured: Measured) -> None:
    """The page's default question (the atlas's files checked and opened)."""
    answer(advise_question(WARM_HAND))


def _advice(what: str, extra: dict, cold_seconds: float, cold_kernels: int) -> Step:
    return Step(what, functools.partial(advice_step, extra), "advice", cold_seconds,
                cold_kernels)


def warm_up_steps() -> list[Step]:
    """The warm-up, practice first: every kernel a practice hand and its feedback call, then
    every kernel an advise or a solve calls, with the speed of each kind of query measured on
    the way. A step that needs a damaged file of the install fails (`Worker`) and the others
    run. Each step's seconds and functions compiled on an empty Numba cache were measured in
    one run (`Worker.warm_up_state`'s steps; AMD EPYC, 2 cores shared with other jobs, load
    average about 6: 1,135 s in all, 314 functions); the wait is estimated from them at the
    pace of the run it is asked in."""
    practice = WarmPractice()
    return [
        Step("dealing a practice hand", practice.deal, PRACTICE, 43.0, 41),
        Step("the table's bids", practice.others_bid, PRACTICE, 86.0, 36),
        Step("valuing your bids", practice.bid, PRACTICE, 108.4, 54),
        Step("valuing your discard; the table's card play", practice.discard, PRACTICE,
             342.9, 80),
        Step("valuing your cards", practice.play, PRACTICE, 0.0, 0),  # compiled by the last
        Step("solving a deal", solve_step, "solve", 4.8, 2),
        _advice("advice: double-dummy play", {"deals": 2_000, "play": "dd"}, 3.1, 2),
        _advice("advice: the rules player", {"deals": 1_000, "play": "rules"}, 92.4, 15),
        _advice("advice: PIMC play", {"deals": 10, "play": "pimc", "worlds": 50}, 121.7, 10),
        _advice("advice: the auction bid by people", {"deals": 500, "bidding": "human"},
                215.0, 63),
        _advice("advice: the auction bid double dummy", {"deals": 500, "bidding": "dd"}, 0.2,
                0),
        _advice("advice: a table of people", {"deals": 500}, 117.3, 11),  # the default
        Step("the page's default question (the atlas)", default_step, "advice", 0.1, 0),
    ]
