"""A strategy chart from a finished `simulate --bidding` run: for each round and seat, which
hands order up, call, go alone or pass, by what players count, with the gain over passing.

A hand's cell is read against the suit it would name: round 1 the upcard's suit (the decisions
table's own features); round 2 its best suit, the one of the suits it may name with the most
trumps (then the right bower, the left, and the next suit before the others), its features read
from the hand's class. A cell is the trumps held (bowers and Benny included) by the bowers held
and the off-suit aces (0, 1, 2+); its gains are the decisions' paired gains over passing pooled
over the hands in it, weighted by how often each was reached (`n`), and its action is the best
of pass, the call with a partner and the call alone. Where the seat may not pass (the stuck
dealer) the gains are against the partnership call and the action is the better of the two.
No-trump calls are left out of the chart (their hands are charted by their best suit).
"""

from __future__ import annotations

import html
import os

import numpy as np
import pandas as pd

from ..core.errors import UserError
from ..core.output import written
from .query import load_run, load_table

BOWERS = ("none", "left", "right", "both")  # a cell's column groups: which bowers are held
ACE_BUCKETS = ("0", "1", "2+")
ACTIONS = ("pass", "call", "alone")  # a cell's action: pass, the call with partner, alone
CHART_COLUMNS = ["round", "seat", "trumps", "bowers", "aces", "n", "gain_call", "gain_alone",
                 "action", "gain", "pass_open"]
_SUITS = ("next", "other1", "other2")  # the suits round 2 may name, as decisions label them


def _letters(group: str) -> str:
    return "" if group == "-" else group


def class_groups(hand: str) -> dict[str, object]:
    """The holdings of a class text ('T=RA N=K O=A9/Q down=9t'): T, N and the O groups."""
    parts = dict(part.split("=", 1) for part in hand.split())
    return {"T": _letters(parts.get("T", "-")), "N": _letters(parts.get("N", "-")),
            "O": [_letters(g) for g in parts.get("O", "-/-").split("/")]}


def named_suit_features(hand: str, suit: str) -> tuple[int, int, int, int, int]:
    """(trumps, right, left, off-suit aces, voids) of a round-2 class (French deck: T is the
    turned-down suit with its right R and left L, Benny B; N its same-colour suit; O the two
    others) when it names `suit` (next, other1, other2)."""
    g = class_groups(hand)
    t, n, others = g["T"], g["N"], g["O"]
    benny = int("B" in t)
    if suit == "next":  # the turned-down suit's jacks swap roles: L is now the right bower
        right, left = int("L" in t), int("R" in t)
        plain_t = t.replace("R", "").replace("L", "").replace("B", "")
        trumps = len(n) + right + left + benny
        aces = int("A" in plain_t) + sum("A" in o for o in others)
        voids = int(plain_t == "") + sum(o == "" for o in others)
        return trumps, right, left, aces, voids
    k = _SUITS.index(suit) - 1
    mine, pair = others[k], others[1 - k]  # the other colour's two suits: pair holds the left
    right, left = int("J" in mine), int("J" in pair)
    down = t.replace("L", "").replace("B", "")  # R is the turned-down suit's own jack again
    nxt = n + ("J" if "L" in t else "")
    pair_plain = pair.replace("J", "")
    trumps = len(mine) + left + benny
    aces = int("A" in down) + int("A" in nxt) + int("A" in pair_plain)
    voids = int(down == "") + int(nxt == "") + int(pair_plain == "")
    return trumps, right, left, aces, voids


def _best_suit(hand: str) -> tuple[str, tuple]:
    """The suit a round-2 class would name (most trumps, then right, left; next first)."""
    options = [(suit, named_suit_features(hand, suit)) for suit in _SUITS]
    return max(options, key=lambda o: (o[1][0], o[1][1], o[1][2], -_SUITS.index(o[0])))


def _cell_of(features) -> tuple[int, str, str]:
    trumps, right, left, aces, _ = (int(x) for x in features)
    return trumps, BOWERS[right * 2 + left], ACE_BUCKETS[min(aces, 2)]


