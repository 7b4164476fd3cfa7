"""The fewest and the most points to the seat's side that each action of a bid question can
score under a rule set: the ends its figures' intervals stay within
(`core.stats.bounded_interval95`).

A call scores what the rules' table gives its makers for every number of tricks, against both
defenders or, where the rules allow it, a lone one. A pass scores what the rest of the auction
can: a later call by either side (the seat's own in round 2 after a round-1 pass among them),
signed to the seat's side, or 0 where every later turn may pass the deal out. These are bounds
read from the rules, not from the play: a result no deal reaches only widens them.
"""

from __future__ import annotations

from ..core import calls
from ..core.calls import N_TRUMPS
from ..core.rules import RuleSet
from ..core.ruletables import FLAG_DEFEND_ALONE, compile_rules

LAST_TURN = 7  # the dealer's turn in round 2
# the kernels' own rules of the auction, read here in plain Python (nothing to compile)
call_open, may_pass = calls.call_open.py_func, calls.may_pass.py_func
turn_at, turn_round, turn_position = (calls.turn_at.py_func, calls.turn_round.py_func,
                                      calls.turn_position.py_func)


def _call_points(rules: RuleSet, alone: bool) -> set[int]:
    """Every score of a call to its makers (`alone`: a lone maker)."""
    tables = compile_rules(rules)
    defended = (0, 1) if tables.flags[FLAG_DEFEND_ALONE] else (0,)
    return {int(tables.score[int(alone), lone, tricks]) for lone in defended
            for tricks in range(tables.score.shape[2])}


def _pass_points(rules: RuleSet, round_no: int, position: int, ref_card: int) -> set[int]:
    """Every score to the seat's side after its pass: the later turns' open calls, signed by
    side, and 0 where every later turn may pass."""
    flags = compile_rules(rules).flags
    later = range(turn_at(round_no, position) + 1, LAST_TURN + 1)
    points = {0} if all(may_pass(flags, turn_round(k), turn_position(k)) for k in later) \
        else set()
    for k in later:
        at, sign = turn_position(k), 1 if (turn_position(k) - position) % 2 == 0 else -1
        for alone in (False, True):
            if any(call_open(flags, turn_round(k), at, trump, int(alone), ref_card)
                   for trump in range(N_TRUMPS)):
                points |= {sign * p for p in _call_points(rules, alone)}
    return points


def action_points(rules: RuleSet, round_no: int, position: int, ref_card: int, action: str,
                  alone: bool) -> tuple[int, ...]:
    """Every score (points to the seat's side), smallest first, of an action ('pass', or a
    call with `alone`) at `position` in `round_no`, the card `ref_card` turned up or down."""
    points = (_pass_points(rules, round_no, position, ref_card) if action == "pass"
              else _call_points(rules, alone))
    return tuple(sorted(points))


def action_scores(rules: RuleSet, round_no: int, position: int, ref_card: int, action: str,
                  alone: bool) -> tuple[int, int]:
    """(fewest, most) points to the seat's side of an action (`action_points`)."""
    points = action_points(rules, round_no, position, ref_card, action, alone)
    return points[0], points[-1]
