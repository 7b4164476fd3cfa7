"""Runs stopped from outside: the command line in a process of its own session, its chunks
watched, and Ctrl-C sent to it as a terminal sends them."""

import os
import signal
import subprocess
import sys
import time


def wait_for_chunks(proc, chunks, count: int) -> None:
    """Until `count` chunks are stored, the process ends, or two minutes pass."""
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        stored = [c for c in os.listdir(chunks) if not c.startswith(".")] if chunks.exists() else []
        if len(stored) >= count:
            break
        time.sleep(0.05)


def start_run(args: list[str], **streams) -> subprocess.Popen:
    """`euchre-sim ARGS` in a session (and so a process group) of its own, Ctrl-C's default
    action restored in it (a test session started in the background of a shell ignores it,
    and its children would inherit that)."""
    return subprocess.Popen([sys.executable, "-m", "euchre_sim.cli", *args], text=True,
                            start_new_session=True, **streams,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def interrupted_twice(args: list[str], out) -> str:
    """Start the run `args` (writing to `out`), wait for its first chunk, press Ctrl-C twice
    0.1 s apart (to the process, as `kill -INT` does); check it ends with exit status 130
    within a minute and leaves no process of its group behind. Returns its standard error."""
    proc = start_run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_chunks(proc, out / "chunks", 1)
        assert proc.poll() is None, "the run ended before it was interrupted"
        proc.send_signal(signal.SIGINT)
        time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert _group_gone(proc.pid), "a process of the run is left behind"
    return err


def _group_gone(group: int, seconds: float = 10) -> bool:
    """Whether process group `group` is empty within `seconds` (multiprocessing's resource
    tracker leaves once its parent has gone)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def signalled(args: list[str], ready, signum: int, seconds: float = 120) -> tuple[int, str]:
    """Start the run `args`, wait until `ready()` is true (at most `seconds`), send it
    `signum` once; check it ends within a minute and leaves no process of its group behind.
    Returns its exit status and standard error."""
    proc = start_run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + seconds
        while proc.poll() is None and not ready() and time.time() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it was stopped"
        assert ready(), "the run was not ready to be stopped in time"
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert _group_gone(proc.pid), "a process of the run is left behind"
    return proc.returncode, err
