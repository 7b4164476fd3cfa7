"""The largest counts a question may ask for, in one place: each is checked where its question
or plan is built (one line, exit 2 on the command line; 400 on the page). docs/commands.md
("Limits") says why each is what it is."""

from .errors import FieldError

MAX_DEALS = 10**10  # simulate, odds: a chunked run holds one chunk at a time per worker
MAX_CHUNKS = 10**6  # chunks of one run (its folder, and the bookkeeping of which are done)
MAX_CHUNK = 20_000  # deals or games a chunk (--chunk-size): a worker holds one, ~180 MB
MAX_GAMES = 10**8  # tournament: ~100 GB of hands.parquet at the most
MAX_PLAY_GAMES = 10**5  # play (self-play): prints a line a game
MAX_ADVISE_DEALS = 500_000  # advise holds every deal's figures: ~0.3 KB a deal
MAX_WORLDS = 10_000  # worlds a PIMC decision samples (and review's deals a bid)
MAX_TARGET = 100  # the rules' target: the odds of a score solve target² states per result
MAX_POINTS = 10  # any one score of the rules (march, euchre, ..., renege penalty)
MAX_ROWS_SHOWN = 10_000  # table, compare --limit: rows printed (export writes them all)
MAX_SEED = 2**63 - 1  # a seed: the generators' 64-bit keys, with room for a seed plus a count


def at_most(field: str, value: int, maximum: int) -> None:
    """A FieldError naming `field` when `value` is above `maximum`."""
    if value > maximum:
        raise FieldError(f"{{{field}}} must be at most {maximum:,}, got {_shown(value)} (see "
                         "'Limits' in docs/commands.md)")


def check_seed(seed: int) -> None:
    """A FieldError naming {seed} when `seed` is not 0 to MAX_SEED."""
    if not 0 <= seed <= MAX_SEED:
        raise FieldError(f"{{seed}} must be 0 to 2^63 - 1 ({MAX_SEED:,}), got {_shown(seed)}")


def _shown(value: int) -> str:
    """A number as a line shows it: in full, or its size where it is too long to read."""
    if abs(value) < 10**30:
        return f"{value:,}"
    return f"{'less than -' if value < 0 else 'more than '}10^30"
