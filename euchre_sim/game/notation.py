"""A deal as a notation records it (the cards of each trick in playing order, hands maybe
unknown) turned into a SPEC hand record: seats from the trick winners, known cards from the
plays, the hidden rest counted in the record's "unknown" field."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.calls import opening_leader
from ..core.cards import bit, cards_of
from ..core.rules import RuleSet
from ..core.ruletables import compile_rules
from ..core.seats import SEAT_NAMES, partner_of, team_of


class DealError(ValueError):
    """A deal the notation records but that cannot be made a record; the message says why."""


@dataclass
class NotedDeal:
    """One deal as a notation gives it; cards are ids, seats 0-3 (N E S W)."""

    dealer: int
    upcard: int
    bids: list[dict]  # SPEC bid objects, in order from the dealer's left
    tricks: list[list[int]]  # cards in playing order
    discard: int | None = None
    defend_alone: int | None = None
    dealt: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards known dealt
    first_leader: int | None = None  # the leader the notation names, checked against ours
    extra: dict = field(default_factory=dict)  # record keys kept (game, deal, players)


def trick_winner(rules: RuleSet, trump: int, cards: list[int]) -> int:
    """Index in `cards` (playing order) of the card that wins the trick, as the engine rules."""
    tables = compile_rules(rules)
    led = int(tables.eff_suit[trump][cards[0]])
    keys = [int(tables.win_key[trump][led][card]) for card in cards]
    return keys.index(max(keys))


def contract(deal: NotedDeal) -> tuple[int, int, bool] | None:
    """(maker seat, trump id, alone) of the first bid that makes trump, None when all pass."""
    for bid in deal.bids:
        if bid["action"] == "order_up":
            return _seat(bid), deal.upcard >> 3, bool(bid.get("alone"))
        if bid["action"] == "call":
            return _seat(bid), int(bid["trump"]), bool(bid.get("alone"))
    return None


def _seat(bid: dict) -> int:
    return SEAT_NAMES.index(bid["seat"])


def to_record(deal: NotedDeal, record_id: int, rules: RuleSet) -> dict:
    """The SPEC record of a noted deal (raises DealError when seats cannot be derived)."""
    made = contract(deal)
    if made is None and deal.tricks:
        raise DealError("tricks recorded after every seat passed")
    plays_by_seat = [0, 0, 0, 0]
    tricks = []
    if made is not None:
        tricks = _seat_tricks(deal, made, rules, plays_by_seat)
    took_up = (made is not None and any(b["action"] == "order_up" for b in deal.bids)
               and not (made[2] and partner_of(made[0]) == deal.dealer))
    dealt = [deal.dealt[s] | plays_by_seat[s] for s in range(4)]
    discard = deal.discard
    if took_up:
        dealt[deal.dealer] &= ~bit(deal.upcard)
        if discard is None:
            discard = _inferred_discard(deal, dealt[deal.dealer], plays_by_seat[deal.dealer])
        if discard is not None and discard != deal.upcard:
            dealt[deal.dealer] |= bit(discard)
    unknown = {}
    for seat in range(4):
        held = len(cards_of(dealt[seat]))
        if held > 5:
            raise DealError(f"seat {SEAT_NAMES[seat]} shows {held} cards dealt, a hand has 5")
        if held < 5:
            unknown[SEAT_NAMES[seat]] = 5 - held
    deck = rules.card_deck
    record = {"id": record_id, **deal.extra, "dealer": SEAT_NAMES[deal.dealer],
              "hands": [[deck.card_name(c) for c in deck.sorted_cards(h)] for h in dealt],
              "upcard": deck.card_name(deal.upcard),
              "bids": [{k: v for k, v in b.items() if k != "trump"} for b in deal.bids],
              "discard": deck.card_name(discard) if discard is not None else None,
              "defend_alone": (SEAT_NAMES[deal.defend_alone]
                               if deal.defend_alone is not None else None),
              "tricks": tricks}
    if unknown or (took_up and discard is None):
        record["unknown"] = {"hands": unknown, "discard": took_up and discard is None}
    return record


def _inferred_discard(deal: NotedDeal, dealt: int, played: int) -> int | None:
    """The dealer's discard when the cards show it: the one card held and never played."""
    candidates = cards_of((dealt | bit(deal.upcard)) & ~played)
    if len(candidates) == 1 and (len(cards_of(played)) == 5 or len(cards_of(dealt)) == 5):
        return candidates[0]
    return None


def _seat_tricks(deal: NotedDeal, made: tuple[int, int, bool], rules: RuleSet,
                 plays_by_seat: list[int]) -> list[dict]:
    """SPEC tricks: each card given its seat, clockwise from the leader over the seats in
    play; the winner leads the next."""
    maker, trump, alone = made
    out = {partner_of(maker)} if alone else set()
    if deal.defend_alone is not None:
        if team_of(deal.defend_alone) == team_of(maker):
            raise DealError("the lone defender is on the makers' side")
        out.add(partner_of(deal.defend_alone))
    active = [s for s in range(4) if s not in out]
    mask = sum(1 << s for s in active)
    leader = int(opening_leader(deal.dealer, mask, maker if alone else -1,
                                rules.lone_player_plays_last))
    if deal.first_leader is not None and deal.first_leader != leader:
        raise DealError(f"seat {SEAT_NAMES[deal.first_leader]} is recorded to lead, the rules "
                        f"make {SEAT_NAMES[leader]} lead")
    deck = rules.card_deck
    tricks = []
    for number, cards in enumerate(deal.tricks, 1):
        if len(cards) > len(active):
            raise DealError(f"trick {number} has {len(cards)} cards, {len(active)} seats play")
        order = active[active.index(leader):] + active[:active.index(leader)]
        plays = []
        for seat, card in zip(order, cards, strict=False):
            plays.append({"seat": SEAT_NAMES[seat], "card": deck.card_name(card)})
            plays_by_seat[seat] |= bit(card)
        tricks.append({"leader": SEAT_NAMES[leader], "plays": plays})
        if len(cards) < len(active):
            break
        leader = order[trick_winner(rules, trump, cards)]
    return tricks
