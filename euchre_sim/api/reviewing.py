"""`review`: where the points went in recorded hands, every decision valued, as a
DataFrame."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from .options import checked_options, path_text, rules_of

if TYPE_CHECKING:
    import pandas as pd

    from ..core.rules import RuleSet

REVIEW_OPTIONS = ("set", "worlds", "bidding", "bidder_params", "bidder_table", "kinds")
_PLAYER = ("worlds", "bidding", "bidder_params", "bidder_table")


class Reviewed(NamedTuple):
    """A hand file reviewed: the rules its hands were played by, the (id, replayed hand)
    pairs, every decision's row (`review --json`'s), (id, reason) of the hands rejected, and
    the settings used (`advice.review.ReviewSettings`)."""

    rules: object
    hands: list
    rows: list[dict]
    rejected: list[tuple]
    settings: object


def reviewed(history: str | os.PathLike, *, seed: int = 0, rules: str | RuleSet = "standard",
             progress: Callable[[int, int], None] | None = None, **options) -> Reviewed:
    """Every decision of a hand file valued (`review`'s work, whole)."""
    from ..advice.review import KINDS, ReviewSettings, review_file
    from ..play.player import player_of

    given = checked_options(options, REVIEW_OPTIONS, "review")
    ruleset = rules_of(rules, given.pop("set", None))
    kinds = given.pop("kinds", KINDS)
    if isinstance(kinds, str):
        kinds = [kind.strip() for kind in kinds.split(",") if kind.strip()]
    fields = {name: given[name] for name in _PLAYER if name in given}
    for name in ("bidder_params", "bidder_table"):
        if name in fields:
            fields[name] = path_text(fields[name])
    settings = ReviewSettings(player_of(ruleset, **fields), seed, tuple(kinds))
    played_by, hands, rows, rejected = review_file(os.fspath(history), ruleset, settings,
                                                   progress)
    return Reviewed(played_by, hands, rows, rejected, settings)


def review(history: str | os.PathLike, *, seed: int = 0, rules: str | RuleSet = "standard",
           progress: Callable[[int, int], None] | None = None, **options) -> pd.DataFrame:
    """Value every bid, discard, defend-alone choice and card of recorded hands, as
    `euchre-sim review` does: `dd` with every card seen, `pimc` from what the seat knew, and
    each choice's loss against the best option.

    Parameters
    ----------
    history : str or PathLike
        A hand file: JSON Lines hand histories, EGN or PTN.
    seed : int
        Fixes the worlds sampled.
    rules : str or RuleSet
        The rules of hands that do not name theirs; ``set={...}`` changes the preset.
    progress : callable, optional
        ``progress(done, total)`` after each hand.
    **options
        ``worlds`` (at least 10), ``bidding``, ``bidder_params``, ``bidder_table``,
        ``kinds`` (of bid, discard, defend_alone, card).

    Returns
    -------
    pandas.DataFrame
        A row a decision: id, kind, category, seat, trick, chosen, options (a list of each
        option's dd, pimc and pimc_se), dd_loss, pimc_loss, pimc_loss_se. ``attrs["rejected"]``
        lists (id, reason) of the hands that could not be replayed.

    Examples
    --------
    A hand of a real game (Euchre Game Notation, from the project's tests), its bids valued:

    >>> import euchre_sim
    >>> table = euchre_sim.review("tests/data/egn/Hand of the day.egn", kinds="bid")
    >>> table[["kind", "seat", "chosen", "dd_loss", "pimc_loss"]].round(2)
      kind seat      chosen  dd_loss  pimc_loss
    0  bid    N  order_up C     0.55       0.42
    """
    from ..report.review import review_frame

    done = reviewed(history, seed=seed, rules=rules, progress=progress, **options)
    frame = review_frame(done.rows)
    frame.attrs["rejected"] = [tuple(error) for error in done.rejected]
    return frame
