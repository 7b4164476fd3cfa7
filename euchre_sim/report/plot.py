"""Figures of a run: make rate and mean points (trumps x off-suit aces, a panel per seat);
with --bidding, the gain of calling over passing and how often the bidder calls; the
odds of winning the game by score (odds.parquet); a tournament's players by side."""

from __future__ import annotations

import os

import numpy as np

from ..core.errors import UserError
from ..core.output import written
from ..core.stats import Z95
from ..play.models import DEFAULT_PLAY, describe_model
from .query import load_run, load_table, rollup

FIGURE_KINDS = ("png", "svg", "pdf")  # what a figure is written as, by the path's suffix


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path: str, title: str, kind: str | None = None) -> None:
    """Write the figure whole (`core.output.written`) with its title (also the PNG's Title
    text), as `kind` or the path's suffix names (FIGURE_KINDS; none: PNG); one line when it
    cannot be written or the suffix names another kind of file."""
    import matplotlib.pyplot as plt

    fig.suptitle(title)
    kind = kind or os.path.splitext(path)[1].lower().lstrip(".") or "png"
    if kind not in FIGURE_KINDS:
        plt.close(fig)
        raise UserError(f"a figure is written as {', '.join(FIGURE_KINDS)} (by the file's "
                        f"suffix), got {path!r}")
    try:
        with written(path, binary=True) as handle:
            fig.savefig(handle, format=kind, dpi=90, metadata={"Title": title})
    finally:
        plt.close(fig)