def chart_rows(decisions: pd.DataFrame, french: bool = True) -> pd.DataFrame:
    """Each hand class's cell and its gains: round, seat, trumps, bowers, aces, n (times
    reached), gain_call and gain_alone (paired, over passing; over the partnership call
    where the seat may not pass) and pass_open. Round 2 needs a French deck's class texts
    (`french`); without one only round 1 is charted."""
    frame = decisions[(decisions["suit"] != "NT") & ((decisions["round"] == 1) | french)]
    keys = ["round", "seat", "hand_key"]
    passing = frame[frame["action"] == "pass"][keys].drop_duplicates().assign(pass_open=True)
    round_2 = frame["round"] == 2
    best = {hand: _best_suit(hand) for hand in frame.loc[round_2, "hand"].unique()}
    named_suit = frame["hand"].map(lambda h: best[h][0] if h in best else "up")
    named = frame[(frame["action"] != "pass") & (frame["suit"] == named_suit)]
    wide = named.pivot_table(index=keys + ["hand"], columns="alone",
                             values=["n", "gain", "mean_points"], aggfunc="first")
    wide.columns = [f"{name}_{'alone' if alone else 'call'}" for name, alone in wide.columns]
    wide = wide.reset_index().merge(passing, on=keys, how="left")
    wide["pass_open"] = wide["pass_open"].eq(True)
    if "gain_alone" not in wide:
        wide[["gain_alone", "mean_points_alone"]] = np.nan
    stuck = ~wide["pass_open"]
    wide.loc[stuck, "gain_call"] = 0.0
    wide.loc[stuck, "gain_alone"] = wide["mean_points_alone"] - wide["mean_points_call"]
    first = frame.drop_duplicates(keys).set_index(keys)[["trumps", "right", "left", "aces",
                                                          "voids"]]
    features = np.array([best[h][1] if r == 2 else tuple(first.loc[(r, s, k)])
                         for r, s, k, h in zip(wide["round"], wide["seat"], wide["hand_key"],
                                               wide["hand"], strict=True)]).reshape(-1, 5)
    cells = [_cell_of(f) for f in features]
    out = pd.DataFrame({"round": wide["round"], "seat": wide["seat"],
                        "trumps": [c[0] for c in cells], "bowers": [c[1] for c in cells],
                        "aces": [c[2] for c in cells], "n": wide["n_call"].astype(np.int64),
                        "gain_call": wide["gain_call"], "gain_alone": wide["gain_alone"],
                        "pass_open": wide["pass_open"]})
    return out


def chart_cells(rows: pd.DataFrame) -> pd.DataFrame:
    """The chart's cells (CHART_COLUMNS): gains pooled n-weighted over the classes in each
    cell, and the best action with its gain over passing (over the partnership call where
    passing is not open)."""
    keys = ["round", "seat", "trumps", "bowers", "aces"]
    pooled = rows.assign(call=rows["gain_call"] * rows["n"],
                         alone_sum=rows["gain_alone"].fillna(0) * rows["n"],
                         alone_n=rows["n"] * rows["gain_alone"].notna())
    sums = pooled.groupby(keys).agg(n=("n", "sum"), call=("call", "sum"),
                                    alone_sum=("alone_sum", "sum"), alone_n=("alone_n", "sum"),
                                    pass_open=("pass_open", "all")).reset_index()
    sums["gain_call"] = sums["call"] / sums["n"]
    sums["gain_alone"] = (sums["alone_sum"] / sums["alone_n"]).where(sums["alone_n"] > 0)
    options = np.column_stack([np.where(sums["pass_open"], 0.0, -np.inf),
                               np.where(sums["pass_open"], sums["gain_call"], 0.0),
                               sums["gain_alone"].fillna(-np.inf)])
    best = options.argmax(axis=1)
    sums["action"] = [ACTIONS[i] for i in best]
    sums["gain"] = options[np.arange(len(sums)), best]
    return sums[CHART_COLUMNS]


def _is_french(info: dict) -> bool:
    rules = info.get("rules") or {}
    return not rules.get("yooker", False)


def chart_table(run_dir: str) -> tuple[pd.DataFrame, dict]:
    """The chart's cells of a finished `simulate --bidding` run, and its run.json."""
    info = load_run(run_dir)
    if not info.get("bidding"):
        raise UserError(f"{run_dir!r} has no auction: chart reads a simulate --bidding run")
    decisions = load_table(run_dir, "decisions")
    return chart_cells(chart_rows(decisions, _is_french(info))), info


_COLOURS = {"pass": "#d9d9d9", "call": "#6baed6", "alone": "#e6550d"}
_LABELS = {1: {"call": "order up", "alone": "order up alone"},
           2: {"call": "call", "alone": "call alone"}}


def _title(info: dict) -> str:
    return (f"When to order up, call, go alone or pass: bidding {info.get('bidding')}, "
            f"play {info.get('play', 'dd')}, {info.get('deals', 0):,} deals")


