"""Is the top action ahead of the runner-up? The margin between them and the best it allows.

Every "best" an answer states (for points, for the game, in practice's feedback) comes from a
margin: the top action's lead over the runner-up, its standard error and its 95 % interval
(`core.stats.bounded_interval95`, within what the difference of the two can be), and whether
that interval lies above 0 (`separated`). The error is the paired one where the two were
valued on the same deals or worlds deal by deal (`paired`); where only each one's error is
known (the atlas's two calls, or its chances of the game), the sum of the two, which no paired
error exceeds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.stats import bounded_figures, mean_se
from .possible_scores import action_points, action_scores
from .question import AdviceQuestion

ACTION_FIELDS = ("action", "suit", "alone")


def label(action: dict) -> dict:
    """An action object's action, suit and alone."""
    return {k: action[k] for k in ACTION_FIELDS}


def entry_scores(question: AdviceQuestion, action: dict) -> tuple[int, int]:
    """(fewest, most) points to the seat's side of an answer's action (`possible_scores`)."""
    q = question.cards
    return action_scores(question.rules, q.round_no, q.position, q.ref_card, action["action"],
                         action["alone"])


def we_deal_next(question: AdviceQuestion) -> bool:
    """Does the seat's side deal the next hand? The deal passes left: yes at positions 1
    and 3."""
    return question.seat % 2 == 1


def chance_range(question: AdviceQuestion, chances_of: Callable[[np.ndarray], np.ndarray],
                 action: dict) -> tuple[float, float]:
    """(least, most) chance of winning the game that an answer's action can leave, over every
    score it can make (`possible_scores.action_points`); `chances_of` maps points to the seat's
    side to the chance of winning after them."""
    q = question.cards
    points = np.array(action_points(question.rules, q.round_no, q.position, q.ref_card,
                                    action["action"], action["alone"]), dtype=np.int64)
    chances = chances_of(points)
    return float(chances.min()), float(chances.max())


def margin(top: dict, runner_up, lead: float, se: float, n: int,
           between: tuple[float, float], paired: bool) -> dict:
    """The margin of `top` (the fields that name it: an action's `label`) over `runner_up`
    (named alike): its `lead`, the standard error stated beside its 95 % interval (`lead_se`,
    `lead_ci95`: within `between`, the fewest and most the difference can be, over `n` deals
    or worlds), `paired`, and `separated` (the interval above 0)."""
    lead_se, interval = bounded_figures(lead, se, n, *between)
    return top | {"runner_up": runner_up, "lead": float(lead), "lead_se": lead_se,
                  "lead_ci95": interval, "paired": paired, "separated": bool(interval[0] > 0)}


def _top_two(values: list[float]) -> tuple[int, int] | None:
    """The indices of the highest two values (the earlier first on a tie), or None."""
    if len(values) < 2:
        return None
    first, second = sorted(range(len(values)), key=lambda i: -values[i])[:2]
    return first, second


def paired_margin(actions: list[dict], per_deal: list[np.ndarray], key: str,
                  ranges: list[tuple[float, float]]) -> dict | None:
    """The margin of the action highest in `key` over the next, paired deal by deal on
    `per_deal` (each action's values, every one within its `ranges`); None below two actions."""
    pair = _top_two([a[key] for a in actions])
    if pair is None:
        return None
    a, b = pair
    diff = np.asarray(per_deal[a], dtype=np.float64) - np.asarray(per_deal[b], dtype=np.float64)
    lead, se = mean_se(diff)
    between = (ranges[a][0] - ranges[b][1], ranges[a][1] - ranges[b][0])
    return margin(label(actions[a]), label(actions[b]), lead, se, len(diff), between,
                  paired=True)


def points_margin(actions: list[dict], per_deal: list[np.ndarray],
                  ranges: list[tuple[int, int]]) -> dict | None:
    """`paired_margin` in mean points."""
    return paired_margin(actions, per_deal, "mean_points", ranges)


def chance_margin(actions: list[dict], chances: list[np.ndarray],
                  ranges: list[tuple[float, float]]) -> dict | None:
    """`paired_margin` in the chance of winning the game (each deal's within its action's
    `chance_range`)."""
    return paired_margin(actions, chances, "p_win", ranges)


def summed_margin(actions: list[dict], key: str, se_key: str, n: int,
                  ranges: list[tuple[float, float]]) -> dict | None:
    """The margin of the action highest in `key` over the next where only each one's standard
    error (`se_key`) is known: their sum, never below the paired one (unpaired)."""
    pair = _top_two([a[key] for a in actions])
    if pair is None:
        return None
    a, b = pair
    se = actions[a][se_key] + actions[b][se_key]
    between = (ranges[a][0] - ranges[b][1], ranges[a][1] - ranges[b][0])
    return margin(label(actions[a]), label(actions[b]), actions[a][key] - actions[b][key], se,
                  n, between, paired=False)


def worlds_margin(options: list[dict], top: int) -> dict | None:
    """The margin of the option best over the worlds (`pimc`) over the next (options of
    `position`: a card, a discard, defending alone), paired world by world on their `values`:
    `{"option": …}` and the runner-up's option (each within -top..top points, so their
    difference within twice that); None below two options."""
    ranked = sorted(options, key=lambda o: -o["pimc"])
    if len(ranked) < 2:
        return None
    first, second = ranked[:2]
    lead, se = mean_se(first["values"] - second["values"])
    return margin({"option": first["option"]}, second["option"], lead, se,
                  len(first["values"]), (-2 * top, 2 * top), paired=True)


def stated_best(found: dict | None) -> dict | None:
    """The best action a margin allows: its action, suit and alone with its lead and lead_se
    when it is separated, else None (too close to call)."""
    if found is None or not found["separated"]:
        return None
    return label(found) | {"lead": found["lead"], "lead_se": found["lead_se"]}


def game_facts(score: tuple[int, int], points: dict | None, game: dict | None) -> dict:
    """The answer's fields at a score: `score`, `game_margin` (the margin in the chance of
    winning the game), `best_for_game` (`stated_best` of it: None when too close to call) and
    `game_differs` (both bests stated, and not the same action)."""
    best, for_game = stated_best(points), stated_best(game)
    differs = best is not None and for_game is not None and label(best) != label(for_game)
    us, them = score
    return {"score": {"us": us, "them": them}, "best_for_game": for_game,
            "game_margin": game, "game_differs": differs}
