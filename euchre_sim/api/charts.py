"""`chart`: when to order up, call, go alone or pass, as a matplotlib Figure; `write_chart`
and `write_plot`: a chart or a run's figure written to a file."""

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


def write_chart(source: str | os.PathLike | Run, path: str | os.PathLike, *,
                score: str | tuple[int, int] | None = None,
                odds: str | os.PathLike | None = None):
    """Write the chart (`chart`) to a file, as `euchre-sim chart` does.

    Parameters
    ----------
    source : str, PathLike or Run
        "atlas", "atlas:PRESET", or a finished ``simulate --bidding`` run.
    path : str or PathLike
        The file: PNG, SVG or HTML by its suffix (PNG and SVG need matplotlib: an
        ImportError without it; HTML needs nothing).
    score : str or (int, int), optional
        "US-THEM": gains in chances of winning the game at that score.
    odds : str or PathLike, optional
        With `score`: a folder with odds.parquet (default: the source's own).

    Returns
    -------
    pandas.DataFrame
        The cells drawn, a row a (round, seat, trumps, bowers, aces).

    Examples
    --------
    >>> import tempfile, euchre_sim
    >>> from euchre_sim.api.charts import write_chart
    >>> cells = write_chart("atlas", tempfile.mkdtemp() + "/chart.html")
    >>> sorted(cells["round"].unique().tolist())
    [1, 2]
    """
    from ..advice.question import parse_score
    from ..report.chart import draw_chart

    where = source.path if isinstance(source, Run) else os.fspath(source)
    at = parse_score(score, "score") if isinstance(score, str) or score is None else score
    return draw_chart(where, os.fspath(path), at, None if odds is None else os.fspath(odds))


def write_plot(source: str | os.PathLike | Run, path: str | os.PathLike,
               table: str | None = None, round_no: int = 1) -> None:
    """Write a finished run's figure to a PNG file, as `euchre-sim plot` does: a simulation's
    summary heatmaps (default), its decisions' gains, the odds of winning by score; a
    tournament's players (its only plot). Needs matplotlib (an ImportError without it).

    Parameters
    ----------
    source : str, PathLike or Run
        A simulate or tournament folder.
    path : str or PathLike
        The PNG file to write.
    table : str, optional
        "summary", "decisions", "odds" or "players": the table drawn.
    round_no : int
        The round drawn (1 or 2) for summary and decisions.

    Examples
    --------
    >>> import euchre_sim
    >>> from euchre_sim.api.charts import write_plot
    >>> try:
    ...     write_plot("no-such-run", "plot.png")
    ... except euchre_sim.Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.plot import plot_run

    where = source.path if isinstance(source, Run) else os.fspath(source)
    plot_run(where, os.fspath(path), table, round_no)
