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
No-trump calls are left out of the chart (their hands are charted by their best suit), and so
are the auctions after Benny was turned up: their classes are read against no-trump, without
the suits' colours, so a suit named has no bowers to read.

With a score, an action's value is its chance of winning the game instead of its points: the
pooled shares of the hand's results (`core.results`) weighted by the chance of winning from
the score after each (`game.odds`); the next deal passes left, so the seat's side deals next
at positions 1 and 3.
"""

from __future__ import annotations

import html
import json
import os

import numpy as np
import pandas as pd

from ..core.errors import UserError
from ..core.handclass import read_against_no_trump
from ..core.limits import MAX_POINTS
from ..core.output import written
from ..core.results import result_points
from ..core.run_tables import share_names
from ..core.schema import Column, Schema, counts, file_schema, rates, read_table
from ..core.stats import mean_se_of_sums, squares_of
from ..game.odds import chance_after
from ..play.models import DEFAULT_PLAY
from .query import load_run, load_table, run_odds

BOWERS = ("none", "left", "right", "both")  # a cell's column groups: which bowers are held
ACE_BUCKETS = ("0", "1", "2+")
ACTIONS = ("pass", "call", "alone")  # a cell's action: pass, the call with partner, alone
CELL_KEYS = ["round", "seat", "trumps", "bowers", "aces"]
# pooled cells (`pooled_cells`, the shipped atlas's chart): each action's figures, NaN where it
# is open in none of the cell's classes
CELLS_SCHEMA = Schema((
    Column("round", "int", 1, 2), Column("seat", "int", 1, 4), *counts("trumps"),
    Column("bowers", "str", values=BOWERS), Column("aces", "str", values=ACE_BUCKETS),
    *counts("n"), Column("may_pass", "bool"),
    *(column for kind in ACTIONS for column in (
        Column(f"{kind}_mean_points", "float", missing=True),
        Column(f"{kind}_mean_points_se", "float", missing=True, required=False),
        *rates(*(f"{kind}_{share}" for share in share_names(MAX_POINTS)), required=False))),
    *(Column(f"{kind}_{name}", "float", missing=True, required=False)
      for kind in ACTIONS[1:] for name in ("gain", "gain_se"))),
    keys=tuple(CELL_KEYS))
CHART_COLUMNS = ["round", "seat", "trumps", "bowers", "aces", "n", "gain_call", "gain_alone",
                 "action", "gain", "may_pass", "close"]
CLOSE_Z = 1.96  # a close call: the best action leads the runner-up by less than this many se
CLOSE_MARK = "≈"  # before a close call's number
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


def chart_rows(decisions: pd.DataFrame, top: int, french: bool = True) -> pd.DataFrame:
    """Each hand class's cell and its figures: round, seat, trumps, bowers, aces, n (times
    reached), may_pass, and for each of pass, call and alone its mean points, their standard
    error, its paired gain over passing with its standard error and its result shares
    (`share_names(top)`, prefixed by the action; NaN where the action is not open).
    Round 2 needs a French deck's class texts (`french`); without one only round 1 is
    charted."""
    frame = decisions[(decisions["suit"] != "NT") & ((decisions["round"] == 1) | french)
                      & ~read_against_no_trump(decisions["hand_key"].to_numpy())]
    keys = ["round", "seat", "hand_key"]
    round_2 = frame["round"] == 2
    best = {hand: _best_suit(hand) for hand in frame.loc[round_2, "hand"].unique()}
    named_suit = frame["hand"].map(lambda h: best[h][0] if h in best else "up")
    shares = share_names(top)
    figures = ["mean_points", "points_se", "gain", "gain_se", *shares]
    kept = frame[(frame["action"] == "pass") | (frame["suit"] == named_suit)]
    kind = np.where(kept["action"] == "pass", "pass", np.where(kept["alone"], "alone", "call"))
    wide = kept.assign(kind=kind).pivot_table(index=keys + ["hand"], columns="kind",
                                              values=["n", *figures], aggfunc="first")
    wide.columns = [f"{kind}_{name}" for name, kind in wide.columns]
    wide = wide.reset_index()
    for kind in ACTIONS:
        for name in ["n", *figures]:
            if f"{kind}_{name}" not in wide:
                wide[f"{kind}_{name}"] = np.nan
    wide = wide[wide["call_n"].notna()]  # a class whose best suit cannot be named
    first = frame.drop_duplicates(keys).set_index(keys)[["trumps", "right", "left", "aces",
                                                          "voids"]]
    features = np.array([best[h][1] if r == 2 else tuple(first.loc[(r, s, k)])
                         for r, s, k, h in zip(wide["round"], wide["seat"], wide["hand_key"],
                                               wide["hand"], strict=True)]).reshape(-1, 5)
    cells = [_cell_of(f) for f in features]
    out = pd.DataFrame({"round": wide["round"].to_numpy(), "seat": wide["seat"].to_numpy(),
                        "trumps": [c[0] for c in cells], "bowers": [c[1] for c in cells],
                        "aces": [c[2] for c in cells],
                        "n": wide["call_n"].to_numpy(np.int64),
                        "may_pass": wide["pass_n"].notna().to_numpy()})
    for kind in ACTIONS:
        for name in figures:
            out[f"{kind}_{name}"] = wide[f"{kind}_{name}"].to_numpy(np.float64)
    return out


def pooled_cells(rows: pd.DataFrame) -> pd.DataFrame:
    """The chart's cells: each figure of `chart_rows` pooled over the classes in the cell,
    weighted by how often each was reached (a figure of an action not open in a class is
    pooled over the classes where it is); the mean points and gains with the standard error
    of the cell's mean over its deals (their sums of squares rebuilt class by class,
    `core.stats.squares_of`: a class reached once adds no spread of its own)."""
    spread = {f"{kind}_{name}": f"{kind}_{name}_se" for kind in ACTIONS
              for name in ("mean_points", "gain")}
    figures = [c for c in rows.columns if c.split("_", 1)[0] in ACTIONS and c != "pass_gain"
               and c not in spread.values() and not c.endswith("points_se")]
    weighted = rows[[*CELL_KEYS, "n", "may_pass"]].copy()
    for column in figures:
        open_ = rows[column].notna()
        weighted[column] = rows[column].fillna(0) * rows["n"]
        weighted[f"{column}__n"] = rows["n"] * open_
        if column in spread:  # each class's deals about its mean, and its mean about 0
            squares = squares_of(rows["n"], rows[column], rows[_se_column(column)])
            weighted[f"{column}__ss"] = squares.where(open_, 0)
    sums = weighted.groupby(CELL_KEYS).agg(
        {"n": "sum", "may_pass": "all", **{c: "sum" for c in weighted.columns
                                            if c not in [*CELL_KEYS, "n", "may_pass"]}})
    for column in figures:
        n = sums[f"{column}__n"]
        if column in spread:  # the cell's deals about the cell's mean
            sums[spread[column]] = mean_se_of_sums(sums[column], sums[f"{column}__ss"], n)[1]
        sums[column] = (sums[column] / n).where(n > 0)
    return sums[["n", "may_pass", *figures, *(spread[c] for c in figures if c in spread)]] \
        .reset_index()


def _se_column(column: str) -> str:
    """The decisions' standard error of a figure: points_se for mean_points, gain_se."""
    kind, name = column.split("_", 1)
    return f"{kind}_points_se" if name == "mean_points" else f"{kind}_gain_se"