def _grid(cells: pd.DataFrame, round_no: int, seat: int):
    """(actions, gains, max trumps) of one panel: trumps (rows) x bowers-and-aces (columns)."""
    part = cells[(cells["round"] == round_no) & (cells["seat"] == seat)]
    columns = [(b, a) for b in BOWERS for a in ACE_BUCKETS]
    actions = np.full((6, len(columns)), "", dtype=object)
    gains = np.full((6, len(columns)), np.nan)
    for r in part.itertuples():
        j = columns.index((r.bowers, r.aces))
        actions[r.trumps, j] = r.action
        gains[r.trumps, j] = r.gain
    return actions, gains, columns


def write_html(cells: pd.DataFrame, info: dict, path: str) -> None:
    """One printable page of tables, a cell's colour its action and its text the gain."""
    parts = [f"<!doctype html><meta charset='utf-8'><title>{html.escape(_title(info))}</title>",
             "<style>body{font:12px sans-serif}table{border-collapse:collapse;margin:6px}"
             "td,th{border:1px solid #999;padding:2px 4px;text-align:center}</style>",
             f"<h1>{html.escape(_title(info))}</h1>", _legend_html()]
    for round_no in sorted(set(cells["round"])):
        for seat in range(1, 5):
            actions, gains, columns = _grid(cells, round_no, seat)
            head = "".join(f"<th>{b}<br>{a} aces</th>" for b, a in columns)
            parts.append(f"<h2>Round {round_no}, seat {seat}</h2><table data-round='{round_no}'"
                         f" data-seat='{seat}'><tr><th>trumps</th>{head}</tr>")
            for trumps in range(6):
                row = "".join(
                    f"<td data-action='{a}' style='background:{_COLOURS[a]}'>{g:+.2f}</td>"
                    if a else "<td></td>" for a, g in zip(actions[trumps], gains[trumps],
                                                          strict=True))
                parts.append(f"<tr><th>{trumps}</th>{row}</tr>")
            parts.append("</table>")
    with written(path) as handle:
        handle.write("\n".join(parts))


def _legend_html() -> str:
    return ("<p>" + " ".join(f"<span style='background:{c};padding:2px 6px'>{a}</span>"
                             for a, c in _COLOURS.items())
            + " — a cell's number: its action's gain over passing, points a hand (over the "
              "partnership call where the seat may not pass).</p>")


def write_figure(cells: pd.DataFrame, info: dict, path: str, kind: str) -> None:
    """The chart as a PNG or SVG figure (matplotlib)."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    from .plot import pyplot, save_figure

    plt = pyplot()
    rounds = sorted(set(cells["round"]))
    fig, axes = plt.subplots(len(rounds), 4, figsize=(22, 4.2 * len(rounds)),
                             constrained_layout=True, squeeze=False)
    cmap = ListedColormap([_COLOURS[a] for a in ACTIONS])
    for i, round_no in enumerate(rounds):
        for seat in range(1, 5):
            ax = axes[i, seat - 1]
            actions, gains, columns = _grid(cells, round_no, seat)
            codes = np.array([[ACTIONS.index(a) if a else np.nan for a in row]
                              for row in actions], dtype=float)
            ax.imshow(codes, origin="lower", cmap=cmap, vmin=0, vmax=2, aspect="auto")
            for (y, x), gain in np.ndenumerate(gains):
                if not np.isnan(gain):
                    ax.text(x, y, f"{gain:+.2f}", ha="center", va="center", fontsize=6)
            ax.set_xticks(range(len(columns)), [f"{b}\n{a}" for b, a in columns], fontsize=6)
            ax.set_yticks(range(6), [str(t) for t in range(6)])
            ax.set_title(f"round {round_no}, seat {seat}", fontsize=9)
            ax.set_xlabel("bowers held / off-suit aces", fontsize=7)
            ax.set_ylabel("trumps", fontsize=7)
    fig.legend([Patch(color=_COLOURS[a]) for a in ACTIONS], ["pass", "call with partner",
                                                             "call alone"],
               loc="outside lower center", ncol=3)
    save_figure(fig, path, _title(info), kind)


CHART_KINDS = ("png", "svg", "html")


def draw_chart(run_dir: str, path: str) -> pd.DataFrame:
    """Write the chart of a finished `simulate --bidding` run to `path` (PNG, SVG or HTML by
    its suffix); returns the cells drawn."""
    kind = os.path.splitext(path)[1].lower().lstrip(".")
    if kind not in CHART_KINDS:
        raise UserError(f"chart writes {', '.join(CHART_KINDS)} files (by the suffix), "
                        f"got {path!r}")
    cells, info = chart_table(run_dir)
    if kind == "html":
        write_html(cells, info, path)
    else:
        write_figure(cells, info, path, kind)
    return cells
