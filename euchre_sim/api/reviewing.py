"""`review`: where the points went in recorded hands, every decision valued, as a
DataFrame."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from .options import checked_options, rules_of, take_player

if TYPE_CHECKING:
    import pandas as pd

    from ..advice.review import ReviewSettings
    from ..core.rules import RuleSet

REVIEW_OPTIONS = ("set", "worlds", "bidding", "bidder_params", "bidder_table", "kinds")


class Reviewed(NamedTuple):
    """A hand file reviewed: the rules its hands were played by, the (id, replayed hand)
    pairs, every decision's row (`review --json`'s), (id, reason) of the hands rejected, and
    the settings used (`review_settings`)."""

    rules: object
    hands: list
    rows: list[dict]
    rejected: list[tuple]
    settings: object

    def report(self, echo: Callable[[str], None]) -> None:
        """The readable report `euchre-sim review` prints, a line a call of `echo`: each
        hand's losses and costliest decisions, the hands rejected, the seats' totals."""
        from ..report.review import print_review

        print_review(self.rows, self.rejected, echo)

    def save(self, out: str | os.PathLike) -> None:
        """Write OUT/review.parquet and OUT/run.json (the rules, the settings, the seats'
        totals), as `review --out` does."""
        from ..report.review import write_review

        write_review(os.fspath(out), self.rows, self.rules, self.settings)

    def save_egn(self, path: str | os.PathLike, title: str) -> None:
        """Write the hands as one EGN document, each loss annotated on its call or card, as
        `review --egn` does."""
        from ..game.egn import save_egn
        from ..report.review import review_egn

        save_egn(os.fspath(path), review_egn(self.hands, self.rows, self.rules, title))


def check_outputs(out: str | os.PathLike | None = None,
                  egn: str | os.PathLike | None = None) -> None:
    """Check, before a review's work, that its outputs can be written: the folder `out`
    (made if need be) and the file `egn`; an Error naming the one that cannot."""
    from ..core.output import check_writable
    from ..report.review import review_folder

    if out:
        review_folder(os.fspath(out))
    if egn:
        check_writable(os.fspath(egn))


def review_settings(rules: RuleSet, options: dict, seed: int = 0,
                    kinds: tuple[str, ...] | None = None,
                    bidders: tuple[str, ...] | None = None) -> ReviewSettings:
    """A review's settings: the player that the player's options in `options` name
    (`api.options.take_player`, those options taken out; `bidders` the bidders allowed), the
    seed of the worlds sampled and the kinds of decision valued (default: every kind).

    Examples
    --------
    >>> from euchre_sim.api.catalog import preset
    >>> from euchre_sim.api.reviewing import review_settings
    >>> settings = review_settings(preset("standard"), {"worlds": 20}, seed=3)
    >>> settings.facts()["worlds"], settings.kinds
    (20, ('bid', 'discard', 'defend_alone', 'card'))
    """
    from ..advice.review import KINDS, ReviewSettings

    player = take_player(rules, options, bidders)
    return ReviewSettings(player, seed, KINDS if kinds is None else tuple(kinds))


def file_hands(path: str | os.PathLike, rules: RuleSet,
               max_bytes: int | None = None) -> tuple[list, list]:
    """The hands of a hand file (JSON Lines, EGN or PTN) replayed for a review: the (id,
    replayed hand) pairs and the (id, reason) of the hands rejected; a file over `max_bytes`,
    or no regular file, is an Error."""
    from ..advice.review import read_hands
    from ..core.files import regular_file

    path = os.fspath(path)
    regular_file(path, "the hand history", max_bytes)  # a FIFO would block its reader
    _, hands, rejected = read_hands(path, rules)
    return hands, rejected


def entered_hands(records: list, rules: RuleSet) -> list:
    """Complete hand records (docs/spec.md's hand history, as the page enters them) replayed
    for a review: (id, replayed hand) pairs, a record's id its ``id`` or its place from 1; an
    Error names the first record that breaks a rule or stops short."""
    from ..core.errors import UserError
    from ..game.history import ReplayedHand
    from .hands import replayed

    hands = []
    for number, record in enumerate(records, 1):
        record_id = record.get("id", number) if isinstance(record, dict) else number
        try:
            state = replayed(record, rules)
        except UserError as err:
            raise UserError(f"hand {record_id}: {err}") from None
        if state.phase != "done":
            raise UserError(f"hand {record_id}: incomplete (it stops at the {state.phase})")
        hands.append((record_id, ReplayedHand(state, [0, 0, 0, 0])))
    return hands


def review_hands(hands: list, rejected: list, settings: ReviewSettings,
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """Replayed hands (`file_hands`, `entered_hands`) reviewed, as the page's Review tab
    answers: each hand's record, every decision's row (`review --json`'s), the hands
    rejected, the seats' totals and the settings' worlds, seed and bidder."""
    from ..advice.review import review_states
    from ..game.history import state_to_record
    from ..report.review import seat_totals

    rows = review_states(hands, settings, progress)
    return {"hands": [state_to_record(hand.state, record_id) for record_id, hand in hands],
            "rows": rows, "errors": [{"id": i, "reason": reason} for i, reason in rejected],
            "seats": seat_totals(rows), "worlds": settings.player.worlds, "seed": settings.seed,
            "bidding": settings.player.bidder}


def reviewed(history: str | os.PathLike, *, seed: int = 0, rules: str | RuleSet = "standard",
             progress: Callable[[int, int], None] | None = None, **options) -> Reviewed:
    """Every decision of a hand file valued (`review`'s work, whole)."""
    from ..advice.review import review_file

    given = checked_options(options, REVIEW_OPTIONS, "review")
    ruleset = rules_of(rules, given.pop("set", None))
    kinds = given.pop("kinds", None)
    if isinstance(kinds, str):
        kinds = [kind.strip() for kind in kinds.split(",") if kind.strip()]
    settings = review_settings(ruleset, given, seed, kinds)
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
