"""What a practice player's decision cost: every option valued at the table of people and double
dummy, and the chosen one's loss against the best of each (a `review` row).

At the table of people: a bid by `advise` at the seat's point of the auction, with neither model
named (the human bidder, the learned player: the shipped atlas where it covers the hand, else its
early-stopping simulation), at a game's score as `advise --score` values it where the atlas's
odds of the game are shipped (each bid's `p_win`, and `game`: the chance lost, the best for the
game where separated); a card, a discard or defending alone by K worlds from the seat's view
that agree with the auction under the human bidder (`position`, as `review` values them).
Double dummy: the true deal solved, the rest of the auction after a pass bid by the human bidder.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import UserError
from ..game.engine import HandState
from ..game.practice import PLAYER_SEAT
from ..play.player import Player, people
from .advice_request import answer
from .atlas import atlas_preset
from .bid_options import bid_options, bid_question
from .position import Valuer, bidder_inference, card_options, defence_options
from .question import AdviceQuestion
from .review import decision_row, decision_seed
from .separation import label, worlds_margin


def decision_cost(state: HandState, kind: str, chosen, seed: int, deal: int, slot: int,
                  tt=None, score: tuple[int, int] | None = None) -> dict:
    """The review row of the player's decision `kind` (review's kinds) about to be taken in
    `state`, with `points_lost` (against the best at the table of people; None when `advise`
    could not value the bid), `dd_points_lost`, `source` (atlas, simulation or worlds) and
    `game` (a bid at a game's `score`, [the player's side, theirs], where the odds are shipped:
    `game_feedback`; else None). Deal `deal`'s decision `slot` has a seed of its own, as
    `review` keys its decisions."""
    key = decision_seed(seed, deal, slot)
    valuing = _valuing()
    valuer = Valuer(valuing.worlds, key, bidder_inference(valuing))
    trick, category, source, game = None, kind, "worlds", None
    if kind == "bid":
        at = score if score is not None and atlas_preset(state.rules) is not None else None
        options, source, found, advice = _bid_options(state, key, at)
        if at is not None and advice["actions"]:
            game = game_feedback(options, chosen, advice)
    else:
        if kind == "defend_alone":
            options = defence_options(state, PLAYER_SEAT, valuer, slot, tt)
        else:
            options = card_options(state, valuer, slot, tt)
            if kind == "card":
                trick = len(state.tricks)
                category = "follow" if state.tricks[-1].plays else "lead"
        found = worlds_margin(options, state.rules.max_hand_points)
    row = decision_row(deal, kind, PLAYER_SEAT, trick, chosen, options, category)
    return row | {"points_lost": row["pimc_loss"], "dd_points_lost": row["dd_loss"],
                  "source": source, "margin": found, "best": stated_option(found), "game": game}


def game_feedback(options: list[dict], chosen: dict, advice: dict) -> dict:
    """A bid at a score: its options' chances of winning the game (`p_win` on each option),
    the chance the chosen bid lost to the best (`p_win_lost`), the best for the game where
    `advise` separates it (`best_for_game`: an option, else None), whether it differs from the
    best for points (`game_differs`) and the margin (`game_margin`)."""
    chances = [o["p_win"] for o in options if o.get("p_win") is not None]
    mine = next(o["p_win"] for o in options if o["option"] == chosen)
    best = advice["best_for_game"]
    return {"score": [advice["score"]["us"], advice["score"]["them"]],
            "p_win": mine, "p_win_lost": max(chances) - mine if mine is not None else None,
            "best_for_game": None if best is None else label(best),
            "game_differs": advice["game_differs"], "game_margin": advice["game_margin"]}


def _as_option(found: dict) -> dict:
    """An answer's margin with its top action as review's bid `option`."""
    return {"option": label(found)} | {k: v for k, v in found.items()
                                       if k not in ("action", "suit", "alone")}


def stated_option(found: dict | None) -> dict | None:
    """The option best at the table of people where its margin separates it at 95 % (its
    `option`, `lead` and `lead_se`), else None: too close to call."""
    if found is None or not found["separated"]:
        return None
    return {k: found[k] for k in ("option", "lead", "lead_se")}


def _valuing() -> Player:
    """A decision valued as review values it (its default worlds, each solved), the worlds
    agreeing with the auction under the table of people's bidder."""
    return Player(people().bidder)


def _bid_options(state: HandState, seed: int, score: tuple[int, int] | None
                 ) -> tuple[list[dict], str | None, dict | None, dict]:
    """The seat's bid options: `dd` on the true deal, `pimc` and `pimc_se` as `advise` answers
    at a table of people (None where it cannot: the auction too rarely reaches the seat; with
    `score`, `p_win` and `p_win_se` too), where that answer came from, its margin in points
    (`separation`, as review's options) and the answer itself."""
    deck = state.rules.card_deck
    card = deck.card_name(state.upcard)
    ref = {"up": card} if state.round == 1 else {"turned_down": card}
    question = AdviceQuestion(state.rules, deck.format_hand(state.hands[state.turn]),
                              state.position(state.turn), seed=seed, score=score, **ref)
    try:
        advice = answer(question)
    except UserError:
        advice = {"actions": [], "source": None, "margin": None}
    people = {(a["action"], a["suit"], a["alone"]): a for a in advice["actions"]}
    exact = bid_question(state, _valuing(), 2, seed)
    options = bid_options(state, exact, [state.dealt], advised=False)
    for option in options:
        valued = people.get(tuple(option["option"].values()))
        option["pimc"] = valued["mean_points"] if valued else None
        se = valued.get("points_se") if valued else None
        option["pimc_se"] = se if se is not None and np.isfinite(se) else None
        if score is not None:
            option["p_win"] = valued["p_win"] if valued else None
            option["p_win_se"] = valued["p_win_se"] if valued else None
    found = advice["margin"]
    return options, advice["source"], None if found is None else _as_option(found), advice
