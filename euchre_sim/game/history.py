"""Hand histories as JSON Lines records (SPEC.md): writing a played hand, replaying a record."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import Deck, bit, cards_of, check_disjoint
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, TEAM_NAMES, parse_seat
from .drinks import count_drinks
from .engine import Bid, HandState, IllegalMove


class RecordError(ValueError):
    """A record that breaks the rules or cannot be read; the message says where and why."""


def _teams(values: list[int]) -> dict[str, int]:
    return {TEAM_NAMES[0]: values[0], TEAM_NAMES[1]: values[1]}


def bid_label(state: HandState, bid: Bid) -> dict:
    """A bid as `advise` names an action: `{"action", "suit", "alone"}` (suit null on a pass)."""
    if bid.action == "pass":
        return {"action": "pass", "suit": None, "alone": False}
    trump = bid.suit if bid.action == "call" else state.upcard >> 3
    return {"action": bid.action, "suit": state.rules.card_deck.suit_name(trump),
            "alone": bool(bid.alone)}


def state_to_record(state: HandState, record_id: int, **extra) -> dict:
    """The SPEC record of a finished hand."""
    deck = state.rules.card_deck
    name = deck.card_name
    bids = []
    for b in state.bids:
        entry: dict = {"seat": SEAT_NAMES[b.seat], "round": b.round, "action": b.action}
        if b.action == "call":
            entry["suit"] = deck.suit_name(b.suit)
        if b.action != "pass":
            entry["alone"] = b.alone
        bids.append(entry)
    record = {
        "id": record_id,
        **extra,
        "dealer": SEAT_NAMES[state.dealer],
        "hands": [[name(c) for c in deck.sorted_cards(h)] for h in state.dealt],
        "upcard": name(state.upcard),
        "bids": bids,
        "discard": name(state.discarded) if state.discarded >= 0 else None,
        "defend_alone": SEAT_NAMES[state.defender_alone] if state.defender_alone >= 0 else None,
        "tricks": [
            {"leader": SEAT_NAMES[t.leader],
             "plays": [{"seat": SEAT_NAMES[s], "card": name(c)} for s, c in t.plays]}
            for t in state.tricks
        ],
        "points": _teams(state.points()),
    }
    if state.rules.drinks:
        record["drinks"] = dict(zip(SEAT_NAMES, count_drinks(state), strict=True))
    return record


def _field(record: dict, key: str):
    if key not in record:
        raise RecordError(f"missing field {key!r}")
    return record[key]


def parse_bid(deck: Deck, raw, default_round: int) -> Bid:
    """A record's bid object as a Bid (RecordError when it cannot be read)."""
    if not isinstance(raw, dict):
        raise RecordError("a bid must be an object")
    seat = parse_seat(_field(raw, "seat"))
    action = str(_field(raw, "action"))
    if action not in ("pass", "order_up", "call"):
        raise RecordError(f"unknown bid action {action!r}")
    suit = deck.parse_suit(str(raw["suit"])) if raw.get("suit") is not None else None
    return Bid(seat, int(raw.get("round", default_round)), action, suit, bool(raw.get("alone")))


@dataclass(frozen=True)
class ReplayedHand:
    """A replayed hand and, by seat, the mask of dealt cards filled in because the record
    does not know them (never played: nothing in the result depends on them)."""

    state: HandState
    filled: list[int]

    @property
    def hidden(self) -> int:
        return sum(len(cards_of(mask)) for mask in self.filled)


def replay_record(record: dict, rules: RuleSet) -> HandState:
    """Re-derive a recorded hand; raises RecordError naming the step and the rule broken."""
    return replay_hand(record, rules).state


