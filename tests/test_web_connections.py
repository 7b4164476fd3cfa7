"""Connections that never finish do not hold `serve` (issue 77, item 2): on a real server on
127.0.0.1 (`web.connections`), a request whose header or body stops half-way is answered 408
and closed once its time is up, /api/health answers meanwhile, and past the cap on open
connections the oldest unfinished ones are closed; a slow but whole request, and a query that
takes longer than that time, are answered. Only loopback addresses; counts and times bounded."""

import contextlib
import http.client
import json
import selectors
import socket
import time

import anyio
import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from euchre_sim.web.app import create_app
from euchre_sim.web.connections import KEEP_ALIVE_SECONDS, REQUEST_SECONDS, cap
from euchre_sim.web.worker import Worker

from .web_helpers import serving

HALF_HEADER = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "


def _half_sent(port: int, count: int) -> list[socket.socket]:
    """`count` connections that each send half a request header and nothing more."""
    held = []
    for _ in range(count):
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        raw.sendall(HALF_HEADER)
        held.append(raw)
    return held


def _health_seconds(port: int) -> float:
    """How long /api/health takes to answer 200 on a new connection (at most 5 s)."""
    start = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/health")
        response = connection.getresponse()
        assert response.status == 200 and "ready" in json.loads(response.read())
    finally:
        connection.close()
    return time.monotonic() - start


def _closed(sockets: list[socket.socket], seconds: float) -> dict[int, tuple[bytes, float]]:
    """The sockets the server closes within `seconds`: index -> (what it sent before, after
    how many seconds)."""
    selector, sent, closed = selectors.DefaultSelector(), {}, {}
    for index, raw in enumerate(sockets):
        raw.setblocking(False)
        selector.register(raw, selectors.EVENT_READ, index)
        sent[index] = b""
    start = time.monotonic()
    try:
        while len(closed) < len(sockets) and (left := start + seconds - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                try:
                    data = key.fileobj.recv(65_536)
                except ConnectionResetError:
                    data = b""
                if data:
                    sent[key.data] += data
                else:
                    closed[key.data] = (sent[key.data], time.monotonic() - start)
                    selector.unregister(key.fileobj)
    finally:
        selector.close()
    return closed


def _close_all(sockets: list[socket.socket]) -> None:
    for raw in sockets:
        raw.close()


def _answer(raw: socket.socket) -> bytes:
    """One whole answer read from `raw` (its header, and its body by content-length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += raw.recv(65_536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += raw.recv(65_536)
    return head + b"\r\n\r\n" + body


def _is_408(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.startswith(b"HTTP/1.1 408 ") and "error" in json.loads(body)


@contextlib.contextmanager
def _one_connection(tmp_path, request_seconds: float):
    """A socket to a real server of the page whose requests have `request_seconds`."""
    app = create_app(Worker(), runs_root=str(tmp_path))
    with serving(app, request_seconds=request_seconds) as port:
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        try:
            yield raw
        finally:
            raw.close()


def test_half_sent_headers_are_answered_408_and_closed_while_health_answers(tmp_path):
    with serving(create_app(Worker(), runs_root=str(tmp_path))) as port:
        held = _half_sent(port, 200)
        try:
            assert _health_seconds(port) < 2
            closed = _closed(held, REQUEST_SECONDS + 3)
            assert len(closed) == len(held)  # every one closed by the server
            assert all(_is_408(answer) for answer, _ in closed.values())
            assert max(after for _, after in closed.values()) < REQUEST_SECONDS + 3
            assert _health_seconds(port) < 2
        finally:
            _close_all(held)


def test_a_body_that_stops_half_way_is_answered_408_and_closed(tmp_path):
    with _one_connection(tmp_path, 2) as raw:
        raw.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    b"application/json\r\nContent-Length: 1000\r\n\r\n{\"deal\": ")
        closed = _closed([raw], 6)
        assert 0 in closed and _is_408(closed[0][0]) and 1.5 < closed[0][1] < 6


def test_the_next_request_on_a_kept_connection_has_its_time_too(tmp_path):
    with _one_connection(tmp_path, 2) as raw:
        raw.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert _answer(raw).startswith(b"HTTP/1.1 200 ")
        raw.sendall(HALF_HEADER)
        closed = _closed([raw], KEEP_ALIVE_SECONDS + 3)
        assert 0 in closed and _is_408(closed[0][0]) and closed[0][1] < 5


def test_past_the_cap_the_oldest_unfinished_connections_are_closed(tmp_path):
    count, most = 2 * cap(), cap()  # two thousand held, by default
    with serving(create_app(Worker(), runs_root=str(tmp_path)), request_seconds=60) as port:
        held = _half_sent(port, count)
        try:
            _health_seconds(port)  # answers (within its 5 s) behind the backlog of accepts
            closed = _closed(held, 3)
            still_open = sorted(set(range(count)) - set(closed))
            assert count - most - 1 <= len(closed) and len(still_open) <= most
            assert still_open[0] >= count - most - 10  # the newest are kept
            assert all(answer == b"" for answer, _ in closed.values())
            assert _health_seconds(port) < 2  # promptly, with the cap's worth still held
        finally:
            _close_all(held)


def test_a_slow_but_whole_request_is_answered(tmp_path):
    with _one_connection(tmp_path, 2) as raw:
        request = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        for piece in (request[:10], request[10:20], request[20:30], request[30:]):
            raw.sendall(piece)
            time.sleep(0.3)
        assert _answer(raw).startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_query_longer_than_the_request_time_is_answered(method):
    async def slow(request):
        await request.body()
        await anyio.sleep(2.5)
        return JSONResponse({"done": True})

    app = Starlette(routes=[Route("/slow", slow, methods=["GET", "POST"])])
    with serving(app, request_seconds=1) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request(method, "/slow", body=b"{}" if method == "POST" else None)
            response = connection.getresponse()
            assert response.status == 200 and json.loads(response.read()) == {"done": True}
        finally:
            connection.close()
