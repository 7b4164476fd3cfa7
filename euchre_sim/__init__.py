"""euchre-sim: Monte Carlo double-dummy analysis of Euchre and its relatives.

The public API (docs/python.md): `advise` a hand, `simulate` deals into Parquet tables and
`load_run` them back, `solve` a deal, `review` hand histories, the `odds` of the game, the
`chart`; every mistake is an `Error` (a ValueError) carrying the line the command line prints.
Importing the package loads no kernel: each call loads what it needs.
"""

__version__ = "0.1.0"

from .api import (  # noqa: E402  (the version first: the build reads it)
    Advice,
    Error,
    Run,
    RunProgress,
    advise,
    chart,
    load_run,
    odds,
    review,
    simulate,
    solve,
)

__all__ = ["Advice", "Error", "Run", "RunProgress", "__version__", "advise", "chart",
           "load_run", "odds", "review", "simulate", "solve"]
