"""The Click group of `euchre-sim`, and its one-line error handling."""

from __future__ import annotations

import _thread
import contextlib
import errno
import importlib
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator

import click

from .. import __version__
from ..api import Error

_NO_ROOM = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EBADF)  # EBADF: it was closed


class _ClosedOutput(io.TextIOBase):
    """Standard output when the command started with it closed (`>&-`): a command that
    writes there fails as on a full disk (one line, exit status 2); one that does not runs."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class Terminated(KeyboardInterrupt):
    """SIGTERM, acted on as Ctrl-C is (what is finished kept, workers stopped, no temporary
    file left), with exit status 143."""


INTERRUPTED, TERMINATED = 130, 143  # the exit statuses after Ctrl-C and after SIGTERM


def stopped(line: str) -> None:
    """End an interrupted command: `line` (what it kept) on standard error, exit status 130
    (143 after SIGTERM: `OneLineErrors.main`)."""
    click.echo(line, err=True)
    sys.exit(INTERRUPTED)


class OptionsOnce(click.Command):
    """A command whose options that take one value are given once: `--up 9S --up TD` is one
    line naming the option (exit status 2), not the last value taken silently. Options given
    many times by design (`--set`) and flags are free."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            seen = set()
            for param in order:
                if isinstance(param, click.Option) and not (
                        param.multiple or param.count or param.is_flag):
                    if param.name in seen:
                        name = max(param.opts, key=len)
                        raise click.UsageError(f"{name} is given twice: give it once", ctx)
                    seen.add(param.name)
        return super().parse_args(ctx, args)


class OneLineErrors(click.Group):
    """Every user mistake -> one line on standard error and exit status 2, no traceback; so is
    a standard output that cannot be written (a full disk). One whose reader has gone (`|
    head`) ends the command quietly with exit status 1 (Click's own handling). Ctrl-C is one
    line and exit status 130, however many are pressed (`one_interrupt`); SIGTERM is acted on
    as Ctrl-C is, with exit status 143. Its commands take each option once (`OptionsOnce`)."""

    command_class = OptionsOnce
    # each command's module (`cli.main` names them), imported when the command is asked for:
    # an answer from the atlas imports only `advise`'s; `--help` lists them all
    command_modules: dict[str, str] = {}

    def list_commands(self, ctx: click.Context | None) -> list[str]:
        return sorted(set(self.commands) | set(self.command_modules))

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands and name in self.command_modules:
            importlib.import_module(f"{__package__}.{self.command_modules[name]}")
        return self.commands.get(name)

    def every_command(self) -> dict[str, click.Command]:
        """Every command by name, each module imported."""
        return {name: self.get_command(None, name) for name in self.list_commands(None)}

    def main(self, args=None, prog_name=None, **extra):
        extra.pop("standalone_mode", None)
        if sys.stdout is None:
            sys.stdout = _ClosedOutput()
        for stream in (sys.stdout, sys.stderr):  # an encoding without a character (ASCII):
            if hasattr(stream, "reconfigure"):  # '?' in its place, not a traceback
                stream.reconfigure(errors="replace")
        with one_interrupt() as caught:  # around the exit too: it leaves by SystemExit
            try:
                self._exit_by_status(args, prog_name or "euchre-sim", extra)
            except SystemExit as leaving:
                if leaving.code == INTERRUPTED and signal.SIGTERM in caught:
                    leaving.code = TERMINATED
                raise

    def _exit_by_status(self, args, prog_name: str, extra: dict) -> None:
        try:
            result = super().main(args, prog_name, standalone_mode=False, **extra)
            sys.stdout.flush()
        except OSError as err:
            if err.errno in (errno.EMFILE, errno.ENFILE):  # `ulimit -n` too low for the work
                click.echo(f"euchre-sim: error: {err.strerror} (the limit of open files is "
                           f"{_open_files_limit()}; raise it, e.g. ulimit -n 1024)", err=True)
                sys.exit(2)
            if not _stdout_failed(err):
                raise
            _drop_stdout()
            click.echo(f"euchre-sim: error: cannot write to standard output: "
                       f"{err.strerror or err}", err=True)
            sys.exit(2)
        except click.exceptions.Abort as abort:
            terminated = isinstance(abort.__cause__, Terminated)
            click.echo(f"euchre-sim: {'terminated' if terminated else 'interrupted'}", err=True)
            sys.exit(INTERRUPTED)
        except click.ClickException as err:
            click.echo(f"euchre-sim: error: {err.format_message()}", err=True)
            sys.exit(2)
        except Error as err:
            click.echo(f"euchre-sim: error: {err}", err=True)
            sys.exit(2)
        sys.exit(result if isinstance(result, int) else 0)


