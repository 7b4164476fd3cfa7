"""euchre-sim: Monte Carlo double-dummy analysis of Euchre and its relatives.

The public API (docs/python.md): `advise` a hand, `simulate` deals into Parquet tables and
`load_run` them back, `solve` a deal, `review` hand histories, the `odds` of the game, the
`chart`; every mistake is an `Error` (a ValueError) carrying the line the command line prints.
Importing the package loads nothing else: each name is read from `euchre_sim.api` when first
used, and each call loads what it needs.
"""

from typing import TYPE_CHECKING

__version__ = "0.1.0"

__all__ = ["Advice", "Error", "Run", "RunProgress", "__version__", "advise", "chart",
           "load_run", "odds", "review", "simulate", "solve"]

if TYPE_CHECKING:
    from .api import (
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


def __getattr__(name: str):
    """The API's names, imported on first use (PEP 562)."""
    if name in __all__ and name != "__version__":
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'euchre_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
