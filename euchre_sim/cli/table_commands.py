"""Reading finished runs (simulations and tournaments): `table`, `compare`, `export` and
`plot`."""

from __future__ import annotations

import sys

import click

from ..api import Error as UserError
from ..api.output import json_text
from ..api.tables import MAX_ROWS_SHOWN, OUTPUT_TABLES, TOURNAMENT_TABLES
from .app import cli, stopped
from .options import json_option, renamed_option

EVERY_TABLE = (*OUTPUT_TABLES, *TOURNAMENT_TABLES)


def _dir_argument(command):
    return click.argument("out_dir", metavar="DIR", type=click.Path(file_okay=False))(command)


@cli.command()
@_dir_argument
@click.option("--table", "name", default=None, type=click.Choice(EVERY_TABLE),
              help="A simulation's calls (default), summary, decisions or auction (these two "
                   "with --bidding); a tournament's players (default), games or hands.")
@click.option("--round", "round_no", type=click.IntRange(1, 2), help="Only round 1 or 2.")
@click.option("--seat", type=click.IntRange(1, 4), help="Only this seat (1 = dealer's left).")
@click.option("--trumps", type=click.IntRange(0, 6), help="Only hands with this many trumps.")
@click.option("--alone/--partner", "alone", default=None, help="Only lone or partner calls.")
@click.option("--hand", help="Only hand classes whose text contains this, e.g. 'T=RL'.")
@click.option("--action", type=click.Choice(["pass", "order_up", "call"]),
              help="decisions: only this action.")
@click.option("--min-n", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--sort", default=None,
              help="Column to sort by, descending (default: n for a simulation's tables; a "
                   "tournament's stay in their order).")
@click.option("--ascending", is_flag=True, help="Sort ascending.")
@click.option("--limit", type=click.IntRange(min=1, max=MAX_ROWS_SHOWN), default=30,
              show_default=True,
              help=f"Rows shown (at most {MAX_ROWS_SHOWN:,}; export writes all).")
@json_option(rows=True)
def table(out_dir: str, name: str | None, round_no, seat, trumps, alone, hand, action,
          min_n: int, sort: str | None, ascending: bool, limit: int, as_json: bool) -> None:
    """Filter and sort a run's table; print it as a terminal table or JSON lines.

    DIR is a simulate or a tournament folder. A tournament's players table is each player's
    games won and points per hand by the side it held.

    Example: euchre-sim table out/ --round 1 --seat 1 --hand "T=RL" --sort make_rate
    """
    from rich.console import Console
    from rich.table import Table

    from ..api.runs import load_run
    from ..api.tables import RowFilter, run_kind, table_page

    tournament = run_kind(load_run(out_dir).info) == "tournament"
    if sort is None and not tournament:
        sort = "n"
    rows = RowFilter(round_no, seat, trumps, alone, action, hand, min_n, sort, not ascending)
    info, name, frame = table_page(out_dir, name, rows, limit)
    if as_json:
        frame = frame.drop(columns=["hand_key"], errors="ignore")
        for line in frame.to_json(orient="records", lines=True).splitlines():
            click.echo(line)
        return
    if tournament:
        _print_tournament_table(info, name, frame, sort)
        return
    shown = [c for c in frame.columns if c in _HEADERS or c in ("right", "left", "aces", "voids")]
    out = Table(title=f"{name}: {len(frame)} rows (sorted by {sort})")
    for column in shown:
        out.add_column(_HEADERS.get(column, column), no_wrap=True,
                       justify="left" if column == "hand" else "right")
    for _, row in frame.iterrows():
        out.add_row(*[_cell(row[c]) for c in shown])
    Console(width=200).print(out)


_HEADERS = {"round": "rnd", "seat": "seat", "hand": "hand", "action": "action", "suit": "suit",
            "alone": "alone", "trumps": "trumps", "n": "n", "share": "share",
            "chosen_rate": "chosen", "make_rate": "make", "march_rate": "march",
            "euchred_rate": "euchred", "mean_points": "points", "points_se": "±se",
            "gain": "gain", "gain_se": "gain ±se"}


