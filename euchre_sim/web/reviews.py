"""The Review tab: a hand-history file under the runs folder, or hands entered on the page,
reviewed as `euchre-sim review --json` reviews them, with each hand's record and per-seat
totals; and the history files the runs folder holds."""

from __future__ import annotations

import math
from collections.abc import Callable

from ..api import Error
from ..api.catalog import BIDDERS, DEFAULT_WORLDS, VALUED_WORLDS
from ..api.options import rules_of
from ..api.reviewing import entered_hands, file_hands, review_hands, review_settings
from .bodies import fields_of
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
        raise Error("review needs 'file' (a hand history under the runs folder) or "
                        "'records' (hands as JSON objects), not both")
    worlds = fields.get("worlds", DEFAULT_WORLDS)
    if not VALUED_WORLDS <= worlds <= MAX_REVIEW_WORLDS:
        raise Error(f"worlds must be {VALUED_WORLDS} to {MAX_REVIEW_WORLDS:,} for a review")
    rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
    player = {"bidding": fields.get("bidding"), "worlds": worlds} | {
        name: place(fields[name]) for name in ("bidder_params", "bidder_table") if name in fields}
    settings = review_settings(rules, player, fields.get("seed", 0), bidders=BIDDERS)
    if "file" in fields:
        hands, errors = _file_hands(place(fields["file"]), rules)
    else:
        hands, errors = _entered_hands(fields["records"], rules), []
    return lambda progress: finite(review_hands(hands, errors, settings, progress))


def _file_hands(path: str, rules) -> tuple[list, list]:
    if not path.endswith(HISTORY_EXTENSIONS):
        raise Error(f"review reads {' or '.join(HISTORY_EXTENSIONS)} files")
    return file_hands(path, rules, MAX_HISTORY_BYTES)


def _entered_hands(records: list, rules) -> list:
    if not 1 <= len(records) <= MAX_RECORDS:
        raise Error(f"'records' must hold 1 to {MAX_RECORDS} hands")
    return entered_hands(records, rules)


def finite(value):
    """The result with NaN (an undefined standard error) as null: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: finite(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value
