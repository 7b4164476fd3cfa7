"""What the auction decides, deal by deal: decision and contract records of a chunk, summed.

With `simulate --bidding B` every deal's auction is bid by B over the deal's call table
(`bidding.auction`). At every turn the auction reaches (all earlier seats passed), each action
open to the seat is a decision record: the seat's hand class (and its summary features:
trumps, right, left, aces, voids, read against the same card), the action (pass, or a call's
trump and alone), whether B chose it, its points to the seat's side when it is forced and the
rest of the auction follows B, and its gain over passing on the same deal. The class reads
the hand against the upcard or the turned-down card (`bidding.decision_keys.turn_class`).
The contract the auction reaches (or a pass-out) is a contract record. Where defending alone is
on, a call's points are those after the defenders' decision under B.

The forced table holds the same records at one more turn a deal: where the first call came in
round 1, that caller's round-2 turn with its call taken back as a pass, when no later seat calls
before the auction comes back to it (`bidding.auction.forced_turn`): the round-2 questions of a
player who passed what B would have called, which the auction itself never reaches.

Decisions are summed by their 64-bit key (`bidding.decision_keys`), so the chunk sums use the
bucketed storage and bounded merge of `callsums`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..bidding.auction import N_TURNS, Auction, auction_choices, first_call, forced_turn
from ..bidding.decision_keys import (
    PASS_CODE,
    SUIT_LABELS,
    action_code,
    decision_key,
    pack_features,
    relative_suit,
    split_decision_keys,
    turn_class,
    turn_features,
    unpack_features,
)
from ..core.calls import call_open, call_row, may_pass, row_call
from ..core.cards import JOKER
from ..core.dealing import Deal
from ..core.jit import njit
from ..core.results import result_index
from ..core.run_tables import result_names, share_names
from ..core.seats import seat_at, team_of
from ..core.stats import mean_se_of_sums
from .callsums import group_sums

# features_sum: the class's packed features times n (every record of a class has the same);
# then the hand's result counts (core.results: which side scored how much, or nobody)
DECISION_SUMS = ["n", "chosen", "points_sum", "points_sq", "gain_sum", "gain_sq", "features_sum"]
_RESULTS = len(DECISION_SUMS)  # the first result column
_SUB_BATCH = 2048  # deals whose decision records are built at once (bounded memory)
ACTIONS = ("pass", "order_up", "call")
BUCKET_SHIFT = 52  # buckets of the 64-bit keys: round, position, action, class fields


@njit
def auction_batch(player, tb, hands, ups, dealer, auctions):
    """Every deal's auction (`auctions`, a batch's `bidding.auction.Auction`: the call tables
    given, the rest filled), every seat bid by `player` (a record, `play.player`)."""
    calls, contracts, choices, values = auctions
    for i in range(hands.shape[0]):
        auction_choices((player, player), tb, Deal(hands[i], ups[i], dealer),
                        Auction(calls[i], contracts[i], choices[i], values[i]))


def decision_sum_names(rules) -> list[str]:
    return DECISION_SUMS + result_names(rules.max_hand_points)


@njit
def result_column(points, top):
    """The result column (after DECISION_SUMS) of `points` to the seat's side."""
    return _RESULTS + result_index(points, top)


