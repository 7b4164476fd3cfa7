"""The server's connections kept in bounds (uvicorn has no header or body timeout, and its
`limit_concurrency` answers 503 to every request, /api/health too, once it is reached): each
request's header and body must arrive within `request_seconds` of the connection opening or
of the answer before (408 and closed otherwise; once whole, a query takes as long as it
needs), an idle connection is closed after KEEP_ALIVE_SECONDS, and at most `max_connections`
are open: a new one beyond closes the oldest still sending its request (or, when every one
is being answered, is itself refused with a 503). The limits of `serve`; `server_config`
builds uvicorn's Config with them."""

from __future__ import annotations

import asyncio
import json
import resource

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0  # a request's header and body, from the connection or the answer before
KEEP_ALIVE_SECONDS = 5  # an idle connection between requests (uvicorn's timeout_keep_alive)
MAX_CONNECTIONS = 1_000  # open at once (fewer when the open-files limit is lower: `cap`)
SPARE_FILES = 64  # open-file slots kept for the server's own files (tables, nets, logs)
_SENDING = (h11.IDLE, h11.SEND_BODY)  # the client's states while its request is incomplete


def _closing_answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer `{"error": message}` that closes the connection."""
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol with a clock on each incoming request and a cap on the
    connections open (their numbers: class attributes, set by `bounded_protocol`)."""

    request_seconds = REQUEST_SECONDS
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.opened, self.clock = self.loop.time(), None
        self._start_clock()
        self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.heard = True
        super().data_received(data)
        if not self.sending:
            self._stop_clock()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # a pipelined request is read there
        if not self.transport.is_closing():
            self._start_clock()
            if not self.sending:
                self._stop_clock()

    @property
    def sending(self) -> bool:
        """Whether the client is still to send (the rest of) a request: no header yet, or
        a body not finished."""
        return self.conn.their_state in _SENDING

    def _start_clock(self) -> None:
        self._stop_clock()
        self.heard = bool(self.conn.trailing_data[0])  # bytes of the next request held
        self.clock = self.loop.call_later(self.request_seconds, self._too_slow)

    def _stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.cancel()
            self.clock = None

    def _too_slow(self) -> None:
        """A request begun and not finished is answered 408; a connection where none was
        begun is closed without a word (as uvicorn's keep-alive timeout does)."""
        self.clock = None
        if self.transport.is_closing() or not self.sending:
            return
        if self.heard:
            self._close(408, "Request Timeout", f"the request did not arrive whole within "
                        f"{self.request_seconds:g} seconds")
        else:
            self.transport.close()

    def _close(self, status: int, reason: str, message: str) -> None:
        """Answer `status` (unless an answer is under way) and close the connection."""
        if self.cycle is None or not self.cycle.response_started or \
                self.cycle.response_complete:
            self.transport.write(_closing_answer(status, reason, message))
        self.transport.close()

    def _make_room(self) -> None:
        """Past max_connections, close the oldest connection still sending its request, or
        refuse this one (503) when every other one is being answered."""
        if len(self.connections) <= self.max_connections:
            return
        waiting = [c for c in self.connections if c is not self and isinstance(c, BoundedH11)
                   and c.sending and not c.transport.is_closing()]
        if waiting:
            min(waiting, key=lambda c: c.opened).transport.close()
        else:
            self._close(503, "Service Unavailable", f"the server holds "
                        f"{self.max_connections:,} connections: try again soon")


def cap(wanted: int = MAX_CONNECTIONS) -> int:
    """`wanted` connections, fewer when the process may not open that many files (each is
    one) besides SPARE_FILES of its own."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - SPARE_FILES))


def bounded_protocol(request_seconds: float = REQUEST_SECONDS,
                     max_connections: int | None = None) -> type[BoundedH11]:
    """The protocol class with these limits (max_connections: `cap()` by default)."""
    return type("BoundedH11", (BoundedH11,), {
        "request_seconds": request_seconds,
        "max_connections": cap() if max_connections is None else max_connections})


def server_config(app, host: str, port: int, request_seconds: float = REQUEST_SECONDS,
                  max_connections: int | None = None, **options) -> uvicorn.Config:
    """uvicorn's Config for `app` with the connections bounded as above."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          http=bounded_protocol(request_seconds, max_connections),
                          timeout_keep_alive=KEEP_ALIVE_SECONDS, **options)
