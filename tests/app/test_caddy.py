"""The compose stack's Caddyfile, run by a real Caddy in front of a real app process:
requests and websockets go through, and a client can't pass itself off as another
address with a forged X-Forwarded-For. (Plain http on a free port here; with a
domain name, the same site block gets its certificate.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server import ROOT, ServerProcess, free_port

CADDY = shutil.which("caddy")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(
        tmp_path / "app",
        env={
            "BOT_WORKERS": "0",
            "TRUST_PROXY_HEADERS": "true",
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
            "ROOMS_PER_MINUTE": "1",
        },
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def caddy(app: ServerProcess, tmp_path: Path) -> Iterator[str]:
    if CADDY is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("no caddy: CI must run `make proxy` first")
        pytest.skip("caddy is not installed (make proxy)")
    port = free_port()
    home = tmp_path / "caddy"
    home.mkdir()
    env = {
        **os.environ,
        "DOMAIN": f"http://127.0.0.1:{port}",
        "APP_UPSTREAM_HOST": "127.0.0.1",
        "APP_UPSTREAM_PORT": str(app.port),
        "CADDY_ADMIN": "off",
        "XDG_DATA_HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "HOME": str(home),
    }
    log = home / "caddy.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [CADDY, "run", "--config", str(ROOT / "Caddyfile"), "--adapter", "caddyfile"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_rooms_and_websockets_work_through_caddy(caddy: str) -> None:
    created = httpx.post(f"{caddy}/api/rooms", json={"game": "blokus", "players": 2, "name": "A"})
    assert created.status_code == 201, created.text
    room, token = created.json()["room"], created.json()["token"]
    ws_url = caddy.replace("http://", "ws://") + f"/api/rooms/{room}/ws"
    with connect(ws_url, open_timeout=20) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        state = json.loads(ws.recv(timeout=20))
        assert state["type"] == "state" and state["you"] == 0
        ws.send(json.dumps({"type": "ping", "id": 1}))
        # presence may be pushed before the answer: read on to the pong
        for _ in range(10):
            message = json.loads(ws.recv(timeout=20))
            if message["type"] != "presence":
                break
        assert message == {"type": "pong", "id": 1}


def test_a_forged_forwarded_for_does_not_make_a_new_client(caddy: str) -> None:
    body = {"game": "blokus", "players": 2, "name": "A"}
    first = httpx.post(f"{caddy}/api/rooms", json=body, headers={"X-Forwarded-For": "192.0.2.1"})
    assert first.status_code == 201
    # one room a minute per address: a second address claimed by the client is no help
    second = httpx.post(f"{caddy}/api/rooms", json=body, headers={"X-Forwarded-For": "192.0.2.2"})
    assert second.status_code == 429
    assert second.json()["code"] == "too_many_rooms"