def _print_tournament_table(info: dict, name: str, frame, sort: str | None) -> None:
    """A tournament's table under its players' names; the players table's rates as %."""
    from rich.console import Console
    from rich.table import Table

    from ..api.tournaments import describe_tournament as describe

    order = f"sorted by {sort}" if sort else "in order"
    out = Table(title=f"{name}: {len(frame)} rows ({order}) — {describe(info)}")
    shown = [c for c in frame.columns if c not in _REPEATED]
    for column in shown:
        out.add_column(_TOURNAMENT_HEADERS.get(column, column), no_wrap=True,
                       justify="left" if frame[column].dtype == object else "right")
    for _, row in frame.iterrows():
        out.add_row(*[_percent(row[c]) if c.endswith("rate") or c.endswith("rate_se")
                      else _cell(row[c]) for c in shown])
    Console(width=200).print(out)


# games: who sat where is in ns_player/ew_player (the title names the players)
_REPEATED = ("ns_bidder", "ns_play", "ew_bidder", "ew_play")
_TOURNAMENT_HEADERS = {"win_rate": "won", "win_rate_se": "±se", "points_per_hand": "points",
                       "points_per_hand_se": "±se", "net_per_hand": "net",
                       "net_per_hand_se": "±se", "called_rate": "called",
                       "make_rate": "made"}


def _percent(value) -> str:
    return "-" if value != value else f"{value:.1%}"


def _cell(value) -> str:
    import pandas as pd  # loaded already: the value comes from a table

    if value is None or value is pd.NA:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


@cli.command()
@click.argument("dir_a", metavar="DIR_A", type=click.Path(file_okay=False))
@click.argument("dir_b", metavar="DIR_B", type=click.Path(file_okay=False))
@click.option("--table", "name", default=None, type=click.Choice(EVERY_TABLE),
              help="Simulations: calls (default), summary or decisions. Tournaments: players "
                   "(the only one compared).")
@click.option("--min-n", type=click.IntRange(min=1), default=30, show_default=True,
              help="Only classes with at least this many calls in both runs.")
@click.option("--by", default="points", show_default=True,
              type=click.Choice(["points", "make_rate", "chosen_rate", "z"]),
              help="Sort by the absolute difference of mean points, make rate or the bidder's "
                   "chosen rate (decisions), or by |z|.")
@click.option("--limit", type=click.IntRange(min=1, max=MAX_ROWS_SHOWN), default=20,
              show_default=True, help=f"Rows shown (at most {MAX_ROWS_SHOWN:,}).")
