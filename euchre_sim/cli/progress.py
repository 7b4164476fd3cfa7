"""The progress bar of long commands (simulate, tournament, review), on standard error."""

from __future__ import annotations

import functools
import sys

import click

# what compiling adds to a command's first run on this project's 2-core machine (measured:
# benchmarks/bench_cold_start.py, docs/performance.md#cold-start; play and review by hand)
COMPILE_SECONDS = {"simulate": 25, "tournament": 30, "odds": 25, "advise": 40, "play": 35,
                   "review": 100, "solve": 15}


def progress_bar(title: str, unit: str, total: int, done: int, enabled: bool,
                 started: bool = True):
    """(rich Progress, its task): `title` (the task's description), a bar, done of total,
    `unit`/s, elapsed, left; a task not `started` counts no time until `start_task`."""
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
    return progress, progress.add_task(title, total=total, completed=done, start=started)


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal: where a person waits, and a bar and the compile
    line are shown (a log or a test's capture gets neither)."""
    return sys.stderr.isatty()


def warn(line: str) -> None:
    """A note on standard error that does not stop the command (e.g. a chunk computed again)."""
    click.echo(f"euchre-sim: {line}", err=True)


class ChunkBar:
    """The bar of a chunked run, fed its stages (`api.runs.RunProgress`'s): "start" (done of
    total), "compiling" (said once, in the bar or, with no terminal, in one line),
    "running" (done), "note" (a line). Its clock starts when the work does, not while Numba
    compiles. Used as a context; Ctrl-C inside says what is saved and exits 130."""

    def __init__(self, title: str, unit: str, out_dir: str, show: bool):
        self.title, self.unit, self.out_dir, self.show = title, unit, out_dir, show
        self.done = self.total = 0
        self.progress = self.task = None

    def __enter__(self) -> ChunkBar:
        return self

    def __call__(self, update) -> None:
        self.done, self.total = update.done, update.total
        if update.stage == "note":
            warn(update.note)
        elif update.stage == "start":
            self._open()
        elif update.stage == "compiling":  # the line itself: `notes_compiling`
            self.progress.update(self.task, description="compiling (first run only)")
        else:  # running: the clock starts once (start_task keeps the first start)
            self.progress.start_task(self.task)
            self.progress.update(self.task, description=self.title, completed=update.done)

    def _open(self) -> None:
        bar = self.show and stderr_is_terminal()
        self.progress, self.task = progress_bar(self.title, self.unit, self.total, self.done,
                                                bar, started=False)
        self.progress.start()

    def __exit__(self, kind, error, trace) -> None:
        if self.progress is not None:
            self.progress.stop()
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            click.echo(f"interrupted: {self.done:,} of {self.total:,} {self.unit} are saved in "
                       f"{self.out_dir}; run the same command with --resume to finish", err=True)
            sys.exit(130)


def notes_compiling(name: str):
    """A command that says, once and only when Numba compiles inside it, that it does and for
    about how long (COMPILE_SECONDS), to a person at a terminal (`stderr_is_terminal`): the
    line is for the wait, and would only differ between a first run and a later one in a
    log."""

    def decorate(command):
        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            from ..api.compiling import on_first_compile

            if not stderr_is_terminal():
                return command(*args, **kwargs)
            line = (f"{name}: compiling the kernels (first run only: about "
                    f"{COMPILE_SECONDS[name]} s on 2 cores; later runs load them from Numba's "
                    "cache)")
            with on_first_compile(lambda: warn(line)):
                return command(*args, **kwargs)

        return wrapper

    return decorate
