"""Hand classes: a canonical key of a five-card hand relative to the trump named.

The key keeps, by rank position within each effective suit (so bowers and Benny are trumps):
  T  the trumps held (Benny B, right R, left L, then A K Q ...; Yooker: the power 3 first),
  N  the holding in the trump's same-colour suit (its jack is the left bower, so no J here),
  D  in round 2, the holding in the turned-down suit when that suit is neither trump nor N,
  O  the remaining suits as an unordered set of holdings (no-trump after Benny was turned up
     has four: the fourth is stored in N's unused slot),
and the reference card: round 1 the upcard's rank (who gets it follows from the seat),
round 2 the turned-down card's rank and relation to the suit named: t (it is now a trump:
the left bower was turned down), n (same colour), x (another suit, whose holding is D).
Suits that play alike are never told apart, so a hand and its suit-swapped twin share a key.
"""

from __future__ import annotations

import numpy as np

from .bits import low_index, popcount
from .cards import JOKER
from .jit import njit

_SHIFT_NEXT, _SHIFT_DOWN, _SHIFT_OTHER, _SHIFT_RANK, _SHIFT_REL = 10, 18, 26, 50, 54
_BIT_ROUND2, _BIT_NT = 56, 57
REL_NONE, REL_TRUMP, REL_NEXT, REL_CROSS = 0, 1, 2, 3
_REL_LETTER = {REL_TRUMP: "t", REL_NEXT: "n", REL_CROSS: "x"}


@njit
def _suit_masks(tb, hand, trump, masks):
    masks[:] = 0
    m = hand
    while m:
        c = low_index(m)
        m &= m - np.uint64(1)
        masks[tb.eff_suit[trump, c]] |= np.uint64(1) << np.uint64(tb.order_pos[trump, c])


@njit
def other_suits(masks, trump, nxt, down_suit, suits):
    """suits[:n] = the suits a class key holds as an unordered set (not trump, its next suit
    or a cross turned-down suit) in its canonical order: by the holding's mask of ranks from
    the top (bit 0 the best card), larger first, ties in suit order; suits[n:] = -1; returns
    n."""
    n = 0
    for s in range(4):
        if s != trump and s != nxt and s != down_suit:
            j = n
            while j > 0 and masks[suits[j - 1]] < masks[s]:
                suits[j] = suits[j - 1]
                j -= 1
            suits[j] = s
            n += 1
    suits[n:] = -1
    return n


@njit
def class_key(tb, hand, trump, round_no, ref_card, masks, others):
    """Key of `hand` (card ids) for `trump`; ref_card: upcard (round 1) or turned-down card
    (round 2; -1 when none). Fills `masks` (uint64[5]) with the per-suit holdings and `others`
    (int64[4]) with the unordered suits in the key's order (other_suits)."""
    _suit_masks(tb, hand, trump, masks)
    nxt = tb.next_suit[trump]
    key = masks[trump]
    if nxt >= 0:
        key |= masks[nxt] << np.uint64(_SHIFT_NEXT)
    rel = REL_NONE
    rank = 15
    down_suit = -1
    if ref_card >= 0:
        ref_suit = tb.eff_suit[trump, ref_card]
        rank = tb.order_pos[trump, ref_card]
        if round_no == 2:
            if ref_suit == trump:
                rel = REL_TRUMP
            elif ref_suit == nxt:
                rel = REL_NEXT
            else:
                rel = REL_CROSS
                down_suit = ref_suit
                key |= masks[ref_suit] << np.uint64(_SHIFT_DOWN)
    n_others = other_suits(masks, trump, nxt, down_suit, others)
    for i in range(min(n_others, 3)):
        key |= masks[others[i]] << np.uint64(_SHIFT_OTHER + 8 * i)
    if n_others == 4:  # no-trump after Benny was turned up: the unused N slot takes the 4th
        key |= masks[others[3]] << np.uint64(_SHIFT_NEXT)
    key |= np.uint64(rank) << np.uint64(_SHIFT_RANK)
    key |= np.uint64(rel) << np.uint64(_SHIFT_REL)
    if round_no == 2:
        key |= np.uint64(1) << np.uint64(_BIT_ROUND2)
    if trump == 4:
        key |= np.uint64(1) << np.uint64(_BIT_NT)
    return key


@njit
def class_features(tb, trump, masks, out):
    """out = (trumps, right, left, off-suit aces, voids) from the per-suit holdings."""
    top = 1 if tb.order[trump, trump, 0] == JOKER else 0  # Benny above the right bower
    trumps = masks[trump]
    out[0] = popcount(trumps)
    out[1] = 1 if trump < 4 and (trumps >> np.uint64(top)) & np.uint64(1) else 0
    out[2] = 1 if tb.next_suit[trump] >= 0 and (trumps >> np.uint64(top + 1)) & np.uint64(1) \
        else 0
    aces = 0
    voids = 0
    for s in range(4):
        if s != trump:
            aces += masks[s] & np.uint64(1)
            voids += masks[s] == 0
    out[3] = aces
    out[4] = voids


def read_against_no_trump(keys: np.ndarray) -> np.ndarray:
    """Which class keys were read against no-trump ('NT T=…': Benny was turned up, so the
    hand has no suit to be read against)."""
    return (np.asarray(keys, dtype=np.uint64) >> np.uint64(_BIT_NT) & np.uint64(1)).astype(bool)


