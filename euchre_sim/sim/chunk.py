"""One chunk of a simulation: deal, analyse, aggregate, and write its files atomically.

A chunk is a pure function of its ChunkJob (seed, deal range, rules, play model, bidder):
rerunning it anywhere gives the same files, so a lost or interrupted chunk is simply computed
again. With a bidder it also writes the chunk's auction and decision sums.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..bidding.auction import AUCTION_READS, FORCED_READS, N_TURNS, Auction
from ..bidding.params import CONVENTIONAL
from ..core.calls import BOTH_ROUNDS, N_CALLS, N_ROWS, ROUND_2, WITH_DEFENCE, row_call
from ..core.cards import JOKER
from ..core.dealing import deal_batch
from ..core.handclass import class_features, class_key
from ..core.jit import njit
from ..core.rules import RuleSet, rules_from_dict
from ..core.ruletables import compile_rules
from ..core.run_tables import AUCTION_KEYS, SUMMARY_KEYS
from ..core.seats import seat_at
from ..play.player import Player, PlayerRecord
from ..play.playout import Playout, play_deals
from ..solver.calltable import analyze_batch
from ..solver.search import shared_tt
from .callsums import SUMS, bucketed_sums, call_values, group_sums, record_sums
from .decisions import BUCKET_SHIFT as DECISIONS_BUCKET_SHIFT
from .decisions import auction_batch, contract_records, decision_sum_names, decision_sums

SIM_DEALER = 0  # every simulated deal is dealt by N; tables use positions relative to it
RECORD_BATCH = 4096  # deals whose call records are built at once (bounded memory)


@njit
def _records(tb, hands, ups, dealer, calls, cols):
    """One row per (deal, open call): cols[k, i] for the fields of `RECORD_FIELDS`."""
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.int64)
    feats = np.zeros(5, dtype=np.int64)
    n = 0
    for d in range(hands.shape[0]):
        up = ups[d]
        for row in range(N_CALLS):  # both defenders playing (lone defence: decisions)
            tricks = calls[d, row]
            if tricks < 0:
                continue
            round_no, pos, trump, alone = row_call(row)
            if round_no == 1:
                trump = up >> 3
            ref = -1 if up == JOKER and round_no == 2 else up
            seat = seat_at(dealer, pos)
            key = class_key(tb, hands[d, seat], trump, round_no, ref, masks, others)
            class_features(tb, trump, masks, feats)
            cols[0, n] = d
            cols[1, n] = round_no
            cols[2, n] = pos
            cols[3, n] = trump
            cols[4, n] = alone
            cols[5, n] = np.int64(key)
            for k in range(5):
                cols[6 + k, n] = feats[k]
            cols[11, n] = tricks
            cols[12, n] = tb.score[alone, 0, tricks]
            n += 1
    return n


RECORD_FIELDS = ["deal", "round", "seat", "trump", "alone", "hand_key", "trumps", "right",
                 "left", "aces", "voids", "maker_tricks", "points"]


def chunk_calls(job: ChunkJob, exact: bool | None = None, infer: bool = True,
                record: PlayerRecord | None = None) -> tuple:
    """The job's deals (hands, upcards) and their call tables, with the lone-defence rows
    where it has a bidder (whose auction PIMC's worlds agree with, unless not `infer`);
    record: the player's record where the caller has built it (`play.playout.play_deals`).

    exact (default: the job's keep_deals) False gives maker_tricks as representatives of their
    scoring class (euchred, made, marched; see analyze_deal): the same points and rates for
    fewer searches."""
    rules = job.rules
    exact = job.keep_deals if exact is None else exact
    defence = job.player.bidder is not None
    hands, ups = deal_batch(rules, job.seed, job.start, job.count, SIM_DEALER)
    if job.player.model.solved:
        calls = np.zeros((job.count, N_ROWS), dtype=np.int8)
        parts = job.rounds | (WITH_DEFENCE if defence else 0)
        analyze_batch(compile_rules(rules), hands, ups, SIM_DEALER, exact, parts, shared_tt(),
                      calls)
    else:
        playout = Playout(job.player, defence, infer, job.reads)
        calls = play_deals(rules, playout, (hands, ups, SIM_DEALER), job.seed, job.start,
                           record=record)
    return hands, ups, calls


def call_records(rules: RuleSet, start: int, hands: np.ndarray, ups: np.ndarray,
                 calls: np.ndarray) -> dict[str, np.ndarray]:
    """Every open call of deals start.. (their hands, upcards and call tables) as columns."""
    cols = np.zeros((len(RECORD_FIELDS), len(ups) * N_CALLS), dtype=np.int64)
    n = _records(compile_rules(rules), hands, ups, SIM_DEALER, calls, cols)
    records = {name: cols[i, :n] for i, name in enumerate(RECORD_FIELDS)}
    records["deal"] = records["deal"] + start
    records["hand_key"] = records["hand_key"].view(np.uint64)
    return records


def chunk_records(job: ChunkJob, exact: bool | None = None
                  ) -> tuple[dict[str, np.ndarray], tuple]:
    """Every open call of the job's deals as columns (call_records), and the raw deals with
    their call tables (chunk_calls)."""
    deals = chunk_calls(job, exact=exact)
    return call_records(job.rules, job.start, *deals), deals


def chunk_sums(rules: RuleSet, start: int, hands: np.ndarray, ups: np.ndarray,
               calls: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], pd.DataFrame]:
    """The calls' group sums (record_sums) and the summary sums (summary_sums) of a chunk,
    built RECORD_BATCH deals at a time so that a chunk's records never all live at once."""
    keys, sums, summaries = [], [], []
    for lo in range(0, len(ups), RECORD_BATCH):
        part = slice(lo, lo + RECORD_BATCH)
        records = call_records(rules, start + lo, hands[part], ups[part], calls[part])
        k, v = record_sums(records)
        keys.append(k)
        sums.append(v)
        summaries.append(summary_sums(records))
    merged = group_sums(np.concatenate(keys), np.concatenate(sums))
    summary = pd.concat(summaries, ignore_index=True).groupby(
        SUMMARY_KEYS, as_index=False, sort=True).sum()
    return merged, summary


def feature_sums(records: dict[str, np.ndarray], spec: list[tuple[str, int]],
                 values: np.ndarray, names: list[str]) -> pd.DataFrame:
    """Integer sums of `values` (columns `names`) by the small integer features of `spec`
    ((column, bits) pairs), one row per combination present (exact: chunks add up in any
    order)."""
    key = np.zeros(len(values), dtype=np.uint64)
    for name, bits in spec:
        key = (key << np.uint64(bits)) | records[name].astype(np.uint64)
    keys, sums = group_sums(key, values)
    columns = {}
    for name, bits in reversed(spec):
        columns[name] = (keys & np.uint64((1 << bits) - 1)).astype(np.int8)
        keys = keys >> np.uint64(bits)
    frame = pd.DataFrame({name: columns[name] for name, _ in spec})
    for flag in ("alone", "defended"):
        if flag in frame:
            frame[flag] = frame[flag].astype(bool)
    for i, name in enumerate(names):
        frame[name] = sums[:, i]
    return frame


def summary_sums(records: dict[str, np.ndarray]) -> pd.DataFrame:
    """Sums of every call record by the summary's features."""
    return feature_sums(records, _SUMMARY_BITS, call_values(records), SUMS)


_SUMMARY_BITS = list(zip(SUMMARY_KEYS, (2, 3, 1, 4, 1, 1, 3, 3), strict=True))  # (column, bits)


def deal_frame(rules: RuleSet, start: int, hands: np.ndarray, ups: np.ndarray) -> pd.DataFrame:
    """deals.parquet rows: deal, dealer, upcard, and the four hands as strings."""
    from ..core.seats import SEAT_NAMES

    deck = rules.card_deck
    frame = {"deal": np.arange(start, start + len(ups), dtype=np.int64),
             "dealer": SEAT_NAMES[SIM_DEALER],
             "upcard": [deck.card_name(int(u)) for u in ups]}
    for seat, name in enumerate(SEAT_NAMES):
        frame[name] = [deck.format_hand(int(h)) for h in hands[:, seat]]
    return pd.DataFrame(frame)


def outcome_frame(rules: RuleSet, records: dict[str, np.ndarray]) -> pd.DataFrame:
    """outcomes.parquet rows: deal, round, trump, maker (seat letter), alone, tricks, points."""
    from ..core.seats import SEAT_NAMES

    deck = rules.card_deck
    suit_names = np.array([deck.suit_name(s) for s in range(5)])
    seat_names = np.array(list(SEAT_NAMES))
    return pd.DataFrame({
        "deal": records["deal"],
        "round": records["round"].astype(np.int8),
        "trump": suit_names[records["trump"]],
        "maker": seat_names[seat_at(SIM_DEALER, records["seat"])],
        "alone": records["alone"].astype(bool),
        "maker_tricks": records["maker_tricks"].astype(np.int8),
        "points": records["points"].astype(np.int8),
    })


class ChunkJob(NamedTuple):
    """Everything a chunk depends on (its result is a pure function of these)."""

    options: dict  # the rule set's options
    seed: int
    index: int
    start: int
    count: int
    keep_deals: bool = False  # deals and outcomes kept, with exact trick counts
    player: Player = Player()  # with a bidder: decisions and auction tables too
    tables: tuple = ("calls",)  # of run_tables.RUN_TABLES: what the run writes

    @property
    def per_call(self) -> bool:
        """The per-call tables (calls, summary; deals and outcomes)."""
        return "calls" in self.tables

    @classmethod
    def of(cls, rules: RuleSet, seed: int, start: int, count: int, **fields) -> ChunkJob:
        """Deals start..start+count-1 of the seed under these rules (chunk 0)."""
        return cls(rules.options(), seed, 0, start, count, **fields)

    @property
    def rules(self) -> RuleSet:
        return rules_from_dict(self.options)

    @property
    def rounds(self) -> int:
        """The rounds whose calls a solved model solves (`core.calls`' round bits): both,
        but round 2 alone for the forced table alone (it reads only round 2's calls)."""
        return ROUND_2 if set(self.tables) == {"forced"} else BOTH_ROUNDS

    @property
    def reads(self) -> int:
        """The call-table rows played (`bidding.auction.rows_read`): 0, every row, for the
        per-call tables, a solved model or a bidder not from its own hand; else only those
        the chunk's auction tables read (`bids_own_auction`) and the forced table's."""
        if self.per_call or self.player.model.solved or self.player.bidder not in CONVENTIONAL:
            return 0
        return ((AUCTION_READS if bids_own_auction(self) else 0)
                | (FORCED_READS if "forced" in self.tables else 0))


def bids_own_auction(job) -> bool:
    """Whether a chunk's job (or its run's plan) has its auction's own tables (decisions,
    auction and run.json's auction facts): a bidder and a table besides `forced`, whose
    rows alone leave the auction's other calls unplayed."""
    return job.player.bidder is not None and set(job.tables) != {"forced"}


def contract_sums(contracts: dict[str, np.ndarray]) -> pd.DataFrame:
    """The contract sums of a chunk's auctions (their `contract_records`) by (round, seat,
    alone, defended), round 0 for passed-out deals."""
    tricks = contracts["maker_tricks"]
    made = tricks >= 0
    addends = np.stack([np.ones(len(tricks), dtype=np.int64), made & (tricks >= 3),
                        tricks == 5, made & (tricks < 3), contracts["points"],
                        contracts["points"] ** 2], axis=1).astype(np.int64)
    return feature_sums(contracts, _AUCTION_BITS, addends, SUMS)


def decision_bytes(rules: RuleSet, hands: np.ndarray, ups: np.ndarray, auctions: Auction,
                   forced: bool = False) -> bytes:
    """The decision sums of a chunk's auctions (with `forced`, of the forced table: see
    `sim.decisions`) as bucketed Parquet bytes."""
    keys, sums = decision_sums(rules, compile_rules(rules), hands, ups, SIM_DEALER, auctions,
                               forced)
    return bucketed_sums(keys, sums, decision_sum_names(rules), DECISIONS_BUCKET_SHIFT)


def run_auctions(rules: RuleSet, player: PlayerRecord, hands: np.ndarray, ups: np.ndarray,
                 calls: np.ndarray) -> tuple[Auction, dict[str, np.ndarray]]:
    """Every deal's auction, every seat bid by `player`: (the auctions, their contract
    records; see sim.decisions)."""
    count = len(ups)
    auctions = Auction(calls, np.zeros((count, N_CALLS, 3), dtype=np.int64),
                       np.zeros((count, N_TURNS), dtype=np.int64),
                       np.zeros((count, N_TURNS + 1), dtype=np.int64))
    auction_batch(player, compile_rules(rules), hands, ups, SIM_DEALER, auctions)
    return auctions, contract_records(auctions.contracts, auctions.choices)


_AUCTION_BITS = list(zip(AUCTION_KEYS, (2, 3, 1, 1), strict=True))
