"""Every option of one decision during the play (the dealer's discard, a seat's card, a
defender's choice to defend alone) valued in points to the deciding seat's side.

`dd`: the true deal solved, every card seen (exact). `pimc`: the mean over K worlds the seat
cannot tell from the true one (its hand, the upcard or turned-down card, the cards played, the
voids shown and, with a bidder in `inference`, the auction and the dealer's discard), each
world solved, with its standard error and `best_share`, the share of those worlds in which the
option is double-dummy best (the spread behind the mean). Cards the seat cannot tell apart (a
run, such as Q-J of a suit once the K is played) share one valuation.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.cards import cards_of
from ..core.dealing import deal_key
from ..core.seats import team_of
from ..core.stats import mean_se
from ..game.engine import HandState
from ..game.model_strategy import state_arrays
from ..play.net_weights import no_card_nets
from ..play.pimc import (
    MAX_CANDIDATES,
    Inference,
    Worlds,
    inference_of,
    new_pimc_work,
    option_of,
    option_values,
    position_values,
)
from ..play.player import Player
from ..play.state import S_DISCARD, Position
from ..solver.search import new_tt

WORLDS_PER_BATCH = 50  # progress is reported after each batch of a decision's worlds


@dataclass(frozen=True)
class Valuer:
    """How a decision is valued: K worlds from key `seed`, inferring from `inference`
    (`play.pimc.inference_of`), the true deal too when `true_deal` (a review; `advise` from
    one seat's view has none); `discard_hidden`: the record does not know the dealer's
    discard, so the dealer's worlds do not either."""

    worlds: int
    seed: int
    inference: Inference | None = None
    true_deal: bool = True
    discard_hidden: bool = False

    def work(self):
        return new_pimc_work(self.inference or inference_of(), no_card_nets())

    def key(self, decision: int) -> np.uint64:
        return np.uint64(deal_key(np.uint64(self.seed), np.uint64(decision)))


def bidder_inference(player: Player) -> Inference | None:
    """What a seat's worlds infer from: the auction under the player's bidder (its weights and
    decision table); None without a bidder (only what was seen)."""
    if player.bidder is None:
        return None
    return inference_of(player.record())


def _side(state: HandState, seat: int) -> int:
    """+1 when `seat` sits with the makers, else -1 (points are kept to the makers)."""
    return 1 if team_of(seat) == team_of(state.maker) else -1


def _figures(values: np.ndarray, best: np.ndarray) -> dict:
    """pimc, pimc_se, best_share, and `values` world by world (for paired differences)."""
    mean, se = mean_se(values)
    return {"pimc": mean, "pimc_se": se if len(values) > 1 else None,
            "best_share": float(best.mean()), "values": values}


def card_options(state: HandState, valuer: Valuer, decision: int, tt=None,
                 progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """The options of the seat to act (the dealer discarding in the discard phase): one
    dict per legal card, `option` its name, `card` its id, `dd`, `pimc`, `pimc_se`,
    `best_share`; points to the seat's side. `progress(worlds done, worlds)` after each
    batch of worlds."""
    discard = state.phase == "discard"
    seat = state.dealer if discard else state.turn
    tb = state.tables
    trump = state.trump
    lay = tb.layout[trump]
    hands, st, pm = state_arrays(state)
    if valuer.discard_hidden:
        st[S_DISCARD] = -1
    tt = tt if tt is not None else new_tt()
    pw = valuer.work()
    out = np.zeros((valuer.worlds, MAX_CANDIDATES), dtype=np.int64)
    key = valuer.key(decision)
    at = Position(lay, hands, st, pm, seat)
    n = 0
    for first in range(0, valuer.worlds, WORLDS_PER_BATCH):
        count = min(WORLDS_PER_BATCH, valuer.worlds - first)
        n = option_values(tb, at, discard, first, Worlds(count, key, False), tt, pw,
                          out[first:])
        if progress is not None:
            progress(first + count, valuer.worlds)
    cands = [int(c) for c in pw.candidates[:n]]
    side = _side(state, seat)
    sampled = side * out[:, :n]
    best = sampled == sampled.max(axis=1, keepdims=True)
    dd = None
    if valuer.true_deal:
        exact = np.zeros((1, MAX_CANDIDATES), dtype=np.int64)
        option_values(tb, at, discard, 0, Worlds(1, key, True), tt, pw, exact)
        dd = side * exact[0, :n]
    power_bit, name = tb.power_bit[trump], state.rules.card_deck.card_name
    legal = state.hands[seat] if discard else state.legal_cards(seat)
    options = []
    for card in cards_of(legal):
        i = cands.index(int(option_of(lay, hands, st, pm, seat, int(power_bit[card]))))
        options.append({"option": name(card), "card": card,
                        "dd": float(dd[i]) if dd is not None else None}
                       | _figures(sampled[:, i], best[:, i]))
    return options


def defence_options(state: HandState, seat: int, valuer: Valuer, decision: int,
                    tt=None) -> list[dict]:
    """Defend alone or not, for defender `seat` asked in the defence phase: each option's
    points to its side (`option`: "alone" or "partner"), valued from the start of play."""
    tt = tt if tt is not None else new_tt()
    values, dd = [], []
    for alone in (False, True):
        after = copy.deepcopy(state)
        after.defend(seat if alone else None)
        tb = after.tables
        lay = tb.layout[after.trump]
        hands, st, pm = state_arrays(after)
        pw = valuer.work()
        at = Position(lay, hands, st, pm, seat)
        out = np.zeros(valuer.worlds, dtype=np.int64)
        position_values(tb, at, Worlds(valuer.worlds, valuer.key(decision), False), tt, pw,
                        out)
        values.append(_side(after, seat) * out)
        if valuer.true_deal:
            exact = np.zeros(1, dtype=np.int64)
            position_values(tb, at, Worlds(1, valuer.key(decision), True), tt, pw, exact)
            dd.append(float(_side(after, seat) * exact[0]))
    both = np.stack(values, axis=1)
    best = both == both.max(axis=1, keepdims=True)
    return [{"option": label, "dd": dd[i] if dd else None} | _figures(both[:, i], best[:, i])
            for i, label in enumerate(("partner", "alone"))]
