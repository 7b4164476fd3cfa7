"""Counter-based dealing: deal `i` of seed `s` is a pure function of (s, i, deck).

Generator (SplitMix64 finaliser as a hash, as in SplitMix/"Squares"-style counter RNGs):
  key_i  = mix(mix(s + G) ^ (i + 1) * G2)
  draw_j = mix(key_i + (j + 1) * G)
and the deck's cards (ascending ids) are shuffled by Fisher-Yates with `draw_j mod (j + 1)`
for j = n-1 .. 1. Dealing then gives cards 0-4 to the dealer's left, 5-9 to the next seat, ...,
15-19 to the dealer; card 20 is the upcard. No state is carried between deals, so any chunking
or spread over workers yields the same deals.
"""

from typing import NamedTuple

import numpy as np

from .jit import njit
from .seats import seat_at

_G = np.uint64(0x9E3779B97F4A7C15)
_G2 = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_ONE = np.uint64(1)


class Deal(NamedTuple):
    """A deal as the kernels read it: the four `hands` (uint64 masks by seat), the `upcard`
    (the card turned down, where a question asks about round 2) and the `dealer`'s seat."""

    hands: np.ndarray
    upcard: int
    dealer: int


@njit
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit
def deal_key(seed, index):
    return _mix(_mix(seed + _G) ^ ((index + _ONE) * _G2))


@njit
def draw(key, j):
    return _mix(key + (np.uint64(j) + _ONE) * _G)


@njit(nrt=False)
def shuffle(key, cards, n):
    """Fisher-Yates shuffle of cards[:n] in place, driven by draws of `key`."""
    shuffle_tail(key, cards, n, n)


@njit(nrt=False)
def shuffle_tail(key, cards, n, m):
    """The first m steps of `shuffle`: cards[n - m:n] become a uniform random m of the cards
    of cards[:n], in random order (the rest in no set order)."""
    for j in range(n - 1, max(n - 1 - m, 0), -1):
        k = np.int64(draw(key, j) % np.uint64(j + 1))
        tmp = cards[j]
        cards[j] = cards[k]
        cards[k] = tmp


@njit
def deal_into(deck_cards, seed, index, dealer, hands, work):
    """Deal `index` of `seed`: fills hands[0:4] (by seat) and returns the upcard id."""
    for j in range(deck_cards.shape[0]):  # a loop: a slice copy compiles its shape error's text
        work[j] = deck_cards[j]
    shuffle(deal_key(seed, np.uint64(index)), work, work.shape[0])
    for k in range(4):
        seat = seat_at(dealer, k + 1)
        mask = np.uint64(0)
        for c in range(5):
            mask |= _ONE << np.uint64(work[5 * k + c])
        hands[seat] = mask
    return work[20]


@njit
def _deal_batch(deck_cards, seed, start, count, dealer, out_hands, out_up):
    work = np.empty_like(deck_cards)
    for i in range(count):
        out_up[i] = deal_into(deck_cards, seed, start + i, dealer, out_hands[i], work)


def seed_to_u64(seed: int) -> np.uint64:
    return np.uint64(int(seed) % (1 << 64))


def deck_array(rules) -> np.ndarray:
    return np.array(rules.card_deck.cards, dtype=np.int64)


def deal_batch(rules, seed: int, start: int, count: int, dealer: int = 0):
    """Deals start..start+count-1: (hands uint64[count, 4] by seat, upcards int64[count])."""
    hands = np.zeros((count, 4), dtype=np.uint64)
    ups = np.zeros(count, dtype=np.int64)
    _deal_batch(deck_array(rules), seed_to_u64(seed), np.uint64(start), count, dealer, hands, ups)
    return hands, ups


def deal_one(rules, seed: int, index: int, dealer: int = 0) -> tuple[list[int], int]:
    hands, ups = deal_batch(rules, seed, index, 1, dealer)
    return [int(h) for h in hands[0]], int(ups[0])
