"""The learned card player's network (`--play learned`): what a seat knows as features, and a
small multilayer perceptron that scores its cards, evaluated in Numba from plain arrays.

The net knows the 24-card deck with a suit for trump. Its cards are canonical slots, the same
whatever the trump: 0-6 the trumps high to low (right bower first), 7-11 the suit of the trump's
colour (its jack is the left bower), 12-17 and 18-23 the two other suits (the lower suit id
first), each high to low. A deal outside it (no-trump, Benny, 28 or 32 cards, Yooker) is not
scored (`net_choice` answers -1) and the player falls back to PIMC.

Features (`encode`, all 0/1, seats relative to the deciding seat: 0 itself, 1 the next to
play after it, 2 its partner, 3 the one before it): the seat's hand; the cards each seat has
played, and those the others played in the current trick; the cards known out of play (the
turned-down upcard, the seat's own discard); the upcard a dealer took; the cards whose place
the seat does not know; the suits each other seat has shown void in;
dealer, maker and the seats in play; alone and defending alone; trick number and place in it;
tricks won by each side; who wins the trick so far and the led suit; the auction turn of the
call; whether the decision is the dealer's discard. Those are logged with each decision; two
more are derived from them, in the kernel (`encode`) and for training (`derived_features`):
the seat's cards that no card it cannot place beats (boss cards), and, following, the seat's
cards that would take the trick if played now.

The weights (package data `card_net.npz`, provenance in `card_net.json`) are made by
`tools/train_card_player.py`; the training data are PIMC's decisions, logged as features
(`log_decision`).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

import numpy as np

from ..core.bits import above_highest, bits_above, low_index, popcount
from ..core.jit import njit
from .models import LEARNED_MODELS
from .state import (
    P_BY,
    P_KNOWN_OUT,
    P_LED,
    P_PLAYED,
    P_TRICK,
    P_VOID,
    S_ACTIVE,
    S_DEALER,
    S_DEFENDER_ALONE,
    S_DISCARD,
    S_MAKER,
    S_MAKER_ALONE,
    S_MAKER_TRICKS,
    S_MAKER_TURN,
    S_POS,
    S_TRICKS,
    S_TRUMP,
    S_UP,
    S_WBIT,
    S_WSEAT,
)

N_SLOTS = 24
SUIT_SIZES = (7, 5, 6, 6)  # trump, the suit of its colour, the two others
# feature layout: card sets of N_SLOTS each, then one-hot groups
F_HAND = 0
F_PLAYED = F_HAND + N_SLOTS  # + N_SLOTS * relative seat
F_TRICK = F_PLAYED + 4 * N_SLOTS  # + N_SLOTS * (relative seat - 1): the current trick's
F_OUT = F_TRICK + 3 * N_SLOTS
F_UP = F_OUT + N_SLOTS
F_UNSEEN = F_UP + N_SLOTS
F_VOID = F_UNSEEN + N_SLOTS  # + 4 * (relative seat - 1) + suit class
F_DEALER = F_VOID + 12
F_MAKER = F_DEALER + 4
F_ALONE = F_MAKER + 4  # maker alone, defender alone
F_ACTIVE = F_ALONE + 2
F_TRICK_NO = F_ACTIVE + 4
F_PLACE = F_TRICK_NO + 5
F_OURS = F_PLACE + 4
F_THEIRS = F_OURS + 5
F_WINNER = F_THEIRS + 5
F_LED = F_WINNER + 4
F_CALL_TURN = F_LED + 4
F_DISCARD = F_CALL_TURN + 8
N_LOGGED = F_DISCARD + 1  # the features a decision's log holds; the rest derive from them
# what a logged decision's columns mean (training data name it; "N_FEATURES" counts the logged
# columns, the name kept from the first layout, which logged every feature)
FEATURE_LAYOUT = {name: value for name, value in globals().items() if name.startswith("F_")} | {
    "N_FEATURES": N_LOGGED}
F_BOSS = N_LOGGED  # the seat's cards no card it cannot place beats
F_BEATS = F_BOSS + N_SLOTS  # following: the seat's cards that would take the trick now
N_FEATURES = F_BEATS + N_SLOTS
SUIT_CLASS_OF_SLOT = np.repeat(np.arange(4), SUIT_SIZES)
MAX_ACTIVE = 128
LOG_WIDTH = N_LOGGED + N_SLOTS + 1  # a logged decision: features, candidates, PIMC's card
LOG_LABEL = N_LOGGED + N_SLOTS

NET_FILE = "card_net.npz"
PROVENANCE_FILE = "card_net.json"


class CardNet(NamedTuple):
    """The network's weights (float32): w1[feature, h1], w2[h1, h2] and w3t[slot, h2] (the
    last layer transposed, a row per slot: only the candidates' scores are computed); ReLU
    between layers. Empty: no net."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3t: np.ndarray
    b3: np.ndarray


