"""The tables a practice player may sit at, each the same bidder and card player at the three
other seats (partner and opponents alike): `people` (the human bidder and the learned player),
`strong` (the table bidder of the shipped atlas and learned-search), `beginners` (the rules
bidder and the conventional player)."""

from __future__ import annotations

from ..core.errors import UserError
from ..core.rules import RuleSet
from ..game.bidders import Sides
from ..play.player import Player, people
from .atlas import ATLAS_PRESETS, atlas_preset
from .atlas_bidder import atlas_bidder

TABLES = {"people": "the human bidder and the learned player",
          "strong": "the table bidder (the shipped atlas) and learned-search",
          "beginners": "the rules bidder and the conventional player"}
DEFAULT_TABLE = "people"


def check_table(rules: RuleSet, table: str) -> None:
    """An Error unless `table` is one of TABLES, open under `rules` (the strong table's bidder
    reads the shipped atlas: its presets' rules only); nothing read."""
    if table not in TABLES:
        raise UserError(f"table must be one of {', '.join(TABLES)}, got {table!r:.40}")
    if table == "strong" and atlas_preset(rules) is None:
        raise UserError(f"the strong table bids from the shipped atlas, which covers the rules "
                        f"of {', '.join(ATLAS_PRESETS)} as they are")


def table_player(rules: RuleSet, table: str) -> Player:
    """The player at each other seat of a table (`check_table`)."""
    check_table(rules, table)
    if table == "people":
        return people()
    if table == "strong":
        return atlas_bidder(rules, "learned-search")
    return Player("rules", "rules")


def table_sides(rules: RuleSet, table: str) -> Sides:
    """Both sides seated with the table's player (the practice player's own seat is never
    asked)."""
    player = table_player(rules, table)
    return Sides(rules, (player, player))
