"""JSON from a user's file: every way it can fail to read — not JSON, nested too deeply, a
number longer than Python reads — one line, never a traceback."""

from __future__ import annotations

import json
import sys

from .errors import UserError


def parse_json(text: str | bytes):
    """json.loads, each failure a ValueError of one line."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:  # an integer over the interpreter's digit limit
        raise ValueError(f"a number of more than {sys.get_int_max_str_digits()} digits") \
            from None


def read_json(path: str, what: str = "") -> object:
    """The JSON value in the file at `path`; a UserError naming it (as `what`, e.g. "bidder
    parameters", and its path) when it cannot be read."""
    name = f"{what} {path!r}" if what else repr(path)
    try:
        with open(path, "rb") as handle:
            return parse_json(handle.read())
    except OSError as err:
        raise UserError(f"cannot read {name}: {err.strerror or err}") from None
    except ValueError as err:
        raise UserError(f"cannot read {name}: not JSON ({err})") from None