class NetWork(NamedTuple):
    """The buffers of one evaluation: each power bit's slot, the active features, the layers."""

    slots: np.ndarray
    active: np.ndarray
    h1: np.ndarray
    h2: np.ndarray
    out: np.ndarray


def derived_features(logged: np.ndarray) -> np.ndarray:
    """The derived features (uint8[n, N_FEATURES - N_LOGGED]) of logged decisions (their
    first N_LOGGED columns): what `encode` writes at F_BOSS and F_BEATS, from the slots."""
    def block(base, k=0):
        return logged[:, base + N_SLOTS * k:base + N_SLOTS * (k + 1)] > 0

    hand = block(F_HAND)
    placed = hand | block(F_OUT)
    trick = np.zeros_like(hand)
    for k in range(4):
        placed |= block(F_PLAYED, k)
    for k in range(3):
        trick |= block(F_TRICK, k)
    boss, beats = np.zeros_like(hand), np.zeros_like(hand)
    for start, size in zip(np.cumsum((0,) + SUIT_SIZES[:-1]), SUIT_SIZES, strict=True):
        clear = np.ones(len(logged), dtype=bool)  # no unplaced card above (slots run high to low)
        for slot in range(start, start + size):
            boss[:, slot] = hand[:, slot] & clear
            clear &= placed[:, slot]
    led = logged[:, F_LED:F_LED + 4] > 0
    following, led_class = led.any(axis=1), led.argmax(axis=1)
    trumped = trick[:, :SUIT_SIZES[0]].any(axis=1)
    # the winning card's slot: the best trump played, else the best card of the led suit
    best = np.where(trumped, trick[:, :SUIT_SIZES[0]].argmax(axis=1),
                    (trick & (SUIT_CLASS_OF_SLOT == led_class[:, None])).argmax(axis=1))
    for slot in range(N_SLOTS):
        cls = SUIT_CLASS_OF_SLOT[slot]
        above = slot < best
        wins = (~trumped | above) if cls == 0 else (~trumped & (led_class == cls) & above)
        beats[:, slot] = hand[:, slot] & following & wins
    return np.hstack([boss, beats]).astype(np.uint8)


def no_card_net() -> CardNet:
    """A player without a net (every model but the learned ones)."""
    m = np.zeros((0, 0), dtype=np.float32)
    v = np.zeros(0, dtype=np.float32)
    return CardNet(m, v, m, v, m, v)


def net_of(layers: list[tuple[np.ndarray, np.ndarray]]) -> CardNet:
    """A CardNet from three (weights[in, out], bias[out]) layers, as a trainer writes them."""
    (w1, b1), (w2, b2), (w3, b3) = layers
    if w1.shape[0] != N_FEATURES or w3.shape[1] != N_SLOTS or w2.shape[0] != w1.shape[1] \
            or w3.shape[0] != w2.shape[1]:
        raise ValueError(f"card net layers of shapes {[w.shape for w, _ in layers]} do not "
                         f"fit {N_FEATURES} features and {N_SLOTS} cards")

    def f32(a):
        return np.ascontiguousarray(a, dtype=np.float32)

    return CardNet(f32(w1), f32(b1), f32(w2), f32(b2), f32(w3.T), f32(b3))