def _slot_names(rules) -> dict[str, list[str]]:
    """Rank names by position in each kind of slot, for reading keys."""
    from .ruletables import suit_order

    deck = rules.card_deck

    def names(cards, bowers=False):
        out = []
        for c in cards:
            if c == JOKER:
                out.append("B")
            elif bowers and not rules.yooker and c & 7 == 4:
                out.append("R" if c >> 3 == 0 else "L")
            else:
                out.append(deck.card_name(c)[0])
        return out

    next_suit = 3 if not rules.yooker else 1
    return {"T": names(suit_order(rules, 0, 0), bowers=True),
            "N": names(suit_order(rules, 0, next_suit)),
            "O": names(suit_order(rules, 0, 1)),
            "NT_T": ["B"], "NT_O": names(suit_order(rules, 4, 1))}


class KeyReader:
    """Readable form of class keys, e.g. 'T=RLA N=K O=A9/Q up=9' (lookup tables per slot)."""

    def __init__(self, rules):
        names = _slot_names(rules)
        self.yooker = rules.yooker

        def table(slot: list[str], bits: int) -> list[str]:
            return ["".join(slot[i] for i in range(len(slot)) if m >> i & 1) or "-"
                    for m in range(1 << bits)]

        self.trump = {0: table(names["T"], 10), 1: table(names["NT_T"], 10)}
        self.next = table(names["N"], 8)
        self.other = {0: table(names["O"], 8), 1: table(names["NT_O"], 8)}
        self.rank = {(0, REL_NONE): names["T"], (0, REL_TRUMP): names["T"],
                     (0, REL_NEXT): names["N"], (0, REL_CROSS): names["O"],
                     (1, REL_CROSS): names["NT_O"]}

    def __call__(self, key: int) -> str:
        nt = key >> _BIT_NT & 1
        rel = key >> _SHIFT_REL & 3
        rank = key >> _SHIFT_RANK & 15
        other = self.other[nt]
        parts = [("NT T=" if nt else "T=") + self.trump[nt][key & 0x3FF]]
        if not nt and not self.yooker:
            parts.append("N=" + self.next[key >> _SHIFT_NEXT & 0xFF])
        if rel == REL_CROSS:
            parts.append("D=" + other[key >> _SHIFT_DOWN & 0xFF])
        n_others = 4 - (0 if nt else 1) - (0 if nt or self.yooker else 1) - (rel == REL_CROSS)
        shifts = [_SHIFT_OTHER + 8 * i for i in range(min(n_others, 3))]
        shifts += [_SHIFT_NEXT] * (n_others == 4)
        parts.append("O=" + "/".join(other[key >> shift & 0xFF] for shift in shifts))
        if not key >> _BIT_ROUND2 & 1:
            parts.append("up=" + self.rank[(0, REL_NONE)][rank])
        elif rel != REL_NONE:
            parts.append("down=" + self.rank[(nt, rel)][rank] + _REL_LETTER[rel])
        return " ".join(parts)

    def many(self, keys: np.ndarray):
        """The readable forms of many keys at once, as a pyarrow string array."""
        import pyarrow as pa
        import pyarrow.compute as pc

        keys = keys.astype(np.uint64)

        def field(shift: int, mask: int) -> np.ndarray:
            return ((keys >> np.uint64(shift)) & np.uint64(mask)).astype(np.int64)

        def look(table: list[str], index: np.ndarray, prefix: str = "") -> np.ndarray:
            return np.array([prefix + t for t in table], dtype=object)[index]

        nt = field(_BIT_NT, 1).astype(bool)
        rel = field(_SHIFT_REL, 3)
        rank = field(_SHIFT_RANK, 15)
        round2 = field(_BIT_ROUND2, 1).astype(bool)
        cross = rel == REL_CROSS
        parts = [np.where(nt, look(self.trump[1], field(0, 0x3FF), "NT T="),
                          look(self.trump[0], field(0, 0x3FF), "T="))]
        if not self.yooker:
            parts.append(np.where(nt, None, look(self.next, field(_SHIFT_NEXT, 0xFF), "N=")))
        parts.append(np.where(cross, np.where(nt, look(self.other[1], field(_SHIFT_DOWN, 0xFF),
                                                       "D="),
                                              look(self.other[0], field(_SHIFT_DOWN, 0xFF),
                                                   "D=")), None))
        n_others = 4 - np.where(nt, 0, 1) - np.where(nt | self.yooker, 0, 1) - cross
        pieces = []
        for i in range(4):
            index = field(_SHIFT_OTHER + 8 * i if i < 3 else _SHIFT_NEXT, 0xFF)
            text = np.where(nt, look(self.other[1], index), look(self.other[0], index))
            pieces.append(pa.array(np.where(i < n_others, text, None), type=pa.string()))
        others = pc.binary_join_element_wise(*pieces, "/", null_handling="skip")
        parts.append(pc.binary_join_element_wise("O=", others, "", null_handling="emit_null"))
        ref = np.full(len(keys), None, dtype=object)
        ref[~round2] = look(self.rank[(0, REL_NONE)], rank[~round2], "up=")
        for (is_nt, relation), names in self.rank.items():
            if relation == REL_NONE:
                continue
            sel = round2 & (rel == relation) & (nt == bool(is_nt))
            letter = _REL_LETTER[relation]
            ref[sel] = np.array(["down=" + n + letter for n in names], dtype=object)[rank[sel]]
        parts.append(ref)
        arrays = [p if isinstance(p, pa.Array) else pa.array(p, type=pa.string()) for p in parts]
        return pc.binary_join_element_wise(*arrays, " ", null_handling="skip")
