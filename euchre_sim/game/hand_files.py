"""Hand files as `replay` and `review` read them: JSON Lines (SPEC), an EGN document or PTN,
told apart by content or suffix; `-` is standard input."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import UserError
from ..core.files import loads, read_input
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
    hands in order; `format` is "jsonl", "egn" or "ptn"."""

    rules: RuleSet
    entries: list[HandEntry]
    format: str


def read_hand_file(path: str, rules: RuleSet) -> HandFile:
    """Read a hand file; an unreadable file, or one with no hand at all, raises UserError."""
    text = _read_text(path)
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
    entries = []
    readable = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = loads(line)
        except ValueError as err:
            entries.append(HandEntry(None, None, f"line {number}: not JSON ({err})"))
            continue
        if not isinstance(record, dict):
            entries.append(HandEntry(None, None, f"line {number}: not an object"))
            continue
        record_id = record.get("id", number)
        if not _is_id(record_id):
            entries.append(HandEntry(number, None, f"line {number}: the id must be a string "
                                                   f"or a whole number, got {record_id!r:.40}"))
            continue
        readable += 1
        entries.append(HandEntry(record_id, record, None))
    if not readable:
        first = f": {entries[0].error}" if entries else ""
        raise UserError(f"no hand record could be read (expected JSON Lines, one hand a "
                        f"line){first}")
    return entries


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


def _read_text(path: str) -> str:
    return read_input(path, "the hand file")
