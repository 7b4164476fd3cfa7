"""The Click group of `euchre-sim`, and its one-line error handling."""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..core.errors import UserError


class OneLineErrors(click.Group):
    """Every user mistake -> one line on standard error and exit status 2, no traceback."""

    def main(self, args=None, prog_name=None, **extra):
        extra.pop("standalone_mode", None)
        try:
            result = super().main(args, prog_name or "euchre-sim", standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("euchre-sim: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as err:
            click.echo(f"euchre-sim: error: {err.format_message()}", err=True)
            sys.exit(2)
        except UserError as err:
            click.echo(f"euchre-sim: error: {err}", err=True)
            sys.exit(2)
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="euchre-sim")
def cli() -> None:
    """Monte Carlo double-dummy analysis of Euchre, Yooker and their table variants.

    Example: euchre-sim simulate --deals 100000 --seed 1 --out out/
    """