def replay_hand(record: dict, rules: RuleSet) -> ReplayedHand:
    """Re-derive a recorded hand, filling the dealt cards its "unknown" field says are hidden
    (lowest card ids no record shows first) for the engine's bookkeeping only."""
    deck = rules.card_deck
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    unknown, discard_unknown = _unknown(record)
    try:
        dealer = parse_seat(_field(record, "dealer"))
        hands = _known_hands(deck, _field(record, "hands"), unknown)
        upcard = deck.parse_card(str(_field(record, "upcard")))
    except UserError as err:
        raise RecordError(str(err)) from None
    if (hands[0] | hands[1] | hands[2] | hands[3]) >> upcard & 1:
        raise RecordError(f"upcard {deck.card_name(upcard)} is also in a hand")
    filled = _fill(deck, record, hands, upcard, unknown)
    if discard_unknown and record.get("discard") is not None:
        raise RecordError("'discard' is recorded and also marked unknown")
    state = HandState(rules, dealer, [h | f for h, f in zip(hands, filled, strict=True)],
                      upcard)
    _replay_bids(state, deck, record.get("bids") or [])
    _replay_discard(state, deck, record.get("discard"), filled if discard_unknown else None)
    _replay_defence(state, record.get("defend_alone"))
    _check_hidden_out_of_play(state, filled)
    _replay_tricks(state, deck, record.get("tricks") or [])
    recorded = record.get("points")
    if recorded is not None:
        computed = _teams(state.points())
        try:
            given = {team: int(recorded[team]) for team in TEAM_NAMES}
        except (KeyError, TypeError, ValueError):
            raise RecordError("'points' must be {\"NS\": n, \"EW\": n}") from None
        if given != computed:
            raise RecordError(f"wrong points: recorded {given}, the rules give {computed}")
    return ReplayedHand(state, filled)


def _unknown(record: dict) -> tuple[list[int], bool]:
    """Hidden dealt cards by seat and whether the discard is hidden (SPEC extension)."""
    raw = record.get("unknown")
    if raw is None:
        return [0, 0, 0, 0], False
    if not isinstance(raw, dict) or not isinstance(raw.get("hands", {}), dict):
        raise RecordError("'unknown' must be {\"hands\": {seat: n}, \"discard\": bool}")
    counts = [0, 0, 0, 0]
    for key, value in raw.get("hands", {}).items():
        try:
            seat = parse_seat(key)
        except UserError as err:
            raise RecordError(f"'unknown': {err}") from None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 5:
            raise RecordError(f"'unknown': seat {key} must lack 0 to 5 cards, not {value!r}")
        counts[seat] = value
    return counts, bool(raw.get("discard", False))


def _known_hands(deck: Deck, raw, unknown: list[int]) -> list[int]:
    """The dealt hands' known cards; each seat holds 5 less its unknown count."""
    if not any(unknown):
        return deck.parse_hands_json(raw)
    if isinstance(raw, dict):
        if {parse_seat(key) for key in raw} != set(range(4)) or len(raw) != 4:
            raise UserError("'hands' must give all four seats")
        raw = [raw[key] for key in sorted(raw, key=parse_seat)]
    if not isinstance(raw, list) or len(raw) != 4:
        raise UserError("'hands' must be four hands (a list N E S W or an object by seat)")
    hands = [deck.parse_hand(cards, size=5 - n) for cards, n in zip(raw, unknown, strict=True)]
    check_disjoint(deck, hands)
    return hands


def _shown_cards(deck: Deck, record: dict) -> int:
    """Every card the record names outside the hands (upcard, discard, plays) it can read."""
    names = [record.get("discard")]
    for trick in record.get("tricks") or []:
        plays = trick.get("plays") if isinstance(trick, dict) else None
        names += [p.get("card") for p in plays or [] if isinstance(p, dict)]
    shown = 0
    for name in names:
        try:
            shown |= bit(deck.parse_card(str(name))) if name is not None else 0
        except UserError:
            continue
    return shown


def _fill(deck: Deck, record: dict, hands: list[int], upcard: int,
          unknown: list[int]) -> list[int]:
    """Masks of the cards filled in by seat: the lowest ids no record shows, seat N first."""
    if not any(unknown):
        return [0, 0, 0, 0]
    shown = hands[0] | hands[1] | hands[2] | hands[3] | bit(upcard) | _shown_cards(deck, record)
    free = [c for c in deck.cards if not shown >> c & 1]
    if len(free) < sum(unknown):
        raise RecordError(f"{sum(unknown)} hidden cards but only {len(free)} cards unseen")
    filled = []
    for count in unknown:
        mask = 0
        for card in free[:count]:
            mask |= bit(card)
        free = free[count:]
        filled.append(mask)
    return filled


def _check_hidden_out_of_play(state: HandState, filled: list[int]) -> None:
    if state.phase != "play":
        return
    for seat in state.active_seats():
        if state.hands[seat] & filled[seat]:
            raise RecordError(f"seat {SEAT_NAMES[seat]} plays with hidden cards in its hand "
                              f"(only a seat out of play or the dealer's discard may be hidden)")


