"""`python -m euchre_sim.cli` runs the command line."""

from .main import cli

cli()
