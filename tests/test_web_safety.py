"""`serve`'s safety rules through Starlette's test client (SPEC, `euchre-sim serve`): the Host
names served, the token of a remote server, JSON bodies only and at most 64 KB, and paths read
only under the runs folder. No warm-up: nothing here runs a kernel."""

import asyncio
import os

import pytest
from starlette.testclient import TestClient

from euchre_sim.web.app import create_app
from euchre_sim.web.guard import MAX_BODY, Guard
from euchre_sim.web.hosts import AllowedHosts, is_loopback
from euchre_sim.web.runs_root import MAX_RUNS, RunsRoot
from euchre_sim.web.worker import Worker

from .web_helpers import runs_tree

HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
JSON_PATHS = ("/api/advise", "/api/solve", "/api/estimate", "/api/jobs", "/api/review",
              "/api/entry", "/api/practice", "/api/practice/0/act")
TOKEN = "s3cret-token"


def _client(root: str, **options) -> TestClient:
    return TestClient(create_app(Worker(), runs_root=root, **options),
                      base_url="http://127.0.0.1:8765")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return runs_tree(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def client(tree):
    with _client(tree[0]) as test_client:
        yield test_client


def _one_line_error(response, status: int) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error and "\n" not in error
    return error


# ---- Host ---------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8765", "localhost", "LOCALHOST:1",
                                  "[::1]", "[::1]:8765"])
def test_the_loopback_names_are_served_with_any_port(client, host):
    assert client.get("/api/health", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["testserver", "evil.example", "evil.example:8765",
                                  "127.0.0.1.evil.example", "localhost.evil.example", "[::2]",
                                  "192.0.2.7:8765", "", "[::1]evil.example",
                                  "localhost:evil.example", "localhost:80:80", "localhost:",
                                  "localhost:99999", "::1", "[localhost]", "127.0.0.1 evil"])
@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/health", "/api/runs"])
def test_other_host_names_are_a_400_in_json(client, host, path):
    error = _one_line_error(client.get(path, headers={"host": host}), 400)
    assert "does not answer to the host" in error


def test_the_host_given_is_served_too(tree):
    with _client(tree[0], host="192.0.2.7") as remote:
        assert remote.get("/api/health", headers={"host": "192.0.2.7:8765"}).status_code == 200
        assert remote.get("/api/health", headers={"host": "192.0.2.8"}).status_code == 400


def test_listening_everywhere_serves_the_address_a_request_arrived_on():
    everywhere = AllowedHosts.serving("0.0.0.0")
    assert everywhere.allows("192.0.2.7:8765", "192.0.2.7")
    assert everywhere.allows("localhost:8765", "192.0.2.7")
    assert not everywhere.allows("evil.example:8765", "192.0.2.7")
    assert not everywhere.allows("192.0.2.8", "192.0.2.7")
    assert not AllowedHosts.serving("127.0.0.1").allows("192.0.2.7", "192.0.2.7")


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True),
    ("127.0.0.2", True), ("0.0.0.0", False), ("::", False), ("192.0.2.7", False),
    ("example.com", False), ("", False)])
def test_loopback_hosts_are_told_apart(host, loopback):
    assert is_loopback(host) is loopback


# ---- the token ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def remote(tree):
    with _client(tree[0], token=TOKEN) as test_client:
        yield test_client


@pytest.mark.parametrize("params, headers", [
    ({}, {}), ({"token": "wrong"}, {}), ({"token": ""}, {}), ({"token": TOKEN[:-1]}, {}),
    ({"token": "é" + TOKEN}, {}), ({}, {"authorization": "Bearer wrong"}),
    ({}, {"authorization": f"Basic {TOKEN}"}), ({}, {"authorization": TOKEN})])
@pytest.mark.parametrize("path", ["/api/health", "/api/runs", "/api/run?dir=a", "/favicon.ico",
                                  "/api/histories"])
def test_a_remote_server_refuses_calls_without_its_token(remote, path, params, headers):
    response = remote.get(path, params=params, headers=headers)
    assert "token" in _one_line_error(response, 401)
    assert response.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize("path, body", [
    ("/api/advise", HAND), ("/api/review", {"file": "a/hands.jsonl"}),
    ("/api/entry", {"record": {}}),
    ("/api/jobs", {"kind": "review", "query": {"file": "a/hands.jsonl"}})])
def test_a_remote_server_refuses_posts_without_its_token(remote, path, body):
    response = remote.post(path, json=body, params={"token": "wrong"})
    assert "token" in _one_line_error(response, 401)
    assert remote.get("/api/health", params={"token": TOKEN}).json()["waiting"] == 0


@pytest.mark.parametrize("params, headers", [
    ({"token": TOKEN}, {}), ({}, {"authorization": f"Bearer {TOKEN}"}),
    ({}, {"authorization": f"bearer {TOKEN}"})])
