"""Ordered parallel map over worker processes (results come back in input order)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes that leave Ctrl-C to the parent (which reports it in one line)."""
    return ProcessPoolExecutor(max_workers=workers, initializer=signal.signal,
                               initargs=(signal.SIGINT, signal.SIG_IGN))


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def ordered_map(fn: Callable, items: Iterable, workers: int, chunksize: int = 1) -> Iterator:
    """fn over items in `workers` processes (in this process when workers <= 1)."""
    if workers <= 1:
        yield from map(fn, items)
        return
    with worker_pool(workers) as pool:
        yield from pool.map(fn, items, chunksize=chunksize)
