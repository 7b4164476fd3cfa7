"""`simulate` and `load_run`: a simulation run as one call, its progress told to a callback,
and a finished run's tables as DataFrames (`Run`)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from ..core.errors import UserError
from .options import checked_options, rules_of, take_player

if TYPE_CHECKING:
    import pandas as pd

    from ..core.rules import RuleSet

SIMULATE_OPTIONS = ("set", "chunk_size", "keep_deals", "play", "worlds", "bidding",
                    "bidder_params", "bidder_table", "tables", "scheduler")


@dataclass(frozen=True)
class RunProgress:
    """What a running simulation tells its `progress` callback. `stage`: "start" (`done` of
    `total` deals already saved), "compiling" (Numba compiles the kernels: a first run only),
    "running" (after each chunk is saved), "note" (`note`: a line worth showing, e.g. a
    damaged chunk computed again)."""

    stage: str
    done: int
    total: int
    note: str = ""


@dataclass(frozen=True)
class Run:
    """A finished run's folder: `info` (its run.json), its tables as DataFrames (`calls`,
    `summary`, or any by `table(name)`), `new_deals`, the deals this call computed (0 for a
    run loaded), and `complete_before`: a resumed run was already complete."""

    path: str
    info: dict
    new_deals: int = 0
    complete_before: bool = False

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables the folder holds (of calls, summary, deals, outcomes, decisions,
        auction, forced)."""
        from ..core.run_tables import OUTPUT_TABLES

        return tuple(name for name in OUTPUT_TABLES
                     if os.path.isfile(os.path.join(self.path, f"{name}.parquet")))

    def table(self, name: str) -> pd.DataFrame:
        """A table of the run, checked against its schema."""
        from ..report.query import load_table

        return load_table(self.path, name)

    @cached_property
    def calls(self) -> pd.DataFrame:
        """A row per (round, seat, alone, hand class): n, make, march, euchred rates and mean
        points with their standard errors (docs: `simulate`'s columns)."""
        return self.table("calls")

    @cached_property
    def summary(self) -> pd.DataFrame:
        """The calls pooled by round, seat, alone, trumps, bowers, aces and voids."""
        return self.table("summary")

    @property
    def deals_per_second(self) -> float:
        """This call's computed deals over the run's elapsed seconds."""
        return self.new_deals / max(float(self.info.get("elapsed_seconds", 0.0)), 1e-9)


def load_run(path: str | os.PathLike) -> Run:
    """A finished run's folder (`simulate`, or `tournament`'s), checked.

    Examples
    --------
    >>> import euchre_sim
    >>> try:
    ...     euchre_sim.load_run("no-such-run")
    ... except euchre_sim.Error as err:
    ...     print(err)
    no run folder 'no-such-run'
    """
    from ..report.query import load_run as read_run

    folder = os.fspath(path)
    return Run(folder, read_run(folder))


def simulate(deals: int, *, out: str | os.PathLike, seed: int = 0,
             rules: str | RuleSet = "standard", workers: int | None = None,
             resume: bool = False, progress: Callable[[RunProgress], None] | None = None,
             **options) -> Run:
    """Deal and solve (or play out) `deals` random deals and write the call tables to Parquet
    in `out`, as `euchre-sim simulate` does; the same seed gives the same tables whatever
    the workers and chunks.

    Parameters
    ----------
    deals : int
        Deals to simulate (at most 10,000,000,000).
    out : str or PathLike
        The run's folder: empty, or with ``resume=True`` an interrupted run of the same
        question (its finished chunks kept).
    seed : int
        Fixes every random choice.
    rules : str or RuleSet
        A preset's name; ``set={"stick_the_dealer": True}`` changes it.
    workers : int, optional
        Worker processes (default and most: all cores).
    progress : callable, optional
        Called with a `RunProgress` as the run starts, compiles, saves each chunk, or has a
        note.
    **options
        ``chunk_size``, ``keep_deals``, ``play``, ``worlds``, ``bidding``,
        ``bidder_params``, ``bidder_table``, ``tables`` (names, or one string separated by
        commas), ``scheduler`` ("tcp://HOST:PORT" or "local": a Dask cluster).

    Returns
    -------
    Run

    Examples
    --------
    >>> import tempfile, euchre_sim
    >>> folder = tempfile.mkdtemp()
    >>> run = euchre_sim.simulate(2000, seed=1, out=folder + "/run")
    >>> run.tables
    ('calls', 'summary')
    >>> part = run.summary.query("round == 1 and seat == 1 and trumps == 3")
    >>> part.groupby("alone")["n"].sum().to_dict()
    {False: 157, True: 157}
    """
    from ..core.output import writable_folder

    given = checked_options(options, SIMULATE_OPTIONS, "simulate")
    ruleset = rules_of(rules, given.pop("set", None))
    scheduler = given.pop("scheduler", None)
    plan = _plan(os.fspath(out), ruleset, deals, seed, given)
    writable_folder(plan.out_dir)  # one line now, not after the work
    return run_plan(plan, workers, resume, progress, scheduler)


