"""One warm worker thread that runs queries one at a time from a queue, with progress and
cancellation: a second query waits instead of competing for the cores; and the warm-up, in a
thread of its own, its steps one after another, saying what it prepares and how long it has
left (`Worker.warm_up_state`).

The kernels release the GIL (`nogil`), so the server keeps answering while a query runs. A
query is a function of a progress callback; the callback raises `Cancelled` once the job is
cancelled, so cancelling takes effect between two batches of deals. A query submitted
`before_ready` (practice) runs while the warm-up does, its kernels loaded or compiled as it
calls them (Numba compiles one function at a time, whoever asks), and the warm-up's next step
waits for it; the others wait for the warm-up's end.
"""

from __future__ import annotations

import itertools
import queue
import statistics
import threading
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..api import Error as UserError
from ..api.compiling import on_compile
from ..api.server import DamagedInstall, json_name

Query = Callable[[Callable[[int, int], None]], dict]
Measured = Callable[[str, float], None]  # a kind of query's speed: (rate key, units a second)
FINISHED = ("done", "failed", "cancelled")
KEEP_JOBS = 200  # finished jobs kept for polling, oldest dropped first
MAX_WAITING = 16  # jobs queued or running at once; one more is refused (Busy)
RATE_RUNS = 9  # a kind of query's speed: the median of its last runs' speeds
RATE_STEP = 2.0  # one run moves that median by at most this factor (a slow one is an outlier)
PRACTICE = "practice"  # a warm-up step's `needed_by` for what practice queries call
_WARMED = object()  # queued when the warm-up ends: the queries held for it run


class Cancelled(Exception):
    """Raised inside a running query once its job is cancelled."""


class Busy(Exception):
    """The queue holds MAX_WAITING jobs already (answered 429)."""


@dataclass(frozen=True)
class Step:
    """A step of the warm-up: what `/api/health` says it prepares (`what`), which queries need
    it (`needed_by`: PRACTICE, advice, solve), the call, and what it took on an empty Numba
    cache when measured (`cold_seconds`, `cold_kernels`: functions compiled), from which
    the wait is estimated."""

    what: str
    run: Callable[[Measured], None] = field(repr=False)
    needed_by: str = "every query"
    cold_seconds: float | None = None
    cold_kernels: int | None = None


@dataclass
class Job:
    """A query in the queue: its state (queued, running, done, failed, cancelled), progress
    (done of total work units), and result or one-line error (with its HTTP status:
    `failure`)."""

    id: str
    kind: str
    query: Query = field(repr=False)
    total: int = 1
    rate_key: str | None = None
    state: str = "queued"
    done: int = 0
    result: dict | None = None
    error: str | None = None
    status: int | None = None
    started: float | None = None
    elapsed: float | None = None
    cancel_requested: bool = False
    before_ready: bool = False
    finished: threading.Event = field(default_factory=threading.Event, repr=False)

    def snapshot(self) -> dict:
        return {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done,
                "total": self.total, "elapsed": self.elapsed if self.state in FINISHED else (
                    time.perf_counter() - self.started if self.started else None),
                "result": self.result, "error": self.error}


def failure(err: Exception) -> tuple[int, str]:
    """The HTTP status and line of a query that raised `err`: 503 where the install is
    damaged (the query needs a file it ships), 400 for the user's mistake, 500 for a bug (its
    traceback printed: the server outlives it)."""
    if isinstance(err, UserError):
        return 503 if isinstance(err, DamagedInstall) else 400, err.named(json_name)
    traceback.print_exception(err)
    return 500, f"internal error: {type(err).__name__}: {err}"


