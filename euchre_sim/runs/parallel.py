"""Ordered parallel map over worker processes (results come back in input order)."""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_POLL_SECONDS = 0.5
MANAGER_SECONDS = 5.0  # the most a stop waits for the executor's thread to end


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Worker processes for the block, that leave Ctrl-C to the parent (which reports it in
    one line) and exit when the parent dies, even by kill -9. Leaving the block waits for
    the jobs running; leaving it by an exception (Ctrl-C, a failed job, a consumer that
    stops early) stops the workers at once instead (`stop_pool`)."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                               initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers now and drop the jobs not started; nothing is left waiting on
    them (jobs are pure: what was running is computed again by whoever needs it). Waiting
    for the running jobs instead could wait forever: a worker stuck writing a result nobody
    reads, or a second Ctrl-C that breaks off the wait. The executor has no public way to
    end running jobs, so its processes and the parent's end of its results pipe are reached
    by name (CPython 3.11 to 3.13): with that end closed, a result cut short by the kill
    reads as the end of the pipe, not a wait for the rest. The executor's own thread is
    then waited for (it ends once it reads that end): left running, it could close its
    wake-up pipe while the interpreter's exit writes to it ("Exception ignored ... Bad file
    descriptor" after a Ctrl-C)."""
    processes = list((pool._processes or {}).values())
    for process in processes:
        process.kill()
    for process in processes:
        process.join()
    if pool._result_queue is not None:
        pool._result_queue._writer.close()
    manager = pool._executor_manager_thread
    pool.shutdown(wait=False, cancel_futures=True)
    if manager is not None:
        manager.join(MANAGER_SECONDS)


def _init_worker(creator: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's (cli.app.one_interrupt)
    _exit_with_parent(creator)


def _exit_with_parent(creator: int) -> None:
    """End this process when its parent dies. On Linux the kernel sends SIGTERM when the
    thread that forked us ends (PR_SET_PDEATHSIG); since that follows a thread, not the
    process, a daemon thread also polls the parent pid and exits when it changes (portable).
    `creator` is the process that asked for us: our parent, unless a fork server started us."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if parent != creator and not _alive(creator):  # it died before we were watching
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="exit-with-parent").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_POLL_SECONDS)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only asks whether the pid exists
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        pass
    return True


def ordered_map(fn: Callable, items: Iterable, workers: int, ahead: int = 2) -> Iterator:
    """fn over items in `workers` processes (in this process when workers <= 1), results in
    input order. Items are drawn as results are taken, at most workers x ahead in flight, so
    a consumer that stops early leaves little computed for nothing; the rest is stopped."""
    if workers <= 1:
        yield from map(fn, items)
        return
    pending: deque = deque()
    source = iter(items)
    with worker_pool(workers) as pool:
        for item in itertools.islice(source, workers * ahead):
            pending.append(pool.submit(fn, item))
        while pending:
            result = pending.popleft().result()
            for item in itertools.islice(source, 1):
                pending.append(pool.submit(fn, item))
            yield result