@njit
def _decision_records(tb, deals, auctions, forced, top, keys, cols):
    """keys[n] and cols[n] (decision_sum_names addends; cols zero on entry) of every decision
    reached in a batch's `auctions` of deals (hands, upcards, dealer), or with `forced` only
    each deal's decision at its `forced_turn`; top: the rules' max_hand_points; returns n."""
    hands, ups, dealer = deals
    _, contracts, choices, values = auctions
    flags = tb.flags
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.int64)
    feats = np.zeros(5, dtype=np.int64)
    n = 0
    for d in range(hands.shape[0]):
        up = ups[d]
        only = forced_turn(choices[d]) if forced else -1
        if forced and only < 0:
            continue
        for k in range(N_TURNS):
            if forced:
                if k != only:
                    continue
            elif k > 0 and choices[d, k - 1] >= 0:
                break  # the auction ended before this turn
            round_no = k // 4 + 1
            pos = k % 4 + 1
            if up == JOKER and round_no == 1:
                continue  # Benny turned up: no round 1
            seat = seat_at(dealer, pos)
            sign = 1 if team_of(seat) == 0 else -1
            key = turn_class(tb, hands[d, seat], up, round_no, masks, others)
            turn_features(tb, masks, up, feats)
            packed = pack_features(feats)
            can_pass = may_pass(flags, round_no, pos)
            pass_points = sign * values[d, k + 1] if can_pass else 0
            chosen = choices[d, k]
            if can_pass:
                keys[n] = decision_key(round_no, pos, PASS_CODE, key)
                cols[n, 0] = 1
                cols[n, 1] = 1 if chosen < 0 else 0
                cols[n, 2] = pass_points
                cols[n, 3] = pass_points * pass_points
                cols[n, 4] = 0
                cols[n, 5] = 0
                cols[n, 6] = packed
                cols[n, result_column(pass_points, top)] = 1
                n += 1
            for trump in range(5):
                for alone in range(2):
                    if not call_open(flags, round_no, pos, trump, alone, up):
                        continue
                    row = call_row(round_no, pos, trump, alone)
                    points = contracts[d, row, 0]
                    gain = points - pass_points
                    code = action_code(relative_suit(tb, others, up, round_no, trump), alone)
                    keys[n] = decision_key(round_no, pos, code, key)
                    cols[n, 0] = 1
                    cols[n, 1] = 1 if chosen == row else 0
                    cols[n, 2] = points
                    cols[n, 3] = points * points
                    cols[n, 4] = gain
                    cols[n, 5] = gain * gain
                    cols[n, 6] = packed
                    cols[n, result_column(points, top)] = 1
                    n += 1
    return n


def decision_sums(rules, tables, hands, ups, dealer, auctions: Auction, forced: bool = False):
    """(sorted unique group keys, summed decision_sum_names) of a batch of deals and their
    auctions (with `forced`, of their decisions at their `forced_turn` only), built a
    sub-batch of deals at a time."""
    top = rules.max_hand_points
    width = len(decision_sum_names(rules))
    parts_keys, parts_sums = [], []
    for start in range(0, hands.shape[0], _SUB_BATCH):
        part = slice(start, start + _SUB_BATCH)
        size = hands[part].shape[0] * N_TURNS * 11
        keys = np.zeros(size, dtype=np.uint64)
        cols = np.zeros((size, width), dtype=np.int64)
        n = _decision_records(tables, (hands[part], ups[part], dealer),
                              Auction(*(column[part] for column in auctions)), forced, top,
                              keys, cols)
        keys, sums = group_sums(keys[:n], cols[:n])
        parts_keys.append(keys)
        parts_sums.append(sums)
    if not parts_keys:
        return np.zeros(0, np.uint64), np.zeros((0, width), np.int64)
    return group_sums(np.concatenate(parts_keys), np.concatenate(parts_sums))


def contract_records(contracts, choices) -> dict[str, np.ndarray]:
    """The contract of every deal: round, seat (position), alone, defended (a lone defender),
    maker_tricks, points; a passed-out deal has round 0, seat 0 and maker_tricks -1."""
    count = len(choices)
    out = {name: np.zeros(count, dtype=np.int64)
           for name in ("round", "seat", "alone", "defended", "maker_tricks", "points")}
    for d in range(count):
        k = first_call(choices[d], 0)
        if k < 0:
            out["maker_tricks"][d] = -1
            continue
        row = choices[d, k]
        round_no, pos, _, alone = (int(x) for x in row_call(row))
        points, tricks, defender = (int(x) for x in contracts[d, row])
        out["round"][d], out["seat"][d], out["alone"][d] = round_no, pos, alone
        out["defended"][d] = defender > 0
        out["maker_tricks"][d] = tricks
        out["points"][d] = points
    return out


