"""An `advise` question as the command line and the web page ask it: the options by their CLI
names in, the `advise --json` object out (plain advice, or advice in the auction with
`bidding`, and the game's odds with `score`)."""

from __future__ import annotations

import os

from ..core.errors import UserError
from ..core.rules import RuleSet
from ..play.models import DEFAULT_WORLDS
from .advise import Progress


def parse_score(text: str | None, option: str = "--score") -> tuple[int, int] | None:
    """'8-9' -> (8, 9)."""
    if text is None:
        return None
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UserError(f"{option} must look like US-THEM, e.g. 8-9, got {text!r}")
    return int(parts[0]), int(parts[1])


def read_odds(odds_dir: str | None):
    """p[us, them, we_deal] of an odds.parquet (None: none given)."""
    if odds_dir is None:
        return None
    import pandas as pd

    from .auction_advice import odds_array

    path = os.path.join(odds_dir, "odds.parquet")
    if not os.path.isfile(path):
        raise UserError(f"no odds.parquet in {odds_dir!r} (run 'euchre-sim odds' first)")
    return odds_array(pd.read_parquet(path))


def advise_request(rules: RuleSet, hand: str, seat: int, up: str | None = None,
                   turned_down: str | None = None, deals: int | None = None, seed: int = 0,
                   play: str = "dd", worlds: int = DEFAULT_WORLDS, bidding: str | None = None,
                   bidder_params: str | None = None, bidder_table: str | None = None,
                   score: str | None = None, odds: str | None = None,
                   progress: Progress | None = None) -> dict:
    """The `advise --json` object of these options (`bidder_params` a JSON file, `bidder_table`
    and `odds` run folders, `score` 'US-THEM'); mistakes are one-line UserErrors."""
    if bidding is None:
        from .advise import advise

        if score is not None:
            raise UserError("--score needs --bidding (the game goes on after a pass)")
        return advise(rules, hand, seat, up, turned_down, deals, seed, play, worlds,
                      progress=progress)
    from ..bidding.params import bidder_params as load_params
    from ..bidding.table import load_decision_table
    from .auction_advice import advise_in_auction

    if (bidding == "table") != (bidder_table is not None):
        raise UserError("--bidding table reads its decisions from --bidder-table DIR (and only "
                        "it does)")
    table = load_decision_table(bidder_table, rules) if bidder_table else None
    return advise_in_auction(rules, hand, seat, up, turned_down, deals, seed, bidding, play,
                             worlds, load_params(bidder_params, bidding), table,
                             score=parse_score(score), odds=read_odds(odds), progress=progress)
