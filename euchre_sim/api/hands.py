"""Hands as records (docs/spec.md's hand history): a hand file replayed (`replay`), a hand
entered step by step (the partial record replayed, and what the next seat may do), and the
files hands are written to, JSON Lines and Euchre Game Notation (EGN).

The engine, the files and the writers load when a call needs them; `check_writable`,
`written_records`, `game_path` and `save_egn` are read from their wings on first use
(PEP 562).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..core.errors import UserError
from .lazy_names import lazy_names

if TYPE_CHECKING:
    from ..core.output import check_writable, written_records
    from ..core.rules import RuleSet
    from ..game.egn import game_path, save_egn
    from ..game.engine import Bid, HandState

MAX_STEPS = 64  # bids and cards in one entered record, at most

# the names read when first used: (module, its name there) by name
_LATER = {
    "check_writable": ("..core.output", "check_writable"),
    "written_records": ("..core.output", "written_records"),
    "game_path": ("..game.egn", "game_path"),
    "save_egn": ("..game.egn", "save_egn"),
}

__all__ = ["MAX_STEPS", "check_entry", "check_writable", "game_path", "hand_record",
           "replay_file", "replay_stream", "replayed", "save_egn", "written_records"]


__getattr__, __dir__ = lazy_names(__name__, _LATER, __all__)


def replay_file(path: str | os.PathLike, rules: RuleSet) -> list[dict]:
    """Re-derive every hand of a hand file, as `euchre-sim replay --json` does: the legality of
    every bid, discard and card, and the points.

    Parameters
    ----------
    path : str or PathLike
        JSON Lines hand histories, EGN or PTN (``"-"``: standard input).
    rules : RuleSet
        The rules of hands that do not name theirs (an EGN file's apply on top).

    Returns
    -------
    list of dict
        A result a hand, in order: ``{"id", "ok": True, "tricks", "points"}`` (with
        ``hidden``, ``renege`` and ``drinks`` where they apply), or ``{"id", "ok": False,
        "error"}`` naming the step and the rule broken.

    Raises
    ------
    euchre_sim.Error
        The file cannot be read, or holds no hand.

    Examples
    --------
    >>> from euchre_sim.api.catalog import preset
    >>> from euchre_sim.api.hands import replay_file
    >>> replay_file("tests/data/egn/Hand of the day.egn", preset("standard"))
    [{'id': 1, 'ok': True, 'tricks': {'NS': 3, 'EW': 2}, 'points': {'NS': 1, 'EW': 0},
      'hidden': 1}]
    """
    return list(replay_stream(path, rules))


def replay_stream(path: str | os.PathLike, rules: RuleSet) -> Iterator[dict]:
    """`replay_file`'s results one at a time, each hand replayed as it is read: a JSON Lines
    file is read a line at a time and never held whole (an EGN or PTN document is read whole).

    Raises
    ------
    euchre_sim.Error
        The file cannot be read, or holds no hand: before the first result, or (a file that
        grows past the size cap, bytes that are not UTF-8) where it is found.
    """
    from ..game.hand_files import stream_hand_file
    from ..game.history import replay_entry

    hands = stream_hand_file(os.fspath(path), rules)
    return (replay_entry(e.id, e.record, e.error, hands.rules) for e in hands.entries)


def hand_record(state: HandState, record_id, **extra) -> dict:
    """A replayed or played hand (`replayed`) as its record (docs/spec.md's hand history),
    `extra` keys added (``game``, ``hand``)."""
    from ..game.history import state_to_record

    return state_to_record(state, record_id, **extra)


def check_entry(record, rules: RuleSet) -> dict:
    """Where a partial hand record stands, as the page's hand entry shows it.

    Parameters
    ----------
    record : dict
        A hand record (docs/spec.md) cut short anywhere: ``dealer``, ``hands``, ``upcard``
        and the ``bids``, ``discard``, ``defend_alone`` and ``tricks`` so far.
    rules : RuleSet
        The rules the hand is played by.

    Returns
    -------
    dict
        ``phase`` (bid, discard, defend, play or done), the ``seat`` to act, the cards it
        holds (``held``), its legal ``choices``, and ``round``, ``trick``, ``leader`` or (once
        done) ``points`` where they apply.

    Raises
    ------
    euchre_sim.Error
        The first step that breaks a rule, named as `replay` names it.

    Examples
    --------
    >>> from euchre_sim.api.catalog import preset
    >>> from euchre_sim.api.hands import check_entry
    >>> record = {"dealer": "W", "upcard": "9S", "hands": {
    ...     "N": "JS AS 9H 9D TC", "E": "TH QH AD KC TS", "S": "KD QS 9C JC KH",
    ...     "W": "TD AH QC JD AC"}, "bids": [{"seat": "N", "action": "pass"}]}
    >>> step = check_entry(record, preset("standard"))
    >>> step["phase"], step["seat"], step["held"]
    ('bid', 'E', ['KC', 'AD', 'QH', 'TH', 'TS'])
    >>> [(c["action"], c["alone"]) for c in step["choices"]]
    [('pass', False), ('order_up', False), ('order_up', True)]
    """
    return _next(replayed(record, rules))


def replayed(record, rules: RuleSet) -> HandState:
    """The engine's state after a partial record's steps, its types checked first; a complete
    hand replayed in full, recorded points and all (Error naming the first step that breaks a
    rule)."""
    from ..game.engine import IllegalMove
    from ..game.history import RecordError, replay_record

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
    from ..core.seats import parse_seat
    from ..game.engine import HandState
    from ..game.history import RecordError, parse_bid

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
    from ..game.engine import IllegalMove
    from ..game.history import RecordError

    if isinstance(raw, dict) and "seat" in raw:
        where += f", seat {raw['seat']}"
    try:
        yield
    except (IllegalMove, UserError, KeyError, TypeError, ValueError) as err:
        raise RecordError(f"{where}: {err}") from None


def _next(state: HandState) -> dict:
    """What comes next: the seat to act, the cards it holds, its legal choices."""
    from ..core.seats import SEAT_NAMES

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
    from ..core.seats import SEAT_NAMES

    suit = None if bid.action == "pass" else state.rules.card_deck.suit_name(
        bid.suit if bid.action == "call" else state.upcard >> 3)
    return {"seat": SEAT_NAMES[bid.seat], "round": bid.round, "action": bid.action,
            "suit": suit, "alone": bool(bid.alone)}
