"""Websockets against a real server process: live play, reconnects, races, restarts."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker
from app.play import store
from app.play.state import RoomState, fold
from app.play.store import Store
from engines import get_engine
from tests.server import ServerProcess

TIMEOUT = 10.0


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", env={"DATABASE_URL": database_url})
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


class Client:
    """One browser tab's socket: hello, then messages as dicts."""

    def __init__(
        self, server: ServerProcess, room: str, token: str | None, since: int | None = None
    ) -> None:
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/api/rooms/{room}/ws", open_timeout=TIMEOUT
        )
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
        self.seen: list[dict[str, Any]] = []
        self.state = self.expect("state")

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def expect(self, kind: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message
            # an error answering what we wait for never turns into it: fail now, and say why
            answered = "id" in match and message.get("id") in (match["id"], None)
            if kind != "error" and message["type"] == "error" and answered:
                raise AssertionError(f"expected {kind} {match}, got error {message}")

    def until_seq(self, seq: int) -> dict[str, Any]:
        while self.state["seq"] < seq:
            self.recv()
        return self.state

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.close()


def _room(server: ServerProcess, players: int = 2, **extra: Any) -> tuple[str, list[str]]:
    created = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": "blokus", "players": players, "name": "Anna", **extra},
    ).json()
    tokens = [created["token"]]
    for seat in range(1, players):
        if str(seat) in {str(k) for k in extra.get("bots", {})}:
            continue
        tokens.append(
            httpx.post(
                f"{server.url}/api/rooms/{created['room']}/seats/{seat}", json={"name": f"P{seat}"}
            ).json()["token"]
        )
    return created["room"], tokens