def decide(cells: pd.DataFrame, top: int, score: tuple[int, int] | None = None,
           odds: np.ndarray | None = None) -> pd.DataFrame:
    """CHART_COLUMNS of pooled cells: each action's value (points, or with a score the chance
    of winning the game from it under `odds`, p[us, them, we_deal]), the gains over passing
    (over the partnership call where passing is not open), the best action and its gain."""
    if score is None:
        values = {kind: cells[f"{kind}_mean_points"].to_numpy() for kind in ACTIONS}
    else:
        shares = share_names(top)
        values = {}
        for kind in ACTIONS:
            wins = np.zeros(len(cells))
            for k, name in enumerate(shares):
                after = np.array([chance_after(odds, *score, result_points(k, top),
                                               seat % 2 == 1) for seat in cells["seat"]])
                wins += cells[f"{kind}_{name}"].to_numpy() * after
            values[kind] = np.where(cells[f"{kind}_{shares[0]}"].notna(), wins, np.nan)
    base = np.where(cells["may_pass"], values["pass"], values["call"])
    out = cells[[*CELL_KEYS, "n", "may_pass"]].copy()
    out["gain_call"] = values["call"] - base
    out["gain_alone"] = values["alone"] - base
    options = np.column_stack([np.where(cells["may_pass"], 0.0, -np.inf),
                               np.where(cells["may_pass"], out["gain_call"], 0.0),
                               out["gain_alone"].fillna(-np.inf)])
    best = options.argmax(axis=1)
    out["action"] = [ACTIONS[i] for i in best]
    out["gain"] = options[np.arange(len(out)), best]
    out["close"] = _close_calls(cells, options, best) if score is None else False
    return out[CHART_COLUMNS]