def _plan(out: str, rules, deals: int, seed: int, given: dict):
    """The checked plan of a run's options (`sim.simulate.RunPlan`)."""
    from ..sim.simulate import RunPlan

    tables = given.pop("tables", None)
    if isinstance(tables, str):
        tables = tuple(name.strip() for name in tables.split(","))
    player = take_player(rules, given)
    return RunPlan(out, rules, seed, deals, player=player,
                   tables=None if tables is None else tuple(tables), **given)


def usable_workers(asked: int | None) -> int:
    """Processes for a run: all cores unless fewer are asked for, never more."""
    from ..runs.cores import default_workers

    if asked is not None and (isinstance(asked, bool) or not isinstance(asked, int)
                              or asked < 1):
        raise UserError(f"workers must be a whole number of at least 1, got {asked!r:.40}")
    return min(asked or default_workers(), default_workers())


def run_plan(plan, workers: int | None = None, resume: bool = False,
             progress: Callable[[RunProgress], None] | None = None,
             scheduler: str | None = None) -> Run:
    """Run a checked plan (`sim.simulate.RunPlan`): open its folder (or resume it), run its
    pending chunks (`run_chunked`) on `workers` local processes (`usable_workers`) or a Dask
    `scheduler`, merge the tables. A KeyboardInterrupt leaves every finished chunk saved
    (a resume finishes the run)."""
    from ..runs.runner import is_complete
    from ..sim.simulate import finish_run, prepare_run, run_dask, run_local

    tell, workers = progress or _quiet, usable_workers(workers)
    out_dir, total = plan.out_dir, plan.deals
    plan = prepare_run(plan, resume, lambda line: tell(RunProgress("note", 0, total, line)))
    if resume and is_complete(out_dir):
        tell(RunProgress("note", total, total, f"run in {out_dir} is already complete"))
        return Run(out_dir, load_run(out_dir).info, complete_before=True)
    saved = total - plan.pending_count()

    def work(advance: Callable[[int], None]) -> None:
        if scheduler:
            run_dask(plan, scheduler, workers, advance)
        else:
            run_local(plan, workers, advance)

    local = scheduler in (None, "local")  # a remote cluster's workers compile their own
    seconds = run_chunked(plan, work, (lambda: plan.warm_up(workers)) if local else None,
                          tell)
    info = finish_run(plan, seconds, workers,
                      engine=f"dask {scheduler}" if scheduler else "local",
                      warn=lambda line: tell(RunProgress("note", total, total, line)))
    return Run(out_dir, info, total - saved)


def _quiet(update: RunProgress) -> None:
    """A progress callback that shows nothing."""


def run_chunked(plan, work: Callable[[Callable[[int], None]], None],
                warm_up: Callable[[], None] | None,
                progress: Callable[[RunProgress], None]) -> float:
    """A chunked plan's pending work (a simulation's or a tournament's): warm_up() first,
    compiling the kernels once here before any worker starts ("compiling" told only when
    Numba compiles), then work(advance), advance(items) after each chunk saved. Returns the
    seconds the work took, the compile left out."""
    from ..core.jit import on_first_compile

    total = plan.total
    done = [total - plan.pending_count()]
    progress(RunProgress("start", done[0], total))
    if warm_up is not None and done[0] < total:
        with on_first_compile(lambda: progress(RunProgress("compiling", done[0], total))):
            warm_up()
    progress(RunProgress("running", done[0], total))  # the clock starts

    def advance(count: int) -> None:
        done[0] += count
        progress(RunProgress("running", done[0], total))

    started = time.perf_counter()
    work(advance)
    return time.perf_counter() - started
