"""`solve`: the double-dummy table of one deal or many, as a DataFrame."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from ..core.errors import UserError
from .options import checked_options, rules_of

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from ..core.rules import RuleSet

BATCH = 256  # deals a worker solves in one call
SOLVE_COLUMNS = ("deal", "dealer", "trump", "alone", "leader", "ns_tricks", "ew_tricks")


class SolvedDeal(NamedTuple):
    """One deal solved: its dealer (N E S W), the deal as `solve` takes it (from N) and its
    table, `solve --json`'s rows."""

    dealer: str
    deal: str
    table: list[dict]


class SolvedBatch(NamedTuple):
    """Up to BATCH deals solved: their dealers and hands (N E S W masks) and tables
    (`solver.calltable.solve_tables`)."""

    dealers: np.ndarray
    hands: np.ndarray
    tables: np.ndarray

    def deals(self, rules: RuleSet) -> Iterator[SolvedDeal]:
        """Each deal of the batch, in order, as a SolvedDeal."""
        from ..core.seats import SEAT_NAMES
        from ..solver.calltable import table_rows

        deck = rules.card_deck
        for dealer, hands, table in zip(self.dealers, self.hands, self.tables, strict=True):
            yield SolvedDeal(SEAT_NAMES[int(dealer)], deck.format_deal([int(h) for h in hands]),
                             table_rows(rules, table))

    def json_lines(self, rules: RuleSet) -> list[str]:
        """The `solve --json` line of each deal, in order (text for text the JSON of
        {"dealer": ..., "table": ...})."""
        from ..solver.calltable import solve_json_lines

        return solve_json_lines(rules, self.dealers, self.tables)


def read_deals(path: str | os.PathLike) -> list[str]:
    """The lines of a file of deals, one a line (a deal string or a JSON object); ``"-"``
    reads standard input. A file too large, or no regular file, is an Error."""
    from ..core.files import read_input

    return read_input(os.fspath(path), "the deals").splitlines()


def _parse_line(line: str, number: int, deck, default_dealer: int) -> tuple[int, list[int]]:
    from ..core.files import loads
    from ..core.seats import parse_seat

    text = line.strip()
    try:
        if text.startswith("{"):
            try:
                obj = loads(text)
            except ValueError as err:
                raise UserError(f"not JSON ({getattr(err, 'msg', err)})") from None
            if not isinstance(obj, dict) or "hands" not in obj:
                raise UserError("a JSON deal needs 'dealer' and 'hands'")
            dealer = parse_seat(obj.get("dealer", default_dealer))
            return dealer, deck.parse_hands_json(obj["hands"])
        return default_dealer, deck.parse_deal(text)
    except UserError as err:
        raise UserError(f"deal on line {number}: {err}") from None


def _solve_batch(job) -> np.ndarray:
    """The solve tables of a batch of deals (one solver call)."""
    from ..solver.calltable import solve_tables

    ruleset, dealers, hands = job
    return solve_tables(ruleset, hands, dealers)


def solved_batches(deals: Iterable[str], dealer: int, rules: RuleSet,
                   workers: int = 1) -> Iterator[SolvedBatch]:
    """Deals (each a deal string or a JSON object's text, blank lines skipped; `dealer` a seat
    0-3 where a deal names none), all checked first, solved in batches of BATCH on `workers`
    processes (from 4 batches on), in order."""
    import numpy as np

    from ..runs.parallel import ordered_map

    deck = rules.card_deck
    parsed = [_parse_line(line, n, deck, dealer)
              for n, line in enumerate(deals, 1) if line.strip()]
    if not parsed:
        raise UserError("no deal to solve")
    dealers = np.array([d for d, _ in parsed], dtype=np.int64)
    hands = np.array([h for _, h in parsed], dtype=np.uint64).reshape(-1, 4)
    jobs = [(rules, dealers[i:i + BATCH], hands[i:i + BATCH])
            for i in range(0, len(parsed), BATCH)]
    n_workers = workers if len(parsed) >= 4 * BATCH else 1
    for (_, batch_dealers, batch_hands), tables in zip(
            jobs, ordered_map(_solve_batch, jobs, n_workers), strict=True):
        yield SolvedBatch(batch_dealers, batch_hands, tables)


def solve(deal: str | Iterable[str], *, dealer: str | int = "N",
          rules: str | RuleSet = "standard", workers: int = 1, **options) -> pd.DataFrame:
    """Double-dummy tricks for every trump, with partner and alone, as `euchre-sim solve`
    gives them: a row per (trump, lone player, leader).

    Parameters
    ----------
    deal : str or iterable of str
        ``"N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"`` (the hands from
        the seat named, clockwise), a JSON object's text with ``dealer`` and ``hands``, or
        several of them.
    dealer : str or int
        The dealer (N E S W) where a deal names none.
    rules : str or RuleSet
        A preset's name; ``set={...}`` changes it.
    workers : int
        Processes for many deals (1,024 or more).

    Returns
    -------
    pandas.DataFrame
        Columns `deal` (its place in the input, from 0), `dealer`, `trump`, `alone` (the lone
        player's seat; missing with partner), `leader`, `ns_tricks`, `ew_tricks`.

    Examples
    --------
    >>> import euchre_sim
    >>> table = euchre_sim.solve(
    ...     "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS", dealer="W")
    >>> table[table.trump == "H"]
        deal dealer trump alone leader  ns_tricks  ew_tricks
    10     0      W     H   NaN      N          4          1
    11     0      W     H     N      N          3          2
    12     0      W     H     E      N          5          0
    13     0      W     H     S      E          0          5
    14     0      W     H     W      N          5          0
    """
    import pandas as pd

    from ..core.seats import parse_seat

    given = checked_options(options, ("set",), "solve")
    ruleset = rules_of(rules, given.get("set"))
    lines = [deal] if isinstance(deal, str) else list(deal)
    if not all(isinstance(line, str) for line in lines):
        raise UserError("a deal must be a string, e.g. \"N:JH JD AH KS 9C/...\"")
    records, index = [], 0
    for batch in solved_batches(lines, parse_seat(dealer), ruleset, workers):
        for solved in batch.deals(ruleset):
            records += [{"deal": index, "dealer": solved.dealer} | row for row in solved.table]
            index += 1
    return pd.DataFrame.from_records(records, columns=list(SOLVE_COLUMNS))
