"""Writing a user's file whole: under a temporary name in its folder, renamed into place once
complete, so that a failed write (a full disk, a read-only folder) leaves no partial file and
is one line (UserError). A path that is no regular file (a device such as /dev/stdout) is
written in place."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import IO

from .errors import UserError


def cannot_write(path: str, err: OSError) -> UserError:
    return UserError(f"cannot write {path!r}: {err.strerror or err}")


def _in_place(path: str) -> bool:
    """Whether `path` is a device or a pipe: written where it is, never renamed over."""
    return os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path)


def _temporary(path: str) -> str:
    return f"{path}.{os.getpid()}.tmp"


@contextlib.contextmanager
def written(path: str, binary: bool = False) -> Iterator[IO]:
    """A new file to write; it becomes `path` when the block ends without an error."""
    mode, encoding = ("b", None) if binary else ("", "utf-8")
    if _in_place(path):
        try:
            with open(path, "w" + mode, encoding=encoding) as handle:
                yield handle
        except OSError as err:
            raise cannot_write(path, err) from None
        return
    tmp = _temporary(path)
    try:
        with open(tmp, "x" + mode, encoding=encoding) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        raise cannot_write(path, err) from None
    finally:
        with contextlib.suppress(OSError):
            os.remove(tmp)


def writable_folder(path: str) -> None:
    """Make the folder `path` if missing and check a file can be written in it, before any
    work: one line (UserError) when not (a read-only disk, a file of that name)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        raise cannot_write(path, err) from None
    check_writable(os.path.join(path, ".write-check"))


def check_writable(path: str) -> None:
    """One line now, before any work, when a file could not be written at `path` (its folder
    missing, read-only or full of names); a device is left to the writing."""
    if _in_place(path):
        return
    tmp = _temporary(path)
    try:
        open(tmp, "x").close()
        os.remove(tmp)
    except OSError as err:
        raise cannot_write(path, err) from None
