"""Hands played out card by card by a play model (Numba), and the call table they give.

Play models: "dd" (every seat sees every hand; the double-dummy solver's choice), "rules"
(the conventional player of `rulesplayer`), "pimc" (perfect-information Monte Carlo over
sampled worlds, see `pimc`). A deal's call table under "rules" or "pimc" has the rows of
`analysis` (one per round, position, trump and alone), each the makers' tricks when that call
is made and the hand is played out by the model; under "dd" the solver's values are used
directly (`analysis`), since perfect play needs no playout.

Randomness: the playout of row r of deal i under seed s draws from key(key(s, i), r), and
decision k of it from key(that, k): results do not depend on batching or workers.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .analysis import JOKER_ID, N_ROWS, ROUND1_ROWS, _seats_in_play
from .deal import _deal_key
from .models import DEFAULT_WORLDS, MODEL_DD, MODEL_RULES, model_id
from .pimc import _pimc_card, _pimc_discard, new_pimc_work
from .playstate import (
    S_DECISIONS,
    S_DISCARD,
    S_MAKER_TRICKS,
    S_TRICKS,
    S_TURN,
    TRICKS_PER_HAND,
    _new_state,
    _play,
)
from .rulesplayer import _rules_card, _rules_discard
from .solver import _bit, _to_power
from .tables import FLAG_ALLOW_ALONE, FLAG_CANADIAN, FLAG_LONE_LAST, FLAG_NO_TRUMP


@njit
def _choose_card(model, tb, lay, hands, st, pm, seat, n_worlds, key, tt, pw):
    if model == MODEL_RULES:
        return _rules_card(lay, hands, st, pm, seat)
    k = _deal_key(key, np.uint64(st[S_DECISIONS]))
    st[S_DECISIONS] += 1
    return _pimc_card(tb, lay, hands, st, pm, seat, n_worlds, k, model == MODEL_DD, tt, pw)


@njit
def _choose_discard(model, tb, lay, hands, st, pm, n_worlds, key, tt, pw):
    if model == MODEL_RULES:
        return _rules_discard(lay, hands, st, pm)
    k = _deal_key(key, np.uint64(st[S_DECISIONS]))
    st[S_DECISIONS] += 1
    return _pimc_discard(tb, lay, hands, st, pm, n_worlds, k, model == MODEL_DD, tt, pw)


@njit
def _play_out(model, tb, lay, hands, st, pm, n_worlds, key, tt, pw):
    """Play the hand to its end from the state; returns the makers' tricks."""
    while st[S_TRICKS] < TRICKS_PER_HAND:
        seat = st[S_TURN]
        _play(lay, hands, st, pm, _choose_card(model, tb, lay, hands, st, pm, seat, n_worlds,
                                                key, tt, pw))
    return st[S_MAKER_TRICKS]


@njit
def _played_call(model, tb, hands, upcard, dealer, round_no, trump, maker, alone_pos,
                 n_worlds, key, tt, pw):
    """Makers' tricks when `maker` calls `trump` (round 1: orders up) and the model plays."""
    active, leader = _seats_in_play(dealer, alone_pos, tb.flags[FLAG_LONE_LAST] != 0)
    lay = tb.layout[trump]
    take_up = round_no == 1 and (active >> dealer) & 1
    held = hands.copy()
    up = -1
    known_out = np.uint64(0)
    if take_up:
        held[dealer] |= np.uint64(1) << np.uint64(upcard)
        up = tb.power_bit[trump, upcard]
    else:
        known_out = _bit(tb.power_bit[trump, upcard])
    hp = _to_power(tb, trump, held, active)
    st, pm = _new_state(trump, dealer, maker, 1 if alone_pos else 0, 0, active, leader, up,
                        known_out)
    if take_up:
        d = _choose_discard(model, tb, lay, hp, st, pm, n_worlds, key, tt, pw)
        hp[dealer] &= ~_bit(d)
        st[S_DISCARD] = d
    return _play_out(model, tb, lay, hp, st, pm, n_worlds, key, tt, pw)


@njit
def _play_deal(model, tb, hands, upcard, dealer, n_worlds, key, only_pos, rounds, tt, pw, out):
    """Fill `out` (N_ROWS, as analysis._analyze_deal) with the makers' tricks of every call
    open in the deal, each hand played out by the model."""
    flags = tb.flags
    allow_alone = flags[FLAG_ALLOW_ALONE] != 0
    out[:] = -1
    n_trumps = 5 if flags[FLAG_NO_TRUMP] else 4
    turned_down = -1 if upcard == JOKER_ID else upcard >> 3
    for round_no in range(1, 3):
        if not rounds & round_no or (round_no == 1 and upcard == JOKER_ID):
            continue
        for trump in range(n_trumps):
            if (round_no == 1) != (trump == turned_down):
                continue
            for pos in range(1, 5):
                if only_pos and pos != only_pos:
                    continue
                maker = (dealer + pos) & 3
                for alone in range(2):
                    if alone and not allow_alone:
                        continue
                    if round_no == 1 and not alone and pos == 2 and flags[FLAG_CANADIAN]:
                        continue
                    if round_no == 1:
                        row = (pos - 1) * 2 + alone
                    else:
                        row = ROUND1_ROWS + ((pos - 1) * 5 + trump) * 2 + alone
                    out[row] = _played_call(model, tb, hands, upcard, dealer, round_no, trump,
                                            maker, pos if alone else 0, n_worlds,
                                            _deal_key(key, np.uint64(row)), tt, pw)


@njit
def _play_batch(model, tb, hands, upcards, dealer, n_worlds, seed, start, tt, out):
    pw = new_pimc_work()
    for i in range(hands.shape[0]):
        key = _deal_key(seed, np.uint64(start + i))
        _play_deal(model, tb, hands[i], upcards[i], dealer, n_worlds, key, 0, 3, tt, pw, out[i])


def play_deals(rules, model: str, hands: np.ndarray, upcards: np.ndarray, seed: int, start: int,
               n_worlds: int = DEFAULT_WORLDS, dealer: int = 0, tt=None) -> np.ndarray:
    """Call tables (int8[n, N_ROWS], makers' tricks or -1) of deals start.. played out by
    the model ("rules" or "pimc"; "dd" plays out with the solver's choices)."""
    from .deal import seed_to_u64
    from .solver import _default_tt
    from .tables import compile_rules

    tt = tt if tt is not None else _default_tt()
    out = np.zeros((hands.shape[0], N_ROWS), dtype=np.int8)
    _play_batch(model_id(model), compile_rules(rules), hands, upcards, dealer, n_worlds,
                seed_to_u64(seed), np.uint64(start), tt, out)
    return out
