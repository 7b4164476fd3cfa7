"""`serve`'s app on a real loopback port against a hostile client speaking plain HTTP
(http.client and a bare socket): a foreign Host, bodies that are not JSON or too long (with a
length and without one), ways out of the runs folder, and a remote-mode server without its
token. Nothing here runs a kernel."""

import http.client
import json
import os
import socket
from urllib.parse import quote

import pytest

from euchre_sim.web.app import create_app
from euchre_sim.web.guard import MAX_BODY
from euchre_sim.web.worker import Worker

from .web_helpers import runs_tree, serving

TOKEN = "s3cret-token"
HAND = json.dumps({"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}).encode()


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return runs_tree(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def port(tree):
    with serving(create_app(Worker(), runs_root=tree[0])) as local_port:
        yield local_port


@pytest.fixture(scope="module")
def remote_port(tree):
    with serving(create_app(Worker(), runs_root=tree[0], token=TOKEN)) as token_port:
        yield token_port


def _ask(port: int, method: str, path: str, body: bytes | None = None,
         headers: dict | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _error(port: int, method: str, path: str, status: int, **request) -> str:
    answer, body = _ask(port, method, path, **request)
    assert answer == status, body
    error = json.loads(body)["error"]
    assert "\n" not in error
    return error


def _raw_status(port: int, head: bytes, some_body: bytes) -> bytes:
    """The status line a server answers to a request of which only the head and the start of
    the body are sent (the rest never comes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        raw.sendall(head + some_body)
        answer = b""
        while b"\r\n" not in answer:
            chunk = raw.recv(4096)
            assert chunk, "the server closed without answering"
            answer += chunk
        return answer.split(b"\r\n")[0]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.nip.io",
                                  "localhost.evil.example"])
@pytest.mark.parametrize("method, path", [("GET", "/"), ("GET", "/api/health"),
                                          ("POST", "/api/jobs")])
def test_a_foreign_host_is_turned_away(port, host, method, path):
    body = json.dumps({"kind": "advise", "query": json.loads(HAND)}).encode()
    error = _error(port, method, path, 400, headers={"Host": host,
                                                     "Content-Type": "application/json"},
                   body=body if method == "POST" else None)
    assert "does not answer to the host" in error


def test_the_loopback_host_is_served(port):
    assert _ask(port, "GET", "/api/health", headers={"Host": f"localhost:{port}"})[0] == 200
    assert _ask(port, "GET", "/api/health")[0] == 200  # http.client's own Host: 127.0.0.1:port


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=b"])
def test_bodies_a_form_could_send_are_refused(port, content_type):
    error = _error(port, "POST", "/api/advise", 415, body=HAND,
                   headers={"Content-Type": content_type})
    assert "application/json" in error


def test_a_long_body_with_its_length_is_refused(port):
    body = b" " * (MAX_BODY + 1)
    assert "over 65,536 bytes" in _error(port, "POST", "/api/advise", 413, body=body,
                                         headers={"Content-Type": "application/json"})


def test_a_long_body_is_refused_before_it_is_all_sent(port):
    head = (f"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\n").encode()
    announced = head + b"Content-Length: 100000000\r\n\r\n"
    assert _raw_status(port, announced, b"{") == b"HTTP/1.1 413 Request Entity Too Large"
    chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"  # 16 KB chunks, no end
    chunked = head + b"Transfer-Encoding: chunked\r\n\r\n"
    assert _raw_status(port, chunked, chunk * 5) == b"HTTP/1.1 413 Request Entity Too Large"


def test_a_server_still_answers_after_a_long_body(port):
    test_a_long_body_with_its_length_is_refused(port)
    assert _ask(port, "GET", "/api/health")[0] == 200


@pytest.mark.parametrize("escape", ["..", "../outside/secret", "a/../../outside/secret", "link",
                                    "link/", "/etc", "/no/such/run", "../no/such/run"])
@pytest.mark.parametrize("path", ["/api/run", "/api/run/table", "/api/run/plot"])
def test_ways_out_of_the_runs_folder_are_403(port, tree, path, escape):
    error = _error(port, "GET", f"{path}?dir={quote(escape)}", 403)
    assert error == f"{escape!r} is outside the runs folder (serve --runs)"
    outside = os.path.join(tree[1], "secret")
    assert _error(port, "GET", f"{path}?dir={quote(outside)}", 403).startswith(repr(outside))


def test_a_symlink_out_is_never_listed(port):
    status, body = _ask(port, "GET", "/api/runs")
    assert status == 200 and json.loads(body)["runs"] == ["a", "b/c"]


@pytest.mark.parametrize("field, extra", [("bidder_table", {"bidding": "table"}),
                                          ("odds", {"bidding": "rules", "score": "8-9"}),
                                          ("bidder_params", {"bidding": "rules"})])
def test_advise_reads_no_file_outside_the_runs_folder(port, field, extra):
    body = json.dumps(json.loads(HAND) | extra | {field: "link"}).encode()
    error = _error(port, "POST", "/api/advise", 403, body=body,
                   headers={"Content-Type": "application/json"})
    assert error == "'link' is outside the runs folder (serve --runs)"


@pytest.mark.parametrize("path", ["/static/../../../../etc/passwd",
                                  "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd"])
def test_static_files_stay_in_their_folder(port, path):
    status, body = _ask(port, "GET", path)
    assert status == 404 and b"root:" not in body


@pytest.mark.parametrize("path, headers", [
    ("/api/health", {}), ("/api/health?token=wrong", {}), ("/api/runs", {}),
    ("/api/runs", {"Authorization": "Bearer wrong"}), ("/api/run?dir=a", {}),
    (f"/api/run?dir=a&token={TOKEN}x", {})])
def test_a_remote_server_refuses_a_missing_or_wrong_token(remote_port, path, headers):
    assert "token" in _error(remote_port, "GET", path, 401, headers=headers)


def test_a_remote_server_answers_its_token(remote_port):
    assert _ask(remote_port, "GET", f"/api/run?dir=a&token={TOKEN}")[0] == 200
    bearer = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    assert _ask(remote_port, "POST", "/api/estimate", body=HAND, headers=bearer)[0] == 200
    assert _ask(remote_port, "GET", "/")[0] == 200  # the page itself: it reads the token


@pytest.mark.parametrize("escape", ["link.jsonl", "../outside/secret/hands.jsonl",
                                    "../outside/secret/none.jsonl", "/etc/passwd",
                                    "link/hands.jsonl"])
def test_review_reads_no_history_outside_the_runs_folder(port, escape):
    body = json.dumps({"file": escape}).encode()
    error = _error(port, "POST", "/api/review", 403, body=body,
                   headers={"Content-Type": "application/json"})
    assert error == f"{escape!r} is outside the runs folder (serve --runs)"


@pytest.mark.parametrize("path", ["/api/review", "/api/entry"])
def test_review_and_entry_take_only_short_json(port, path):
    body = json.dumps({"file": "a/hands.jsonl"}).encode()
    assert "application/json" in _error(port, "POST", path, 415, body=body,
                                        headers={"Content-Type": "text/plain"})
    assert "over 65,536 bytes" in _error(port, "POST", path, 413, body=b" " * (MAX_BODY + 1),
                                         headers={"Content-Type": "application/json"})


def test_a_remote_server_lists_no_history_without_its_token(remote_port):
    assert "token" in _error(remote_port, "GET", "/api/histories", 401)
    status, body = _ask(remote_port, "GET", f"/api/histories?token={TOKEN}")
    assert status == 200 and json.loads(body)["files"] == ["a/hands.jsonl", "b/c/game.egn"]
