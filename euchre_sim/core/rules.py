"""Rule sets as data: a frozen RuleSet, its options, presets and `--set KEY=VALUE` parsing."""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Deck
from .errors import UserError
from .limits import MAX_POINTS, MAX_TARGET


def _option(default, meaning: str, choices: tuple = ()):
    return field(default=default, metadata={"meaning": meaning, "choices": choices})


@dataclass(frozen=True)
class RuleSet:
    """Every option of a table. Kernels see it only through `ruletables.compile_rules`."""

    deck: int = _option(24, "cards in the deck: 24 (9-A), 28 (8-A) or 32 (7-A)", (24, 28, 32))
    yooker: bool = _option(
        False, "Yooker deck: ranks 1-6 in four shapes, the 3 of the power shape on top, no bowers"
    )
    joker: bool = _option(False, "Benny: a joker added as the highest trump")
    stick_the_dealer: bool = _option(
        False, "in round 2 the dealer may not pass and must name a suit (else: redeal)"
    )
    no_trump: bool = _option(False, "in round 2 a player may call no-trump (no bowers)")
    lone_player_plays_last: bool = _option(
        False, "when someone goes alone, the player on the loner's left leads first"
    )
    canadian_loner: bool = _option(
        False, "in round 1 the dealer's partner may only pass or order up alone"
    )
    defend_alone: bool = _option(
        False, "after trump is fixed a defender may play alone; a euchre then scores extra"
    )
    allow_alone: bool = _option(True, "the player who makes trump may go alone")
    target: int = _option(10, "points to win a game")
    march_points: int = _option(2, "makers with partner taking all five tricks")
    lone_march_points: int = _option(4, "a lone maker taking all five tricks")
    euchre_points: int = _option(2, "to the defenders when the makers take fewer than three")
    lone_defence_points: int = _option(4, "to a lone defender who euchres the makers")
    renege_penalty: int = _option(
        0, "points to the opponents of a side that fails to follow suit when able "
        "(0: a renege is an illegal play and a record holding one is rejected)"
    )
    drinks: bool = _option(False, "count drinks per seat (the drinking game's eight rules)")

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_type(f, getattr(self, f.name))
        if self.yooker and self.deck != 24:
            raise UserError("option 'deck' must be 24 with yooker=true")
        _check_range("target", self.target, 1, MAX_TARGET)
        for name in ("march_points", "lone_march_points", "euchre_points",
                     "lone_defence_points", "renege_penalty"):
            _check_range(name, getattr(self, name), 0, MAX_POINTS)

    @property
    def max_hand_points(self) -> int:
        """The most points one hand can score (a renege's penalty aside)."""
        return max(1, self.march_points, self.lone_march_points, self.euchre_points,
                   self.lone_defence_points)

    @property
    def euchre_text(self) -> str:
        """What a euchre costs the makers under these rules, as the notes on mean points say it
        (the CLI's and the page's)."""
        text = f"a euchre counts −{self.euchre_points}"
        if self.defend_alone:
            text += f", −{self.lone_defence_points} against a lone defender"
        return text

    @cached_property
    def card_deck(self) -> Deck:
        return Deck("yooker" if self.yooker else "french", self.deck, self.joker)

    @property
    def trump_choices(self) -> tuple[int, ...]:
        """Trump ids open in this rule set: suits 0-3, and 4 for no-trump."""
        return (0, 1, 2, 3, 4) if self.no_trump else (0, 1, 2, 3)

    @property
    def as_played(self) -> RuleSet:
        """The rules as far as a simulated deal's play and points go: a renege's price and
        the drinks counted aside (the tool's players never renege), as the drinking game's
        rules are standard's."""
        return self.replace(renege_penalty=0, drinks=False)

    def options(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def replace(self, **changes) -> RuleSet:
        return dataclasses.replace(self, **changes)


def _check_type(f: dataclasses.Field, value) -> None:
    """One line when an option's value is not of its kind (a run.json or a record holding
    something else)."""
    flag = isinstance(f.default, bool)
    if flag != isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UserError(f"option {f.name!r} takes {'true or false' if flag else 'a whole number'}"
                        f", got {value!r:.40}")


def _check_range(name: str, value: int, low: int, high: int) -> None:
    """One line when a numeric option is outside low..high (high: `core.limits`)."""
    if not low <= value <= high:
        shown = value if abs(value) < 10**30 else "a number of more than 30 digits"
        raise UserError(f"option {name!r} must be {low} to {high}, got {shown}")


PRESETS: dict[str, tuple[str, dict]] = {
    "standard": ("Euchre: 24 cards (9 to ace), bowers, redeal when all pass, game to 10", {}),
    "yooker": ("Yooker: four shapes ranked 1-6, the 3 of the power shape the top trump, no "
               "bowers", {"yooker": True}),
    "drinking": ("Euchre as a drinking game: a renege costs 4 points, drinks counted per seat",
                 {"renege_penalty": 4, "drinks": True}),
    "online": ("Euchre as played online: stick the dealer (round 2 never passes out)",
               {"stick_the_dealer": True}),
}

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option_fields() -> list[dataclasses.Field]:
    return list(dataclasses.fields(RuleSet))


def _parse_value(f: dataclasses.Field, raw: str):
    text = raw.strip().lower()
    if f.type in ("bool", bool):
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise UserError(f"option {f.name!r} takes true or false, got {raw!r}")
    try:
        value = int(text)
    except ValueError:
        raise UserError(f"option {f.name!r} takes a whole number, got {raw!r}") from None
    choices = f.metadata["choices"]
    if choices and value not in choices:
        allowed = ", ".join(str(c) for c in choices)
        raise UserError(f"option {f.name!r} takes one of {allowed}, got {raw!r}")
    return value


def preset(name: str) -> RuleSet:
    key = name.strip().lower()
    if key not in PRESETS:
        raise UserError(f"unknown preset {name!r} (presets: {', '.join(PRESETS)})")
    return RuleSet(**PRESETS[key][1])


def build_rules(preset_name: str = "standard",
                settings: tuple[str, ...] | list[str] = ()) -> RuleSet:
    """A preset changed by `KEY=VALUE` settings, validated."""
    base = preset(preset_name)
    fields = {f.name: f for f in option_fields()}
    changes = {}
    for setting in settings:
        if "=" not in setting:
            raise UserError(f"setting {setting!r} must look like KEY=VALUE")
        key, raw = setting.split("=", 1)
        key = key.strip().lower().replace("-", "_")
        if key not in fields:
            raise UserError(f"unknown option {key!r} (see 'euchre-sim rules')")
        changes[key] = _parse_value(fields[key], raw)
    return base.replace(**changes)


def rules_from_dict(options: dict) -> RuleSet:
    """Rebuild a RuleSet from `options()` output (run.json, manifests), checked: anything else
    is one line."""
    if not isinstance(options, dict):
        raise UserError(f"the rules must be an object of options, got {options!r:.40}")
    unknown = sorted(str(key) for key in set(options) - {f.name for f in option_fields()})
    if unknown:
        raise UserError(f"unknown option {unknown[0]!r:.40} in the rules")
    return RuleSet(**options)
