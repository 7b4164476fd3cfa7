"""Hand histories as JSON Lines records (SPEC.md): writing a played hand, replaying a record."""

from __future__ import annotations

from ..core.cards import Deck
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, TEAM_NAMES, parse_seat
from .drinks import count_drinks
from .engine import Bid, HandState, IllegalMove


class RecordError(ValueError):
    """A record that breaks the rules or cannot be read; the message says where and why."""


def _teams(values: list[int]) -> dict[str, int]:
    return {TEAM_NAMES[0]: values[0], TEAM_NAMES[1]: values[1]}


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


def _parse_bid(deck: Deck, raw, default_round: int) -> Bid:
    if not isinstance(raw, dict):
        raise RecordError("a bid must be an object")
    seat = parse_seat(_field(raw, "seat"))
    action = str(_field(raw, "action"))
    if action not in ("pass", "order_up", "call"):
        raise RecordError(f"unknown bid action {action!r}")
    suit = deck.parse_suit(str(raw["suit"])) if raw.get("suit") is not None else None
    return Bid(seat, int(raw.get("round", default_round)), action, suit, bool(raw.get("alone")))


def replay_record(record: dict, rules: RuleSet) -> HandState:
    """Re-derive a recorded hand; raises RecordError naming the step and the rule broken."""
    deck = rules.card_deck
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    try:
        dealer = parse_seat(_field(record, "dealer"))
        hands = deck.parse_hands_json(_field(record, "hands"))
        upcard = deck.parse_card(str(_field(record, "upcard")))
    except UserError as err:
        raise RecordError(str(err)) from None
    if (hands[0] | hands[1] | hands[2] | hands[3]) >> upcard & 1:
        raise RecordError(f"upcard {deck.card_name(upcard)} is also in a hand")
    state = HandState(rules, dealer, hands, upcard)
    _replay_bids(state, deck, record.get("bids") or [])
    _replay_discard(state, deck, record.get("discard"))
    _replay_defence(state, record.get("defend_alone"))
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
    return state


def _replay_bids(state: HandState, deck: Deck, bids: list) -> None:
    for index, raw in enumerate(bids, 1):
        if state.phase != "bid":
            raise RecordError(f"bid {index}: bid after the bidding ended")
        try:
            bid = _parse_bid(deck, raw, state.round)
            state.bid(bid)
        except (IllegalMove, UserError) as err:
            where = f"bid {index}"
            if isinstance(raw, dict) and "seat" in raw:
                where += f", seat {raw['seat']}"
            raise RecordError(f"{where}: {err}") from None
    if state.phase == "bid":
        who = SEAT_NAMES[state.turn]
        raise RecordError(f"bidding incomplete: seat {who} has not bid in round {state.round}")


def _replay_discard(state: HandState, deck: Deck, raw) -> None:
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


def replay_result(record_id, state: HandState) -> dict:
    result = {"id": record_id, "ok": True, "tricks": _teams(state.team_tricks()),
              "points": _teams(state.points())}
    if state.renege is not None:
        trick, seat, card = state.renege
        result["renege"] = {"trick": trick + 1, "seat": SEAT_NAMES[seat],
                            "card": state.rules.card_deck.card_name(card)}
    if state.rules.drinks:
        result["drinks"] = dict(zip(SEAT_NAMES, count_drinks(state), strict=True))
    return result


def replay_lines(lines, rules: RuleSet):
    """Replay JSON Lines; yields one result dict per non-blank line (ok or with an error).

    Raises UserError when no line at all is a JSON object (the input cannot be read).
    """
    import json

    readable = 0
    results = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            results.append({"id": None, "ok": False, "error": f"line {number}: not JSON ({err})"})
            continue
        if not isinstance(record, dict):
            results.append({"id": None, "ok": False, "error": f"line {number}: not an object"})
            continue
        readable += 1
        record_id = record.get("id", number)
        try:
            state = replay_record(record, rules)
        except RecordError as err:
            results.append({"id": record_id, "ok": False, "error": f"hand {record_id}: {err}"})
            continue
        results.append(replay_result(record_id, state))
    if not readable:
        raise UserError("no hand record could be read (expected JSON Lines, one hand a line)")
    return results
