"""Cards as bits: parsing and formatting of cards, hands and deals for every deck.

Card id = suit * 8 + rank index (0-7 for 7 8 9 T J Q K A; 0-5 for Yooker's 1-6),
the joker (Benny) is id 32. A hand is an int whose bit `id` is set for each card held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .errors import UserError, shown
from .seats import parse_seat, seat_at, seat_name

N_CARD_IDS = 33
JOKER = 32
HAND_SIZE = 5

FRENCH_RANKS = "789TJQKA"
FRENCH_SUITS = "CDHS"
YOOKER_RANKS = "123456"
YOOKER_SUITS = "STQO"  # Stars, Triangles, sQuares, circles (O)
_SUIT_ALIASES = {
    "french": {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"},
    "yooker": {"★": "S", "☆": "S", "▲": "T", "△": "T", "■": "Q", "□": "Q", "●": "O", "○": "O"},
}
JOKER_NAME = "JK"
_JOKER_ALIASES = {"JK", "JOKER", "BENNY", "BN", "🃏"}
_SEPARATORS = re.compile(r"[\s,]+")


def card_suit(card: int) -> int:
    return card >> 3


def card_rank(card: int) -> int:
    return card & 7


def bit(card: int) -> int:
    return 1 << card


def cards_of(mask: int) -> list[int]:
    """Card ids in a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Deck:
    """Which cards are in play: card style, size and the joker."""

    style: str = "french"  # "french" or "yooker"
    size: int = 24  # 24 (9-A), 28 (8-A), 32 (7-A); Yooker is always 24 (1-6)
    joker: bool = False

    @cached_property
    def ranks(self) -> str:
        return YOOKER_RANKS if self.style == "yooker" else FRENCH_RANKS[8 - self.size // 4:]

    @cached_property
    def first_rank(self) -> int:
        """Rank index of the lowest rank in the deck."""
        return 0 if self.style == "yooker" else 8 - self.size // 4

    @cached_property
    def suits(self) -> str:
        return YOOKER_SUITS if self.style == "yooker" else FRENCH_SUITS

    @cached_property
    def mask(self) -> int:
        m = 0
        top = 6 if self.style == "yooker" else 8
        for suit in range(4):
            for rank in range(self.first_rank, top):
                m |= bit(suit * 8 + rank)
        if self.joker:
            m |= bit(JOKER)
        return m

    @cached_property
    def cards(self) -> list[int]:
        return cards_of(self.mask)

    def describe(self) -> str:
        ranks = " ".join(self.ranks)
        joker = f", joker {JOKER_NAME}" if self.joker else ""
        return f"{len(self.cards)}-card deck: ranks {ranks}, suits {' '.join(self.suits)}{joker}"

    def card_name(self, card: int) -> str:
        if card == JOKER:
            return JOKER_NAME
        rank_chars = YOOKER_RANKS if self.style == "yooker" else FRENCH_RANKS
        return rank_chars[card_rank(card)] + self.suits[card_suit(card)]

    def suit_name(self, suit: int) -> str:
        return "NT" if suit == 4 else self.suits[suit]

    def parse_suit(self, token: str) -> int:
        """Suit index 0-3, or 4 for 'NT'."""
        text = token.strip().upper()
        text = _SUIT_ALIASES[self.style].get(text, text)
        if text in ("NT", "N"):
            return 4
        if len(text) == 1 and text in self.suits:
            return self.suits.index(text)
        raise UserError(f"unknown suit {shown(token)} (use {' '.join(self.suits)} or NT)")

    @cached_property
    def _parsed(self) -> dict[str, int]:
        """Tokens already read (batches of deals repeat the same few dozen)."""
        return {}

    def parse_card(self, token: str) -> int:
        if not isinstance(token, str):
            raise UserError(f"a card is written as text (e.g. 'AH'), got {shown(token)}")
        card = self._parsed.get(token)
        if card is None:
            card = self._parsed[token] = self._read_card(token)
        return card

    def _read_card(self, token: str) -> int:
        text = token.strip().upper()
        if text in _JOKER_ALIASES:
            if not self.joker:
                raise UserError(
                    f"card {shown(token)} is not in this rule set's deck ({self.describe()})")
            return JOKER
        if self.style == "french" and text.startswith("10"):
            text = "T" + text[2:]
        if len(text) >= 2:
            rank_char, suit_text = text[0], text[1:]
            suit_char = _SUIT_ALIASES[self.style].get(suit_text, suit_text)
            all_ranks = YOOKER_RANKS if self.style == "yooker" else FRENCH_RANKS
            if rank_char in all_ranks and len(suit_char) == 1 and suit_char in self.suits:
                card = self.suits.index(suit_char) * 8 + all_ranks.index(rank_char)
                if not self.mask >> card & 1:
                    raise UserError(
                        f"card {shown(token)} is not in this rule set's deck ({self.describe()})"
                    )
                return card
        raise UserError(f"unknown card {shown(token)} ({self.describe()})")

    def parse_cards(self, text: str) -> list[int]:
        """Cards of a space- or comma-separated list, in the order given; duplicates rejected."""
        if not isinstance(text, str):
            raise UserError(f"cards are written as text (e.g. 'AH KH'), got {shown(text)}")
        tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
        cards = [self.parse_card(t) for t in tokens]
        seen: set[int] = set()
        for token, card in zip(tokens, cards, strict=True):
            if card in seen:
                raise UserError(f"duplicate card {shown(token)}")
            seen.add(card)
        return cards

    def parse_hand(self, text: str | list[str], size: int | None = HAND_SIZE) -> int:
        """A hand mask from text or a list of card strings; `size` checks the card count."""
        if isinstance(text, list):
            text = " ".join(str(t) for t in text)
        cards = self.parse_cards(text)
        if size is not None and len(cards) != size:
            raise UserError(f"hand {shown(text.strip())} has {len(cards)} cards, expected {size}")
        mask = 0
        for card in cards:
            mask |= bit(card)
        return mask

    def sorted_cards(self, mask: int) -> list[int]:
        """Card ids of a hand in display order: the joker, then by suit, high rank first."""
        return sorted(cards_of(mask), key=lambda c: (c != JOKER, card_suit(c), -card_rank(c)))

    def format_hand(self, mask: int) -> str:
        return " ".join(self.card_name(c) for c in self.sorted_cards(mask))

    def parse_deal(self, text: str) -> list[int]:
        """'SEAT:h1/h2/h3/h4' (four hands clockwise from SEAT) -> masks indexed by seat N E S W."""
        if ":" not in text:
            raise UserError(f"deal {shown(text)} must start with a seat, e.g. "
                            "'N:JH JD AH KS 9C/...'")
        seat_text, rest = text.split(":", 1)
        first = parse_seat(seat_text)
        parts = rest.split("/")
        if len(parts) != 4:
            raise UserError(f"deal {shown(text)} must have four hands separated by '/'")
        hands = [0, 0, 0, 0]
        for offset, part in enumerate(parts):
            hands[seat_at(first, offset)] = self.parse_hand(part)
        check_disjoint(self, hands)
        return hands

    def parse_hands_json(self, raw) -> list[int]:
        """Four hands from JSON: a list N E S W, or an object keyed by seat; cards as a list
        of strings or one string each."""
        if isinstance(raw, dict):
            hands = [0, 0, 0, 0]
            seats = {parse_seat(key) for key in raw}
            if len(raw) != 4 or len(seats) != 4:
                raise UserError("'hands' must give all four seats")
            for key, cards in raw.items():
                hands[parse_seat(key)] = self.parse_hand(cards)
        elif isinstance(raw, list) and len(raw) == 4:
            hands = [self.parse_hand(cards) for cards in raw]
        else:
            raise UserError("'hands' must be four hands (a list N E S W or an object by seat)")
        check_disjoint(self, hands)
        return hands

    def format_deal(self, hands: list[int], first: int = 0) -> str:
        parts = [self.format_hand(hands[seat_at(first, k)]) for k in range(4)]
        return f"{seat_name(first)}:" + "/".join(parts)


def check_disjoint(deck: Deck, hands: list[int]) -> None:
    """Reject a card held twice across hands."""
    seen = 0
    for hand in hands:
        dup = seen & hand
        if dup:
            raise UserError(f"duplicate card {deck.card_name(cards_of(dup)[0])!r}")
        seen |= hand
