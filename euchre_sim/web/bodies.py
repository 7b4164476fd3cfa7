"""The API's JSON bodies read into the library's questions: the field names (`turned_down` or
`turned-down`), their types checked, the deals capped; every mistake a one-line UserError."""

from __future__ import annotations

from collections.abc import Callable

from ..advice.question import AdviceQuestion, ask
from ..core.errors import UserError
from ..core.rules import RuleSet, build_rules
from ..core.seats import parse_seat

MAX_DEALS = 200_000  # a query's deals (PIMC: MAX_PIMC_DEALS): minutes of work at most
MAX_PIMC_DEALS = 10_000
MAX_WORLDS = 10_000
_ADVISE_FIELDS = {"hand": str, "up": str, "turned_down": str, "seat": int, "deals": int,
                  "seed": int, "rules": str, "set": (dict, list), "play": str, "worlds": int,
                  "bidding": str, "bidder_params": str, "bidder_table": str, "score": str,
                  "odds": str}
_SOLVE_FIELDS = {"deal": str, "dealer": (str, int), "rules": str, "set": (dict, list)}
_TYPE_NAMES = {str: "a string", int: "a whole number", (dict, list): "an object of options",
               (str, int): "a seat"}


def _fields(body, allowed: dict, what: str) -> dict:
    """The body's fields, names normalised, each of its allowed type; nulls dropped."""
    if not isinstance(body, dict):
        raise UserError(f"the {what} body must be a JSON object")
    out = {}
    for raw_name, value in body.items():
        name = str(raw_name).replace("-", "_")
        if name not in allowed:
            raise UserError(f"unknown field {raw_name!r} for {what} "
                            f"(fields: {', '.join(allowed)})")
        kind = allowed[name]
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kind):
            raise UserError(f"field {raw_name!r} must be {_TYPE_NAMES[kind]}, got {value!r}")
        out[name] = value
    return out


def _setting_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_of(preset: str = "standard", settings: dict | list | None = None) -> RuleSet:
    """A preset changed by `set`: {"no_trump": true} or ["no_trump=true"]."""
    if isinstance(settings, dict):
        settings = [f"{key}={_setting_text(value)}" for key, value in settings.items()]
    if settings is not None and not all(isinstance(s, str) for s in settings):
        raise UserError("'set' must map options to values, e.g. {\"no_trump\": true}")
    return build_rules(preset, settings or ())


def advise_question(body, place: Callable[[str], str] | None = None) -> AdviceQuestion:
    """The question of an /api/advise body, checked (the hand and the card too, so a bad query
    fails before it waits in the queue); the files and folders it names passed through
    `place` (serve: under its runs folder)."""
    fields = _fields(body, _ADVISE_FIELDS, "advise")
    for needed in ("hand", "seat"):
        if needed not in fields:
            raise UserError(f"advise needs {needed!r}")
    rules = rules_of(fields.pop("rules", "standard"), fields.pop("set", None))
    play = fields.get("play", "dd")  # the page's caps first: its own ranges, said as such
    cap = MAX_PIMC_DEALS if play == "pimc" else MAX_DEALS
    if "deals" in fields and not 2 <= fields["deals"] <= cap:
        raise UserError(f"deals must be 2 to {cap:,} with play {play}, got {fields['deals']:,}")
    if not 1 <= fields.get("worlds", 1) <= MAX_WORLDS:
        raise UserError(f"worlds must be 1 to {MAX_WORLDS:,}")
    question = ask(rules, fields)
    return question if place is None else question.placed(place)


def rate_key(question: AdviceQuestion) -> str:
    """Queries that run at about the same speed per work unit share a key."""
    return question.play + (" in the auction" if question.bidding else "")


def solve_args(body) -> tuple[RuleSet, list[int], int]:
    """(rules, hands by seat, dealer) from an /api/solve body."""
    fields = _fields(body, _SOLVE_FIELDS, "solve")
    if "deal" not in fields:
        raise UserError("solve needs 'deal', e.g. \"N:JH JD AH KS 9C/...\"")
    rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
    return rules, rules.card_deck.parse_deal(fields["deal"]), parse_seat(fields.get("dealer",
                                                                                     "N"))
