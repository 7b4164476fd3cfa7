"""Heatmaps of make rate and mean points: trumps x off-suit aces, a panel per seat."""

from __future__ import annotations

import numpy as np

from ..core.errors import UserError
from ..play.models import describe_model
from .query import load_run, load_table, rollup


def plot_heatmaps(out_dir: str, path: str, round_no: int = 1) -> None:
    """Write the PNG; its title (also the PNG's Title text) names the run's play model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
            grid = np.full((max_trumps + 1, max_aces + 1), np.nan)
            for _, r in part.iterrows():
                grid[int(r["trumps"]), int(r["aces"])] = r[metric]
            image = ax.imshow(grid, origin="lower", cmap=cmap, norm=norm, aspect="auto")
            for (t, a), value in np.ndenumerate(grid):
                if not np.isnan(value):
                    text = f"{value:.0%}" if metric == "make_rate" else f"{value:+.2f}"
                    ax.text(a, t, text, ha="center", va="center", fontsize=8)
            ax.set_title(f"seat {seat}, {'alone' if alone else 'with partner'}: {label}",
                         fontsize=9)
            ax.set_xlabel("off-suit aces")
            ax.set_ylabel("trumps")
            ax.set_xticks(range(max_aces + 1))
            ax.set_yticks(range(max_trumps + 1))
        fig.colorbar(image, ax=axes[row, :], shrink=0.8, label=label)
    call = "order up the upcard" if round_no == 1 else "name another suit"
    model = describe_model(info.get("play", "dd"), info.get("worlds"))
    title = f"Round {round_no} ({call}), {model} — seat 1 = dealer's left, 4 = dealer"
    fig.suptitle(title)
    try:
        fig.savefig(path, dpi=90, metadata={"Title": title})
    except OSError as err:  # a missing folder, no permission: the user's to fix
        raise UserError(f"cannot write {path!r}: {err.strerror}") from None
    finally:
        plt.close(fig)
