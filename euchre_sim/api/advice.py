"""`advise`: should this hand order up, call, go alone or pass (or, during the play, which
card), as an `Advice` whose actions are a DataFrame."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .options import checked_options, path_text, rules_of

if TYPE_CHECKING:
    import pandas as pd

    from ..core.rules import RuleSet

ADVISE_OPTIONS = ("set", "deals", "seed", "play", "worlds", "bidding", "bidder_params",
                  "bidder_table", "score", "odds", "trump", "maker", "alone", "played",
                  "discard_from", "discard")
_PATHS = ("bidder_params", "bidder_table", "odds")


@dataclass(frozen=True)
class Advice:
    """The answer to one `advise` question: `to_dict()` is the object `advise --json` prints.

    `actions` holds a row an action (during the play: a row a card), its columns the JSON's
    keys; an object-valued key (`dd`, double dummy beside) becomes columns prefixed by its
    name (`dd_mean_points`). `best` is the best action (None: too close to call) and `source`
    where the figures come from: "atlas" (the shipped realistic atlas) or "simulation".
    """

    answer: dict

    @property
    def actions(self) -> pd.DataFrame:
        import pandas as pd

        rows = self.answer.get("actions", self.answer.get("options", []))
        return pd.DataFrame([_flat(row) for row in rows])

    @property
    def best(self) -> dict | None:
        return copy.deepcopy(self.answer.get("best"))

    @property
    def source(self) -> str:
        return self.answer.get("source", "simulation")

    def to_dict(self) -> dict:
        """The `advise --json` object (a copy)."""
        return copy.deepcopy(self.answer)

    def _repr_html_(self) -> str:  # a notebook shows the actions' table
        return self.actions._repr_html_()


def _flat(row: dict) -> dict:
    """A row with each object-valued key spread into columns prefixed by its name."""
    flat = {}
    for key, value in row.items():
        if isinstance(value, dict):
            flat |= {f"{key}_{inner}": item for inner, item in value.items()}
        else:
            flat[key] = value
    return flat


def advise(hand: str | None = None, *, seat: int, up: str | None = None,
           turned_down: str | None = None, rules: str | RuleSet = "standard",
           workers: int = 1, progress: Callable[[int, int], None] | None = None,
           **options) -> Advice:
    """Advise one hand in one seat: every action's make, march and euchred rates and mean
    points, as `euchre-sim advise` answers it.

    Parameters
    ----------
    hand : str
        The cards held, e.g. ``"JS AS 9H 9D TC"``.
    seat : int
        The position from the dealer's left, 1-4 (4: the dealer).
    up, turned_down : str
        Round 1's upcard, or round 2's card turned down (exactly one).
    rules : str or RuleSet
        A preset's name (``euchre-sim rules``); ``set={"no_trump": True}`` changes it.
    workers : int
        Processes a simulated answer in the auction uses (the answer is the same).
    progress : callable, optional
        ``progress(done, total)`` between batches of a simulated answer.
    **options
        The command's other options, ``_`` for ``-``: ``deals``, ``seed``, ``play``,
        ``worlds``, ``bidding``, ``bidder_params``, ``bidder_table``, ``score`` ("8-9"),
        ``odds``; during the play ``trump``, ``maker``, ``alone``, ``played``,
        ``discard_from``, ``discard``.

    Returns
    -------
    Advice

    Raises
    ------
    euchre_sim.Error
        A bad card, seat or option: the line the command line prints.

    Examples
    --------
    With neither ``play`` nor ``bidding``, the answer at a table of people, read from the
    shipped atlas:

    >>> import euchre_sim
    >>> advice = euchre_sim.advise("JS AS 9H 9D TC", up="9S", seat=1)
    >>> advice.source
    'atlas'
    >>> advice.actions[["action", "alone", "mean_points"]].round(3)
         action  alone  mean_points
    0      pass  False       -0.367
    1  order_up  False       -0.581
    2  order_up   True       -1.730
    >>> try:
    ...     euchre_sim.advise("JS AS 9H 9D TC", up="9X", seat=1)
    ... except euchre_sim.Error as err:
    ...     print(err)
    unknown card '9X' (24-card deck: ranks 9 T J Q K A, suits C D H S)
    """
    from ..advice.advice_request import answer, ask_any

    given = checked_options(options, ADVISE_OPTIONS, "advise")
    ruleset = rules_of(rules, given.pop("set", None))
    given |= {name: path_text(given[name]) for name in _PATHS if name in given}
    if isinstance(given.get("score"), list | tuple):
        given["score"] = "-".join(str(s) for s in given["score"])
    fields = {"hand": hand, "seat": seat, "up": up, "turned_down": turned_down} | given
    question = ask_any(ruleset, fields)
    return Advice(answer(question, progress, workers))