def _close_calls(cells: pd.DataFrame, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Whether the best action leads the runner-up by less than CLOSE_Z standard errors of
    the lead: paired over passing (`gain_se`) where one of the two is passing; otherwise
    (call against alone, or the stuck dealer's two) the two actions' errors combined as if
    independent, wider than the paired error (the same deals score both alike). False where
    the cells carry no standard errors (a chart file of an earlier version); True where the
    lead's error is unknown (a cell reached once)."""
    if "call_gain_se" not in cells:
        return np.zeros(len(cells), dtype=bool)
    ranked = np.argsort(-options, axis=1)
    runner = np.where(ranked[:, 0] == best, ranked[:, 1], ranked[:, 0])
    rows = np.arange(len(cells))
    lead = options[rows, best] - options[rows, runner]
    gain_se = {1: cells["call_gain_se"].to_numpy(), 2: cells["alone_gain_se"].to_numpy()}
    points_se = {i: cells[f"{kind}_mean_points_se"].to_numpy() for i, kind in enumerate(ACTIONS)}
    passing = cells["may_pass"].to_numpy()
    paired = passing & ((best == 0) | (runner == 0))
    other = np.where(best == 0, runner, best)
    se = np.where(paired, np.where(other == 1, gain_se[1], gain_se[2]),
                  np.where(passing, np.hypot(gain_se[1], gain_se[2]),
                           np.hypot(points_se[1], points_se[2])))
    return np.isfinite(lead) & ~(lead >= CLOSE_Z * se)  # an unknown error: not separated


def _is_french(rules: dict) -> bool:
    return not rules.get("yooker", False)


def chart_source(run: str, odds_dir: str | None = None, with_odds: bool = False):
    """(pooled cells, run.json-like facts, odds p[us, them, we_deal] or None) of a finished
    `simulate --bidding` folder, or of the shipped realistic atlas ('atlas' or 'atlas:PRESET',
    when no folder has that name). The odds (only `with_odds`): `odds_dir`'s odds.parquet, else
    the run's own (from its auction table, or the atlas's)."""
    from ..core.rules import rules_from_dict
    from ..game.odds import odds_array, read_odds

    if not os.path.isdir(run) and (run == "atlas" or run.startswith("atlas:")):
        cells, info, odds = shipped_chart(run.partition(":")[2] or "standard")
    else:
        info = load_run(run)
        if not info.get("bidding"):
            raise UserError(f"{run!r} has no auction: chart reads a simulate --bidding run")
        rules = rules_from_dict(info["rules"])
        decisions = load_table(run, "decisions")
        cells = pooled_cells(chart_rows(decisions, rules.max_hand_points,
                                        _is_french(info["rules"])))
        odds = None
        if with_odds and odds_dir is None:
            if not os.path.isfile(os.path.join(run, "auction.parquet")):
                raise UserError(f"{run!r} has no auction table to solve the odds of the game "
                                "from: give --odds DIR (euchre-sim odds)")
            odds = odds_array(run_odds(run)[1])
    if with_odds and odds_dir is not None:
        odds = read_odds(odds_dir, rules_from_dict(info["rules"]))
    return cells, info, odds


def shipped_chart(preset_name: str) -> tuple[pd.DataFrame, dict, np.ndarray]:
    """The pooled cells of the shipped atlas's run (over every class, not only those kept),
    its facts (run.json's) and the odds of the game under the same bidder and play
    (p[us, them, we_deal])."""
    from ..advice.atlas import ATLAS_PRESETS, atlas_preset, shipped_file
    from ..core.rules import PRESETS, preset
    from ..game.odds import odds_array, odds_frame

    found = atlas_preset(preset(preset_name)) if preset_name in PRESETS else None
    files = {kind: shipped_file(found, kind) for kind in ("chart", "odds")} if found else {}
    if not files or None in files.values():
        shipped = [p for p in ATLAS_PRESETS if shipped_file(p, "chart") is not None]
        raise UserError(f"no realistic atlas shipped for {preset_name!r} (shipped: "
                        f"{', '.join(shipped) or 'none'})")
    chart = str(files["chart"])
    meta = file_schema(chart, "the atlas's chart", CELLS_SCHEMA).metadata or {}
    cells = read_table(chart, "the atlas's chart", CELLS_SCHEMA)
    odds = odds_array(odds_frame(str(files["odds"]), "the atlas's odds"))
    return cells, json.loads(meta.get(b"euchre_sim", b"{}")), odds


_COLOURS = {"pass": "#d9d9d9", "call": "#6baed6", "alone": "#e6550d"}
def _title(info: dict) -> str:
    score = info.get("score")
    at = f", at {score[0]}-{score[1]} (gains in chances of winning the game)" if score else ""
    return (f"When to order up, call, go alone or pass: bidding {info.get('bidding')}, "
            f"play {info.get('play', DEFAULT_PLAY)}, {info.get('deals', 0):,} deals{at}")


def _gain(gain: float, info: dict, close: bool = False) -> str:
    """A cell's text: points a hand, or with a score percentage points of the game; a close
    call marked CLOSE_MARK."""
    text = f"{100 * gain:+.1f}" if info.get("score") else f"{gain:+.2f}"
    return f"{CLOSE_MARK}{text}" if close else text


def column_words(info: dict) -> dict:
    """How the chart names its column groups, by the deck of the run's rules: the French
    deck's bowers held and off-suit aces; Yooker's power 3 (the top trump, where the French
    deck has its right bower; Yooker has no left) and off-suit 6s (each plain shape's top)."""
    if _is_french(info.get("rules", {})):
        return {"groups": {b: b for b in BOWERS}, "held": "bowers held", "tops": "aces"}
    return {"groups": {"none": "no power 3", "right": "power 3"}, "held": "power 3 held",
            "tops": "6s"}


def _grid(cells: pd.DataFrame, round_no: int, seat: int, groups):
    """(actions, gains, close calls, columns) of one panel: trumps (rows) x top-trump groups
    and aces (columns: `groups` of BOWERS by ACE_BUCKETS)."""
    part = cells[(cells["round"] == round_no) & (cells["seat"] == seat)]
    columns = [(b, a) for b in groups for a in ACE_BUCKETS]
    actions = np.full((6, len(columns)), "", dtype=object)
    gains = np.full((6, len(columns)), np.nan)
    close = np.zeros((6, len(columns)), dtype=bool)
    for r in part.itertuples():
        j = columns.index((r.bowers, r.aces))
        actions[r.trumps, j] = r.action
        gains[r.trumps, j] = r.gain
        close[r.trumps, j] = r.close
    return actions, gains, close, columns


def write_html(cells: pd.DataFrame, info: dict, path: str) -> None:
    """One printable page of tables, a cell's colour its action and its text the gain."""
    parts = [f"<!doctype html><meta charset='utf-8'><title>{html.escape(_title(info))}</title>",
             "<style>body{font:12px sans-serif}table{border-collapse:collapse;margin:6px}"
             "td,th{border:1px solid #999;padding:2px 4px;text-align:center}</style>",
             f"<h1>{html.escape(_title(info))}</h1>", _legend_html(info)]
    words = column_words(info)
    for round_no in sorted(set(cells["round"])):
        for seat in range(1, 5):
            actions, gains, close, columns = _grid(cells, round_no, seat, words["groups"])
            head = "".join(f"<th>{words['groups'][b]}<br>{a} {words['tops']}</th>"
                           for b, a in columns)
            parts.append(f"<h2>Round {round_no}, seat {seat}</h2><table data-round='{round_no}'"
                         f" data-seat='{seat}'><tr><th>trumps</th>{head}</tr>")
            for trumps in range(6):
                row = "".join(
                    f"<td data-action='{a}' data-close='{int(c)}' style='background:"
                    f"{_COLOURS[a]}'>{_gain(g, info, c)}</td>" if a else "<td></td>"
                    for a, g, c in zip(actions[trumps], gains[trumps], close[trumps],
                                       strict=True))
                parts.append(f"<tr><th>{trumps}</th>{row}</tr>")
            parts.append("</table>")
    with written(path) as handle:
        handle.write("\n".join(parts))


def legend_lines(info: dict) -> list[str]:
    """What a cell's number is and which seat is which, a sentence a line (the printed
    chart's legend)."""
    unit = "percentage points of the chance of winning the game" if info.get("score") \
        else "points a hand"
    close = [] if info.get("score") else [
        f"{CLOSE_MARK} marks a close call: the best action leads the runner-up by less than "
        f"its 95 % interval."]
    return [f"A cell's colour is the best action on average; its number that action's gain "
            f"over passing, in {unit} (over the call with partner where the seat may not "
            f"pass).", *close, "Seats in bidding order: 1 the dealer's left, 2 its left, 3 the "
            "dealer's partner, 4 the dealer."]


def legend_text(info: dict) -> str:
    """The legend as one paragraph (the page's)."""
    return " ".join(legend_lines(info))


def _legend_html(info: dict) -> str:
    return ("<p>" + " ".join(f"<span style='background:{c};padding:2px 6px'>{a}</span>"
                             for a, c in _COLOURS.items()) + f" — {legend_text(info)}</p>")


def chart_figure(cells: pd.DataFrame, info: dict):
    """The chart as a matplotlib Figure, its title set (no pyplot: a notebook's backend is
    left as it is)."""
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    rounds = sorted(set(cells["round"]))
    fig = Figure(figsize=(24, 5.2 * len(rounds) + 0.8), layout="constrained")
    axes = fig.subplots(len(rounds), 4, squeeze=False)
    cmap = ListedColormap([_COLOURS[a] for a in ACTIONS])
    words = column_words(info)
    for i, round_no in enumerate(rounds):
        for seat in range(1, 5):
            ax = axes[i, seat - 1]
            actions, gains, close, columns = _grid(cells, round_no, seat, words["groups"])
            codes = np.array([[ACTIONS.index(a) if a else np.nan for a in row]
                              for row in actions], dtype=float)
            ax.imshow(codes, origin="lower", cmap=cmap, vmin=0, vmax=2, aspect="auto")
            for (y, x), gain in np.ndenumerate(gains):
                if not np.isnan(gain):
                    ax.text(x, y, _gain(gain, info, close[y, x]), ha="center", va="center",
                            fontsize=9, fontstyle="italic" if close[y, x] else "normal")
            ax.set_xticks(range(len(columns)),
                          [f"{words['groups'][b]}\n{a}" for b, a in columns], fontsize=8)
            ax.set_yticks(range(6), [str(t) for t in range(6)], fontsize=9)
            ax.set_title(f"round {round_no}, seat {seat}", fontsize=12)
            ax.set_xlabel(f"{words['held']} / off-suit {words['tops']}", fontsize=10)
            ax.set_ylabel("trumps", fontsize=10)
    fig.legend([Patch(color=_COLOURS[a]) for a in ACTIONS], ["pass", "call with partner",
                                                             "call alone"],
               loc="outside lower center", ncol=3, fontsize=11,
               title="\n".join(legend_lines(info)), title_fontsize=10)
    fig.suptitle(_title(info))
    return fig


def write_figure(cells: pd.DataFrame, info: dict, path: str, kind: str) -> None:
    """The chart as a PNG or SVG figure (matplotlib)."""
    from .plot import save_figure

    save_figure(chart_figure(cells, info), path, _title(info), kind)


CHART_KINDS = ("png", "svg", "html")


def chart_cells(run: str, score: tuple[int, int] | None = None,
                odds_dir: str | None = None) -> tuple[pd.DataFrame, dict]:
    """(the cells decided, the facts the chart names) of a finished `simulate --bidding` run
    or the shipped atlas (`chart_source`), at `score` if given."""
    from ..core.rules import rules_from_dict

    pooled, info, odds = chart_source(run, odds_dir, with_odds=score is not None)
    rules = rules_from_dict(info["rules"])
    if score is not None and not all(0 <= x < rules.target for x in score):
        raise UserError(f"--score must be two scores below the target {rules.target}, got "
                        f"{score[0]}-{score[1]}")
    cells = decide(pooled, rules.max_hand_points, score, odds)
    return cells, info | ({"score": score} if score else {})


def draw_chart(run: str, path: str, score: tuple[int, int] | None = None,
               odds_dir: str | None = None) -> pd.DataFrame:
    """Write the chart of a finished `simulate --bidding` run (or of the shipped atlas:
    `chart_source`) to `path` (PNG, SVG or HTML by its suffix), at `score` if given; returns
    the cells drawn."""
    kind = os.path.splitext(path)[1].lower().lstrip(".")
    if kind not in CHART_KINDS:
        raise UserError(f"chart writes {', '.join(CHART_KINDS)} files (by the suffix), "
                        f"got {path!r}")
    cells, facts = chart_cells(run, score, odds_dir)
    if kind == "html":
        write_html(cells, facts, path)
    else:
        write_figure(cells, facts, path, kind)
    return cells
