"""Questions as the page asks them: an advice question built from its fields and checked before
it waits (`ask_any`: the bid, an `AdviceQuestion`, or with ``trump`` a decision during the
play, a `PlayQuestion`), answered as `advise --json` prints it (`answer`); and one deal's
double-dummy table as `solve --json` prints it (`solved_deal`).

`euchre_sim.advise` asks and answers in one call; these names are the two steps apart, for a
server that checks a question at once and answers it later. They are read from the advice
wing on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy_names import lazy_names

if TYPE_CHECKING:
    from ..advice.advice_request import answer, ask_any
    from ..advice.play_question import PlayQuestion
    from ..advice.question import PATH_FIELDS, AdviceQuestion, models_of
    from ..core.rules import RuleSet

# the names read when first used: (module, its name there) by name
_LATER = {
    "answer": ("..advice.advice_request", "answer"),
    "ask_any": ("..advice.advice_request", "ask_any"),
    "PlayQuestion": ("..advice.play_question", "PlayQuestion"),
    "AdviceQuestion": ("..advice.question", "AdviceQuestion"),
    "PATH_FIELDS": ("..advice.question", "PATH_FIELDS"),
    "models_of": ("..advice.question", "models_of"),
}

__all__ = ["PATH_FIELDS", "AdviceQuestion", "PlayQuestion", "answer", "ask_any", "models_of",
           "solved_deal"]


__getattr__, __dir__ = lazy_names(__name__, _LATER, __all__)


def solved_deal(rules: RuleSet, hands: list[int], dealer: int) -> dict:
    """One deal's double-dummy table, the object `solve --json` prints for it.

    Parameters
    ----------
    rules : RuleSet
        The rules it is solved under.
    hands : list of int
        The four hands, N E S W, as the rules' deck parses a deal
        (``rules.card_deck.parse_deal``).
    dealer : int
        The dealer's seat, 0-3 (N E S W).

    Returns
    -------
    dict
        ``{"dealer": "W", "table": [...]}``, a row of the table per (trump, lone player,
        leader), as `euchre_sim.solve`'s rows.

    Examples
    --------
    >>> from euchre_sim.api.catalog import preset
    >>> from euchre_sim.api.questions import solved_deal
    >>> rules = preset("standard")
    >>> hands = rules.card_deck.parse_deal(
    ...     "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS")
    >>> solved = solved_deal(rules, hands, 3)
    >>> solved["dealer"], solved["table"][10]
    ('W', {'trump': 'H', 'alone': None, 'leader': 'N', 'ns_tricks': 4, 'ew_tricks': 1})
    """
    from ..core.seats import seat_name
    from ..solver.calltable import solve_table

    return {"dealer": seat_name(dealer), "table": solve_table(rules, hands, dealer)}