class Worker:
    """The queue and its thread. The warm-up (`warm_up`: its steps, or one call, "loading the
    kernels") runs in a thread of its own from `start`, reporting each kind's speed as it is
    measured (`measured`); `ready` turns true after it. A step that fails (a damaged install)
    says why in `warm_up_error` and the steps after it run all the same, as do the queries
    that do not need what failed. `clock` gives the seconds the warm-up counts."""

    def __init__(self, warm_up: Callable[[Measured], None] | Sequence[Step] | None = None,
                 max_waiting: int = MAX_WAITING,
                 clock: Callable[[], float] = time.perf_counter):
        self.max_waiting, self._clock = max_waiting, clock
        self._steps = ([Step("loading the kernels", warm_up)] if callable(warm_up)
                       else list(warm_up or ()))
        self._queue: queue.Queue = queue.Queue()  # jobs, _WARMED, or None: the end
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._thread = threading.Thread(target=self._run, name="euchre-sim worker",
                                        daemon=True)
        self._warming = threading.Thread(target=self._warm, name="euchre-sim warm-up",
                                         daemon=True)
        self._stopping = threading.Event()
        self._no_early_query = threading.Event()  # clear while a query runs before ready
        self._no_early_query.set()
        self.ready = threading.Event()
        self._speeds: dict[str, deque[float]] = {}  # work units a second, by kind of query
        self._started: float | None = None  # the warm-up's start
        self._step: int | None = None  # the step running
        self._step_started = 0.0
        self._took: list[float | None] = [None] * len(self._steps)  # each step's seconds
        self._compiled = [0] * len(self._steps)  # functions compiled while each step ran
        self.warm_up_seconds: float | None = None
        self.warm_up_error: str | None = None

    def start(self) -> None:
        self._thread.start()
        if self._steps:
            self._warming.start()
        else:
            self.ready.set()

    def stop(self) -> None:
        """Cancel what is queued or running, end the thread, and the warm-up after its step."""
        self._stopping.set()
        with self._lock:
            for job in self._jobs.values():
                job.cancel_requested = True
        self._queue.put(None)
        self._thread.join(timeout=30)
        if self._warming.is_alive():
            self._warming.join(timeout=30)

    @property
    def rates(self) -> dict[str, float]:
        """Work units a second, by kind of query: the median of the last RATE_RUNS runs."""
        with self._lock:
            return {key: statistics.median(runs) for key, runs in self._speeds.items()}

    def submit(self, kind: str, query: Query, total: int = 1, rate_key: str | None = None,
               before_ready: bool = False) -> Job:
        """Queue a query (`before_ready`: it may run while the warm-up does); Busy when
        MAX_WAITING jobs are queued or running already."""
        job = Job(str(next(self._ids)), kind, query, total, rate_key,
                  before_ready=before_ready)
        with self._lock:
            if self._waiting() >= self.max_waiting:
                raise Busy(f"the server has {self.max_waiting} queries queued or running: "
                           "try again when one has ended")
            self._jobs[job.id] = job
            while len(self._jobs) > KEEP_JOBS:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].state not in FINISHED:
                    break
                del self._jobs[oldest]
        self._queue.put(job)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Cancel a job: at once when queued, between two batches when running."""
        job = self.get(job_id)
        if job is not None and job.state not in FINISHED:
            job.cancel_requested = True
            if job.state == "queued":
                self._finish(job, "cancelled")
        return job

    def waiting(self) -> int:
        """Jobs queued or running."""
        with self._lock:
            return self._waiting()

    def _waiting(self) -> int:
        return sum(job.state not in FINISHED for job in self._jobs.values())

    def _measured(self, key: str, rate: float) -> None:
        """A run's speed added to its kind's last runs, moved at most RATE_STEP from their
        median."""
        with self._lock:
            runs = self._speeds.setdefault(key, deque(maxlen=RATE_RUNS))
            if runs:
                now = statistics.median(runs)
                rate = min(max(rate, now / RATE_STEP), now * RATE_STEP)
            runs.append(rate)

    def _finish(self, job: Job, state: str, result: dict | None = None,
                failed: tuple[int | None, str | None] = (None, None)) -> None:
        with self._lock:
            if job.state in FINISHED:
                return
            job.state, job.result, (job.status, job.error) = state, result, failed
            job.elapsed = time.perf_counter() - job.started if job.started else 0.0
        job.finished.set()

    def _progress(self, job: Job) -> Callable[[int, int], None]:
        def report(done: int, total: int) -> None:
            job.done, job.total = done, total
            if job.cancel_requested:
                raise Cancelled

        return report

    def warm_up_state(self) -> dict:
        """What the warm-up prepares now (`preparing`, `needed_by`; null once it is over), the
        seconds since it began (`seconds`) and the estimate of those left (`seconds_left`:
        the steps' measured lengths on an empty cache at the pace this run's steps and
        compiles have gone; null until something is measured), the same for what practice
        queries need (`practice_ready`, `practice_seconds_left`), functions compiled so far
        (`kernels`; none on a warm cache) against the measured count on an empty cache
        (`kernels_cold`), and each step's state, seconds and functions compiled."""
        with self._lock:
            now = self._clock()
            running = self._step
            seconds = (self.warm_up_seconds if self.warm_up_seconds is not None
                       else now - self._started if self._started is not None else 0.0)
            pace = self._pace(now)
            steps = [{"what": step.what, "needed_by": step.needed_by,
                      "state": ("done" if self._took[i] is not None else
                                "running" if i == running else "waiting"),
                      "seconds": (self._took[i] if self._took[i] is not None else
                                  now - self._step_started if i == running else None),
                      "kernels": self._compiled[i], "cold_seconds": step.cold_seconds}
                     for i, step in enumerate(self._steps)]
            practice = [i for i, step in enumerate(self._steps) if step.needed_by == PRACTICE]
            colds = [step.cold_kernels for step in self._steps]
            return {
                "preparing": None if running is None else self._steps[running].what,
                "needed_by": None if running is None else self._steps[running].needed_by,
                "seconds": seconds, "seconds_left": self._left(range(len(self._steps)), pace,
                                                               now),
                "practice_ready": (all(self._took[i] is not None for i in practice)
                                   if practice else self.ready.is_set()),
                "practice_seconds_left": self._left(practice or range(len(self._steps)),
                                                    pace, now),
                "kernels": sum(self._compiled),
                "kernels_cold": None if None in colds or not colds else sum(colds),
                "steps": steps}

    def _pace(self, now: float) -> float | None:
        """This run's seconds for one measured on an empty cache: over the steps done, or
        before any is, the running step's by its functions compiled; None until measured."""
        done = [(took, step.cold_seconds) for took, step in zip(self._took, self._steps,
                                                                strict=True)
                if took is not None and step.cold_seconds]
        if done:
            return sum(took for took, _ in done) / sum(cold for _, cold in done)
        step = None if self._step is None else self._steps[self._step]
        if step is None or not step.cold_seconds or not step.cold_kernels:
            return None
        share = min(self._compiled[self._step] / step.cold_kernels, 1.0)
        return (now - self._step_started) / (step.cold_seconds * share) if share else None

    def _left(self, indices, pace: float | None, now: float) -> float | None:
        """The estimated seconds before the steps `indices` are done (0.0 when they are)."""
        left = 0.0
        for i in indices:
            if self._took[i] is not None:
                continue
            cold = self._steps[i].cold_seconds
            if pace is None or cold is None:
                return None
            ran = now - self._step_started if i == self._step else 0.0
            left += max(cold * pace - ran, 0.0)
        return left

    def _counted(self, name: str) -> None:
        """A function compiled (any thread's), counted to the step running."""
        with self._lock:
            if self._step is not None:
                self._compiled[self._step] += 1

    def _warm(self) -> None:
        """The warm-up's steps in order, each started when no query runs before ready (a
        practice query has the cores to itself between two steps; a failed step's line is
        kept: the first), then ready, and the queries held for it queued."""
        with self._lock:
            self._started = self._clock()
        with on_compile(self._counted):
            for index, step in enumerate(self._steps):
                with self._lock:
                    self._step, self._step_started = index, self._clock()
                self._no_early_query.wait()
                if self._stopping.is_set():
                    break
                with self._lock:
                    self._step_started = self._clock()
                try:
                    step.run(self._measured)
                except Exception as err:  # said in /api/health: the queue runs all the same
                    self.warm_up_error = self.warm_up_error or failure(err)[1]
                with self._lock:
                    self._took[index] = self._clock() - self._step_started
                    self._step = None
        with self._lock:
            self.warm_up_seconds = self._clock() - self._started
        self.ready.set()
        self._queue.put(_WARMED)

    def _run(self) -> None:
        held: deque[Job] = deque()  # queued before the warm-up's end, waiting for it
        while (job := self._queue.get()) is not None:
            if job is _WARMED:
                while held:
                    self._take(held.popleft())
            elif job.before_ready or (self.ready.is_set() and not held):
                self._take(job)
            else:
                held.append(job)

    def _take(self, job: Job) -> None:
        """Run a queued job (one cancelled meanwhile is skipped)."""
        with self._lock:
            if job.state != "queued":
                return
            job.state, job.started = "running", time.perf_counter()
        if not self.ready.is_set():
            self._no_early_query.clear()
        try:
            result = job.query(self._progress(job))
        except Cancelled:
            self._finish(job, "cancelled")
        except Exception as err:  # the server outlives a bug in one query
            self._finish(job, "failed", failed=failure(err))
        else:
            self._finish(job, "done", result)
            if job.rate_key and job.elapsed:
                self._measured(job.rate_key, job.total / job.elapsed)
        finally:
            self._no_early_query.set()