@json_option(rows=True)  # the overall object (kind 'overall') first, then one per row
@click.pass_context
def compare(ctx: click.Context, dir_a: str, dir_b: str, name: str | None, min_n: int, by: str,
            limit: int, as_json: bool) -> None:
    """Compare two finished runs class by class: make rate and mean points, B - A, and z.

    Two tournaments are compared player by player and side by side: win rate, points and net
    points per hand, how often each player makes trump and how often it makes it, 2 - 1.

    Example: euchre-sim compare dd/ rules/ --by z
    """

    from rich.console import Console
    from rich.table import Table

    from ..api.tables import check_table, compare_runs, same_kind
    from ..api.tables import describe_run as describe

    kind, info_a, info_b = same_kind(dir_a, dir_b)
    check_table(dir_a, kind, name or ("players" if kind == "tournament" else "calls"))
    if kind == "tournament":
        given = [f"--{p.replace('_', '-')}" for p in ("min_n", "by")
                 if ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT]
        given += [f"--table {name}"] if name not in (None, "players") else []
        if given:
            raise UserError(f"{' and '.join(given)}: tournaments are compared by their players "
                            "tables only (--min-n and --by are for a simulation's classes)")
        _compare_tournaments(dir_a, info_a, dir_b, info_b, limit, as_json)
        return
    name = name or "calls"
    head, rows, notes = compare_runs(dir_a, dir_b, name, min_n, by)
    for note in notes:
        click.echo(f"euchre-sim: note: {note}", err=True)
    frame = rows.head(limit).drop(columns=["hand_key"], errors="ignore")
    if as_json:
        click.echo(json_text({"kind": "overall", "table": name, "min_n": min_n, "by": by}
                              | head))
        frame = frame.drop(columns=["points_se_a", "points_se_b"]).assign(kind="row")
        frame = frame[["kind"] + list(frame.columns[:-1])]
        if len(frame):  # an empty frame writes an empty line
            for line in frame.to_json(orient="records", lines=True).splitlines():
                click.echo(line)
        return
    a, b = head["a"], head["b"]
    click.echo(f"A: {dir_a} ({describe(a)})   B: {dir_b} ({describe(b)})")
    click.echo(f"all calls pooled: A n={a['n']} make {_cell(a['make_rate'])} points "
               f"{_signed(a['mean_points'])} | B n={b['n']} make {_cell(b['make_rate'])} points "
               f"{_signed(b['mean_points'])} | B - A: make {_signed(head['make_rate_diff'])} "
               f"points {_signed(head['mean_points_diff'])}")
    columns = {"n_a": "n A", "n_b": "n B"}
    for field, word in (("make_rate", "make"), ("chosen_rate", "chosen"),
                        ("mean_points", "points")):
        if f"{field}_a" in frame:
            columns |= {f"{field}_a": f"{word} A", f"{field}_b": f"{word} B",
                        f"{field}_diff": f"Δ{word}"}
    columns["z"] = "z"
    labels = [c for c in frame.columns if c not in columns and not c.startswith("points_se")]
    out = Table(title=f"{name}: top {len(frame)} of {head['joined']} classes with n >= {min_n} "
                      f"in both (sorted by |{'z' if by == 'z' else 'Δ' + by}|)")
    for column in labels + list(columns):
        out.add_column(_HEADERS.get(column, columns.get(column, column)), no_wrap=True,
                       justify="left" if column == "hand" else "right")
    for _, row in frame.iterrows():
        out.add_row(*[_cell(row[c]) for c in labels],
                    *[_signed(row[c]) if c.endswith("diff") or c == "z" else _cell(row[c])
                      for c in columns])
    Console(width=200).print(out)


def _compare_tournaments(dir_1: str, info_1: dict, dir_2: str, info_2: dict, limit: int,
                         as_json: bool) -> None:
    """Two tournaments' players tables side by side: JSON lines, or a terminal table."""

    from rich.console import Console
    from rich.table import Table

    from ..api.tournaments import MEASURES, compare_tournaments
    from ..api.tournaments import describe_tournament as describe

    head, rows, notes = compare_tournaments(dir_1, dir_2)
    for note in notes:
        click.echo(f"euchre-sim: note: {note}", err=True)
    rows = rows.head(limit)
    if as_json:
        click.echo(json_text({"kind": "overall", "table": "players"} | head))
        rows = rows.assign(kind="row")[["kind", *rows.columns]]
        for line in rows.to_json(orient="records", lines=True).splitlines():
            click.echo(line)
        return
    click.echo(f"1: {dir_1} ({describe(info_1)})\n2: {dir_2} ({describe(info_2)})")
    out = Table(title="players: tournament 2 - tournament 1 (z: net points per hand; "
                      "win z: win rate)")
    for column in ("player", "side", "games 1", "games 2"):
        out.add_column(column, no_wrap=True, justify="right")
    for field in MEASURES:
        word = _TOURNAMENT_HEADERS[field]
        for suffix in ("1", "2", "Δ"):
            out.add_column(f"{word} {suffix}" if suffix != "Δ" else f"Δ{word}", no_wrap=True,
                           justify="right")
    out.add_column("z", justify="right")
    out.add_column("win z", justify="right")
    for _, row in rows.iterrows():
        cells = [row["player"], row["side"], str(row["games_1"]), str(row["games_2"])]
        for field in MEASURES:
            show = _percent if field.endswith("rate") else _cell
            cells += [show(row[f"{field}_1"]), show(row[f"{field}_2"]),
                      _signed(row[f"{field}_diff"])]
        out.add_row(*cells, _signed(row["z"]), _signed(row["win_z"]))
    Console(width=220).print(out)


