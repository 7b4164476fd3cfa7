"""A finished run's tables by name, whichever command wrote the folder: `simulate` (calls,
summary, decisions, auction) or `tournament` (players, games, hands)."""

from __future__ import annotations

import pandas as pd

from ..core.errors import UserError
from ..core.run_tables import OUTPUT_TABLES, TOURNAMENT_TABLES
from .query import RowFilter, filter_table, load_run, load_table, table_rows

KINDS = {"simulation": OUTPUT_TABLES, "tournament": TOURNAMENT_TABLES}
DEFAULT_TABLE = {"simulation": "calls", "tournament": "players"}


def run_kind(info: dict) -> str:
    """'tournament' or 'simulation': the command that wrote a run.json."""
    return "tournament" if info.get("kind") == "tournament" else "simulation"


def check_table(out_dir: str, kind: str, name: str) -> None:
    """A one-line error when a run of this kind has no table `name`."""
    if name not in KINDS[kind]:
        raise UserError(f"{out_dir!r} is a {kind}: its tables are {', '.join(KINDS[kind])} "
                        f"(not {name})")


def read_table(out_dir: str, name: str | None = None) -> tuple[dict, str, pd.DataFrame]:
    """(run.json, the table's name, the table) of a finished run; name None: the kind's
    first table (a simulation's calls, a tournament's players)."""
    info, kind, name = _named(out_dir, name)
    if kind == "simulation":
        return info, name, load_table(out_dir, name)
    return info, name, _tournament_table(out_dir, name, info)


def table_page(out_dir: str, name: str | None, rows: RowFilter, limit: int
               ) -> tuple[dict, str, pd.DataFrame]:
    """(run.json, the table's name, its first `limit` rows that `rows` keeps): a simulation's
    table checked whole a column at a time and only the rows shown read (`table_rows`); a
    tournament's (a row a game at most) read whole."""
    info, kind, name = _named(out_dir, name)
    if kind == "simulation":
        return info, name, table_rows(out_dir, name, rows, limit)[0]
    return info, name, filter_table(_tournament_table(out_dir, name, info), rows).head(limit)


def _named(out_dir: str, name: str | None) -> tuple[dict, str, str]:
    info = load_run(out_dir)
    kind = run_kind(info)
    name = name or DEFAULT_TABLE[kind]
    check_table(out_dir, kind, name)
    return info, kind, name


def _tournament_table(out_dir: str, name: str, info: dict) -> pd.DataFrame:
    from .tournament import load_tournament_table

    return load_tournament_table(out_dir, name, info)


def same_kind(dir_a: str, dir_b: str) -> tuple[str, dict, dict]:
    """(kind, run.json of each) of two finished runs written by the same command."""
    info_a, info_b = load_run(dir_a), load_run(dir_b)
    kind_a, kind_b = run_kind(info_a), run_kind(info_b)
    if kind_a != kind_b:
        raise UserError(f"cannot compare a {kind_a} ({dir_a!r}) with a {kind_b} ({dir_b!r})")
    return kind_a, info_a, info_b
