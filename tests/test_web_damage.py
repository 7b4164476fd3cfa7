"""`serve` on a damaged install (the learned player's net missing, empty or cut short; the
atlas not the file shipped): the warm-up warms every kind of query that does not need the
damaged file, `/api/health` is ready and says what is damaged, and the queries are answered:
those that need the file with 503 and the line naming it, the others (solve, double dummy,
the atlas or the net) as on a sound install."""

import time

from starlette.testclient import TestClient

from euchre_sim.web.app import create_app

HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"


def _health(client) -> dict:
    deadline = time.monotonic() + 300
    while not (health := client.get("/api/health").json())["ready"]:
        assert time.monotonic() < deadline, "the worker never became ready"
        time.sleep(0.2)
    return health


def test_a_damaged_net_is_said_in_health_and_only_its_queries_fail(damaged_net, tmp_path):
    with TestClient(create_app(runs_root=str(tmp_path)), base_url="http://127.0.0.1") as client:
        health = _health(client)
        assert str(damaged_net) in health["warm_up_error"]
        assert health["warm_up_error"].endswith("reinstall euchre-sim")
        assert {"dd", "rules", "pimc", "dd in the auction"} <= set(health["rates"])
        assert client.post("/api/solve", json={"deal": DEAL}).status_code == 200
        assert client.post("/api/advise", json=HAND | {"deals": 200, "play": "dd"}).json()[
            "play"] == "dd"
        assert client.post("/api/advise", json=HAND).json()["source"] == "atlas"
        for learned in ({"deals": 50}, {"deals": 50, "play": "learned", "bidding": "dd"}):
            response = client.post("/api/advise", json=HAND | learned)
            assert response.status_code == 503, response.text
            assert response.json()["error"] == health["warm_up_error"]
        job = client.post("/api/jobs", json={"kind": "advise", "query": HAND | {"deals": 50}})
        while (polled := client.get(f"/api/jobs/{job.json()['id']}").json())["state"] in (
                "queued", "running"):
            time.sleep(0.05)
        assert polled["state"] == "failed" and polled["error"] == health["warm_up_error"]


def test_a_damaged_atlas_is_said_in_health_and_only_its_queries_fail(package_copy, tmp_path):
    path = package_copy / "data" / "atlas_standard.parquet"
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data[:100_000])
    with TestClient(create_app(runs_root=str(tmp_path)), base_url="http://127.0.0.1") as client:
        health = _health(client)
        assert health["warm_up_error"] == (f"{path}: not the file this version ships (its "
                                           "sha256 is not data/manifest.json's); reinstall "
                                           "euchre-sim")
        assert client.post("/api/solve", json={"deal": DEAL}).status_code == 200
        for sound in ({"deals": 200, "play": "dd"}, {"deals": 50}):
            assert client.post("/api/advise", json=HAND | sound).status_code == 200
        response = client.post("/api/advise", json=HAND)
        assert response.status_code == 503, response.text
        assert response.json()["error"] == health["warm_up_error"]