def add_decision_rates(frame: pd.DataFrame, top: int) -> pd.DataFrame:
    """chosen_rate, mean_points, points_se, gain, gain_se and the results' shares (p_us_k,
    p_them_k, p_none: the seat's side scores k, the other side does, nobody does) from the
    integer sums."""
    n = frame["n"].astype(np.float64)
    results = result_names(top)
    out = frame.drop(columns=DECISION_SUMS[1:] + results)
    packed = (frame["features_sum"] // frame["n"]).to_numpy(np.int64)
    for name, column in unpack_features(packed).items():
        out[name] = column.astype(np.int8)
    out["chosen_rate"] = frame["chosen"] / n
    out["mean_points"], out["points_se"] = mean_se_of_sums(frame["points_sum"],
                                                           frame["points_sq"], n)
    out["gain"], out["gain_se"] = mean_se_of_sums(frame["gain_sum"], frame["gain_sq"], n)
    for name, share in zip(results, share_names(top), strict=True):
        out[share] = frame[name] / n
    return out


def decision_tables(rules, paths: list[str], max_rows: int):
    """decisions.parquet tables, at most max_rows rows at a time (`callsums.merged`)."""
    import pyarrow as pa

    from ..core.handclass import KeyReader
    from .callsums import ChunkSums, merged

    read = KeyReader(rules)
    suit_names = np.array((None, *SUIT_LABELS), dtype=object)
    names = decision_sum_names(rules)
    for keys, sums in merged(ChunkSums(paths, names), max_rows):
        columns = split_decision_keys(keys)
        frame = pd.DataFrame({"round": columns["round"], "seat": columns["seat"],
                              "hand_key": columns["hand_key"],
                              "action": np.array(ACTIONS, dtype=object)[columns["action"]],
                              "suit": suit_names[columns["suit"] + 1],
                              "alone": columns["alone"]})
        for i, name in enumerate(names):
            frame[name] = sums[:, i]
        frame = add_decision_rates(frame, rules.max_hand_points)
        if rules.stick_the_dealer:  # the stuck dealer cannot pass: no gain over passing
            stuck = (frame["round"] == 2) & (frame["seat"] == 4)
            frame.loc[stuck, ["gain", "gain_se"]] = np.nan
        table = pa.Table.from_pandas(frame, preserve_index=False)
        suit = table.schema.get_field_index("suit")  # one type even where a part has no suit
        table = table.set_column(suit, "suit", table.column(suit).cast(pa.large_string()))
        yield table.add_column(2, "hand", read.many(columns["hand_key"]))


def auction_table(sums: pd.DataFrame, deals: int) -> pd.DataFrame:
    """auction.parquet: who made trump (round, seat, alone; round 0 = passed out), how often
    (share of deals) and how the contracts fared."""
    from .callsums import add_rates

    out = add_rates(sums)
    out.insert(4, "share", out["n"] / deals)
    passed = out["round"] == 0
    rates = [c for c in out.columns if c.endswith("_rate") or c.endswith("_se")]
    out.loc[passed, rates] = np.nan
    return out


def auction_facts(table: pd.DataFrame, deals: int) -> dict:
    """Pass-out rate and mean points per deal to each position's side (for run.json)."""
    called = table[table["round"] > 0]
    totals = called["mean_points"] * called["n"]
    per_seat = {}
    for pos in range(1, 5):
        same_side = (called["seat"] - pos) % 2 == 0
        per_seat[str(pos)] = float((totals.where(same_side, -totals)).sum() / deals)
    passed = table.loc[table["round"] == 0, "n"].sum()
    return {"pass_out_rate": float(passed / deals), "points_per_deal": per_seat}