def save_card_net(path, net: CardNet) -> None:
    np.savez_compressed(path, **net._asdict())


def read_card_net(path, features: tuple[int, ...] = (N_FEATURES,)) -> CardNet:
    """The net saved at `path` (ValueError when its inputs are not one of `features`)."""
    with np.load(path) as z:
        net = CardNet(*(np.ascontiguousarray(z[k], dtype=np.float32) for k in CardNet._fields))
    if net.w1.shape[0] not in features:
        raise ValueError(f"{path}: a card net of {net.w1.shape[0]} features, not {N_FEATURES}")
    return net


def net_knows(rules) -> bool:
    """Does the net know these rules' deck (24 French cards, no Benny)? Then only no-trump
    contracts fall back to PIMC."""
    return rules.deck == 24 and not rules.yooker and not rules.joker


def plays_as_pimc(play: str, rules) -> bool:
    """Does the model sample worlds at (nearly) every decision under these rules: PIMC, and
    the learned players where their net does not know the deck?"""
    return play == "pimc" or (play in LEARNED_MODELS and not net_knows(rules))


@lru_cache(maxsize=1)
def card_net() -> CardNet:
    """The shipped net (package data)."""
    with resources.as_file(resources.files(__package__) / NET_FILE) as path:
        return read_card_net(path)


def net_for(play: str) -> CardNet:
    """The net a play model plays by: the shipped net for the learned players, else none."""
    return card_net() if play in LEARNED_MODELS else no_card_net()


@lru_cache(maxsize=1)
def card_net_digest() -> str:
    """The sha256 of the shipped weights: a run played by the learned player names it, so
    that a resume under other weights is refused."""
    data = (resources.files(__package__) / NET_FILE).read_bytes()
    return hashlib.sha256(data).hexdigest()


def card_net_provenance() -> dict:
    """How the shipped net was made (data, seeds, PIMC settings, commit, held-out accuracy)."""
    return json.loads((resources.files(__package__) / PROVENANCE_FILE).read_text())


@njit
def new_net_work(net):
    """Buffers for evaluating `net` (any size; an empty net gets empty layers)."""
    return NetWork(np.full(64, -1, dtype=np.int64), np.zeros(MAX_ACTIVE, dtype=np.int64),
                   np.zeros(net.b1.shape[0], dtype=np.float32),
                   np.zeros(net.b2.shape[0], dtype=np.float32),
                   np.zeros(net.b3.shape[0], dtype=np.float32))


@njit(_nrt=False)
def canonical_slots(tb, trump, slots):
    """slots[power bit] = the card's canonical slot under `trump` (-1: none); False when the
    deck is not the one the net knows (24 cards, bowers, a suit for trump)."""
    slots[:] = -1
    if trump >= 4 or tb.power_range[trump, 4] != 0:
        return False
    nxt = tb.next_suit[trump]
    if nxt < 0:  # no bowers (Yooker): with Benny its seven trumps would pass the count below
        return False
    others = 0
    for s in range(4):
        if s == trump:
            base, size = 0, 7
        elif s == nxt:
            base, size = 7, 5
        else:
            base, size = 12 + 6 * others, 6
            others += 1
        r = tb.power_range[trump, s]
        if popcount(r) != size:
            return False
        k = base + size - 1
        while r:
            slots[low_index(r)] = k
            r &= r - np.uint64(1)
            k -= 1
    return True


@njit(inline="always")
def suit_class(slot):
    """0 trump, 1 the trump's colour, 2 and 3 the others."""
    return 0 if slot < 7 else (1 if slot < 12 else (2 if slot < 18 else 3))