def test_a_remote_server_answers_calls_with_its_token(remote, params, headers):
    assert remote.get("/api/runs", params=params, headers=headers).status_code == 200
    assert remote.get("/api/histories", params=params, headers=headers).status_code == 200
    response = remote.post("/api/estimate", json=HAND, params=params, headers=headers)
    assert response.status_code == 200, response.text


def test_the_page_and_its_files_need_no_token(remote):
    assert remote.get("/").status_code == 200
    assert remote.get("/static/app.js").status_code == 200


def test_a_loopback_server_needs_no_token(client):
    assert client.get("/api/health").status_code == 200


# ---- other sites --------------------------------------------------------------------------

@pytest.mark.parametrize("headers", [
    {"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
    {"origin": "http://evil.example"}, {"origin": "null"},
    {"origin": "http://127.0.0.1:8766"},
    {"sec-fetch-site": "same-origin", "origin": "http://evil.example"}])
@pytest.mark.parametrize("path", ["/api/run/plot?dir=a", "/api/run/table?dir=a",
                                  "/api/run?dir=a", "/api/health"])
def test_api_calls_from_another_sites_page_are_403(client, remote, path, headers):
    for server, token in ((client, {}), (remote, {"token": TOKEN})):
        error = _one_line_error(server.get(path, headers=headers, params=token), 403)
        assert "another site" in error


def test_posts_from_another_sites_page_are_403(client):
    response = client.post("/api/solve", json={"deal": "N:"}, headers={
        "origin": "http://evil.example", "sec-fetch-site": "cross-site"})
    assert "another site" in _one_line_error(response, 403)


@pytest.mark.parametrize("headers", [
    {"sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"},
    {"origin": "http://127.0.0.1:8765"}, {"origin": "https://127.0.0.1:8765"},
    {"sec-fetch-site": "same-origin", "origin": "http://127.0.0.1:8765"}])
def test_the_pages_own_calls_and_typed_addresses_are_served(client, headers):
    assert client.get("/api/run?dir=a", headers=headers).status_code == 200


def test_the_page_itself_opens_from_a_link_on_another_site(client):
    """A link elsewhere opens the page (a navigation: Sec-Fetch-Site cross-site)."""
    for path in ("/", "/static/app.js"):
        assert client.get(path, headers={"sec-fetch-site": "cross-site"}).status_code == 200


# ---- bodies -------------------------------------------------------------------------------

@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx",
                                          "text/json"])
@pytest.mark.parametrize("path", JSON_PATHS)
def test_json_endpoints_take_only_application_json(client, path, content_type):
    headers = {"content-type": content_type} if content_type else {}
    response = client.post(path, content=b'{"hand": "JS AS 9H 9D TC"}', headers=headers)
    assert "application/json" in _one_line_error(response, 415)


@pytest.mark.parametrize("content_type", ["application/json", "Application/JSON",
                                          "application/json; charset=utf-8"])
def test_application_json_with_parameters_is_read(client, content_type):
    response = client.post("/api/estimate", content=b'{"hand": "JS AS 9H 9D TC", "up": "9S", '
                           b'"seat": 1}', headers={"content-type": content_type})
    assert response.status_code == 200, response.text


def _padded(size: int) -> bytes:
    """An estimate body of exactly `size` bytes (JSON padded with spaces)."""
    body = b'{"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}'
    return body + b" " * (size - len(body))


def test_a_body_of_64_kb_is_read(client):
    response = client.post("/api/estimate", content=_padded(MAX_BODY),
                           headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("path", JSON_PATHS)
def test_a_longer_body_is_a_413_before_it_is_parsed(client, path):
    # not JSON at all: a 400 would mean the app had read it
    response = client.post(path, content=b"x" * (MAX_BODY + 1),
                           headers={"content-type": "application/json"})
    assert "over 65,536 bytes" in _one_line_error(response, 413)


def test_a_long_body_without_a_length_is_cut_off_while_it_streams():
    received, reached, answer = [], [], []

    async def app(scope, receive, send):
        reached.append(scope)

    async def receive():  # a body without end
        received.append(1)
        return {"type": "http.request", "body": b" " * 16_384, "more_body": True}

    async def send(message):
        answer.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/advise", "query_string": b"",
             "server": ("127.0.0.1", 8765),
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]}
    asyncio.run(Guard(app, AllowedHosts.serving("127.0.0.1"))(scope, receive, send))
    assert reached == [] and answer[0]["status"] == 413
    assert len(received) == MAX_BODY // 16_384 + 1


def test_a_get_announcing_a_long_body_is_a_413(client):
    response = client.request("GET", "/api/health", content=b" " * (MAX_BODY + 1))
    _one_line_error(response, 413)


# ---- the runs folder ----------------------------------------------------------------------

