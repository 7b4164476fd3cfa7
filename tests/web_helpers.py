"""What the web tests share: a real server (an app under uvicorn in a thread, on a free
loopback port) and a runs folder with ways out of it."""

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator

import uvicorn

from euchre_sim.web.connections import server_config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(app, start_seconds: float = 60, **limits) -> Iterator[int]:
    """The port `app` answers on (127.0.0.1) while the block runs, served as `serve` serves
    it (`web.connections.server_config`, with `limits` such as request_seconds)."""
    port = free_port()
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, **limits))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=60)


RUN_JSON = {"rules": {"deck": 24}, "deals": 10, "seed": 1}


def runs_tree(base) -> tuple[str, str]:
    """(root, outside) under `base`: run folders a and b/c under the root, one too deep, one
    hidden; a run folder outside, and a symlink `link` from the root to it. Hand histories:
    a/hands.jsonl and b/c/game.egn under the root, one hidden, one outside (`secret`) with a
    symlink `link.jsonl` to it, and a file of another kind."""
    root, outside = os.path.join(base, "root"), os.path.join(base, "outside")
    for folder in ("root/a", "root/b/c", "root/deep/1/2/3", "root/.hidden", "outside/secret"):
        os.makedirs(os.path.join(base, folder))
        with open(os.path.join(base, folder, "run.json"), "w", encoding="utf-8") as handle:
            json.dump(RUN_JSON, handle)
    os.makedirs(os.path.join(root, "empty"))
    os.symlink(os.path.join(outside, "secret"), os.path.join(root, "link"))
    for history in ("root/a/hands.jsonl", "root/b/c/game.egn", "root/.hidden/h.jsonl",
                    "outside/secret/hands.jsonl", "root/a/notes.txt"):
        with open(os.path.join(base, history), "w", encoding="utf-8") as handle:
            handle.write("{}\n")
    os.symlink(os.path.join(outside, "secret", "hands.jsonl"), os.path.join(root, "link.jsonl"))
    return root, outside
