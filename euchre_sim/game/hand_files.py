"""Hand files as `replay` and `review` read them: JSON Lines (SPEC), an EGN document or PTN,
told apart by content or suffix; `-` is standard input. JSON Lines can be read a line at a
time (`stream_hand_file`: a large file is never held whole); an EGN or PTN document is read
whole (at most MAX_INPUT_BYTES)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..core.errors import UserError
from ..core.files import input_lines, loads
from ..core.rules import RuleSet
from .egn import is_egn, read_egn
from .ptn import is_ptn, read_ptn


@dataclass(frozen=True)
class HandEntry:
    """One hand of a file: its record, or the reason it could not be read."""

    id: object
    record: dict | None
    error: str | None


@dataclass(frozen=True)
class HandFile:
    """The rules to replay a file's hands by (an EGN ruleset on top of the given ones) and its
    hands in order (a list, or from `stream_hand_file` an iterator read once); `format` is
    "jsonl", "egn" or "ptn"."""

    rules: RuleSet
    entries: Iterable[HandEntry]
    format: str


def read_hand_file(path: str, rules: RuleSet) -> HandFile:
    """Read a hand file; an unreadable file, or one with no hand at all, raises UserError."""
    found = stream_hand_file(path, rules)
    return HandFile(found.rules, list(found.entries), found.format)


def stream_hand_file(path: str, rules: RuleSet) -> HandFile:
    """A hand file whose entries are read as they are asked for: JSON Lines a line at a time
    (a file named .jsonl, or whose first line, comments and blank lines aside, is a JSON
    object and no EGN document, the file not named .egn or .ptn), any other read whole and told
    apart as `_whole_file` tells them. An unreadable file raises UserError before the first
    entry, or where it is found (past the size cap on standard input, not UTF-8)."""
    lines = input_lines(path, "the hand file")
    head = []
    for line in lines:
        head.append(line)
        text = line.strip()
        if text and not text.startswith("%"):
            break
    lower = path.lower()
    if lower.endswith(".jsonl") or (not lower.endswith((".egn", ".ptn"))
                                    and _json_line(head[-1] if head else "")):
        return HandFile(rules, stream_json_lines(itertools.chain(head, lines)), "jsonl")
    return _whole_file(path, "".join(itertools.chain(head, lines)), rules)


def _json_line(line: str) -> bool:
    """Whether a file's first line is a hand record of JSON Lines: a JSON object, no EGN
    document."""
    if not line.lstrip().startswith("{"):
        return False
    try:
        document = loads(line)
    except ValueError:
        return False
    return isinstance(document, dict) and not is_egn(document)


def _whole_file(path: str, text: str, rules: RuleSet) -> HandFile:
    """A hand file read whole: EGN (by suffix or content), PTN (by suffix or its opening tag),
    else JSON Lines."""
    lower = path.lower()
    document = _json_document(text) if not lower.endswith(".jsonl") else None
    if lower.endswith(".egn") or is_egn(document):
        if document is None:
            raise UserError(f"cannot read {path!r}: not an EGN document (not one JSON object)")
        try:
            egn_rules, entries = read_egn(document, rules)
        except UserError as err:
            raise UserError(f"cannot read {path!r}: {err}") from None
        return HandFile(egn_rules, [HandEntry(*e) for e in entries], "egn")
    if lower.endswith(".ptn") or is_ptn(text):
        try:
            ptn_rules, entries = read_ptn(text, rules)
        except UserError as err:
            raise UserError(f"cannot read {path!r}: {err}") from None
        return HandFile(ptn_rules, [HandEntry(*e) for e in entries], "ptn")
    return HandFile(rules, read_json_lines(text.splitlines()), "jsonl")


def read_json_lines(lines) -> list[HandEntry]:
    """One entry per non-blank line; UserError when no line is a JSON object."""
    return list(stream_json_lines(lines))


def stream_json_lines(lines: Iterable[str]) -> Iterator[HandEntry]:
    """One entry per non-blank line (each line split as str.splitlines splits, so that the
    numbers are a whole text's), as they are read; the entries of lines that cannot be read
    are held back until a hand record is read, so that a file of none is a UserError with
    nothing given before it."""
    held: list[HandEntry] | None = []  # None once a record is read
    numbered = enumerate((part for line in lines for part in line.splitlines() or [""]), 1)
    for entry in _json_entries(numbered):
        if held is None:
            yield entry
        elif entry.record is None:
            held.append(entry)
        else:
            yield from held
            held = None
            yield entry
    if held is not None:
        first = f": {held[0].error}" if held else ""
        raise UserError(f"no hand record could be read (expected JSON Lines, one hand a "
                        f"line){first}")


def _json_entries(numbered) -> Iterator[HandEntry]:
    for number, line in numbered:
        if not line.strip():
            continue
        try:
            record = loads(line)
        except ValueError as err:
            yield HandEntry(None, None, f"line {number}: not JSON ({err})")
            continue
        if not isinstance(record, dict):
            yield HandEntry(None, None, f"line {number}: not an object")
            continue
        record_id = record.get("id", number)
        if not _is_id(record_id):
            yield HandEntry(number, None, f"line {number}: the id must be a string "
                                          f"or a whole number, got {record_id!r:.40}")
            continue
        yield HandEntry(record_id, record, None)


def _is_id(value) -> bool:
    """A hand's id: a string or a whole number (a list, a float or infinity is none)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _json_document(text: str):
    """The text as one JSON value when it is one (an EGN document), else None."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        return loads(text)
    except ValueError:
        return None