@njit(_nrt=False)
def _put_cards(mask, base, slots, active, n):
    while mask:
        active[n] = base + slots[low_index(mask)]
        mask &= mask - np.uint64(1)
        n += 1
    return n


@njit(_nrt=False)
def _suit_classes(mask, slots):
    """The suit classes (a 4-bit mask) of the cards in `mask`."""
    classes = 0
    while mask:
        classes |= 1 << suit_class(slots[low_index(mask)])
        mask &= mask - np.uint64(1)
    return classes


@njit(_nrt=False)
def _boss_cards(tb, trump, hand, placed):
    """The cards of `hand` that no card outside `placed` of their suit beats."""
    boss = np.uint64(0)
    for s in range(4):
        suit = tb.power_range[trump, s]
        mine = hand & suit
        unplaced = suit & ~placed
        boss |= mine & above_highest(unplaced) if unplaced else mine
    return boss


@njit(_nrt=False)
def _winning_cards(tb, trump, hand, led, wbit):
    """The cards of `hand` that would take the trick from its winning card (power bit
    `wbit`; `led` the led suit's bits): a card of the led suit or a trump above it, as
    `state.play_card` decides."""
    return hand & (led | tb.power_range[trump, trump]) & bits_above(wbit)


@njit(_nrt=False)
def encode(tb, hands, st, pm, seat, discard, slots, active):
    """The indices of `seat`'s active features into `active` (slots from `canonical_slots`);
    returns their count, -1 when the net does not know the deck."""
    if not canonical_slots(tb, st[S_TRUMP], slots):
        return -1
    n = _put_cards(hands[seat], F_HAND, slots, active, 0)
    n = _put_cards(pm[P_BY + seat], F_PLAYED, slots, active, n)
    for r in range(1, 4):
        s = (seat + r) & 3
        n = _put_cards(pm[P_BY + s], F_PLAYED + N_SLOTS * r, slots, active, n)
        n = _put_cards(pm[P_BY + s] & pm[P_TRICK], F_TRICK + N_SLOTS * (r - 1), slots, active, n)
        voids = _suit_classes(pm[P_VOID + s], slots)
        for c in range(4):
            if (voids >> c) & 1:
                active[n] = F_VOID + 4 * (r - 1) + c
                n += 1
    out = pm[P_KNOWN_OUT]
    if seat == st[S_DEALER] and st[S_DISCARD] >= 0:
        out |= np.uint64(1) << np.uint64(st[S_DISCARD])
    n = _put_cards(out, F_OUT, slots, active, n)
    placed = hands[seat] | pm[P_PLAYED] | out
    if st[S_UP] >= 0:
        active[n] = F_UP + slots[st[S_UP]]
        n += 1
        placed |= np.uint64(1) << np.uint64(st[S_UP])
    deck = (tb.power_range[st[S_TRUMP], 0] | tb.power_range[st[S_TRUMP], 1]
            | tb.power_range[st[S_TRUMP], 2] | tb.power_range[st[S_TRUMP], 3])
    n = _put_cards(deck & ~placed, F_UNSEEN, slots, active, n)
    trump = st[S_TRUMP]
    n = _put_cards(_boss_cards(tb, trump, hands[seat], hands[seat] | pm[P_PLAYED] | out),
                   F_BOSS, slots, active, n)
    if st[S_POS] > 0:
        n = _put_cards(_winning_cards(tb, trump, hands[seat], pm[P_LED], st[S_WBIT]), F_BEATS,
                       slots, active, n)
    for base, s in ((F_DEALER, st[S_DEALER]), (F_MAKER, st[S_MAKER])):
        active[n] = base + ((s - seat) & 3)
        n += 1
    for j, flag in enumerate((st[S_MAKER_ALONE], st[S_DEFENDER_ALONE])):
        if flag:
            active[n] = F_ALONE + j
            n += 1
    for r in range(4):
        if (st[S_ACTIVE] >> ((seat + r) & 3)) & 1:
            active[n] = F_ACTIVE + r
            n += 1
    ours = st[S_MAKER_TRICKS]
    if (seat & 1) != (st[S_MAKER] & 1):
        ours = st[S_TRICKS] - ours
    for base, k in ((F_TRICK_NO, st[S_TRICKS]), (F_PLACE, st[S_POS]), (F_OURS, ours),
                    (F_THEIRS, st[S_TRICKS] - ours), (F_CALL_TURN, st[S_MAKER_TURN])):
        active[n] = base + k
        n += 1
    if st[S_POS] > 0:
        active[n] = F_WINNER + ((st[S_WSEAT] - seat) & 3)
        active[n + 1] = F_LED + suit_class(slots[low_index(pm[P_LED])])
        n += 2
    if discard:
        active[n] = F_DISCARD
        n += 1
    return n


