"""A finished run's tables, whichever command wrote the folder (`simulate`: calls, summary,
decisions, auction, forced; `tournament`: players, games, hands): read, filtered and sorted
(`RowFilter`), a page of rows, exported, two runs compared class by class.

`RowFilter`, `OUTPUT_TABLES` and `TOURNAMENT_TABLES` are read on first use (their modules load
numpy and pandas); the functions import what they need when called."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..core.limits import MAX_ROWS_SHOWN
from ..core.output import written_records
from .lazy_names import lazy_names

if TYPE_CHECKING:
    import pandas as pd

    from ..core.run_tables import OUTPUT_TABLES, TOURNAMENT_TABLES
    from ..report.export import TableRows
    from ..report.query import RowFilter

__all__ = ["EXPORT_ROWS", "MAX_ROWS_SHOWN", "OUTPUT_TABLES", "TOURNAMENT_TABLES", "RowFilter",
           "check_table", "compare_runs", "describe_play", "describe_run", "export_parts",
           "export_rows", "export_table", "filter_table", "headline", "read_table", "run_kind",
           "same_kind", "table_page", "table_rows", "written_records"]

EXPORT_ROWS = 20_000  # rows exported at a time: an interrupted export keeps the ones written

# names read from their one definition when first asked for (`__getattr__`)
__getattr__, __dir__ = lazy_names(__name__, {
    "RowFilter": ("..report.query", "RowFilter"),
    "OUTPUT_TABLES": ("..core.run_tables", "OUTPUT_TABLES"),
    "TOURNAMENT_TABLES": ("..core.run_tables", "TOURNAMENT_TABLES")}, __all__)


def run_kind(info: dict) -> str:
    """The command that wrote a run: "simulation" or "tournament".

    Parameters
    ----------
    info : dict
        The run's run.json (`Run.info`).

    Examples
    --------
    >>> from euchre_sim.api.tables import run_kind
    >>> run_kind({"kind": "tournament"}), run_kind({"deals": 100})
    ('tournament', 'simulation')
    """
    from ..report.tables import run_kind as kind_of

    return kind_of(info)


def read_table(path: str, name: str | None = None) -> tuple[dict, str, pd.DataFrame]:
    """A finished run's table, checked against its schema.

    Parameters
    ----------
    path : str
        A simulate or a tournament folder.
    name : str, optional
        The table (default: a simulation's calls, a tournament's players).

    Returns
    -------
    (dict, str, pandas.DataFrame)
        The run.json, the table's name and the table.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import read_table
    >>> try:
    ...     read_table("no-such-run")
    ... except Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.tables import read_table as read

    return read(path, name)


def filter_table(frame: pd.DataFrame, rows: RowFilter | None = None) -> pd.DataFrame:
    """The rows of a table that `rows` keeps, sorted as it asks (all of them, in order, when
    `rows` is None).

    Parameters
    ----------
    frame : pandas.DataFrame
        A run's table (`read_table`).
    rows : RowFilter, optional
        Each filter given must match (`hand`: a part of the class text), at least `min_n`
        deals, sorted by `sort`.

    Examples
    --------
    >>> import pandas as pd
    >>> from euchre_sim.api.tables import RowFilter, filter_table
    >>> frame = pd.DataFrame({"round": [1, 1, 2], "n": [5, 50, 20]})
    >>> filter_table(frame, RowFilter(round=1, sort="n"))["n"].tolist()
    [50, 5]
    """
    from ..report.query import RowFilter
    from ..report.query import filter_table as kept

    return kept(frame, rows if rows is not None else RowFilter())


def table_rows(path: str, name: str, rows: RowFilter, limit: int) -> tuple[pd.DataFrame, int]:
    """A page of a simulation's table: the first `limit` rows that `rows` keeps, and how
    many it keeps, reading only the columns the filter asks about and the row groups shown.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import RowFilter, table_rows
    >>> try:
    ...     table_rows(".", "scores", RowFilter(), 10)
    ... except Error as err:
    ...     print(err)
    unknown table 'scores' (tables: calls, summary, decisions, auction, forced)
    """
    from ..report.query import table_rows as page

    return page(path, name, rows, limit)


