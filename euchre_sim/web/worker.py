"""One warm worker thread that runs queries one at a time from a queue, with progress and
cancellation: a second query waits instead of competing for the cores.

The kernels release the GIL (`nogil`), so the server keeps answering while a query runs. A
query is a function of a progress callback; the callback raises `Cancelled` once the job is
cancelled, so cancelling takes effect between two batches of deals.
"""

from __future__ import annotations

import itertools
import queue
import statistics
import threading
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..api import Error as UserError
from ..api.server import DamagedInstall, json_name

Query = Callable[[Callable[[int, int], None]], dict]
Measured = Callable[[str, float], None]  # a kind of query's speed: (rate key, units a second)
FINISHED = ("done", "failed", "cancelled")
KEEP_JOBS = 200  # finished jobs kept for polling, oldest dropped first
MAX_WAITING = 16  # jobs queued or running at once; one more is refused (Busy)
RATE_RUNS = 9  # a kind of query's speed: the median of its last runs' speeds
RATE_STEP = 2.0  # one run moves that median by at most this factor (a slow one is an outlier)


class Cancelled(Exception):
    """Raised inside a running query once its job is cancelled."""


class Busy(Exception):
    """The queue holds MAX_WAITING jobs already (answered 429)."""


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
    """The queue and its thread. `warm_up(measured)` runs first (loading the compiled
    kernels), reporting each kind's speed as it is measured; `ready` turns true after it,
    and if it fails (a damaged install) `warm_up_error` says why and the queries that do not
    need what failed are answered all the same."""

    def __init__(self, warm_up: Callable[[Measured], None] | None = None,
                 max_waiting: int = MAX_WAITING):
        self._warm_up, self.max_waiting = warm_up, max_waiting
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._thread = threading.Thread(target=self._run, name="euchre-sim worker",
                                        daemon=True)
        self.ready = threading.Event()
        self._speeds: dict[str, deque[float]] = {}  # work units a second, by kind of query
        self.warm_up_seconds: float | None = None
        self.warm_up_error: str | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Cancel what is queued or running and end the thread."""
        with self._lock:
            for job in self._jobs.values():
                job.cancel_requested = True
        self._queue.put(None)
        self._thread.join(timeout=30)

    @property
    def rates(self) -> dict[str, float]:
        """Work units a second, by kind of query: the median of the last RATE_RUNS runs."""
        with self._lock:
            return {key: statistics.median(runs) for key, runs in self._speeds.items()}

    def submit(self, kind: str, query: Query, total: int = 1, rate_key: str | None = None
               ) -> Job:
        """Queue a query; Busy when MAX_WAITING jobs are queued or running already."""
        job = Job(str(next(self._ids)), kind, query, total, rate_key)
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

    def _run(self) -> None:
        if self._warm_up is not None:
            start = time.perf_counter()
            try:
                self._warm_up(self._measured)
            except Exception as err:  # said in /api/health: the queue runs all the same
                self.warm_up_error = failure(err)[1]
            self.warm_up_seconds = time.perf_counter() - start
        self.ready.set()
        while (job := self._queue.get()) is not None:
            with self._lock:
                if job.state != "queued":
                    continue
                job.state, job.started = "running", time.perf_counter()
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
