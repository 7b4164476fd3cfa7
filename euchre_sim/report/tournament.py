"""Reading finished tournaments: the players table (each player's games and points, by the
side it held) from games.parquet and hands.parquet, and two tournaments compared.

A player holds NS in copy 0 of a game when it is A (B in copy 1); `side` "both" pools the two.
Standard errors: win rates over games (over duplicate pairs for "both", whose two games share
their cards, as the run's summary does), points over hands.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

from ..core.errors import UserError
from ..core.run_tables import table_schema
from ..core.schema import read_table
from .compare import check_same_rules
from .query import load_run

SIDES = ("NS", "EW", "both")
MEASURES = ("win_rate", "points_per_hand", "net_per_hand", "called_rate", "make_rate")
_HAND_COLUMNS = ["game", "copy", "maker", "ns_points", "ew_points"]


def load_tournament_table(out_dir: str, name: str, info: dict | None = None) -> pd.DataFrame:
    """games, hands (as written) or players (`players_table`) of a finished tournament."""
    if name == "players":
        info = info or load_run(out_dir)
        return players_table(_read(out_dir, "games"), _read(out_dir, "hands", _HAND_COLUMNS),
                             info)
    return _read(out_dir, name)


def _read(out_dir: str, name: str, columns: list[str] | None = None) -> pd.DataFrame:
    path = os.path.join(out_dir, f"{name}.parquet")
    if not os.path.isfile(path):
        raise UserError(f"no {name}.parquet in {out_dir!r} (run 'euchre-sim tournament' first)")
    return read_table(path, f"the {name} table", table_schema(name), columns)


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    if len(x) == 0:
        return float("nan"), float("nan")
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 \
        else float("nan")


def players_table(games: pd.DataFrame, hands: pd.DataFrame, info: dict) -> pd.DataFrame:
    """One row per player (A, B) and side it held (NS, EW, both): games, wins, win rate, its
    points scored and net (scored - conceded) per hand, the share of hands it made trump
    (called_rate) and the share of those it made (make_rate); sides it never held are left
    out."""
    hand_ns = hands["maker"].isin(["N", "S"]).to_numpy()
    made_by_ns = hands["maker"].notna().to_numpy() & hand_ns
    made_by_ew = hands["maker"].notna().to_numpy() & ~hand_ns
    rows = []
    for player in ("A", "B"):
        described = info.get("players", {}).get(player, {})
        game_ns = (games["ns_player"] == player).to_numpy()
        hand_is_ns = (hands["copy"].to_numpy() == 0) == (player == "A")
        won = (games["winner"].to_numpy() == "NS") == game_ns
        scored = np.where(hand_is_ns, hands["ns_points"], hands["ew_points"]).astype(np.float64)
        conceded = np.where(hand_is_ns, hands["ew_points"], hands["ns_points"]).astype(
            np.float64)
        called = np.where(hand_is_ns, made_by_ns, made_by_ew)
        for side in SIDES:
            g = np.ones(len(games), bool) if side == "both" else game_ns == (side == "NS")
            h = np.ones(len(hands), bool) if side == "both" else hand_is_ns == (side == "NS")
            if not g.any():
                continue
            if side == "both":  # per duplicate pair (a game alone without duplicate)
                units = pd.Series(won[g], dtype=np.float64).groupby(
                    games["game"].to_numpy()[g]).mean().to_numpy()
            else:
                units = won[g].astype(np.float64)
            rate, rate_se = _mean_se(units)
            points, points_se = _mean_se(scored[h])
            net, net_se = _mean_se(scored[h] - conceded[h])
            calls = called[h]
            rows.append({
                "player": player, "side": side, "bidder": described.get("bidding"),
                "play": described.get("play"), "games": int(g.sum()), "wins": int(won[g].sum()),
                "win_rate": rate, "win_rate_se": rate_se, "hands": int(h.sum()),
                "points_per_hand": points, "points_per_hand_se": points_se,
                "net_per_hand": net, "net_per_hand_se": net_se,
                "called_rate": float(calls.mean()) if h.any() else float("nan"),
                "make_rate": float((scored[h][calls] > 0).mean()) if calls.any()
                else float("nan")})
    return pd.DataFrame(rows)


def describe(info: dict) -> str:
    """'A: rules bidder, dd play vs B: dd bidder, dd play; seed 1, 20 games' for a header."""
    players = info.get("players_described", {})
    return (f"A: {players.get('A')} vs B: {players.get('B')}; seed {info.get('seed')}, "
            f"{info.get('games')} {'duplicate pairs' if info.get('duplicate') else 'games'}")


def check_tournaments(info_1: dict, info_2: dict) -> list[str]:
    """Raise if the rules differ (games to another target, other scoring); notes where the
    seed, the game count or the start differ (the two do not play the same deals)."""
    check_same_rules(info_1, info_2, "games")
    differ = [f"{field} ({json.dumps(info_1.get(field))} vs {json.dumps(info_2.get(field))})"
              for field in ("seed", "games", "duplicate", "start", "dealer")
              if info_1.get(field) != info_2.get(field)]
    if differ:
        return [f"the tournaments differ in {' and '.join(differ)}: they do not play the same "
                "deals"]
    return []


def compare_tournaments(dir_1: str, info_1: dict, dir_2: str, info_2: dict
                        ) -> tuple[dict, pd.DataFrame, list[str]]:
    """(both tournaments' facts, their players tables joined on player and side with each
    measure's value in each (_1, _2) and the difference 2 - 1, notes). z: the net points
    difference over its standard error; win_z: the win rate's."""
    notes = check_tournaments(info_1, info_2)
    tables = [load_tournament_table(d, "players", i)
              for d, i in ((dir_1, info_1), (dir_2, info_2))]
    keep = ["player", "side", "bidder", "play", "games", *MEASURES, "win_rate_se",
            "net_per_hand_se"]
    rows = tables[0][keep].merge(tables[1][keep], on=["player", "side"], suffixes=("_1", "_2"))
    order = ["player", "side", "bidder_1", "play_1", "bidder_2", "play_2", "games_1", "games_2"]
    for field in MEASURES:
        rows[f"{field}_diff"] = rows[f"{field}_2"] - rows[f"{field}_1"]
        order += [f"{field}_1", f"{field}_2", f"{field}_diff"]
    for z, field in (("z", "net_per_hand"), ("win_z", "win_rate")):
        se = np.hypot(rows[f"{field}_se_1"], rows[f"{field}_se_2"])
        rows[z] = rows[f"{field}_diff"] / se.where(se > 0)
    head = {f"run_{i}": {"dir": d, "players": info.get("players_described"),
                         "seed": info.get("seed"), "games": info.get("games"),
                         "duplicate": info.get("duplicate"), "start": info.get("start")}
            for i, d, info in ((1, dir_1, info_1), (2, dir_2, info_2))}
    return head, rows[order + ["z", "win_z"]], notes
