"""Log lines from a real server: JSON when asked, a request id and the room id on
every line of a request, never a seat token, client addresses only when allowed."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from app.core.logs import ContextFilter, JsonFormatter, TextFormatter, scrub
from tests.server import ServerProcess


def _lines(server: ServerProcess) -> list[dict[str, Any]]:
    text = server.log.read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            pytest.fail(f"not a JSON line: {line!r}")
    return parsed


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path, env={"LOG_FORMAT": "json", "BOT_WORKERS": "0"})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _play_a_little(server: ServerProcess) -> tuple[str, str, str]:
    created = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": "blokus", "players": 2, "name": "Anna"},
        headers={"X-Request-ID": "from-the-client-42"},
    )
    assert created.headers["x-request-id"] == "from-the-client-42"
    room, anna = created.json()["room"], created.json()["token"]
    ben = httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"})
    assert ben.status_code == 200
    httpx.get(f"{server.url}/api/rooms/{room}/state", headers={"Authorization": f"Bearer {anna}"})
    httpx.get(f"{server.url}/api/rooms/{room}/state", headers={"Authorization": "Bearer wrong"})
    with connect(f"{server.ws_url}/api/rooms/{room}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": anna}))
        ws.recv()
    return room, anna, ben.json()["token"]


def test_json_logs_carry_request_and_room_ids_and_no_tokens_or_addresses(
    json_server: ServerProcess,
) -> None:
    room, anna, ben = _play_a_little(json_server)
    json_server.stop()
    lines = _lines(json_server)
    raw = json_server.log.read_text()
    assert anna not in raw and ben not in raw
    assert "127.0.0.1:" not in raw.replace(f"127.0.0.1:{json_server.port}", "")
    for line in lines:
        assert {"time", "level", "logger", "message", "request_id", "room_id"} <= set(line)
        assert "client" not in line
    requests = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert requests, "no access lines"
    assert all(line["request_id"] for line in requests)
    assert len({line["request_id"] for line in requests}) == len(requests)
    created = [line for line in requests if line["request_id"] == "from-the-client-42"]
    assert len(created) == 1 and "POST /api/rooms " in created[0]["message"]
    assert created[0]["room_id"] == room  # the room it created
    in_room = [line for line in requests if f"/api/rooms/{room}/" in line["message"]]
    assert len(in_room) >= 2
    assert all(line["room_id"] == room for line in in_room)
    sockets = [line for line in lines if "WebSocket" in line["message"]]
    assert sockets and all(line["room_id"] == room for line in sockets)


def test_client_addresses_are_logged_only_when_configured(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path, env={"LOG_FORMAT": "json", "LOG_CLIENT_ADDRESSES": "true", "BOT_WORKERS": "0"}
    )
    server.start()
    try:
        httpx.get(f"{server.url}/api/games")
    finally:
        server.stop()
    access = [line for line in _lines(server) if line["logger"] == "uvicorn.access"]
    assert any(line.get("client", "").startswith("127.0.0.1:") for line in access)


def test_text_logs_name_the_request_and_room_too() -> None:
    record = logging.LogRecord("app.x", logging.INFO, __file__, 1, "hello %s", ("you",), None)
    ContextFilter(addresses=False).filter(record)
    assert TextFormatter().format(record).endswith("app.x [- -] hello you")


def test_tokens_are_masked_wherever_they_turn_up() -> None:
    for line, secret in [
        ("Authorization: Bearer abcDEF123_-x", "abcDEF123_-x"),
        ('{"token": "s3cr3t-t0ken"}', "s3cr3t-t0ken"),
        ("/r/room#token=s3cr3t-t0ken", "s3cr3t-t0ken"),
        ("METRICS_TOKEN=hunter22", "hunter22"),
    ]:
        assert secret not in scrub(line), line
    assert scrub("token_hash stays; tokens: 3 issued") == "token_hash stays; tokens: 3 issued"


def test_json_lines_hold_the_error_of_a_failure() -> None:
    try:
        raise ValueError("Bearer leaked-token in an error")
    except ValueError:
        record = logging.LogRecord(
            "app.x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
        )
    ContextFilter(addresses=False).filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "error" and "ValueError" in line["error"]
    assert "leaked-token" not in line["error"]


def test_the_server_says_it_serves_on_uvloop(tmp_path: Path) -> None:
    """``python -m app`` names uvloop, httptools and the sans-I/O websockets protocol
    (app/cli.py), and the app says at start which loop it got."""
    server = ServerProcess(tmp_path, env={"BOT_WORKERS": "0"})
    server.start()
    try:
        log = server.log.read_text()
    finally:
        server.stop()
    assert "serving on the event loop uvloop.Loop" in log, log[-2000:]
