"""The Review tab: a hand-history file under the runs folder, or hands entered on the page,
reviewed as `euchre-sim review --json` reviews them, with each hand's record and per-seat
totals; and the history files the runs folder holds."""

from __future__ import annotations

import math
from collections.abc import Callable

from ..advice.review import ReviewSettings, read_hands, review_states
from ..api.options import rules_of
from ..bidding.params import BIDDERS
from ..core.errors import UserError
from ..core.files import regular_file
from ..game.history import ReplayedHand, state_to_record
from ..play.models import DEFAULT_WORLDS, VALUED_WORLDS
from ..play.player import player_of
from ..report.review import seat_totals
from .bodies import fields_of
from .hand_entry import replayed
from .worker import Query

HISTORY_EXTENSIONS = (".jsonl", ".egn")  # what the Review tab lists and reads
MAX_REVIEW_WORLDS = 1_000
MAX_RECORDS = 20  # hands entered on the page, reviewed at once
MAX_HISTORY_BYTES = 4 * 1024 * 1024
_REVIEW_FIELDS = {"file": str, "records": list, "worlds": int, "seed": int, "bidding": str,
                  "bidder_params": str, "bidder_table": str, "rules": str, "set": (dict, list)}


def review_query(body, place: Callable[[str], str]) -> Query:
    """The review of an /api/review body ({"file": PATH} or {"records": [...]}), checked
    before it waits in the queue; paths passed through `place` (under the runs folder)."""
    fields = fields_of(body, _REVIEW_FIELDS, "review")
    if ("file" in fields) == ("records" in fields):
        raise UserError("review needs 'file' (a hand history under the runs folder) or "
                        "'records' (hands as JSON objects), not both")
    worlds = fields.get("worlds", DEFAULT_WORLDS)
    if not VALUED_WORLDS <= worlds <= MAX_REVIEW_WORLDS:
        raise UserError(f"worlds must be {VALUED_WORLDS} to {MAX_REVIEW_WORLDS:,} for a review")
    rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
    paths = {name: place(fields[name]) for name in ("bidder_params", "bidder_table")
             if name in fields}
    player = player_of(rules, fields.get("bidding"), worlds=worlds, **paths, bidders=BIDDERS)
    settings = ReviewSettings(player, fields.get("seed", 0))
    if "file" in fields:
        hands, errors = _file_hands(place(fields["file"]), rules)
    else:
        hands, errors = _entered_hands(fields["records"], rules), []
    return lambda progress: finite(_review(hands, errors, settings, progress))


def _file_hands(path: str, rules) -> tuple[list, list]:
    if not path.endswith(HISTORY_EXTENSIONS):
        raise UserError(f"review reads {' or '.join(HISTORY_EXTENSIONS)} files")
    regular_file(path, "the hand history", MAX_HISTORY_BYTES)  # a FIFO would block its reader
    _, hands, errors = read_hands(path, rules)
    return hands, errors


def _entered_hands(records: list, rules) -> list:
    if not 1 <= len(records) <= MAX_RECORDS:
        raise UserError(f"'records' must hold 1 to {MAX_RECORDS} hands")
    hands = []
    for number, record in enumerate(records, 1):
        record_id = record.get("id", number) if isinstance(record, dict) else number
        try:
            state = replayed(record, rules)
        except UserError as err:
            raise UserError(f"hand {record_id}: {err}") from None
        if state.phase != "done":
            raise UserError(f"hand {record_id}: incomplete (it stops at the {state.phase})")
        hands.append((record_id, ReplayedHand(state, [0, 0, 0, 0])))
    return hands


def _review(hands: list, errors: list, settings: ReviewSettings, progress) -> dict:
    rows = review_states(hands, settings, progress)
    return {"hands": [state_to_record(hand.state, record_id) for record_id, hand in hands],
            "rows": rows, "errors": [{"id": i, "reason": reason} for i, reason in errors],
            "seats": seat_totals(rows), "worlds": settings.player.worlds, "seed": settings.seed,
            "bidding": settings.player.bidder}


def finite(value):
    """The result with NaN (an undefined standard error) as null: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: finite(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value
