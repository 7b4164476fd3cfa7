"""The cores this process may run on: a run's default number of workers and its most."""

from __future__ import annotations

import os


def default_workers() -> int:
    """The cores this process may use (its CPU affinity where the system has one)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
