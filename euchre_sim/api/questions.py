"""Questions as the page asks them: an advice question built from its fields and checked before
it waits (`ask_any`: the bid, an `AdviceQuestion`, or with ``trump`` a decision during the
play, a `PlayQuestion`), answered as `advise --json` prints it (`answer`); and one deal's
double-dummy table as `solve --json` prints it (`solved_deal`).

`euchre_sim.advise` asks and answers in one call; these names are the two steps apart, for a
server that checks a question at once and answers it later. They are read from the advice
wing on first use (PEP 562).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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


def __getattr__(name: str):
    """A name of the advice wing, imported on first use (PEP 562)."""
    if name not in _LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LATER[name]
    value = getattr(importlib.import_module(module, __package__), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


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
