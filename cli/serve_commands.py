"""`euchre-sim serve`: the local web page and JSON API (the `web` extra)."""

from __future__ import annotations

import socket

import click

from euchre_sim.core.errors import UserError

from .app import cli

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _check_free(host: str, port: int) -> None:
    """One line, not a traceback, when the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(infos[0][4])
    except OSError as err:
        raise UserError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback: only this machine).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
def serve(host: str, port: int) -> None:
    """A local web page (advise, solve, a run's tables) and its JSON API under /api/.

    Example: euchre-sim serve --port 8765, then open http://127.0.0.1:8765/
    """
    try:
        import uvicorn

        from euchre_sim.web.app import create_app
    except ImportError:
        raise UserError("serve needs the web extra: pip install 'euchre-sim[web]'") from None
    _check_free(host, port)
    if host not in LOOPBACK:
        click.echo(f"euchre-sim: note: listening on {host}: other machines can reach the page "
                   "and read any run folder on this one", err=True)
    click.echo(f"euchre-sim: serving http://{host}:{port}/ (warming up; Ctrl-C stops)",
               err=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
