"""The progress bar of long commands (simulate, tournament), on standard error."""

from __future__ import annotations


def progress_bar(title: str, unit: str, total: int, done: int, enabled: bool):
    """(rich Progress, its task): `title` (the task's description), a bar, done of total,
    `unit`/s, elapsed, left."""
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

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
                        TimeElapsedColumn(), TimeRemainingColumn(),
                        console=Console(stderr=True), disable=not enabled, transient=False)
    return progress, progress.add_task(title, total=total, completed=done)


def warn(line: str) -> None:
    """A note on standard error that does not stop the command (e.g. a chunk computed again)."""
    import click

    click.echo(f"euchre-sim: {line}", err=True)


def run_chunks(title: str, unit: str, total: int, pending, out_dir: str, show: bool,
               run, warm_up=None) -> float:
    """run(advance) under a progress bar of `total` units (pending(): those not yet saved),
    after warm_up() (the kernels compiled once, here, before any worker starts: the line says
    so while Numba compiles). Returns the seconds run took, the compile left out. Ctrl-C says
    what is saved in out_dir and exits 130 (a --resume finishes the run): the workers are
    stopped at once (`runs.parallel.worker_pool`), and later Ctrl-C are ignored
    (`app.one_interrupt`)."""
    import sys
    import time

    import click

    from ..core.jit import on_first_compile

    bar = show and sys.stderr.isatty()
    progress, task = progress_bar(title, unit, total, total - pending(), bar)
    try:
        with progress:
            if warm_up is not None and pending():
                progress.stop_task(task)  # neither elapsed time nor a rate while compiling

                def compiling() -> None:
                    progress.update(task, description="compiling (first run only)")
                    if show and not bar:
                        click.echo(f"euchre-sim: {title}: compiling the kernels (first run "
                                   "only; later runs load them from Numba's cache)", err=True)

                with on_first_compile(compiling):
                    warm_up()
                progress.reset(task, completed=total - pending(), description=title)
            started = time.perf_counter()
            run(lambda n: progress.advance(task, n))
            return time.perf_counter() - started
    except KeyboardInterrupt:
        click.echo(f"interrupted: {total - pending():,} of {total:,} {unit} are saved in "
                   f"{out_dir}; run the same command with --resume to finish", err=True)
        sys.exit(130)
