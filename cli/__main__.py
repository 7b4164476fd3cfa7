"""`python -m euchre_sim_cli` runs the command line."""

from .main import cli

cli()
