"""Reading the files a user names, bounded: only a regular file (a FIFO would block the reader,
a device never end), at most a given size, JSON nested at most MAX_JSON_DEPTH deep; every
failure a one-line UserError (Parquet tables: `core.schema`)."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator

from .errors import UserError

MAX_JSON_DEPTH = 32  # arrays and objects inside one another: deeper is refused, not recursed
MAX_JSON_BYTES = 4 * 1024 * 1024  # a JSON file read whole (run.json, bidder parameters)
MAX_INPUT_BYTES = 512 * 1024 * 1024  # a file of deals or hands read whole (solve, replay, review)
_OPENERS = {"[": 1, "{": 1, "]": -1, "}": -1}


def refused(what: str, path: str, why: str) -> UserError:
    """The one line of a file that cannot be read: what it is, where, and why."""
    return UserError(f"cannot read {what} {path!r}: {why}")


def regular_file(path: str, what: str, max_bytes: int | None = None) -> None:
    """UserError unless `path` is a regular file (symlinks followed) of at most `max_bytes`."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise refused(what, path, err.strerror or str(err)) from None
    _check_stat(info, what, path, max_bytes)


def _check_stat(info: os.stat_result, what: str, path: str, max_bytes: int | None) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise refused(what, path, "not a regular file")
    if max_bytes is not None and info.st_size > max_bytes:
        raise refused(what, path, f"over {max_bytes:,} bytes")


def read_text(path: str, what: str, max_bytes: int) -> str:
    """A regular file's text (UTF-8, a BOM dropped), at most `max_bytes`; opened without
    blocking, so a FIFO put in its place is refused too."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        raise refused(what, path, err.strerror or str(err)) from None
    try:
        _check_stat(os.fstat(fd), what, path, max_bytes)  # before fdopen: a folder fails there
    except UserError:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        return _text(handle.read(max_bytes + 1), what, path, max_bytes)  # it may have grown


def read_input(path: str, what: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """A command's input text: `path` a regular file ("-": standard input), at most
    `max_bytes` either way (a device such as /dev/zero is refused, never read without end)."""
    if path != "-":
        return read_text(path, what, max_bytes)
    return _text(sys.stdin.buffer.read(max_bytes + 1), what, "-", max_bytes)


def input_lines(path: str, what: str, max_bytes: int = MAX_INPUT_BYTES) -> Iterator[str]:
    """A command's input, as `read_input` checks it, a line at a time (its end of line kept,
    a BOM dropped), so that a large file is never held whole: a file over `max_bytes` (standard
    input once more is read) or not UTF-8 is the same one line, raised where it is found."""
    if path == "-":
        yield from _lines(sys.stdin.buffer, what, path, max_bytes)
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        raise refused(what, path, err.strerror or str(err)) from None
    try:
        _check_stat(os.fstat(fd), what, path, max_bytes)
    except UserError:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        yield from _lines(handle, what, path, max_bytes)


def _lines(handle, what: str, path: str, max_bytes: int) -> Iterator[str]:
    read, number = 0, 0
    while raw := handle.readline(max_bytes + 1 - read):  # never past the cap, even in a line
        start, read = read, read + len(raw)
        if read > max_bytes:
            raise refused(what, path, f"over {max_bytes:,} bytes")
        try:
            line = raw.decode("utf-8-sig" if number == 0 else "utf-8")
        except UnicodeDecodeError as err:
            raise refused(what, path, f"not UTF-8 ({err.reason} at byte {start + err.start})"
                          ) from None
        number += 1
        yield line


def _text(data: bytes, what: str, path: str, max_bytes: int) -> str:
    """The bytes read (at most max_bytes + 1) as UTF-8 text, a BOM dropped; one line when
    there were more than max_bytes or they are not UTF-8."""
    if len(data) > max_bytes:
        raise refused(what, path, f"over {max_bytes:,} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise refused(what, path, f"not UTF-8 ({err.reason} at byte {err.start})") from None


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _OPENERS:
            depth += _OPENERS[char]
            deepest = max(deepest, depth)
    return deepest


def loads(text: str | bytes):
    """json.loads of text nested at most MAX_JSON_DEPTH deep; every failure (not UTF-8, not
    JSON, too deep, a number longer than the interpreter reads) a ValueError of one line."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"not UTF-8: {err.reason}") from None
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"arrays and objects nested over {MAX_JSON_DEPTH} deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer over the interpreter's digit limit
        raise ValueError(f"a number of more than {sys.get_int_max_str_digits()} digits") \
            from None


def parse_json(text: str | bytes, what: str):
    """`loads`, a mistake a one-line UserError naming `what`."""
    try:
        return loads(text)
    except ValueError as err:
        raise UserError(f"{what} is not JSON ({err})") from None


def read_json(path: str, what: str, max_bytes: int = MAX_JSON_BYTES):
    """A JSON file read whole: a regular file of at most `max_bytes`, nested at most
    MAX_JSON_DEPTH deep."""
    return parse_json(read_text(path, what, max_bytes), f"{path!r} ({what})")
