"""One chunk of a simulation: deal, analyse, aggregate, and write its files atomically.

A chunk is a pure function of (seed, first deal, deal count, rules): rerunning it anywhere
gives the same files, so a lost or interrupted chunk is simply computed again.
"""

from __future__ import annotations

import io
import os
import shutil

import numpy as np
import pandas as pd

from ..core.calls import N_ROWS, row_call
from ..core.cards import JOKER
from ..core.dealing import deal_batch
from ..core.jit import njit
from ..core.rules import RuleSet, rules_from_dict
from ..core.ruletables import compile_rules
from ..play.models import DEFAULT_WORLDS
from ..play.playout import play_deals
from ..solver.calltable import analyze_batch
from ..solver.search import shared_tt
from .callsums import SUMS, bucketed_parquet, call_values, group_sums, record_sums
from .handclass import class_features, class_key
from .schema import SUMMARY_KEYS

SIM_DEALER = 0  # every simulated deal is dealt by N; tables use positions relative to it


@njit
def _records(tb, hands, ups, dealer, calls, cols):
    """One row per (deal, open call): cols[k, i] for the fields of `RECORD_FIELDS`."""
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.uint64)
    feats = np.zeros(5, dtype=np.int64)
    n = 0
    for d in range(hands.shape[0]):
        up = ups[d]
        for row in range(calls.shape[1]):
            tricks = calls[d, row]
            if tricks < 0:
                continue
            round_no, pos, trump, alone = row_call(row)
            if round_no == 1:
                trump = up >> 3
            ref = -1 if up == JOKER and round_no == 2 else up
            seat = (dealer + pos) & 3
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


def chunk_records(rules: RuleSet, seed: int, start: int, count: int, exact: bool,
                  play: str = "dd", worlds: int = DEFAULT_WORLDS
                  ) -> tuple[dict[str, np.ndarray], tuple]:
    """Every open call of deals start..start+count-1 as columns, and the raw deals.

    exact=False gives maker_tricks as representatives of their scoring class (euchred, made,
    marched; see analyze_deal): the same points and rates for fewer searches."""
    tables = compile_rules(rules)
    hands, ups = deal_batch(rules, seed, start, count, SIM_DEALER)
    if play == "dd":
        calls = np.zeros((count, N_ROWS), dtype=np.int8)
        analyze_batch(tables, hands, ups, SIM_DEALER, exact, shared_tt(), calls)
    else:
        calls = play_deals(rules, play, hands, ups, seed, start, worlds, SIM_DEALER, shared_tt())
    cols = np.zeros((len(RECORD_FIELDS), count * N_ROWS), dtype=np.int64)
    n = _records(tables, hands, ups, SIM_DEALER, calls, cols)
    records = {name: cols[i, :n] for i, name in enumerate(RECORD_FIELDS)}
    records["deal"] = records["deal"] + start
    records["hand_key"] = records["hand_key"].view(np.uint64)
    return records, (hands, ups)


def summary_sums(records: dict[str, np.ndarray]) -> pd.DataFrame:
    """Integer sums by the summary's features (exact, so chunks add up in any order)."""
    key = np.zeros(len(records["round"]), dtype=np.uint64)
    for name, bits in _SUMMARY_BITS:
        key = (key << np.uint64(bits)) | records[name].astype(np.uint64)
    keys, sums = group_sums(key, call_values(records))
    columns = {}
    for name, bits in reversed(_SUMMARY_BITS):
        columns[name] = (keys & np.uint64((1 << bits) - 1)).astype(np.int8)
        keys = keys >> np.uint64(bits)
    frame = pd.DataFrame({name: columns[name] for name in SUMMARY_KEYS})
    frame["alone"] = frame["alone"].astype(bool)
    for i, name in enumerate(SUMS):
        frame[name] = sums[:, i]
    return frame


_SUMMARY_BITS = [("round", 2), ("seat", 3), ("alone", 1), ("trumps", 4), ("right", 1),
                 ("left", 1), ("aces", 3), ("voids", 3)]


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
        "maker": seat_names[(SIM_DEALER + records["seat"]) % 4],
        "alone": records["alone"].astype(bool),
        "maker_tricks": records["maker_tricks"].astype(np.int8),
        "points": records["points"].astype(np.int8),
    })


def chunk_dir(out_dir: str, index: int) -> str:
    return os.path.join(out_dir, "chunks", f"{index:06d}")


def compute_chunk(job: tuple) -> tuple[int, int, dict[str, bytes]]:
    """Compute one chunk anywhere (a local process or a cluster worker).

    job = (options, seed, index, start, count, keep_deals, play, worlds); returns (index,
    count, files) with the chunk's Parquet files as bytes, so workers need no shared file
    system."""
    options, seed, index, start, count, keep_deals, play, worlds = job
    rules = rules_from_dict(options)
    records, (hands, ups) = chunk_records(rules, seed, start, count, keep_deals, play, worlds)
    frames = {"summary": summary_sums(records)}
    if keep_deals:
        frames["deals"] = deal_frame(rules, start, hands, ups)
        frames["outcomes"] = outcome_frame(rules, records)
    files = {"calls.parquet": bucketed_parquet(*record_sums(records))}
    for name, frame in frames.items():
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        files[f"{name}.parquet"] = buffer.getvalue()
    return index, count, files


def store_chunk(out_dir: str, index: int, files: dict[str, bytes]) -> None:
    """Write a chunk's files under a temporary name, then rename the folder into place."""
    final = chunk_dir(out_dir, index)
    if os.path.isdir(final):
        return
    tmp = os.path.join(out_dir, "chunks", f".tmp-{index:06d}-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for name, data in files.items():
        with open(os.path.join(tmp, name), "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    os.rename(tmp, final)
