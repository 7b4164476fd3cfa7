"""The `euchre-sim` command line: thin commands that parse, call the library and print.

Each command's module is imported when the command is asked for (`app.OneLineErrors`), and
heavy modules (numpy, numba, pandas) inside commands, so `--help` and an answer from the
atlas stay fast.
"""

from .app import cli

cli.command_modules = {
    "advise": "advise_commands",
    "rules": "game_commands", "play": "game_commands", "replay": "game_commands",
    "odds": "game_commands",
    "review": "review_commands",
    "serve": "serve_commands",
    "simulate": "simulate_commands",
    "solve": "solve_commands",
    "table": "table_commands", "compare": "table_commands", "export": "table_commands",
    "chart": "table_commands", "plot": "table_commands",
    "tournament": "tournament_commands",
}

__all__ = ["cli"]
