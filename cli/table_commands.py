"""Reading simulation results: `table`, `compare`, `export` and `plot`."""

from __future__ import annotations

import sys

import click

from euchre_sim.core.errors import UserError
from euchre_sim.sim.schema import OUTPUT_TABLES

from .app import cli


def _dir_argument(command):
    return click.argument("out_dir", metavar="DIR", type=click.Path(file_okay=False))(command)


@cli.command()
@_dir_argument
@click.option("--table", "name", default="calls", show_default=True,
              type=click.Choice(OUTPUT_TABLES),
              help="decisions and auction exist for runs with --bidding.")
@click.option("--round", "round_no", type=click.IntRange(1, 2), help="Only round 1 or 2.")
@click.option("--seat", type=click.IntRange(1, 4), help="Only this seat (1 = dealer's left).")
@click.option("--trumps", type=click.IntRange(0, 6), help="Only hands with this many trumps.")
@click.option("--alone/--partner", "alone", default=None, help="Only lone or partner calls.")
@click.option("--hand", help="Only hand classes whose text contains this, e.g. 'T=RL'.")
@click.option("--action", type=click.Choice(["pass", "order_up", "call"]),
              help="decisions: only this action.")
@click.option("--min-n", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--sort", default="n", show_default=True, help="Column to sort by (descending).")
@click.option("--ascending", is_flag=True, help="Sort ascending.")
@click.option("--limit", type=click.IntRange(min=1), default=30, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines.")
def table(out_dir: str, name: str, round_no, seat, trumps, alone, hand, action, min_n: int,
          sort: str, ascending: bool, limit: int, as_json: bool) -> None:
    """Filter and sort a simulation's table; print it as a terminal table or JSON lines.

    Example: euchre-sim table out/ --round 1 --seat 1 --hand "T=RL" --sort make_rate
    """
    from rich.console import Console
    from rich.table import Table

    from euchre_sim.report.query import RowFilter, filter_table, load_table

    rows = RowFilter(round_no, seat, trumps, alone, action, hand, min_n, sort, not ascending)
    frame = filter_table(load_table(out_dir, name), rows).head(limit)
    if as_json:
        frame = frame.drop(columns=["hand_key"], errors="ignore")
        for line in frame.to_json(orient="records", lines=True).splitlines():
            click.echo(line)
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


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


@cli.command()
@click.argument("dir_a", metavar="DIR_A", type=click.Path(file_okay=False))
@click.argument("dir_b", metavar="DIR_B", type=click.Path(file_okay=False))
@click.option("--table", "name", default="calls", show_default=True,
              type=click.Choice(OUTPUT_TABLES))
@click.option("--min-n", type=click.IntRange(min=1), default=30, show_default=True,
              help="Only classes with at least this many calls in both runs.")
@click.option("--by", default="points", show_default=True,
              type=click.Choice(["points", "make_rate", "chosen_rate", "z"]),
              help="Sort by the absolute difference of mean points, make rate or the bidder's "
                   "chosen rate (decisions), or by |z|.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON lines: the overall object (kind 'overall'), then one per row.")
def compare(dir_a: str, dir_b: str, name: str, min_n: int, by: str, limit: int,
            as_json: bool) -> None:
    """Compare two finished runs class by class: make rate and mean points, B - A, and z.

    Example: euchre-sim compare dd/ rules/ --by z
    """
    import json

    from rich.console import Console
    from rich.table import Table

    from euchre_sim.report.compare import compare_runs, describe

    head, rows, notes = compare_runs(dir_a, dir_b, name, min_n, by)
    for note in notes:
        click.echo(f"euchre-sim: note: {note}", err=True)
    frame = rows.head(limit).drop(columns=["hand_key"], errors="ignore")
    if as_json:
        click.echo(json.dumps({"kind": "overall", "table": name, "min_n": min_n, "by": by}
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


def _signed(value) -> str:
    if value is None or value != value:  # NaN: no standard error
        return "-"
    return f"{value:+.3f}"


@cli.command()
@_dir_argument
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), required=True)
@click.option("--table", "name", default="calls", show_default=True,
              type=click.Choice(OUTPUT_TABLES))
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: standard output).")
def export(out_dir: str, fmt: str, name: str, out_path: str | None) -> None:
    """Export a simulation table as CSV or JSON lines.

    Example: euchre-sim export out/ --format csv --out calls.csv
    """
    from euchre_sim.report.query import load_table

    frame = load_table(out_dir, name)
    target = out_path or sys.stdout
    try:
        if fmt == "csv":
            frame.to_csv(target, index=False)
        else:
            frame.to_json(target, orient="records", lines=True)
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    except OSError as err:
        raise UserError(f"cannot write {out_path!r}: {err.strerror}") from None


@cli.command()
@_dir_argument
@click.option("--out", "out_path", type=click.Path(dir_okay=False), required=True,
              help="PNG file to write.")
@click.option("--round", "round_no", type=click.IntRange(1, 2), default=1, show_default=True)
@click.option("--table", "name", default="summary", show_default=True,
              type=click.Choice(["summary", "decisions", "odds"]),
              help="summary: make rate and points; decisions (--bidding runs): the best "
                   "call's gain and how often the bidder calls; odds: P(win) by score.")
def plot(out_dir: str, out_path: str, round_no: int, name: str) -> None:
    """Heatmaps by trumps and off-suit aces per seat, or the odds of winning by score.

    Example: euchre-sim plot out/ --out heatmap.png
    """
    from euchre_sim.report.plot import plot_run

    try:
        plot_run(out_dir, out_path, name, round_no)
    except ImportError:
        raise UserError("plot needs matplotlib: pip install 'euchre-sim[plot]'") from None
    click.echo(f"wrote {out_path}", err=True)
