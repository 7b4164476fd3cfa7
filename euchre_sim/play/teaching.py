"""Training data for the learned card player: PIMC's decisions, logged as the net's features.

A chunk of deals is dealt as `simulate` deals them (dealer N), each played out by the player
over the call-table rows its auction reads (`bidding.auction.reached_rows`: the contract made,
every call open where the auction passes by, the value of a pass), and every decision PIMC
makes by its worlds (not forced, the hand not settled) is logged: the net's features, the
candidates, PIMC's card and its value of every candidate (`teaching_log`). A learned player
as the driver logs PIMC's decisions at the positions its own play reaches (DAgger)."""

from __future__ import annotations

import numpy as np

from ..bidding.auction import AUCTION_READS
from ..core.dealing import deal_batch
from .net_features import STANDARD_LAYOUT, NetLayout
from .pimc import inference_of, new_pimc_work
from .player import Player
from .playout import Playout, play_deals
from .teaching_log import TeachingWork, log_width

TEACHING_CLEAR_Z = 0.0  # PIMC without its race (pimc.CLEAR_Z): every candidate over every world
DECISIONS_PER_DEAL = 640  # room in a chunk's log: up to ~32 reached rows of ~20 decisions a deal


def teaching_log(rules, player: Player, seed: int, start: int, count: int,
                 nl: NetLayout = STANDARD_LAYOUT) -> tuple[np.ndarray, np.ndarray]:
    """The logged decisions (uint8[n, log_width(nl)]) of deals start..start+count-1
    played by `player` (a rules or human bidder; play "pimc", or "learned" for DAgger), those
    of layout `nl` (the decisions of contracts in the other layout are not logged), and
    each decision's candidates valued by PIMC (float32[n, nl.n_slots]: the deciding side's mean
    points over the worlds, NaN where no candidate; every candidate over all its worlds, no
    race, so PIMC's card is the best mean)."""
    hands, ups = deal_batch(rules, seed, start, count, 0)
    log = np.zeros((count * DECISIONS_PER_DEAL, log_width(nl)), dtype=np.uint8)
    valued = np.zeros((log.shape[0], nl.n_slots), dtype=np.float32)
    logged = np.zeros(1, dtype=np.int64)
    loaded = player.loaded(rules)
    record = loaded.record()
    work = TeachingWork(new_pimc_work(inference_of(record), record.nets, TEACHING_CLEAR_Z), log,
                        valued, logged)
    play_deals(rules, Playout(loaded, reads=AUCTION_READS), (hands, ups, 0), seed, start, work)
    if logged[0] == log.shape[0]:
        raise RuntimeError("the teaching log filled up: raise DECISIONS_PER_DEAL")
    return log[:logged[0]].copy(), valued[:logged[0]].copy()
