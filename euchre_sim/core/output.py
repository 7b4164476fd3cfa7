"""Writing a user's file whole: under a temporary name in its folder, renamed into place once
complete, so that a failed write (a full disk, a read-only folder) leaves no partial file and
is one line (UserError). A path that is no regular file (a device such as /dev/stdout) is
written in place. A file written in records (`written_records`) that is interrupted (Ctrl-C,
or SIGTERM, which the command line raises as an interrupt) keeps its whole records under a
name that says so (`partial_path`); no temporary file is left either way."""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Iterator
from typing import IO

from .errors import UserError


def finite(value):
    """`value` (JSON's kinds: dicts, lists, tuples, str, numbers, bools, None) with every
    number that is not finite (NaN, Infinity, -Infinity: no JSON number) as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    return value


def json_text(value, **options) -> str:
    """`value` as JSON (`json.dumps` and its `options`), a figure that is not finite written
    null (`finite`): never the NaN or Infinity that JSON does not have."""
    return json.dumps(finite(value), allow_nan=False, **options)


def cannot_write(path: str, err: OSError) -> UserError:
    return UserError(f"cannot write {path!r}: {err.strerror or err}")


def _in_place(path: str) -> bool:
    """Whether `path` is a device or a pipe: written where it is, never renamed over."""
    return os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path)


def _temporary(path: str) -> str:
    return f"{path}.{os.getpid()}.tmp"


def partial_path(path: str) -> str:
    """Where an interrupted file keeps its whole records: NAME.partial.EXT beside `path`."""
    root, extension = os.path.splitext(path)
    return f"{root}.partial{extension}"


def _discard(tmp: str) -> None:
    """Remove `tmp` if it is there; an interrupt on the way removes it all the same."""
    try:
        with contextlib.suppress(OSError):
            os.remove(tmp)
    except KeyboardInterrupt:  # raised before the removal: acted on, further ones ignored
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


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
        _discard(tmp)


class Records:
    """A file being written in records: `write` a record's text (or bytes), `mark(n)` once
    n more records are whole. `records` counts them; `kept` names the partial file that
    holds them after an interrupt (None: not interrupted, or nothing whole to keep)."""

    def __init__(self, handle: IO, binary: bool, seekable: bool = True):
        self.handle, self.records, self.kept = handle, 0, None
        self._bytes = handle if binary else handle.buffer
        self.whole: int | None = 0 if seekable else None  # bytes of the whole records

    def write(self, data) -> None:
        self.handle.write(data)

    def mark(self, records: int = 1) -> None:
        """The records written so far are whole (`records` more of them)."""
        self.records += records
        if self.whole is not None:
            self.handle.flush()
            self.whole = self._bytes.tell()


@contextlib.contextmanager
def written_records(path: str, binary: bool = False) -> Iterator[Records]:
    """As `written`, in whole records (Records.mark). Interrupted (KeyboardInterrupt), the
    records marked whole are kept in `partial_path(path)`, the rest cut off (`kept` names
    it; nothing is kept when none is whole), and the interrupt goes on. A device is written
    in place: what was written there stays."""
    mode, encoding = ("b", None) if binary else ("", "utf-8")
    if _in_place(path):
        try:
            with open(path, "w" + mode, encoding=encoding) as handle:
                yield Records(handle, binary, seekable=False)
        except OSError as err:
            raise cannot_write(path, err) from None
        return
    tmp, out = _temporary(path), None
    try:
        with open(tmp, "x" + mode, encoding=encoding) as handle:
            out = Records(handle, binary)
            yield out
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except KeyboardInterrupt:
        if out is not None and out.records:
            out.kept = _keep(tmp, out.whole, partial_path(path))
        raise
    except OSError as err:
        raise cannot_write(path, err) from None
    finally:
        _discard(tmp)


def _keep(tmp: str, whole: int, partial: str) -> str | None:
    """The closed temporary file cut after its whole records and renamed `partial`; None
    when that fails (a full disk): it is removed then."""
    try:
        os.truncate(tmp, whole)
        descriptor = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(tmp, partial)
    except OSError:
        return None
    return partial


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
    except OSError as err:
        raise cannot_write(path, err) from None
    finally:
        _discard(tmp)
