"""`odds`: the chance of winning the game from every score, for either side dealing next."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.errors import UserError
from .options import checked_options
from .runs import Run, RunProgress, simulate

if TYPE_CHECKING:
    import pandas as pd

    from ..core.rules import RuleSet

ODDS_OPTIONS = ("set", "chunk_size", "play", "worlds", "bidding", "bidder_params",
                "bidder_table", "resume")


def odds(run: str | os.PathLike | Run | None = None, *, out: str | os.PathLike | None = None,
         deals: int = 100_000, seed: int = 0, rules: str | RuleSet = "standard",
         workers: int | None = None, progress: Callable[[RunProgress], None] | None = None,
         **options) -> pd.DataFrame:
    """The chance of winning the game from every score, as `euchre-sim odds` solves it: by
    dynamic programming over one hand's results, taken from a finished ``simulate
    --bidding`` run, or from `deals` deals simulated with the auction into `out`.

    Parameters
    ----------
    run : str, PathLike or Run, optional
        A finished run with an auction table. Without it, `deals` are simulated into `out`
        (bid by ``bidding``, the rules bidder by default) and read.
    out : str or PathLike, optional
        Where the simulation goes (needed without `run`); odds.parquet is written there.
    deals, seed, rules, workers, progress
        The simulation's, as `simulate` takes them, and its ``**options`` (``set``,
        ``play``, ``bidding``, ``resume``, ...).

    Returns
    -------
    pandas.DataFrame
        us, them, we_deal, p_win, p_win_se: a row per score and side dealing next
        (odds.parquet's); ``attrs["run"]`` holds the run's facts (its run.json).

    Examples
    --------
    >>> import euchre_sim, tempfile
    >>> table = euchre_sim.odds(out=tempfile.mkdtemp() + "/odds", deals=4000, seed=1)
    >>> len(table), table.attrs["run"]["bidding"]
    (240, 'rules')
    >>> table.query("us == 0 and them == 0")["p_win"].between(0.4, 0.6).all()
    np.True_
    """
    from ..core.output import writable_folder, written
    from ..report.query import run_odds

    if run is None:
        if out is None:
            raise UserError("odds needs a finished run, or out= to simulate one into")
        given = checked_options(options, ODDS_OPTIONS, "odds")
        given["bidding"] = given.get("bidding", "rules")  # the hands bid, by some bidder
        run = simulate(deals, out=out, seed=seed, rules=rules, workers=workers,
                       progress=progress, **given)
    elif options:
        raise UserError(f"odds of a finished run takes no {sorted(options)[0]!r}")
    elif out is not None:
        writable_folder(os.fspath(out))
    path = run.path if isinstance(run, Run) else os.fspath(run)
    info, table = run_odds(path)
    if out is not None:
        with written(os.path.join(os.fspath(out), "odds.parquet"), binary=True) as handle:
            table.to_parquet(handle, index=False)
    table.attrs["run"] = info
    return table