def _start(server: ServerProcess, room: str, token: str) -> dict[str, Any]:
    response = httpx.post(
        f"{server.url}/api/rooms/{room}/start", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def _started_game(server: ServerProcess) -> tuple[str, list[str], list[Client]]:
    """A 2-player Blokus room with both seats connected and the game started."""
    room, tokens = _room(server)
    seats = [Client(server, room, t) for t in tokens]
    _start(server, room, tokens[0])
    for client in seats:
        client.expect("state")
    return room, tokens, seats


def _play_one(client: Client) -> dict[str, Any]:
    """The seat to act plays its first legal move; returns the ack."""
    state = client.state
    client.send(
        {"type": "move", "seq": state["seq"], "move": state["legal_moves"][0], "id": state["seq"]}
    )
    return client.expect("ack", id=state["seq"])


def _acting(clients: list[Client]) -> Client:
    for client in clients:
        if client.state["legal_moves"]:
            return client
    raise AssertionError("nobody may act")


def test_two_seats_and_a_spectator_play_live(server: ServerProcess) -> None:
    room, tokens = _room(server)
    seats = [Client(server, room, t) for t in tokens]
    watcher = Client(server, room, None)
    assert [c.state["you"] for c in seats] == [0, 1]
    assert watcher.state["you"] is None
    started = _start(server, room, tokens[0])
    for client in [*seats, watcher]:
        client.until_seq(started["seq"])
    for _ in range(6):
        ack = _play_one(_acting(seats))
        for client in [*seats, watcher]:
            state = client.until_seq(ack["seq"])
            assert state["events"][-1]["kind"] == "move"
        assert watcher.state["legal_moves"] == []
        assert watcher.state["view"] == seats[0].state["view"] | {"you": None}
    for client in [*seats, watcher]:
        client.close()


def test_presence_is_pushed_when_a_seat_comes_and_goes(server: ServerProcess) -> None:
    room, tokens = _room(server)
    anna = Client(server, room, tokens[0])
    ben = Client(server, room, tokens[1])
    anna.expect("presence", online=[True, True])
    ben.close()
    anna.expect("presence", online=[True, False])
    anna.close()


def test_reconnect_with_since_gets_back_in_step(server: ServerProcess) -> None:
    room, tokens, seats = _started_game(server)
    seats[1].close()
    last_seen = seats[1].state["seq"]
    headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
    for _ in range(4):
        state = httpx.get(f"{server.url}/api/rooms/{room}/state", headers=headers[0]).json()
        seat = state["to_act"][0]
        mine = httpx.get(f"{server.url}/api/rooms/{room}/state", headers=headers[seat]).json()
        httpx.post(
            f"{server.url}/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
            headers=headers[seat],
        ).raise_for_status()
    back = Client(server, room, tokens[1], since=last_seen)
    assert back.state["seq"] == last_seen + 4
    assert [e["seq"] for e in back.state["events"]] == list(range(last_seen + 1, last_seen + 5))
    assert back.state["view"] == seats[0].until_seq(last_seen + 4)["view"] | {"you": 1}
    back.close()
    seats[0].close()


def test_simultaneous_moves_for_one_seq_store_exactly_one(server: ServerProcess) -> None:
    room, tokens = _room(server)
    _start(server, room, tokens[0])
    tabs = [Client(server, room, tokens[0]) for _ in range(2)]
    seq = tabs[0].state["seq"]
    moves = tabs[0].state["legal_moves"][:2]
    barrier = threading.Barrier(2)

    def send(tab: Client, move: dict[str, Any]) -> None:
        barrier.wait()
        tab.send({"type": "move", "seq": seq, "move": move, "id": "race"})

    threads = [
        threading.Thread(target=send, args=(tab, move))
        for tab, move in zip(tabs, moves, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = []
    for tab in tabs:
        while True:
            message = tab.recv()
            if message["type"] in {"ack", "error"} and message.get("id") == "race":
                answers.append(message)
                break
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    assert next(a for a in answers if a["type"] == "error")["code"] == "stale"
    events = httpx.get(f"{server.url}/api/rooms/{room}/events").json()["events"]
    assert [e["kind"] for e in events].count("move") == 1
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_server_restart_mid_game_goes_on_from_the_database(server: ServerProcess) -> None:
    room, tokens, seats = _started_game(server)
    for _ in range(3):
        ack = _play_one(_acting(seats))
        for client in seats:
            client.until_seq(ack["seq"])
    before = seats[0].state
    server.restart(kill=True)
    for client in seats:
        with pytest.raises(ConnectionClosed):
            while True:
                client.recv()
    seats = [Client(server, room, t, since=before["seq"]) for t in tokens]
    assert seats[0].state["seq"] == before["seq"]
    assert seats[0].state["view"] == before["view"]
    ack = _play_one(_acting(seats))
    assert ack["seq"] == before["seq"] + 1


def test_bad_tokens_and_malformed_messages(server: ServerProcess) -> None:
    room, tokens = _room(server)
    ws = connect(f"{server.ws_url}/api/rooms/{room}/ws")
    ws.send(json.dumps({"type": "hello", "token": "forged"}))
    assert json.loads(ws.recv(timeout=TIMEOUT))["code"] == "bad_token"
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    ws = connect(f"{server.ws_url}/api/rooms/{room}/ws")
    ws.send(json.dumps({"type": "move", "seq": 0, "move": {}}))
    assert json.loads(ws.recv(timeout=TIMEOUT))["code"] == "hello_first"

    ws = connect(f"{server.ws_url}/api/rooms/nope/ws")
    ws.send(json.dumps({"type": "hello"}))
    assert json.loads(ws.recv(timeout=TIMEOUT))["code"] == "room_not_found"

    anna = Client(server, room, tokens[0])
    for bad, code in [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "dance"}), "bad_message"),
        (json.dumps({"type": "move", "seq": "x", "move": {}}), "bad_message"),
        (
            json.dumps(
                {"type": "move", "seq": anna.state["seq"], "move": {"piece": "Q", "cells": []}}
            ),
            "not_playing",
        ),
        (json.dumps({"type": "chat", "text": "x" * 600}), "chat_too_long"),
        (json.dumps({"type": "hello"}), "already_hello"),
    ]:
        anna.ws.send(bad)
        assert anna.expect("error")["code"] == code
    anna.send({"type": "ping", "id": 1})
    assert anna.expect("pong")["id"] == 1
    anna.ws.send("x" * 20_000)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            anna.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


FLOOD_BUDGET = 30


