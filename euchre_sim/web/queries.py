"""The queries the worker runs, computed as the CLI computes them: `advise --json` and
`solve --json` objects; and the warm-up that loads the kernels and measures their speed."""

from __future__ import annotations

import dataclasses
import time

from ..api.catalog import DamagedInstall, RuleSet
from ..api.options import rules_of
from ..api.questions import AdviceQuestion, answer, solved_deal
from .bodies import advise_question, rate_key
from .worker import Measured, Query

# The warm-up's questions: every kernel an advise or a solve calls, with the speed of each
# kind of query measured on the way (work units a second, as the worker measures jobs).
WARM_HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
WARM_QUERIES = ({"deals": 2_000, "play": "dd"}, {"deals": 1_000, "play": "rules"},
                {"deals": 10, "play": "pimc", "worlds": 50},
                {"deals": 500, "bidding": "human"}, {"deals": 500, "bidding": "dd"},
                {"deals": 500})  # the last: the default, a table of people
WARM_DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"


def advise_query(question: AdviceQuestion) -> Query:
    """The `advise --json` object of a checked question (bodies.advise_question)."""
    return lambda progress: answer(question, progress)


def solve_query(rules: RuleSet, hands: list[int], dealer: int) -> Query:
    """The `solve --json` object of one deal."""
    return lambda progress: solved_deal(rules, hands, dealer)


def warm_up(measured: Measured) -> None:
    """Run a small query of every kind (the kernels load from Numba's cache, or compile),
    measured(kind, work units a second) for each, and the page's default question (the
    atlas's files checked and opened). A kind that needs a damaged file of the install is
    left cold and the others warmed; then the first DamagedInstall is raised."""
    damaged = []
    solved_deal(rules_of(), rules_of().card_deck.parse_deal(WARM_DEAL), 3)
    for extra in WARM_QUERIES:
        question = advise_question(WARM_HAND | extra)
        try:
            answer(dataclasses.replace(question, deals=2))  # loads (or compiles), untimed
        except DamagedInstall as err:
            damaged.append(err)
            continue
        start = time.perf_counter()
        answer(question)
        measured(rate_key(question), question.work_units / (time.perf_counter() - start))
    try:
        answer(advise_question(WARM_HAND))
    except DamagedInstall as err:
        damaged.append(err)
    if damaged:
        raise damaged[0]