def _panel(ax, grid: np.ndarray, cmap: str, norm, text: str, title: str, xlabel: str,
           ylabel: str):
    """One heatmap with its values written in (NaN cells left empty)."""
    image = ax.imshow(grid, origin="lower", cmap=cmap, norm=norm, aspect="auto")
    for (y, x), value in np.ndenumerate(grid):
        if not np.isnan(value):
            ax.text(x, y, format(value, text), ha="center", va="center", fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xticks(range(grid.shape[1]))
    ax.set_yticks(range(grid.shape[0]))
    return image


def plot_heatmaps(out_dir: str, path: str, round_no: int = 1) -> None:
    """Make rate and mean points by trumps and off-suit aces; the title names the run's play
    model."""
    plt = pyplot()

    data = rollup(load_table(out_dir, "summary"), ["round", "seat", "alone", "trumps", "aces"])
    info = load_run(out_dir)
    data = data[data["round"] == round_no]
    from matplotlib.colors import Normalize, TwoSlopeNorm

    metrics = (("make_rate", "make rate", "RdYlGn", Normalize(0.0, 1.0)),
               ("mean_points", "mean points", "RdBu", TwoSlopeNorm(0.0, -2.0, 4.0)))
    fig, axes = plt.subplots(4, 4, figsize=(16, 14), constrained_layout=True)
    max_trumps = int(data["trumps"].max()) if len(data) else 5
    max_aces = int(data["aces"].max()) if len(data) else 3
    for row, (metric, label, cmap, norm) in enumerate(m for m in metrics for _ in (0, 1)):
        alone = row % 2 == 1
        for seat in range(1, 5):
            ax = axes[row, seat - 1]
            part = data[(data["seat"] == seat) & (data["alone"] == alone)]
            grid = _grid(part, metric, max_trumps, max_aces)
            image = _panel(ax, grid, cmap, norm, ".0%" if metric == "make_rate" else "+.2f",
                           f"seat {seat}, {'alone' if alone else 'with partner'}: {label}",
                           "off-suit aces", "trumps")
        fig.colorbar(image, ax=axes[row, :], shrink=0.8, label=label)
    call = "order up the upcard" if round_no == 1 else "name another suit"
    model = describe_model(info.get("play", DEFAULT_PLAY), info.get("worlds"))
    save_figure(fig, path,
                f"Round {round_no} ({call}), {model} — seat 1 = dealer's left, 4 = dealer")


def _grid(rows, column: str, max_trumps: int, max_aces: int) -> np.ndarray:
    """trumps x aces grid of `column` from rows with trumps and aces (NaN where none)."""
    grid = np.full((max_trumps + 1, max_aces + 1), np.nan)
    for _, r in rows.iterrows():
        grid[int(r["trumps"]), int(r["aces"])] = r[column]
    return grid


def plot_decisions(out_dir: str, path: str, round_no: int = 1) -> None:
    """A --bidding run's decisions by trumps and off-suit aces (read against the upcard or the
    turned-down card), per seat: the gain over passing of the best call (classes pooled
    n-weighted, the call best on average), and how often the bidder calls."""
    plt = pyplot()
    from matplotlib.colors import Normalize, TwoSlopeNorm

    info = load_run(out_dir)
    frame = load_table(out_dir, "decisions")
    frame = frame[frame["round"] == round_no].assign(
        suit=lambda f: f["suit"].fillna("-"), gains=lambda f: f["gain"].fillna(0) * f["n"],
        passes=lambda f: f["chosen_rate"] * f["n"])
    keys = ["seat", "trumps", "aces"]
    calls = frame[frame["action"] != "pass"].groupby(keys + ["suit", "alone"])[
        ["n", "gains"]].sum().reset_index()
    calls["gain"] = calls["gains"] / calls["n"]
    best = calls.groupby(keys)["gain"].max().reset_index()
    passing = frame[frame["action"] == "pass"].groupby(keys)[["n", "passes"]].sum()
    passing["calls"] = 1 - passing["passes"] / passing["n"]
    passing = passing.reset_index()
    max_trumps = int(frame["trumps"].max()) if len(frame) else 5
    max_aces = int(frame["aces"].max()) if len(frame) else 3
    fig, axes = plt.subplots(2, 4, figsize=(16, 8), constrained_layout=True, squeeze=False)
    for row, (data, column, label, cmap, norm, text) in enumerate((
            (best, "gain", "best call's gain over passing", "RdBu",
             TwoSlopeNorm(0.0, -2.0, 2.0), "+.2f"),
            (passing, "calls", "the bidder calls", "RdYlGn", Normalize(0.0, 1.0), ".0%"))):
        for seat in range(1, 5):
            grid = _grid(data[data["seat"] == seat], column, max_trumps, max_aces)
            image = _panel(axes[row, seat - 1], grid, cmap, norm, text,
                           f"seat {seat}: {label}", "off-suit aces", "trumps")
        fig.colorbar(image, ax=axes[row, :], shrink=0.8, label=label)
    model = describe_model(info.get("play", DEFAULT_PLAY), info.get("worlds"))
    save_figure(fig, path, f"Round {round_no} decisions, bidding {info.get('bidding')}, {model}")


def plot_odds(out_dir: str, path: str) -> None:
    """The odds of winning the game by score (odds.parquet), we deal next and they do."""
    import os

    from ..game.odds import odds_frame

    plt = pyplot()
    from matplotlib.colors import Normalize

    odds_path = os.path.join(out_dir, "odds.parquet")
    if not os.path.isfile(odds_path):
        raise UserError(f"no odds.parquet in {out_dir!r} (run 'euchre-sim odds' first)")
    odds = odds_frame(odds_path)
    target = int(odds["us"].max())
    fig, axes = plt.subplots(1, 2, figsize=(13, 6), constrained_layout=True)
    for ax, we_deal in zip(axes, (True, False), strict=True):
        part = odds[(odds["we_deal"] == we_deal) & (odds["us"] < target)
                    & (odds["them"] < target)]
        grid = np.full((target, target), np.nan)
        grid[part["us"].to_numpy(), part["them"].to_numpy()] = part["p_win"].to_numpy()
        image = _panel(ax, grid, "RdYlGn", Normalize(0.0, 1.0), ".0%",
                       f"{'we' if we_deal else 'they'} deal next", "their score", "our score")
    fig.colorbar(image, ax=axes, shrink=0.8, label="chance of winning the game")
    save_figure(fig, path, f"Winning the game to {target} from each score")


def plot_tournament(out_dir: str, path: str) -> None:
    """A tournament's players by the side they held (NS, EW, both): points scored per hand and
    the share of games won, each with its 95 % interval (report.tournament's players table)."""
    from .tournament import describe, load_tournament_table

    plt = pyplot()
    info = load_run(out_dir)
    players = load_tournament_table(out_dir, "players", info)
    sides = [side for side in ("NS", "EW", "both") if side in set(players["side"])]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    width = 0.38
    for ax, (column, label) in zip(axes, (("points_per_hand", "points scored per hand"),
                                          ("win_rate", "games won")), strict=True):
        for k, player in enumerate(("A", "B")):
            rows = players[players["player"] == player].set_index("side").reindex(sides)
            x = np.arange(len(sides)) + (k - 0.5) * width
            half = Z95 * rows[f"{column}_se"].fillna(0).to_numpy()
            bars = ax.bar(x, rows[column].to_numpy(), width, yerr=half, capsize=4,
                          label=f"{player}: {info['players_described'][player]}")
            text = ".0%" if column == "win_rate" else ".2f"
            ax.bar_label(bars, [format(v, text) if v == v else "" for v in rows[column]],
                         padding=2, fontsize=8)
        ax.set_xticks(range(len(sides)), [f"{s} seats" if s != "both" else "both" for s in sides])
        ax.set_title(f"{label} (95% intervals)", fontsize=10)
        if column == "win_rate":
            ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
            ax.set_ylim(0, 1.1)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=9)
    save_figure(fig, path, f"Tournament: {describe(info)}")


PLOTS = ("summary", "decisions", "odds", "players")  # what `plot_run` draws, by its table


def plot_run(out_dir: str, path: str, table: str | None = None, round_no: int = 1) -> None:
    """A finished run's figure by the table it draws: summary heatmaps, decisions, or odds of
    a simulation (default summary); a tournament's players (its only plot)."""
    from .tables import check_table, run_kind

    kind = run_kind(load_run(out_dir)) if table != "odds" else "simulation"
    if kind == "tournament":
        check_table(out_dir, kind, table or "players")
        if table not in (None, "players"):
            raise UserError(f"a tournament's plot is its players table (not {table})")
        plot_tournament(out_dir, path)
        return
    table = table or "summary"
    if table not in PLOTS[:3]:
        raise UserError(f"unknown plot {table!r} for a simulation (plots: summary, decisions, "
                        "odds)")
    if table == "odds":
        plot_odds(out_dir, path)
    elif table == "decisions":
        plot_decisions(out_dir, path, round_no)
    else:
        plot_heatmaps(out_dir, path, round_no)