@pytest.fixture
def slow_refill_server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    """A server whose seat budget refills over a day: nothing comes back while a test runs.

    With the default window (30 messages per 10 s) a slow enough machine would earn
    new messages while the flood is still being sent; here the flood is over budget
    however long it takes to send.
    """
    proc = ServerProcess(
        tmp_path / "data",
        env={
            "DATABASE_URL": database_url,
            "SEAT_BUDGET_MESSAGES": str(FLOOD_BUDGET),
            "SEAT_BUDGET_SECONDS": str(24 * 3600),
        },
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_flooding_socket_is_warned_then_closed(slow_refill_server: ServerProcess) -> None:
    server = slow_refill_server
    room, tokens = _room(server)
    anna = Client(server, room, tokens[0])
    codes = []
    with contextlib.suppress(ConnectionClosed):
        # the server may close while we are still sending: that is the point
        for n in range(FLOOD_BUDGET * 2):
            anna.send({"type": "ping", "id": n})
    pongs = 0
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = anna.recv()
            if message["type"] == "error":
                codes.append(message["code"])
            pongs += message["type"] == "pong"
    assert "rate_limited" in codes
    assert pongs <= FLOOD_BUDGET, "more pings were answered than the budget holds"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


@pytest.fixture
def roomy_server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    """A server whose socket budget a whole game played as fast as possible stays inside.

    A test that plays moves back to back must not depend on how fast the machine is:
    with the default budget a quick machine is cut off, a slow one is not.
    """
    proc = ServerProcess(
        tmp_path / "data",
        env={"DATABASE_URL": database_url, "SEAT_BUDGET_MESSAGES": "10000"},
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_full_blokus_game_over_websockets_replays_from_the_database(
    roomy_server: ServerProcess,
) -> None:
    server = roomy_server
    room, _, seats = _started_game(server)
    while seats[0].state["result"] is None:
        ack = _play_one(_acting(seats))
        for client in seats:
            client.until_seq(ack["seq"])
    final = seats[0].state
    assert final["room"]["status"] == "finished"
    assert final["events"][-1]["kind"] == "game_over"

    async def replay() -> RoomState:
        settings = Settings(data_dir=server.data_dir, database_url=server.env["DATABASE_URL"])
        engine = make_engine(settings)
        try:
            db = Store(make_sessionmaker(engine))
            async with db.transaction() as session:
                room_row = await store.get_room(session, room)
                events = await store.events_after(session, room, 0)
            assert room_row is not None
            return fold(RoomState(room=room_row), events)
        finally:
            await engine.dispose()

    replayed = asyncio.run(replay())
    blokus = get_engine("blokus")
    assert blokus.view(replayed.game, 0) == final["view"]
    assert blokus.result(replayed.game) == final["result"]


def test_bots_fill_seats_and_a_bots_only_game_runs_to_the_end(server: ServerProcess) -> None:
    created = httpx.post(
        f"{server.url}/api/rooms",
        json={
            "game": "blokus",
            "players": 2,
            "name": "Anna",
            "bots": {"1": "random"},
            "options": {"variant": "duo"},
        },
    ).json()
    anna = Client(server, created["room"], created["token"])
    _start(server, created["room"], created["token"])
    while anna.state["result"] is None:
        message = anna.recv(timeout=30)
        if message["type"] == "state" and message["legal_moves"]:
            _play_one(anna)
    assert anna.state["room"]["status"] == "finished"


def test_two_processes_share_rooms_through_the_database_and_redis(
    tmp_path: Path, database_url: str, redis_url: str
) -> None:
    """A move made on one process reaches a socket held by the other, as behind a load balancer."""
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url}
    first = ServerProcess(tmp_path / "a", env=env)
    second = ServerProcess(tmp_path / "b", env=env)
    first.start()
    second.start()
    try:
        room, tokens = _room(first)
        anna = Client(first, room, tokens[0])
        ben = Client(second, room, tokens[1])
        anna.expect("presence", online=[True, True])
        _start(second, room, tokens[0])
        anna.expect("state")
        ben.expect("state")
        for _ in range(4):
            ack = _play_one(_acting([anna, ben]))
            assert anna.until_seq(ack["seq"])["view"] == ben.until_seq(ack["seq"])["view"] | {
                "you": 0
            }
        # both processes race for the same seq with the same seat: one move is stored
        mover = _acting([anna, ben])
        token = tokens[mover.state["you"]]
        other_tab = Client(first if mover is ben else second, room, token)
        seq = mover.state["seq"]
        moves = mover.state["legal_moves"][:2]
        mover.send({"type": "move", "seq": seq, "move": moves[0], "id": "r"})
        other_tab.send({"type": "move", "seq": seq, "move": moves[1], "id": "r"})
        replies = [_reply(mover), _reply(other_tab)]
        assert sorted(r["type"] for r in replies) == ["ack", "error"]
        events = httpx.get(f"{first.url}/api/rooms/{room}/events", params={"after": seq}).json()[
            "events"
        ]
        assert [e["kind"] for e in events] == ["move"]
    finally:
        first.stop()
        second.stop()


def _reply(client: Client) -> dict[str, Any]:
    while True:
        message = client.recv()
        if message["type"] in {"ack", "error"} and message.get("id") == "r":
            return message


@pytest.fixture
def short_catch_up_server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    """State messages carry at most 5 events, so a gap is cheap to make."""
    proc = ServerProcess(
        tmp_path / "data", env={"DATABASE_URL": database_url, "CATCH_UP_EVENTS": "5"}
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_reconnect_far_behind_is_told_plainly_to_fetch_the_gap(
    short_catch_up_server: ServerProcess,
) -> None:
    server = short_catch_up_server
    room, tokens = _room(server)
    anna = Client(server, room, tokens[0])
    last_seen = anna.state["seq"]
    anna.close()
    for n in range(12):
        httpx.post(
            f"{server.url}/api/rooms/{room}/chat",
            json={"text": f"line {n}"},
            headers={"Authorization": f"Bearer {tokens[1]}"},
        ).raise_for_status()
    back = Client(server, room, tokens[0], since=last_seen)
    head = last_seen + 12
    assert back.state["seq"] == head
    assert back.state["events_truncated"] is True
    assert back.state["events_from"] == head - 4
    assert [e["seq"] for e in back.state["events"]] == list(range(head - 4, head + 1))
    # what the message left out is exactly what /events gives after the last seq seen
    got = {e["seq"] for e in back.state["events"]}
    after = last_seen
    while after < back.state["events_from"] - 1:
        page = httpx.get(
            f"{server.url}/api/rooms/{room}/events", params={"after": after, "limit": 4}
        ).json()["events"]
        got.update(e["seq"] for e in page)
        after = page[-1]["seq"]
    assert got == set(range(last_seen + 1, head + 1))
    # a client that is not behind gets no such mark
    again = Client(server, room, tokens[0], since=head - 2)
    assert "events_truncated" not in again.state
    assert [e["seq"] for e in again.state["events"]] == [head - 1, head]
    back.close()
    again.close()


def _tracebacks(log: str) -> list[str]:
    """Each traceback in a server log: its frames and the exception line ending it."""
    found: list[str] = []
    lines = iter(log.splitlines())
    for line in lines:
        if not line.startswith("Traceback"):
            continue
        block = [line]
        for frame in lines:
            block.append(frame)
            if not frame.startswith(" "):
                break
        found.append("\n".join(block))
    return found


def test_a_client_leaving_before_its_answer_leaves_no_traceback(server: ServerProcess) -> None:
    room, tokens = _room(server)
    for _ in range(30):
        client = Client(server, room, tokens[0])
        for n in range(4):
            client.send({"type": "chat", "text": "bye", "id": n})
        client.close()
    # every socket is gone once the server has dealt with the last of them
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.url}/api/rooms/{room}").json()["seats"][0]["online"]:
        assert time.monotonic() < deadline, "the last socket never went away"
        time.sleep(0.05)
    # the PostgreSQL database is shared by the session's tests: the server may log
    # about other tests' rooms, so look at what the sockets could have caused
    log = server.log.read_text()
    assert "WebSocketDisconnect" not in log
    assert not [t for t in _tracebacks(log) if "websocket" in t.lower() or "hub.py" in t], log


def test_presence_follows_a_token_to_its_shuffled_seat(server: ServerProcess) -> None:
    for _ in range(20):  # a shuffle keeps Anna in seat 0 one time in three: take another room
        room, tokens = _room(server, players=3, bots={"2": "random"})
        anna = Client(server, room, tokens[0])
        anna.expect("presence", online=[True, False, True])
        started = httpx.post(
            f"{server.url}/api/rooms/{room}/start",
            json={"shuffle": True},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        ).json()
        order = next(
            e["order"]
            for e in httpx.get(f"{server.url}/api/rooms/{room}/events").json()["events"]
            if e["kind"] == "game_started"
        )
        if order[0] != 0:
            break
        anna.close()
    else:
        pytest.fail("twenty shuffles kept Anna in her seat")
    seat = order.index(0)
    assert anna.until_seq(started["seq"])["you"] == seat
    expected = [order[s] == 0 or order[s] == 2 for s in range(3)]
    anna.expect("presence", online=expected)
    anna.close()
    # once she has left, nobody shows as online but the bot
    ben = Client(server, room, tokens[1])
    bot = order.index(2)
    ben.expect("presence", online=[s in {bot, order.index(1)} for s in range(3)])
    ben.close()