def table_page(path: str, name: str | None, rows: RowFilter, limit: int
               ) -> tuple[dict, str, pd.DataFrame]:
    """What `table` prints: the first `limit` rows of a run's table that `rows` keeps, the
    table checked whole a column at a time but only the rows shown read whole.

    Returns
    -------
    (dict, str, pandas.DataFrame)
        The run.json, the table's name (a simulation's calls, a tournament's players when
        `name` is None) and the rows.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import RowFilter, table_page
    >>> try:
    ...     table_page("no-such-run", None, RowFilter(), 10)
    ... except Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.tables import table_page as page

    return page(path, name, rows, limit)


def headline(path: str) -> pd.DataFrame:
    """A simulation's make rate and mean points by round, seat and trumps, with partner and
    alone (its summary table pooled, n-weighted): what `simulate` prints.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import headline
    >>> try:
    ...     headline("no-such-run")
    ... except Error as err:
    ...     print(err)
    no summary.parquet in 'no-such-run' (run 'euchre-sim simulate' first)
    """
    from ..report.query import headline as pooled

    return pooled(path)


def describe_play(info: dict) -> str:
    """The play model a run's tables were played by, in words (from its run.json).

    Examples
    --------
    >>> from euchre_sim.api.tables import describe_play
    >>> describe_play({"play": "dd"})
    'dd: double dummy: every seat sees every hand and plays perfectly'
    """
    from ..play.models import DEFAULT_PLAY, describe_model

    return describe_model(info.get("play", DEFAULT_PLAY), info.get("worlds"))


def check_table(path: str, kind: str, name: str) -> None:
    """An Error when a run of `kind` ("simulation" or "tournament") has no table `name`.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import check_table
    >>> try:
    ...     check_table("t", "tournament", "calls")
    ... except Error as err:
    ...     print(err)
    't' is a tournament: its tables are players, games, hands (not calls)
    """
    from ..report.tables import check_table as check

    check(path, kind, name)


def same_kind(path_a: str, path_b: str) -> tuple[str, dict, dict]:
    """(kind, run.json of each) of two finished runs written by the same command; an Error
    when one is a simulation and the other a tournament.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import same_kind
    >>> try:
    ...     same_kind("no-such-run", "other")
    ... except Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.tables import same_kind as kinds

    return kinds(path_a, path_b)


def describe_run(info: dict) -> str:
    """A simulation for a header line: its play model, seed and deals.

    Examples
    --------
    >>> from euchre_sim.api.tables import describe_run
    >>> describe_run({"play": "dd", "seed": 1, "deals": 200})
    'play dd, seed 1, 200 deals'
    """
    from ..report.compare import describe

    return describe(info)


def compare_runs(path_a: str, path_b: str, name: str = "calls", min_n: int = 30,
                 by: str = "points") -> tuple[dict, pd.DataFrame, list[str]]:
    """Two finished simulations of the same rules compared class by class, as `euchre-sim
    compare` does.

    Parameters
    ----------
    path_a, path_b : str
        The runs' folders.
    name : str
        The table compared: calls, summary or decisions.
    min_n : int
        Only classes with at least this many deals in both.
    by : str
        Sort by the absolute difference of "points", "make_rate" or "chosen_rate", or by "z".

    Returns
    -------
    (dict, pandas.DataFrame, list of str)
        Both runs' facts and pooled figures with the differences B - A; the joined rows
        (each run's figures, B - A, and z); notes (e.g. the runs deal other deals).
    """
    from ..report.compare import compare_runs as joined

    return joined(path_a, path_b, name, min_n, by)


def export_table(path: str, name: str | None = None) -> pd.DataFrame:
    """The table `euchre-sim export` writes: `name`, or by default a simulation's calls and a
    tournament's games.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import export_table
    >>> try:
    ...     export_table("no-such-run")
    ... except Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from .runs import load_run

    if name is None and run_kind(load_run(path).info) == "tournament":
        name = "games"
    return read_table(path, name)[2]


def export_parts(path: str, name: str | None = None) -> TableRows:
    """`export_table`'s table, checked as it checks it, but read a row group at a time:
    ``(rows, parts)``, its row count and its rows as frames of at most EXPORT_ROWS rows (read
    once), for `export_rows`: an export's memory is a column and a batch, not the table.

    Examples
    --------
    >>> from euchre_sim.api import Error
    >>> from euchre_sim.api.tables import export_parts
    >>> try:
    ...     export_parts("no-such-run")
    ... except Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.export import exported_rows

    return exported_rows(path, name, EXPORT_ROWS)


def export_rows(frame: pd.DataFrame | Iterable[pd.DataFrame], fmt: str,
                write: Callable[[str], object],
                mark: Callable[[int], object] | None = None) -> None:
    """Write `frame` (or its parts in order, as `export_parts` gives them) as CSV (a header
    first) or JSON lines ("csv" or "json"), EXPORT_ROWS rows at a time: each part written
    (`write(text)`), then told whole (`mark(rows)`; see `written_records`, which keeps the
    rows told whole of an interrupted file). The bytes are the same whichever way it comes.

    Examples
    --------
    >>> import sys
    >>> import pandas as pd
    >>> from euchre_sim.api.tables import export_rows
    >>> export_rows(pd.DataFrame({"seat": [1, 2], "n": [10, 20]}), "csv", sys.stdout.write)
    seat,n
    1,10
    2,20
    """
    import pandas as pd

    mark = mark or (lambda rows: None)
    written, empty = 0, None
    for whole in [frame] if isinstance(frame, pd.DataFrame) else frame:
        if not len(whole):
            empty = whole
        for start in range(0, len(whole), EXPORT_ROWS):
            part = whole.iloc[start:start + EXPORT_ROWS]
            write(part.to_csv(index=False, header=not written) if fmt == "csv" else
                  part.to_json(orient="records", lines=True))
            written += len(part)
            mark(len(part))
    if not written and empty is not None:  # the header alone (CSV), an empty line (JSON)
        write(empty.to_csv(index=False) if fmt == "csv" else
              empty.to_json(orient="records", lines=True))
