"""The `euchre-sim` command line: thin commands that parse, call the library and print.

Heavy modules (numpy, numba, pandas) are imported inside commands so `--help` stays fast.
"""

from . import (  # noqa: F401  (register the commands)
    advise_commands,
    game_commands,
    review_commands,
    serve_commands,
    simulate_commands,
    solve_commands,
    table_commands,
    tournament_commands,
)
from .app import cli

__all__ = ["cli"]
