"""Deadlines on real server processes: their clocks move by a file, nobody sleeps an hour."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.calls import auth
from tests.server import ServerProcess

HOUR = 3600
TIMEOUT = 60.0


def _timed_game(server: ServerProcess, policy: str = "bot_move") -> tuple[str, int]:
    """A started two-player MÄDN game with an hour per move; returns the room, seat to act."""
    created = httpx.post(
        f"{server.url}/api/rooms",
        json={
            "game": "maedn",
            "players": 2,
            "name": "Anna",
            "turn_seconds": HOUR,
            "on_timeout": policy,
        },
    ).json()
    room = created["room"]
    httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}).raise_for_status()
    started = httpx.post(f"{server.url}/api/rooms/{room}/start", headers=auth(created["token"]))
    started.raise_for_status()
    [seat] = started.json()["to_act"]
    return room, seat


def _events(server: ServerProcess, room: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{server.url}/api/rooms/{room}/events", timeout=10)
    response.raise_for_status()
    return list(response.json()["events"])


def _until_bot_moved(server: ServerProcess, room: str, seat: int) -> list[dict[str, Any]]:
    """The log once a bot has stood in for ``seat`` and made its move."""
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        events = _events(server, room)
        stood_in = [e["seq"] for e in events if e["kind"] == "seat_stand_in" and e["seat"] == seat]
        moved = [e["seq"] for e in events if e["kind"] == "move" and e["seat"] == seat]
        if stood_in and moved and moved[-1] > stood_in[0]:
            return events
        time.sleep(0.1)
    raise AssertionError(f"no bot move for seat {seat} in room {room}: {_events(server, room)}")


def test_a_deadline_that_passed_while_the_server_was_down_fires_on_start(
    tmp_path: Path, database_url: str
) -> None:
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    server = ServerProcess(
        tmp_path / "data",
        env={
            "DATABASE_URL": database_url,
            "CLOCK_OFFSET_FILE": str(offset),
            # the loop would not look again for an hour: only the look on start can fire it
            "DEADLINE_POLL_SECONDS": "3600",
        },
    )
    server.start()
    try:
        room, seat = _timed_game(server, policy="bot_seat")
        assert [e["kind"] for e in _events(server, room)][-1] == "game_started"
        server.stop()
        offset.write_text(str(HOUR + 60))
        server.start()
        events = _until_bot_moved(server, room, seat)
        [stand_in] = [e for e in events if e["kind"] == "seat_stand_in"]
        assert stand_in["reason"] == "timeout" and stand_in["once"] is False
        info = httpx.get(f"{server.url}/api/rooms/{room}").json()
        assert info["seats"][seat]["stand_in"] == stand_in["bot"]
    finally:
        server.stop()


def test_two_processes_on_one_postgres_fire_each_deadline_exactly_once(
    tmp_path: Path, postgres_url: str | None, redis_url: str
) -> None:
    if postgres_url is None:
        pytest.skip("TEST_DATABASE_URL not set")
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    env = {
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "CLOCK_OFFSET_FILE": str(offset),
        "DEADLINE_POLL_SECONDS": "0.2",
    }
    first = ServerProcess(tmp_path / "a", env=env)
    second = ServerProcess(tmp_path / "b", env=env)
    first.start()
    second.start()
    try:
        games = [_timed_game(first if i % 2 else second) for i in range(4)]
        offset.write_text(str(HOUR + 60))  # both processes' clocks pass every deadline at once
        for room, seat in games:
            _until_bot_moved(first, room, seat)
        # give both loops many more looks: a second firing would show up by now
        end = time.monotonic() + 3.0
        while time.monotonic() < end:
            time.sleep(0.2)
        for room, seat in games:
            events = _events(second, room)
            assert [e["seat"] for e in events if e["kind"] == "seat_stand_in"] == [seat]
            assert [e["seat"] for e in events if e["kind"] == "move"] == [seat]
    finally:
        first.stop()
        second.stop()