def _signed(value) -> str:
    if value is None or value != value:  # NaN: no standard error
        return "-"
    return f"{value:+.3f}"


@cli.command()
@_dir_argument
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), required=True)
@click.option("--table", "name", default=None, type=click.Choice(EVERY_TABLE),
              help="A simulation's calls (default), summary, decisions or auction; a "
                   "tournament's games (default), hands or players.")
@renamed_option("--output", "--out", "out_path", type=click.Path(dir_okay=False, allow_dash=True),
                default=None, metavar="FILE",
                help="File to write ('-' or none: standard output). Interrupted, the rows "
                     "written are kept in FILE's .partial name.")
def export(out_dir: str, fmt: str, name: str | None, out_path: str | None) -> None:
    """Export a simulation's or a tournament's table as CSV or JSON lines.

    Example: euchre-sim export out/ --format csv --output calls.csv
    """
    from ..api.tables import export_parts, export_rows, written_records

    rows, parts = export_parts(out_dir, name)  # read a row group at a time as it is written
    if out_path in (None, "-"):
        export_rows(parts, fmt, sys.stdout.write)
        return
    out = None
    try:
        with written_records(out_path) as out:
            export_rows(parts, fmt, out.write, out.mark)
    except KeyboardInterrupt:
        if out is not None and out.kept:
            stopped(f"interrupted: {out.records:,} of {rows:,} rows are kept in "
                    f"{out.kept} (not {out_path}: the export did not finish)")
        stopped(f"interrupted: no row was written; nothing is written to {out_path}")


@cli.command()
@click.argument("out_dir", metavar="RUN")
@click.option("--output", "out_path", type=click.Path(dir_okay=False), required=True,
              metavar="FILE", help="The chart to write: PNG, SVG or HTML by the suffix.")
@click.option("--score", default=None, metavar="US-THEM",
              help="Chart at this score (gains in chances of winning the game), e.g. 8-9.")
@click.option("--odds", "odds_dir", type=click.Path(file_okay=False), default=None,
              help="With --score: a folder with odds.parquet (euchre-sim odds); default: "
                   "the run's own (its auction table, or the atlas's).")
def chart(out_dir: str, out_path: str, score: str | None, odds_dir: str | None) -> None:
    """A strategy chart from a finished simulate --bidding run (or 'atlas', 'atlas:PRESET':
    the shipped realistic atlas): for each round and seat, which hands order up, call, go
    alone or pass (by trumps, bowers and off-suit aces), with the gain over passing; one
    printable page.

    Example: euchre-sim chart atlas --output chart.html
    """
    from ..api.charts import write_chart

    try:
        cells = write_chart(out_dir, out_path, score=score, odds=odds_dir)
    except ImportError:
        raise UserError("chart needs matplotlib for PNG and SVG: pip install "
                        "'euchre-sim[plot]' (HTML needs nothing)") from None
    click.echo(f"wrote {out_path} ({len(cells)} cells)", err=True)


@cli.command()
@_dir_argument
@renamed_option("--output", "--out", "out_path", type=click.Path(dir_okay=False),
                required=True, default=None, metavar="FILE", help="PNG file to write.")
@click.option("--round", "round_no", type=click.IntRange(1, 2), default=1, show_default=True)
@click.option("--table", "name", default=None,
              type=click.Choice(["summary", "decisions", "odds", "players"]),
              help="A simulation's summary (default): make rate and points; decisions "
                   "(--bidding runs): the best call's gain and how often the bidder calls; "
                   "odds: P(win) by score. A tournament's players (its only plot).")
def plot(out_dir: str, out_path: str, round_no: int, name: str | None) -> None:
    """Heatmaps by trumps and off-suit aces per seat, the odds of winning by score, or a
    tournament's players: points per hand and games won by side, with 95% intervals.

    Example: euchre-sim plot out/ --output heatmap.png
    """
    from ..api.charts import write_plot

    try:
        write_plot(out_dir, out_path, name, round_no)
    except ImportError:
        raise UserError("plot needs matplotlib: pip install 'euchre-sim[plot]'") from None
    click.echo(f"wrote {out_path}", err=True)
