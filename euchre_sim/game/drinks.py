"""Drinks per seat for one finished hand, by the eight numbered rules of the drinking text.

How each rule is read (002_831a3438ac97385b.txt, "How To Drink"):
 1. The maker's call: the three other players drink 1 each.
 2. Each trick: both players of the side that lost it drink 1 (a sitting-out partner too).
 3. Points scored: both players of the other side drink that many.
 4. A player who cannot follow suit drinks 1, each time.
 5. A renege: the reneging side drinks the 4 penalty points under rule 3; the reneger 1 more.
 6. All four pass in round 1 (the upcard is turned down): everyone drinks 1.
 7. A euchred side drinks 4 each (on top of rule 3).
 8. A lone maker: the partner drinks 1; the loner drinks 1 extra at every drinking event of
    rules 1-7; at the end a lone march makes the losing side drink 1 extra each, a lone 3-4
    tricks makes the other side drink 1 extra each, and a failed loner drinks 5.
A hand decided by a renege skips the results of rules 7 and 8 (the renege penalty is its score).
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.cards import JOKER
from ..core.seats import partner_of, team_of
from .engine import HandState


class HandFacts(NamedTuple):
    """What the drinking rules read of a finished hand."""

    went_to_round_2: bool  # round 1 passed by all four (the upcard turned down)
    maker: int  # -1: passed out
    alone: bool
    tricks_won: tuple[int, int]  # tricks completed and won, by team (NS, EW)
    failed_follow: tuple[int, int, int, int]  # times each seat could not follow suit
    points: tuple[int, int]  # by team
    reneger: int = -1  # the seat that reneged (-1: none)


def drinks_of(facts: HandFacts) -> list[int]:
    """Drinks per seat (N, E, S, W) of one hand."""
    drinks = [0, 0, 0, 0]
    loner = facts.maker if facts.alone else -1

    def event(seats, n: int) -> None:
        for seat in seats:
            drinks[seat] += n + (1 if seat == loner else 0)

    def team(t: int) -> list[int]:
        return [t, t + 2]

    if facts.went_to_round_2:
        event(range(4), 1)  # rule 6
    if facts.maker < 0:
        return drinks
    event([s for s in range(4) if s != facts.maker], 1)  # rule 1
    for t in (0, 1):  # rule 2: each trick a side won, the other side drinks
        for _ in range(facts.tricks_won[t]):
            event(team(1 - t), 1)
    for seat in range(4):  # rule 4
        for _ in range(facts.failed_follow[seat]):
            event([seat], 1)
    for t in (0, 1):  # rule 3
        if facts.points[t]:
            event(team(1 - t), facts.points[t])
    if facts.reneger >= 0:  # rule 5
        event([facts.reneger], 1)
        if loner >= 0:
            drinks[partner_of(loner)] += 1
        return drinks
    maker_team = team_of(facts.maker)
    maker_tricks = facts.tricks_won[maker_team]
    if maker_tricks < 3:  # rule 7
        event(team(maker_team), 4)
    if loner >= 0:  # rule 8
        drinks[partner_of(loner)] += 1
        if maker_tricks >= 3:  # a lone march and a lone 3-4 both cost the other side 1
            for seat in team(1 - maker_team):
                drinks[seat] += 1
        else:
            drinks[loner] += 5
    return drinks


def count_drinks(state: HandState) -> list[int]:
    """Drinks per seat of a hand played on the engine."""
    won = [0, 0]
    for trick in state.tricks:
        if trick.winner >= 0:
            won[team_of(trick.winner)] += 1
    failed = [state.failed_follow.count(seat) for seat in range(4)]
    went_to_round_2 = any(b.round == 2 for b in state.bids) and state.upcard != JOKER
    return drinks_of(HandFacts(went_to_round_2, -1 if state.passed_out else state.maker,
                               bool(state.maker_alone), tuple(won), tuple(failed),
                               tuple(state.points()),
                               state.renege[1] if state.renege is not None else -1))
