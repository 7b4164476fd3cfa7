"""`euchre-sim serve`: the local web page and JSON API (the `web` extra)."""

from __future__ import annotations

import os
import secrets
import socket

import click

from ..api import Error
from ..web.hosts import WILDCARDS, host_name, is_loopback
from .app import cli


def _check_free(host: str, port: int) -> None:
    """One line, not a traceback, when the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(infos[0][4])
    except OSError as err:
        raise Error(f"cannot listen on {host}:{port}: {err.strerror or err}") from None


def _page_url(host: str, port: int, token: str | None) -> str:
    """The address to open: this machine's name for a wildcard host, the token in the query."""
    name = host_name(host)
    name = socket.gethostname() if name in WILDCARDS else name
    shown = f"[{name}]" if ":" in name else name
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback: only this machine; another needs "
                   "--allow-remote).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--runs", type=click.Path(exists=True, file_okay=False), default=None,
              help="The folder whose run folders, decision tables, odds and hand histories "
                   "the page may read (relative paths start there)  [default: the current "
                   "folder]")
@click.option("--allow-remote", is_flag=True,
              help="Let a non-loopback --host be used; every API call then needs the token "
                   "printed at start.")
def serve(host: str, port: int, runs: str | None, allow_remote: bool) -> None:
    """A local web page (advise, solve, a run's tables, review) and its JSON API under /api/.

    Example: euchre-sim serve --port 8765, then open http://127.0.0.1:8765/
    """
    if not is_loopback(host) and not allow_remote:
        raise Error(f"--host {host} would let other machines reach the page: add "
                        "--allow-remote (API calls then need a token printed at start)")
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.connections import server_config
    except ImportError:
        raise Error("serve needs the web extra: pip install 'euchre-sim[web]'") from None
    _check_free(host, port)
    root = os.path.abspath(runs or os.getcwd())
    token = secrets.token_urlsafe(32) if allow_remote else None
    click.echo(f"euchre-sim: serving {_page_url(host, port, token)} (runs under {root}; "
               "warming up; Ctrl-C stops)", err=True)
    app = create_app(runs_root=root, host=host, token=token)
    uvicorn.Server(server_config(app, host, port)).run()
