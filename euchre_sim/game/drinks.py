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

from ..core.cards import JOKER
from ..core.seats import partner_of, team_of
from .engine import HandState


def count_drinks(state: HandState) -> list[int]:
    drinks = [0, 0, 0, 0]
    loner = state.maker if state.maker_alone else -1

    def event(seats, n: int) -> None:
        for seat in seats:
            drinks[seat] += n + (1 if seat == loner else 0)

    def team(t: int) -> list[int]:
        return [t, t + 2]

    went_to_round_2 = any(b.round == 2 for b in state.bids) and state.upcard != JOKER
    if went_to_round_2:
        event(range(4), 1)  # rule 6
    if state.passed_out:
        return drinks
    event([s for s in range(4) if s != state.maker], 1)  # rule 1
    for trick in state.tricks:  # rule 2
        if trick.winner >= 0:
            event(team(1 - team_of(trick.winner)), 1)
    for seat in state.failed_follow:  # rule 4
        event([seat], 1)
    points = state.points()
    for t in (0, 1):  # rule 3
        if points[t]:
            event(team(1 - t), points[t])
    if state.renege is not None:  # rule 5
        event([state.renege[1]], 1)
        if loner >= 0:
            drinks[partner_of(loner)] += 1
        return drinks
    maker_team = team_of(state.maker)
    maker_tricks = state.team_tricks()[maker_team]
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
