"""Helpers for tests against real server processes: polling, a socket tab, REST calls.

Waits poll for a condition under a generous deadline that only guards against a hang;
no test passes or fails on how fast the machine is.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server import ServerProcess

T = TypeVar("T")
HANG = 120.0  # only ever reached when something hangs


def eventually(probe: Callable[[], T | None], what: str, deadline: float = HANG) -> T:
    """Poll ``probe`` until it returns something truthy."""
    end = time.monotonic() + deadline
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.1)


class Tab:
    """One browser tab's socket on one server process."""

    def __init__(self, server: ServerProcess, room: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(f"{server.ws_url}/api/rooms/{room}/ws")
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        self.state: dict[str, Any] = {}
        while not self.state:
            self.recv()

    def recv(self, timeout: float = HANG) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "state":
            self.state = message
        return message

    def until_seq(self, seq: int) -> dict[str, Any]:
        while self.state["seq"] < seq:
            self.recv()
        return self.state

    def move(self) -> dict[str, Any]:
        """Play the first legal move; the answer (ack or error)."""
        seq = self.state["seq"]
        self.ws.send(
            json.dumps(
                {"type": "move", "seq": seq, "move": self.state["legal_moves"][0], "id": seq}
            )
        )
        while True:
            message = self.recv()
            if message["type"] in {"ack", "error"} and message.get("id") == seq:
                return message

    def close(self) -> None:
        self.ws.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(server: ServerProcess, **body: Any) -> dict[str, Any]:
    response = httpx.post(
        f"{server.url}/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna", **body}
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def healthz(server: ServerProcess) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/healthz", timeout=30)
    body: dict[str, Any] = response.json()
    body["http_status"] = response.status_code
    return body


def get_state(server: ServerProcess, room: str, token: str | None = None) -> dict[str, Any]:
    response = httpx.get(
        f"{server.url}/api/rooms/{room}/state", headers=auth(token) if token else {}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def rest_move(server: ServerProcess, room: str, token: str) -> dict[str, Any]:
    state = get_state(server, room, token)
    response = httpx.post(
        f"{server.url}/api/rooms/{room}/moves",
        json={"seq": state["seq"], "move": state["legal_moves"][0]},
        headers=auth(token),
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def online(server: ServerProcess, room: str) -> list[bool]:
    response = httpx.get(f"{server.url}/api/rooms/{room}")
    assert response.status_code == 200, response.text
    return [bool(seat["online"]) for seat in response.json()["seats"]]


def children(pid: int) -> list[tuple[int, str]]:
    """The child processes of ``pid`` with their command lines, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        if ppid == pid:
            found.append((int(entry.name), cmdline))
    return found


def bot_workers(server: ServerProcess) -> list[int]:
    assert server.proc is not None
    return [pid for pid, cmd in children(server.proc.pid) if "spawn_main" in cmd]
