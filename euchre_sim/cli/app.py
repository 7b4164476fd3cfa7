"""The Click group of `euchre-sim`, and its one-line error handling."""

from __future__ import annotations

import errno
import os
import sys

import click

from .. import __version__
from ..core.errors import UserError

_NO_ROOM = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


class OneLineErrors(click.Group):
    """Every user mistake -> one line on standard error and exit status 2, no traceback; so is
    a standard output that cannot be written (a full disk). One whose reader has gone (`|
    head`) ends the command quietly with exit status 1 (Click's own handling)."""

    def main(self, args=None, prog_name=None, **extra):
        extra.pop("standalone_mode", None)
        try:
            result = super().main(args, prog_name or "euchre-sim", standalone_mode=False, **extra)
            sys.stdout.flush()
        except OSError as err:
            if not _stdout_failed(err):
                raise
            _drop_stdout()
            click.echo(f"euchre-sim: error: cannot write to standard output: "
                       f"{err.strerror or err}", err=True)
            sys.exit(2)
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


def _stdout_failed(err: OSError) -> bool:
    """Whether `err` is standard output failing: a write to no named file that found no room
    (every file the commands write is named in its errors: `writing_run`,
    `core.output.written`)."""
    return err.filename is None and err.errno in _NO_ROOM


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of what
    it still holds cannot fail again on the way out."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):  # not a real file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="euchre-sim")
def cli() -> None:
    """Monte Carlo double-dummy analysis of Euchre, Yooker and their table variants.

    Example: euchre-sim simulate --deals 100000 --seed 1 --out out/
    """