@njit(_nrt=False, fastmath=True)
def net_hidden(net, active, n, nw):
    """The hidden layers of the net into nw.h1 and nw.h2, from n active features: each layer
    a sum of weight rows (a feature's, or a hidden unit's times its value; units at zero
    after the ReLU add nothing)."""
    h1, h2 = nw.h1, nw.h2
    for j in range(h1.shape[0]):
        h1[j] = net.b1[j]
    for i in range(n):
        row = net.w1[active[i]]
        for j in range(h1.shape[0]):
            h1[j] += row[j]
    for j in range(h2.shape[0]):
        h2[j] = net.b2[j]
    for i in range(h1.shape[0]):
        value = h1[i]
        if value > 0:
            row = net.w2[i]
            for j in range(h2.shape[0]):
                h2[j] += value * row[j]
    for j in range(h2.shape[0]):
        h2[j] = max(h2[j], np.float32(0.0))


@njit(_nrt=False, fastmath=True)
def slot_score(net, nw, slot):
    """The net's score of one slot, after `net_hidden`."""
    row = net.w3t[slot]
    acc = net.b3[slot]
    for i in range(nw.h2.shape[0]):
        acc += row[i] * nw.h2[i]
    return acc


@njit(_nrt=False)
def net_scores(net, active, n, nw):
    """The net's score of every slot into nw.out, from n active features."""
    net_hidden(net, active, n, nw)
    for slot in range(nw.out.shape[0]):
        nw.out[slot] = slot_score(net, nw, slot)


@njit(_nrt=False)
def net_choice(tb, hands, st, pm, seat, discard, cands, n_cands, net, nw):
    """The candidate (power bit, of cands[:n_cands]) the net scores highest for `seat`'s
    decision, the candidates' scores left in nw.out by slot; -1 when the player has no net or
    the net does not know the deck."""
    if net.b1.shape[0] == 0:
        return -1
    n = encode(tb, hands, st, pm, seat, discard, nw.slots, nw.active)
    if n < 0:
        return -1
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


@njit(_nrt=False)
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


@njit(_nrt=False)
def log_decision(tb, hands, st, pm, seat, discard, cands, n_cands, card, log, log_n, nw):
    """Append `seat`'s decision (its features, candidates and the card chosen) to the log;
    nothing when the log is full or the net does not know the deck."""
    k = log_n[0]
    if k >= log.shape[0]:
        return
    n = encode(tb, hands, st, pm, seat, discard, nw.slots, nw.active)
    if n < 0:
        return
    row = log[k]
    row[:] = 0
    for i in range(n):
        if nw.active[i] < N_LOGGED:
            row[nw.active[i]] = 1
    for i in range(n_cands):
        row[N_LOGGED + nw.slots[cands[i]]] = 1
    row[LOG_LABEL] = nw.slots[card]
    log_n[0] = k + 1


@njit(_nrt=False)
def log_values(row, slots, cands, n_cands, sums, scale):
    """A logged decision's candidates valued into row (by slot, NaN where no candidate):
    each candidate's points summed over the worlds (`sums`), times `scale`."""
    row[:] = np.nan
    for i in range(n_cands):
        row[slots[cands[i]]] = sums[i] * scale