@contextlib.contextmanager
def one_interrupt() -> Iterator[list[int]]:
    """Ctrl-C inside the block raises KeyboardInterrupt, and SIGTERM Terminated (one too),
    unless one before is being acted on (`_acting_on_interrupt`): then it is ignored, so that
    none breaks off the stop the first starts (a run's workers killed, its line written, a
    partial file kept) and leaves the process waiting on what that stop did not end. A
    KeyboardInterrupt dropped where it was raised (in a callback from C, as Numba's compiler
    makes, or a finaliser: Python reports those as unraisable) is raised again at once, until
    it lands where it is acted on. The handlers before are back when the block ends without
    a signal; after one, both stay ignored, as the command is on its way out (else one during
    the exit would end it by the signal, not exit status 130). A signal ignored from the
    start (Ctrl-C in a background job) and a command run outside the main thread (which
    cannot set handlers) keep their handling. Yields the list of the signals acted on."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    watched = [s for s in (signal.SIGINT, signal.SIGTERM)
               if signal.getsignal(s) is not signal.SIG_IGN]
    before, unraisable = {s: signal.getsignal(s) for s in watched}, sys.unraisablehook

    deferred, main = [0], threading.main_thread().ident

    def interrupt(number, frame) -> None:
        if _acting_on_interrupt():
            return
        where = _in_numba(frame)  # see `_in_numba`
        # one landing in `dropped`, as it sends one dropped again, would be dropped in turn
        redirecting = frame is not None and frame.f_code is dropped.__code__
        if redirecting or where == "importing" or (where and deferred[0] < MOST_DEFERRALS):
            deferred[0] += where == "running"
            threading.Timer(DEFER_SECONDS, signal.pthread_kill, (main, number)).start()
            return
        caught.append(number)
        raise Terminated if number == signal.SIGTERM else KeyboardInterrupt

    def dropped(report) -> None:
        if isinstance(report.exc_value, KeyboardInterrupt):  # this handler again, at the
            _thread.interrupt_main(signal.SIGTERM if isinstance(  # next line of Python
                report.exc_value, Terminated) else signal.SIGINT)
        else:
            unraisable(report)

    for number in watched:
        signal.signal(number, interrupt)
    sys.unraisablehook = dropped
    try:
        yield caught
    finally:
        sys.unraisablehook = unraisable
        for number in watched:
            signal.signal(number, signal.SIG_IGN if caught else before[number])


# a signal that lands in Numba's own Python is handled again this much later, at most so often
DEFER_SECONDS, MOST_DEFERRALS = 0.01, 100


def _in_numba(frame) -> str:
    """Where a signal landed (`frame`) as far as Numba goes: "importing" while Numba is
    being imported, "running" in Numba's own Python or in what it called, else "". Numba's
    dispatcher calls some of its Python from C (unpickling a cached kernel's constants,
    typing an argument) and goes on when it raises, and its import runs C that imports more:
    a KeyboardInterrupt raised there came out as a SystemError ("returned a result with an
    exception set") or an ImportError ("numba._devicearray failed to import"), and the command
    died with a traceback instead of keeping what it had finished. Such a signal is handled
    again a moment later (`DEFER_SECONDS`: sent to the main thread again, so that a wait
    there is broken off as by the first), where it lands in other code; an import that Numba
    makes, which ends, as often as it takes; a compile, all Numba's Python, is still stopped
    within a second (`MOST_DEFERRALS`), even one that a module's import started."""
    importing = False  # an import under way inside the innermost of Numba's frames
    while frame is not None:
        if frame.f_globals.get("__name__", "").split(".")[0] in ("numba", "llvmlite"):
            return "importing" if importing else "running"
        importing |= frame.f_code.co_filename.startswith("<frozen importlib")
        frame = frame.f_back
    return ""


def _acting_on_interrupt() -> bool:
    """Whether the exception being handled here (in an except clause, a finally clause or a
    context's exit), or one it came from, is a KeyboardInterrupt."""
    error, seen = sys.exc_info()[1], set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _open_files_limit() -> int:
    import resource

    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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


