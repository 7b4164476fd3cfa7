"""`chart`: when to order up, call, go alone or pass, as a matplotlib Figure."""

from __future__ import annotations

import os

from .runs import Run


def chart(source: str | os.PathLike | Run = "atlas", *, score: str | tuple[int, int] | None = None,
          odds: str | os.PathLike | None = None):
    """The chart `euchre-sim chart` draws: for each round and seat, by the trumps held against
    the bowers and off-suit aces, the action best on average and its gain over passing.

    Parameters
    ----------
    source : str, PathLike or Run
        "atlas" (the shipped realistic atlas, standard rules), "atlas:PRESET", or a finished
        ``simulate --bidding`` run.
    score : str or (int, int), optional
        "US-THEM": gains in chances of winning the game at that score.
    odds : str or PathLike, optional
        With `score`: a folder with odds.parquet (default: the source's own).

    Returns
    -------
    matplotlib.figure.Figure
        Needs matplotlib (``pip install 'euchre-sim[plot]'``); ``fig.savefig("chart.png")``.

    Examples
    --------
    >>> import euchre_sim
    >>> fig = euchre_sim.chart("atlas")
    >>> len(fig.axes)
    8
    """
    from ..advice.question import parse_score
    from ..core.errors import UserError
    from ..report.chart import chart_cells, chart_figure

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UserError("chart needs matplotlib: pip install 'euchre-sim[plot]'") from None
    where = source.path if isinstance(source, Run) else os.fspath(source)
    at = parse_score(score) if isinstance(score, str) else score
    cells, facts = chart_cells(where, at, None if odds is None else os.fspath(odds))
    return chart_figure(cells, facts)
