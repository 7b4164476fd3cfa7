"""The options a public call takes (the command line's names, `_` for `-`), checked in one
place, and the rule set and the players they name."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..core.errors import UserError

if TYPE_CHECKING:
    from ..core.rules import RuleSet
    from ..play.player import Player


def checked_options(given: Mapping, allowed: Iterable[str], call: str) -> dict:
    """`given` less its None values; an option `call` does not take is an Error naming it."""
    allowed = tuple(allowed)
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise UserError(f"unknown option {unknown[0]!r} for {call} (options: "
                        f"{', '.join(allowed)})")
    return {name: value for name, value in given.items() if value is not None}


def _setting_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_of(rules: str | RuleSet = "standard",
             settings: Mapping | Iterable[str] | None = None) -> RuleSet:
    """A preset (by name, or a RuleSet as it is) changed by `settings`: {"no_trump": True} or
    ["no_trump=true"], as `--set` takes them."""
    from ..core.rules import RuleSet, build_rules

    if isinstance(rules, RuleSet):
        if settings:
            raise UserError("'set' changes a preset named by 'rules', not a RuleSet")
        return rules
    if not isinstance(rules, str):
        raise UserError(f"'rules' must be a preset's name, got {rules!r:.40}")
    if isinstance(settings, Mapping):
        settings = [f"{key}={_setting_text(value)}" for key, value in settings.items()]
    elif isinstance(settings, str):
        settings = [settings]
    settings = list(settings or ())
    if not all(isinstance(s, str) for s in settings):
        raise UserError("'set' must map options to values, e.g. {\"no_trump\": true}")
    return build_rules(rules, settings)


def path_text(path: str | os.PathLike | None) -> str | None:
    """A path option as the library reads it (a string)."""
    return None if path is None else os.fspath(path)


def take_player(rules: RuleSet, options: dict,
                bidders: tuple[str, ...] | None = None) -> Player:
    """The player that the player's options in `options` name, checked, those options taken
    out of `options`.

    Parameters
    ----------
    rules : RuleSet
        The rules a decision table (``bidder_table``) is read against.
    options : dict
        A call's options: ``play``, ``worlds``, ``bidding``, ``bidder_params`` (a JSON file of
        weights on top of the bidder's own) and ``bidder_table`` (a run folder) are taken out
        (the rest stay).
    bidders : tuple of str, optional
        The bidders allowed (default: every bidder a player may have).

    Returns
    -------
    Player
        The card player and bidder, its files read.

    Examples
    --------
    >>> from euchre_sim.api.options import rules_of, take_player
    >>> options = {"play": "pimc", "worlds": 20, "deals": 100}
    >>> player = take_player(rules_of("standard"), options)
    >>> player.play, player.worlds, player.bidder, options
    ('pimc', 20, None, {'deals': 100})
    """
    from ..play.player import PLAYER_FIELDS, player_of

    given = {name: options.pop(name) for name in PLAYER_FIELDS if name in options}
    given |= {name: path_text(given[name]) for name in ("bidder_params", "bidder_table")
              if name in given}
    return player_of(rules, **given, **({} if bidders is None else {"bidders": bidders}))


def side_players(bidders: tuple[str, str], plays: tuple[str, str],
                 bidder_params: str | os.PathLike | None = None,
                 worlds: int | None = None) -> tuple[Player, Player]:
    """The two sides' players, NS first, as self-play and a tournament seat them.

    Parameters
    ----------
    bidders : (str, str)
        Each side's bidder (``euchre-sim play --ns/--ew``'s choices).
    plays : (str, str)
        Each side's card-play model.
    bidder_params : str or PathLike, optional
        One JSON file of weights on top of each bidder's own.
    worlds : int, optional
        The worlds a PIMC decision samples (default: the play models' default).

    Returns
    -------
    (Player, Player)
        Their decision tables are read where the players meet (a tournament's plan,
        self-play's sides).

    Examples
    --------
    >>> from euchre_sim.api.options import side_players
    >>> ns, ew = side_players(("rules", "random"), ("dd", "dd"))
    >>> ns.label(), ew.label()
    ('rules bidder, dd play', 'random bidder, dd play')
    """
    from ..play.models import DEFAULT_WORLDS
    from ..play.player import side_players as players_of

    return players_of(bidders, plays, path_text(bidder_params),
                      DEFAULT_WORLDS if worlds is None else worlds)
