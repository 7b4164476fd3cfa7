"""The progress bar of long commands (simulate, tournament), on standard error."""

from __future__ import annotations


def progress_bar(title: str, unit: str, total: int, done: int, enabled: bool):
    """(rich Progress, its task): `title`, a bar, done of total, `unit`/s, elapsed, left."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class Rate(TextColumn):
        def __init__(self):
            super().__init__("")

        def render(self, task):
            speed = task.finished_speed or task.speed
            return f"{speed:,.0f} {unit}/s" if speed else f"- {unit}/s"

    progress = Progress(TextColumn(title), BarColumn(), MofNCompleteColumn(), Rate(),
                        TimeElapsedColumn(), TimeRemainingColumn(),
                        console=Console(stderr=True), disable=not enabled, transient=False)
    return progress, progress.add_task(unit, total=total, completed=done)


def warn(line: str) -> None:
    """A note on standard error that does not stop the command (e.g. a chunk computed again)."""
    import click

    click.echo(f"euchre-sim: {line}", err=True)


def run_chunks(title: str, unit: str, total: int, pending, out_dir: str, show: bool,
               run) -> None:
    """run(advance) under a progress bar of `total` units (pending(): those not yet saved);
    Ctrl-C says what is saved in out_dir and exits 130 (a --resume finishes the run)."""
    import sys

    import click

    progress, task = progress_bar(title, unit, total, total - pending(),
                                  show and sys.stderr.isatty())
    try:
        with progress:
            run(lambda n: progress.advance(task, n))
    except KeyboardInterrupt:
        click.echo(f"interrupted: {total - pending():,} of {total:,} {unit} are saved in "
                   f"{out_dir}; run the same command with --resume to finish", err=True)
        sys.exit(130)
