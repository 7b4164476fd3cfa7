"""The learned card player's nets evaluated in Numba: small multilayer perceptrons over a
position's active features (`net_features.encode`) that score the seat's cards, and the
choice among its candidates.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import njit
from .net_features import (
    GENERAL_LAYOUT,
    MAX_SLOTS,
    ORDER_SEEN,
    STANDARD_LAYOUT,
    encode,
    net_slots,
)

MAX_ACTIVE = 128  # room for a position's active features (`encode`)


class NetWork(NamedTuple):
    """The buffers of one evaluation: each power bit's slot, the active features, the layers
    (and the first's units above zero)."""

    slots: np.ndarray
    active: np.ndarray
    h1: np.ndarray
    h2: np.ndarray
    out: np.ndarray
    nonzero: np.ndarray


@njit
def new_net_work(nets):
    """Buffers for evaluating either of `nets` (any size; empty nets get empty layers)."""
    h1 = max(nets.standard.b1.shape[0], nets.general.b1.shape[0])
    h2 = max(nets.standard.b2.shape[0], nets.general.b2.shape[0])
    return NetWork(np.full(64, -1, dtype=np.int64), np.zeros(MAX_ACTIVE, dtype=np.int64),
                   np.zeros(h1, dtype=np.float32), np.zeros(h2, dtype=np.float32),
                   np.zeros(MAX_SLOTS, dtype=np.float32), np.zeros(h1, dtype=np.int64))


@njit(nrt=False, fastmath=True)
def net_hidden(net, active, n, nw):
    """The hidden layers of the net into nw.h1 and nw.h2, from n active features: the first a
    sum of the active features' weight rows, the second a sum of the rows of the hidden units
    above zero after the ReLU (nw.nonzero lists them), each times its value. Rows are added
    two and four at a time, so that each pass over a layer's units loads and stores them
    once for several rows."""
    h1, h2, nonzero = nw.h1, nw.h2, nw.nonzero
    w1, w2 = net.w1, net.w2
    n1, n2 = net.b1.shape[0], net.b2.shape[0]
    for j in range(n1):
        h1[j] = net.b1[j]
    i = 0
    while i + 1 < n:
        a, b = active[i], active[i + 1]
        for j in range(n1):
            h1[j] += w1[a, j] + w1[b, j]
        i += 2
    if i < n:
        a = active[i]
        for j in range(n1):
            h1[j] += w1[a, j]
    m = 0
    for i in range(n1):  # without a branch: the signs are a coin toss to the predictor
        nonzero[m] = i
        m += h1[i] > 0
    for j in range(n2):
        h2[j] = net.b2[j]
    k = 0
    while k + 3 < m:
        i0, i1, i2, i3 = nonzero[k], nonzero[k + 1], nonzero[k + 2], nonzero[k + 3]
        v0, v1, v2, v3 = h1[i0], h1[i1], h1[i2], h1[i3]
        for j in range(n2):
            h2[j] += v0 * w2[i0, j] + v1 * w2[i1, j] + v2 * w2[i2, j] + v3 * w2[i3, j]
        k += 4
    while k < m:
        i0 = nonzero[k]
        v0 = h1[i0]
        for j in range(n2):
            h2[j] += v0 * w2[i0, j]
        k += 1
    for j in range(n2):
        h2[j] = max(h2[j], np.float32(0.0))


@njit(nrt=False, fastmath=True)
def slot_score(net, nw, slot):
    """The net's score of one slot, after `net_hidden`."""
    row = net.w3t[slot]
    acc = net.b3[slot]
    for i in range(net.b2.shape[0]):
        acc += row[i] * nw.h2[i]
    return acc


@njit(nrt=False)
def net_scores(net, active, n, nw):
    """The net's score of every slot into nw.out, from n active features."""
    net_hidden(net, active, n, nw)
    for slot in range(net.b3.shape[0]):
        nw.out[slot] = slot_score(net, nw, slot)


@njit(nrt=False, inline="always")
def net_choice(tb, at, discard, cands, n_cands, nets, nw):
    """The candidate (power bit, of cands[:n_cands]) the deal's net scores highest for
    at.seat's decision (`state.Position`), the candidates' scores left in nw.out by slot; -1
    when the player has no net for the deal. Inlined: a call passed its records' ~300 fields
    at every decision."""
    if net_slots(tb, at, nw.slots, nets.standard.suit_order[0] == ORDER_SEEN,
                 nets.general.suit_order[0] == ORDER_SEEN) == 0:  # each layout a constant
        net = nets.standard
        if net.b1.shape[0] == 0:
            return -1
        n = encode(tb, STANDARD_LAYOUT, at, discard, nw.slots, nw.active)
    else:
        net = nets.general
        if net.b1.shape[0] == 0:
            return -1
        n = encode(tb, GENERAL_LAYOUT, at, discard, nw.slots, nw.active)
    net_hidden(net, nw.active, n, nw)
    best = -1
    best_score = np.float32(0.0)
    for i in range(n_cands):
        slot = nw.slots[cands[i]]
        score = slot_score(net, nw, slot)
        nw.out[slot] = score
        if best < 0 or score > best_score:
            best = cands[i]
            best_score = score
    return best


@njit(nrt=False)
def close_calls(nw, cands, n_cands, best, margin):
    """Keep in cands only the candidates `net_choice` scored within `margin` of its `best`
    (itself first); returns how many. One: the net's choice is clear."""
    top = nw.out[nw.slots[best]] - np.float32(margin)
    kept = 0
    for i in range(n_cands):
        card = cands[i]
        if card == best or nw.out[nw.slots[card]] > top:
            if card == best:
                cands[kept] = cands[0]
                cands[0] = card
            else:
                cands[kept] = card
            kept += 1
    return kept

