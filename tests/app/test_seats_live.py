"""Seats freed in a running game, on a real server: an open socket of the old token is closed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server import ServerProcess


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", env={"DATABASE_URL": database_url})
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_freed_players_open_socket_is_closed_and_can_no_longer_move(
    server: ServerProcess,
) -> None:
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "maedn", "players": 2, "name": "Anna"}
    ).json()
    room, anna = created["room"], created["token"]
    ben = httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    httpx.post(
        f"{server.url}/api/rooms/{room}/start", headers={"Authorization": f"Bearer {anna}"}
    ).raise_for_status()
    with connect(f"{server.ws_url}/api/rooms/{room}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": ben, "since": None}))
        assert json.loads(ws.recv(timeout=10))["you"] == 1
        freed = httpx.post(
            f"{server.url}/api/rooms/{room}/seats/1/free",
            headers={"Authorization": f"Bearer {anna}"},
        )
        assert freed.status_code == 200, freed.text
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                message = json.loads(ws.recv(timeout=10))
                assert (
                    message.get("you") != 1
                    or message["type"] != "state"
                    or message["seq"] < freed.json()["seq"]
                )
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_the_host_hand_over_is_pushed_to_every_socket_and_the_new_host_can_free_the_old(
    server: ServerProcess,
) -> None:
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "maedn", "players": 2, "name": "Anna"}
    ).json()
    room, anna = created["room"], created["token"]
    ben = httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    httpx.post(
        f"{server.url}/api/rooms/{room}/start", headers={"Authorization": f"Bearer {anna}"}
    ).raise_for_status()
    url = f"{server.ws_url}/api/rooms/{room}/ws"
    with connect(url, open_timeout=10) as anna_ws, connect(url, open_timeout=10) as ben_ws:
        for ws, token in ((anna_ws, anna), (ben_ws, ben)):
            ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
            assert json.loads(ws.recv(timeout=10))["room"]["host_seat"] == 0
        handed = httpx.post(
            f"{server.url}/api/rooms/{room}/host",
            json={"seat": 1},
            headers={"Authorization": f"Bearer {anna}"},
        )
        assert handed.status_code == 200, handed.text
        for ws in (anna_ws, ben_ws):
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] == "state" and message["seq"] >= handed.json()["seq"]:
                    break
            assert message["room"]["host_seat"] == 1
            (event,) = [e for e in message["events"] if e["kind"] == "host_changed"]
            assert {k: event[k] for k in ("seat", "name", "from", "from_name")} == {
                "seat": 1,
                "name": "Ben",
                "from": 0,
                "from_name": "Anna",
            }
            assert "token_hash" not in event
        # Ben is the host now: he frees Anna's seat, and her open socket is closed
        freed = httpx.post(
            f"{server.url}/api/rooms/{room}/seats/0/free",
            headers={"Authorization": f"Bearer {ben}"},
        )
        assert freed.status_code == 200, freed.text
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                anna_ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
