"""The public Python API: advise a hand, run a simulation and read its tables, solve a deal,
review a hand history, the odds of the game and the chart, each one call; the command line
and the page stand on it. `import euchre_sim` names them (`euchre_sim.advise`, ...): these
modules import numpy, pandas and Numba only when a call needs them."""

from ..core.errors import UserError as Error
from .advice import Advice, advise
from .charts import chart
from .game_odds import odds
from .reviewing import review
from .runs import Run, RunProgress, load_run, simulate
from .solving import solve

__all__ = ["Advice", "Error", "Run", "RunProgress", "advise", "chart", "load_run", "odds",
           "review", "simulate", "solve"]
