"""A hand entered on the page step by step: the partial record replayed with the engine, the
first step that breaks a rule named (as `replay` names it), and what the next seat may do."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, parse_seat
from ..game.engine import Bid, HandState, IllegalMove
from ..game.history import RecordError, parse_bid, replay_record

MAX_STEPS = 64  # bids and cards in one record, at most


def check_entry(record, rules: RuleSet) -> dict:
    """Where a partial SPEC record stands: the phase, the seat to act and its cards, the
    legal choices (UserError naming the first step that breaks a rule)."""
    return _next(replayed(record, rules))


def replayed(record, rules: RuleSet) -> HandState:
    """The engine after a partial record's steps, its types checked first; a complete hand
    replayed in full (`replay_record`), recorded points and all."""
    if not isinstance(record, dict):
        raise UserError("a hand record must be a JSON object")
    try:
        state = _replay(record, rules)
        if state.phase == "done":
            state = replay_record(record, rules)
    except (RecordError, IllegalMove) as err:
        raise UserError(str(err)) from None
    return state


def _replay(record: dict, rules: RuleSet) -> HandState:
    deck = rules.card_deck
    try:
        hands = deck.parse_hands_json(record.get("hands"))
        upcard = deck.parse_card(str(record.get("upcard")))
        state = HandState(rules, parse_seat(record.get("dealer", "")), hands, upcard)
    except (UserError, TypeError, AttributeError) as err:
        raise RecordError(f"the deal: {err}") from None
    if sum(bin(h).count("1") for h in hands) != 20 or any(h >> upcard & 1 for h in hands):
        raise RecordError("the deal: four hands of five cards and an upcard none of them holds")
    bids, tricks = record.get("bids") or [], record.get("tricks") or []
    if not all(isinstance(steps, list) and all(isinstance(s, dict) for s in steps)
               for steps in (bids, tricks, *(t.get("plays") or [] for t in tricks
                                               if isinstance(t, dict)))):
        raise RecordError("'bids', 'tricks' and each trick's 'plays' must be lists of objects")
    if len(bids) + sum(len(t.get("plays") or []) for t in tricks) > MAX_STEPS:
        raise RecordError("more steps than a hand has")
    for index, raw in enumerate(bids, 1):
        with _step(f"bid {index}", raw):
            state.bid(parse_bid(deck, raw, state.round))
    if state.phase == "discard" and record.get("discard") is not None:
        with _step("discard"):
            state.discard(deck.parse_card(str(record["discard"])))
    if state.phase == "defend" and "defend_alone" in record:
        with _step("defend_alone"):
            alone = record["defend_alone"]
            state.defend(None if alone is None else parse_seat(alone))
    for number, trick in enumerate(tricks, 1):
        for raw in trick.get("plays") or []:
            with _step(f"trick {number}", raw):
                state.play(parse_seat(raw["seat"]), deck.parse_card(str(raw["card"])))
    return state


@contextlib.contextmanager
def _step(where: str, raw=None) -> Iterator[None]:
    """One step; a broken rule raised as RecordError naming the step and the seat."""
    if isinstance(raw, dict) and "seat" in raw:
        where += f", seat {raw['seat']}"
    try:
        yield
    except (IllegalMove, UserError, KeyError, TypeError, ValueError) as err:
        raise RecordError(f"{where}: {err}") from None


def _next(state: HandState) -> dict:
    """What comes next: the seat to act, the cards it holds, its legal choices."""
    deck = state.rules.card_deck

    def names(mask: int) -> list[str]:
        return [deck.card_name(c) for c in deck.sorted_cards(mask)]
    out = {"phase": state.phase, "seat": None, "held": [], "choices": [],
           "trick": len(state.tricks) or None, "leader": None, "points": None}
    if state.phase == "bid":
        out |= {"seat": SEAT_NAMES[state.turn], "round": state.round, "held":
                names(state.hands[state.turn]),
                "choices": [_bid_choice(state, b) for b in state.legal_bids()]}
    elif state.phase == "discard":
        out |= {"seat": SEAT_NAMES[state.dealer], "held": names(state.hands[state.dealer]),
                "choices": names(state.hands[state.dealer])}
    elif state.phase == "defend":
        out |= {"choices": [None] + [SEAT_NAMES[s] for s in state.defenders()]}
    elif state.phase == "play":
        out |= {"seat": SEAT_NAMES[state.turn], "held": names(state.hands[state.turn]),
                "choices": names(state.legal_cards(state.turn)),
                "leader": SEAT_NAMES[state.tricks[-1].leader]}
    else:
        out["points"] = dict(zip(("NS", "EW"), state.points(), strict=True))
    return out


def _bid_choice(state: HandState, bid: Bid) -> dict:
    suit = None if bid.action == "pass" else state.rules.card_deck.suit_name(
        bid.suit if bid.action == "call" else state.upcard >> 3)
    return {"seat": SEAT_NAMES[bid.seat], "round": bid.round, "action": bid.action,
            "suit": suit, "alone": bool(bid.alone)}