def _replay_bids(state: HandState, deck: Deck, bids: list) -> None:
    for index, raw in enumerate(bids, 1):
        if state.phase != "bid":
            raise RecordError(f"bid {index}: bid after the bidding ended")
        try:
            bid = parse_bid(deck, raw, state.round)
            state.bid(bid)
        except (IllegalMove, UserError) as err:
            where = f"bid {index}"
            if isinstance(raw, dict) and "seat" in raw:
                where += f", seat {raw['seat']}"
            raise RecordError(f"{where}: {err}") from None
    if state.phase == "bid":
        who = SEAT_NAMES[state.turn]
        raise RecordError(f"bidding incomplete: seat {who} has not bid in round {state.round}")


def _replay_discard(state: HandState, deck: Deck, raw, filled: list[int] | None) -> None:
    """The recorded discard, or with `filled` (the discard hidden) the dealer's lowest filled
    card."""
    if filled is not None:
        if state.phase != "discard":
            raise RecordError("the discard is marked unknown but the dealer did not take "
                              "the upcard")
        hidden = cards_of(state.hands[state.dealer] & filled[state.dealer])
        if not hidden:
            raise RecordError("the discard is marked unknown but no card of the dealer's "
                              "dealt hand is")
        state.discard(hidden[0])
        return
    if state.phase == "discard":
        if raw is None:
            raise RecordError("the dealer took the upcard but no discard is recorded")
        try:
            state.discard(deck.parse_card(str(raw)))
        except (IllegalMove, UserError) as err:
            raise RecordError(f"discard, seat {SEAT_NAMES[state.dealer]}: {err}") from None
    elif raw is not None:
        raise RecordError("a discard is recorded but the dealer did not take the upcard")


def _replay_defence(state: HandState, raw) -> None:
    if state.passed_out:
        if raw is not None:
            raise RecordError("defend_alone recorded on a hand passed out")
        return
    try:
        state.defend(parse_seat(raw) if raw is not None else None)
    except (IllegalMove, UserError) as err:
        raise RecordError(f"defend_alone: {err}") from None


def _replay_tricks(state: HandState, deck: Deck, tricks: list) -> None:
    if state.passed_out:
        if tricks:
            raise RecordError("tricks recorded on a hand passed out")
        return
    if len(tricks) != 5:
        raise RecordError(f"{len(tricks)} tricks recorded, a hand has 5")
    for number, raw in enumerate(tricks, 1):
        expected = state.tricks[-1].leader
        try:
            leader = parse_seat(_field(raw, "leader"))
        except (UserError, TypeError) as err:
            raise RecordError(f"trick {number}: {err}") from None
        if leader != expected:
            raise RecordError(f"trick {number}: leader {SEAT_NAMES[leader]} recorded, "
                              f"the rules make {SEAT_NAMES[expected]} lead")
        plays = raw.get("plays") or []
        for play in plays:
            where = f"trick {number}, seat {play.get('seat') if isinstance(play, dict) else '?'}"
            try:
                seat = parse_seat(_field(play, "seat"))
                state.play(seat, deck.parse_card(str(_field(play, "card"))))
            except (IllegalMove, UserError, RecordError, TypeError, AttributeError) as err:
                raise RecordError(f"{where}: {err}") from None
            if state.phase == "done" or len(state.tricks) > number:
                break
        if len(state.tricks) == number and state.phase != "done":
            raise RecordError(f"trick {number}: incomplete ({len(plays)} plays)")
        if len(plays) != len(state.tricks[number - 1].plays):
            raise RecordError(f"trick {number}: {len(plays)} plays recorded, "
                              f"{len(state.tricks[number - 1].plays)} seats are in play")


def replay_result(record_id, state: HandState, hidden: int = 0) -> dict:
    result = {"id": record_id, "ok": True, "tricks": _teams(state.team_tricks()),
              "points": _teams(state.points())}
    if hidden:
        result["hidden"] = hidden
    if state.renege is not None:
        trick, seat, card = state.renege
        result["renege"] = {"trick": trick + 1, "seat": SEAT_NAMES[seat],
                            "card": state.rules.card_deck.card_name(card)}
    if state.rules.drinks:
        result["drinks"] = dict(zip(SEAT_NAMES, count_drinks(state), strict=True))
    return result


def replay_entry(record_id, record: dict | None, error: str | None, rules: RuleSet) -> dict:
    """One hand's result line: `error` when the hand could not be read, else the record
    replayed (ok, or not ok naming the step and the rule broken)."""
    if record is None:
        return {"id": record_id, "ok": False, "error": error}
    try:
        replayed = replay_hand(record, rules)
    except RecordError as err:
        return {"id": record_id, "ok": False, "error": f"hand {record_id}: {err}"}
    return replay_result(record_id, replayed.state, replayed.hidden)
