"""The options a public call takes (the command line's names, `_` for `-`), checked in one
place, and the rule set they name."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..core.errors import UserError

if TYPE_CHECKING:
    from ..core.rules import RuleSet


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
