"""The odds of winning a game from any score, by dynamic programming over one hand's result.

A hand's result, for the side that deals it, is one of: the dealing side scores k, the other
side scores k, or the deal is passed out (redealt by the next dealer, nobody scores). The deal
passes left every hand, so the dealing side alternates. With the result's distribution D (from
a `simulate --bidding` run's auction table) the chance p(a, b, d) that a side at score a wins
against b, d saying whether it deals next, satisfies

  p(a, b, d) = sum_k P(we score k) p(a + k, b, not d) + P(they score k) p(a, b + k, not d)
               + P(passed) p(a, b, not d),

with p = 1 once a side reaches the target and 0 once the other does. Scores only grow, so the
states are solved from high scores down; the pass-out terms tie p(a, b, True) and
p(a, b, False) into a 2 x 2 linear system solved exactly. Standard errors come from the
multinomial uncertainty of D by the delta method (a numerical Jacobian: the DP is tiny).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..core.errors import FieldError, UserError
from ..core.files import refused
from ..core.jit import njit
from ..core.limits import MAX_TARGET
from ..core.results import n_results, result_points
from ..core.rules import RuleSet
from ..core.schema import Column, Schema, rates, read_table, standard_errors

if TYPE_CHECKING:  # pandas is imported where a table is made or read: `advise` needs none,
    import pandas as pd  # and importing it is a quarter of the command's start-up


# odds.parquet: a game's scores (at most MAX_TARGET: an array is sized by them), who deals
ODDS_SCHEMA = Schema((Column("us", "int", 0, MAX_TARGET), Column("them", "int", 0, MAX_TARGET),
                      Column("we_deal", "bool"), *rates("p_win", missing=False),
                      *standard_errors("p_win_se", missing=False)), keys=("us", "them", "we_deal"))


class HandResults(NamedTuple):
    """Counts of one hand's results, for the dealing side."""

    dealer: np.ndarray  # int64[k]: deals where the dealing side scored k points
    other: np.ndarray  # int64[k]: deals where the other side scored k points
    passed: int  # deals passed out

    @property
    def deals(self) -> int:
        return int(self.dealer.sum() + self.other.sum() + self.passed)


def results_from_auction(auction: pd.DataFrame, rules: RuleSet,
                         what: str = "the auction table") -> HandResults:
    """The hand results of an auction table (sim.decisions.auction_table: contracts by round,
    seat, alone, defended with n and make/march/euchred rates; round 0 passed out). N deals,
    so positions 2 and 4 are the dealing side. A contract whose marches and euchres are more
    than its deals is a UserError naming `what`."""
    size = 1 + rules.max_hand_points
    dealer = np.zeros(size, dtype=np.int64)
    other = np.zeros(size, dtype=np.int64)
    passed = 0
    for i, row in enumerate(auction.itertuples(index=False)):
        n = int(row.n)
        if row.round == 0:
            passed += n
            continue
        marches = round(row.march_rate * n)
        euchres = round(row.euchred_rate * n)
        made = n - marches - euchres
        if made < 0:
            raise UserError(f"cannot read {what}: row {i} marches {marches:,} and is euchred "
                            f"{euchres:,} times in {n:,} deals")
        makers, defenders = (dealer, other) if row.seat % 2 == 0 else (other, dealer)
        makers[1] += made
        makers[rules.lone_march_points if row.alone else rules.march_points] += marches
        defenders[rules.lone_defence_points if row.defended else rules.euchre_points] += euchres
    return HandResults(dealer, other, passed)


def check_results(results: HandResults, deals: int, what: str) -> None:
    """One line where a run's hand results cannot give the odds of a game: their deals not
    the run's `deals`, or not one call among them (bidders that never call: no game ends)."""
    if results.deals != deals:
        raise UserError(f"cannot read {what}: its contracts and passes count "
                        f"{results.deals:,} deals, not the run's {deals:,}")
    if results.passed == deals:
        raise UserError(f"no odds from {what}: the bidders never called (all {deals:,} deals "
                        "were passed out), so no game would ever end")