def test_the_runs_listed_are_the_run_folders_under_the_root(client, tree):
    listing = client.get("/api/runs").json()
    assert listing == {"root": os.path.realpath(tree[0]), "runs": ["a", "b/c"],
                       "truncated": False}


def test_the_listing_is_bounded(tmp_path):
    for n in range(MAX_RUNS + 5):
        (tmp_path / f"r{n:03d}").mkdir()
        (tmp_path / f"r{n:03d}" / "run.json").write_text("{}")
    listing = RunsRoot(str(tmp_path)).runs()
    assert len(listing["runs"]) == MAX_RUNS and listing["truncated"] is True


def test_the_runs_folder_is_by_default_the_folder_the_server_started_in(tree, monkeypatch):
    monkeypatch.chdir(os.path.join(tree[0], "b"))
    with TestClient(create_app(Worker()), base_url="http://127.0.0.1") as here:
        assert here.get("/api/runs").json()["runs"] == ["c"]
        assert here.get("/api/run", params={"dir": "c"}).status_code == 200
        assert here.get("/api/run", params={"dir": "../a"}).status_code == 403


@pytest.mark.parametrize("inside", ["a", "a/", "./a", "b/../a", "b/c/../../a", "{root}/a"])
def test_run_folders_under_the_root_open(client, tree, inside):
    response = client.get("/api/run", params={"dir": inside.format(root=tree[0])})
    assert response.status_code == 200, response.text
    assert response.json()["run"]["deals"] == 10


def _escapes(tree) -> list[str]:
    """Paths out of the root: existing ones (a run folder, through `..`, a symlink or an
    absolute path) and missing ones, which must be answered alike."""
    root, outside = tree
    return ["..", "../outside/secret", "a/../../outside/secret", "link", "link/",
            "link/../secret", os.path.join(outside, "secret"), "/", "/etc", "/etc/passwd",
            "../nothing/here", "/no/such/run", "link/nothing", os.path.dirname(root)]


@pytest.mark.parametrize("path", ["/api/run", "/api/run/table", "/api/run/plot"])
def test_run_folders_outside_the_root_are_403_whether_they_exist_or_not(client, tree, path):
    for escape in _escapes(tree):
        response = client.get(path, params={"dir": escape, "table": "calls"})
        error = _one_line_error(response, 403)
        assert error == f"{escape!r} is outside the runs folder (serve --runs)"


def test_a_missing_folder_under_the_root_is_a_400(client):
    assert "no run folder" in _one_line_error(client.get("/api/run", params={"dir": "none"}),
                                               400)


@pytest.mark.parametrize("field, extra", [
    ("bidder_table", {"bidding": "table"}), ("odds", {"bidding": "rules", "score": "8-9"}),
    ("bidder_params", {"bidding": "rules"})])
@pytest.mark.parametrize("path", ["/api/advise", "/api/estimate", "/api/jobs"])
def test_advise_reads_tables_and_odds_only_under_the_root(client, tree, field, extra, path):
    for escape in _escapes(tree):
        body = HAND | extra | {field: escape}
        response = client.post(path, json={"kind": "advise", "query": body}
                               if path == "/api/jobs" else body)
        error = _one_line_error(response, 403)
        assert error == f"{escape!r} is outside the runs folder (serve --runs)"
    assert client.get("/api/health").json()["waiting"] == 0  # nothing was queued


def test_the_histories_listed_are_the_jsonl_and_egn_files_under_the_root(client, tree):
    listing = client.get("/api/histories").json()  # no hidden file, no symlink out
    assert listing == {"root": os.path.realpath(tree[0]),
                       "files": ["a/hands.jsonl", "b/c/game.egn"], "truncated": False}


@pytest.mark.parametrize("path", ["/api/review", "/api/jobs"])
def test_review_reads_histories_only_under_the_root(client, tree, path):
    outside = os.path.join(tree[1], "secret", "hands.jsonl")
    for escape in [*_escapes(tree), "link.jsonl", outside, "../outside/secret/hands.jsonl",
                   "../outside/secret/none.jsonl", "link/hands.jsonl", "link/none.jsonl"]:
        body = {"file": escape, "worlds": 10}
        response = client.post(path, json={"kind": "review", "query": body}
                               if path == "/api/jobs" else body)
        error = _one_line_error(response, 403)
        assert error == f"{escape!r} is outside the runs folder (serve --runs)"
    for field in ("bidder_table", "bidder_params"):
        body = {"file": "a/hands.jsonl", "bidding": "rules", field: "link/x"}
        assert _one_line_error(client.post("/api/review", json=body), 403) == \
            "'link/x' is outside the runs folder (serve --runs)"
    assert client.get("/api/health").json()["waiting"] == 0  # nothing was queued


def test_a_path_with_a_nul_is_a_400(client):
    assert "not a path" in _one_line_error(client.get("/api/run", params={"dir": "a\0b"}), 400)