def _solve(dealer: np.ndarray, other: np.ndarray, passed: float, target: int,
           row_done: Callable[[], None]) -> np.ndarray:
    """p[a, b, d] for scores 0..target (row and column `target`: the game is over) from the
    result's probabilities; `row_done()` after each row of scores."""
    p = np.zeros((target + 1, target + 1, 2))
    p[target, :, :] = 1.0
    p[target, target, :] = np.nan  # both at the target cannot happen

    def value(a: int, b: int, d: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return p[a, b, d]

    for a in range(target - 1, -1, -1):
        row_done()
        for b in range(target - 1, -1, -1):
            q = [0.0, 0.0]
            for d in (0, 1):  # d = 1: we deal this hand, so "dealer" results are ours
                ours, theirs = (dealer, other) if d else (other, dealer)
                for k in range(1, len(ours)):
                    q[d] += ours[k] * value(a + k, b, 1 - d) + theirs[k] * value(a, b + k, 1 - d)
            # p1 = q1 + r p0, p0 = q0 + r p1
            p[a, b, 1] = (q[1] + passed * q[0]) / (1 - passed * passed)
            p[a, b, 0] = (q[0] + passed * q[1]) / (1 - passed * passed)
    return p


def _probabilities(results: HandResults) -> np.ndarray:
    """The multinomial's cell probabilities: dealer k >= 1, other k >= 1, passed."""
    counts = np.concatenate([results.dealer[1:], results.other[1:], [results.passed]])
    return counts / counts.sum()


def _from_cells(cells: np.ndarray, size: int, target: int, row_done: Callable[[], None]
                ) -> np.ndarray:
    dealer = np.concatenate([[0.0], cells[:size - 1]])
    other = np.concatenate([[0.0], cells[size - 1:2 * size - 2]])
    return _solve(dealer, other, float(cells[-1]), target, row_done)


def win_odds(results: HandResults, target: int,
             progress: Callable[[int, int], None] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """(p[a, b, d], its standard error) for a, b in 0..target, d = 1 when the side deals next.
    The DP is solved once, and once more for each result (the Jacobian): `progress(rows,
    total)` after each row of scores of each solve, which may raise to stop it."""
    size = len(results.dealer)
    cells = _probabilities(results)
    total, rows = (len(cells) + 1) * target, itertools.count(1)

    def row_done() -> None:
        if progress is not None:
            progress(next(rows), total)

    p = _from_cells(cells, size, target, row_done)
    cov = (np.diag(cells) - np.outer(cells, cells)) / results.deals
    step = 1e-6
    jacobian = np.stack([(_from_cells(cells + step * np.eye(len(cells))[i], size, target,
                                      row_done) - p)
                         / step for i in range(len(cells))], axis=-1)
    var = np.einsum("...i,ij,...j->...", jacobian, cov, jacobian)
    return p, np.sqrt(np.clip(var, 0, None))


def odds_table(results: HandResults, target: int) -> pd.DataFrame:
    """odds.parquet: us, them, we_deal, p_win, p_win_se for every score below the target and
    the target itself (p_win 1 or 0)."""
    import pandas as pd

    p, se = win_odds(results, target)
    rows = [(a, b, bool(d), p[a, b, d], se[a, b, d])
            for a in range(target + 1) for b in range(target + 1) for d in (1, 0)
            if not (a == target and b == target)]
    frame = pd.DataFrame(rows, columns=[column.name for column in ODDS_SCHEMA.columns])
    frame["us"] = frame["us"].astype(np.int16)
    frame["them"] = frame["them"].astype(np.int16)
    return frame


def results_from_contracts(seat: np.ndarray, points: np.ndarray, size: int) -> HandResults:
    """Hand results from contracts: the maker's position (0: passed out; positions 2 and 4
    deal) and the points to the makers (negative: to the defenders); size: points + 1 kept."""
    dealer = np.zeros(size, dtype=np.int64)
    other = np.zeros(size, dtype=np.int64)
    played = seat > 0
    dealer_makes = played & (seat % 2 == 0)
    for makers, mine, theirs in ((dealer_makes, dealer, other),
                                 (played & ~dealer_makes, other, dealer)):
        np.add.at(mine, points[makers & (points > 0)], 1)
        np.add.at(theirs, -points[makers & (points < 0)], 1)
    return HandResults(dealer, other, int((~played).sum()))


@njit
def chance_after(p, us, them, points, we_deal_next):
    """The chance of winning the game after a hand's result, `points` to our side (negative:
    to theirs; 0: nobody scored), from the score (us, them), with p = win_odds' table."""
    target = p.shape[0] - 1
    if points > 0:
        return p[min(us + points, target), them, 1 if we_deal_next else 0]
    return p[us, min(them - points, target), 1 if we_deal_next else 0]


@njit
def game_chances(p, us, them, points, we_deal_next):
    """chance_after of each result in `points` (an int array)."""
    out = np.empty(points.shape[0])
    for i in range(points.shape[0]):
        out[i] = chance_after(p, us, them, points[i], we_deal_next)
    return out


@njit
def result_wins(p, us, them, we_deal_next, top, out):
    """out[c] = chance_after the result in column c of the results' shares (core.results)."""
    for c in range(n_results(top)):
        out[c] = chance_after(p, us, them, result_points(c, top), we_deal_next)


def read_odds(folder: str, rules: RuleSet) -> np.ndarray:
    """p[us, them, we_deal] of a folder's odds.parquet (`euchre-sim odds`), for these rules;
    mistakes name the folder's field as {odds}."""
    path = os.path.join(folder, "odds.parquet")
    if not os.path.isfile(path):
        raise FieldError("no odds.parquet in {odds} {where!r} (run 'euchre-sim odds' first)",
                         where=folder)
    odds = odds_array(odds_frame(path))
    if odds.shape[0] != rules.target + 1:
        raise FieldError("the odds in {odds} {where!r} are for a game to {theirs}, these rules "
                         "play to {target}", where=folder, theirs=odds.shape[0] - 1,
                         target=rules.target)
    return odds


def odds_frame(path: str, what: str = "the odds") -> pd.DataFrame:
    """An odds.parquet table read through its schema, holding each score of one game once:
    us and them 0 to the target (its largest score) and who deals, but the target against
    itself (`odds_table`)."""
    frame = read_table(path, what, ODDS_SCHEMA)
    target = int(frame[["us", "them"]].to_numpy().max()) if len(frame) else 0
    both = (frame["us"] == target) & (frame["them"] == target)
    if not len(frame) or both.any() or len(frame) != 2 * (target + 1) ** 2 - 2:
        raise refused(what, path, f"{len(frame)} rows: not each score of a game to "
                      f"{target} once")
    return frame


def odds_array(odds: pd.DataFrame) -> np.ndarray:
    """p[us, them, we_deal] from an odds.parquet table (`odds_frame`, or `odds_table`)."""
    size = int(odds["us"].max()) + 1
    p = np.full((size, size, 2), np.nan)
    p[odds["us"].to_numpy(), odds["them"].to_numpy(), odds["we_deal"].to_numpy(int)] = \
        odds["p_win"].to_numpy()
    return p
