"""Faults with real parts: Redis stopped and restarted under two server processes, a bot
worker killed, a process killed in the middle of a bot's turn, a restart with many bot rooms.

Waits poll for a condition under a generous deadline that only guards against a hang;
no test passes or fails on how fast the machine is. Time a server must see pass (a bot
grace period, how long health reports a dead worker) is moved through its clock file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from app import health, store
from app.bots import BotPool
from app.config import Settings
from app.db import make_engine, make_sessionmaker
from app.rooms import RoomRules, Rooms
from app.roomstate import RoomState, fold
from app.services import Services
from app.store import Store
from engines import get_engine
from tests.redis_server import RedisServer
from tests.server import ServerProcess, free_port

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


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(server: ServerProcess, **body: Any) -> dict[str, Any]:
    response = httpx.post(
        f"{server.url}/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna", **body}
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def _health(server: ServerProcess) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/healthz", timeout=30)
    body: dict[str, Any] = response.json()
    body["http_status"] = response.status_code
    return body


def _state(server: ServerProcess, room: str, token: str | None = None) -> dict[str, Any]:
    response = httpx.get(
        f"{server.url}/api/rooms/{room}/state", headers=_auth(token) if token else {}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def _rest_move(server: ServerProcess, room: str, token: str) -> dict[str, Any]:
    state = _state(server, room, token)
    response = httpx.post(
        f"{server.url}/api/rooms/{room}/moves",
        json={"seq": state["seq"], "move": state["legal_moves"][0]},
        headers=_auth(token),
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def _online(server: ServerProcess, room: str) -> list[bool]:
    response = httpx.get(f"{server.url}/api/rooms/{room}")
    assert response.status_code == 200, response.text
    return [bool(seat["online"]) for seat in response.json()["seats"]]


def _children(pid: int) -> list[tuple[int, str]]:
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


def _bot_workers(server: ServerProcess) -> list[int]:
    assert server.proc is not None
    return [pid for pid, cmd in _children(server.proc.pid) if "spawn_main" in cmd]


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if not Path("/usr/bin/redis-server").exists():
        pytest.skip("no /usr/bin/redis-server")
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def pg_url(postgres_url: str | None) -> str:
    if postgres_url is None:
        pytest.skip("TEST_DATABASE_URL not set")
    return postgres_url


# -- Redis -----------------------------------------------------------------------------


def test_redis_down_and_back_moves_stay_answered_and_both_processes_catch_up(
    tmp_path: Path, pg_url: str, redis_server: RedisServer
) -> None:
    env = {
        "DATABASE_URL": pg_url,
        "REDIS_URL": redis_server.url,
        "CATCH_UP_SECONDS": "0.5",
        "BOT_WORKERS": "0",
    }
    first = ServerProcess(tmp_path / "a", env=env)
    second = ServerProcess(tmp_path / "b", env=env)
    first.start()
    second.start()
    try:
        created = _create(first)
        room, anna_token = created["room"], created["token"]
        ben_token = httpx.post(
            f"{second.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}
        ).json()["token"]
        anna, ben = Tab(first, room, anna_token), Tab(second, room, ben_token)
        started = httpx.post(f"{first.url}/api/rooms/{room}/start", headers=_auth(anna_token))
        assert started.status_code == 200, started.text
        tabs = [anna, ben]
        seq = 0

        def play_round() -> None:
            nonlocal seq
            for _ in range(2):
                mover = next(t for t in tabs if t.until_seq(seq)["legal_moves"])
                answer = mover.move()
                assert answer["type"] == "ack", answer
                seq = answer["seq"]
                # the socket on the other process gets there too
                for tab in tabs:
                    assert tab.until_seq(seq)["seq"] == seq

        seq = started.json()["seq"]
        play_round()
        assert _health(first)["status"] == _health(second)["status"] == "ok"

        redis_server.stop()
        for server in (first, second):
            health = eventually(
                lambda server=server: (h := _health(server))["status"] == "degraded" and h,
                "health says Redis is degraded",
            )
            assert health["http_status"] == 200
            assert health["degraded"] == ["redis"]
            assert health["checks"]["redis"]["status"] == "down"
            assert health["checks"]["database"] == {"status": "ok"}
        # moves are committed and answered as such; sockets catch up on both processes
        play_round()
        rest = _rest_move(second, room, anna_token if anna.state["legal_moves"] else ben_token)
        seq = rest["seq"]
        for tab in tabs:
            tab.until_seq(seq)
        # everything else answers too: state, room info, a new room, a new socket
        for server in (first, second):
            assert _state(server, room)["seq"] == seq
            info = httpx.get(f"{server.url}/api/rooms/{room}")
            assert info.status_code == 200
            assert info.json()["seq"] == seq
            _create(server)
            late = Tab(server, room, None)
            assert late.state["seq"] == seq
            late.close()
        # presence shows what each process knows: its own sockets
        assert _online(first, room)[0]
        assert _online(second, room)[1]

        redis_server.start()
        # the very first move after Redis returns (on stale pooled connections) is answered
        play_round()
        for server in (first, second):
            eventually(
                lambda server=server: _health(server)["status"] == "ok", "health is ok again"
            )
        play_round()
        for tab in tabs:
            tab.close()
    finally:
        first.stop()
        second.stop()


async def test_a_committed_move_is_answered_when_the_doorbell_fails(database_url: str) -> None:
    async def unreachable(room_id: str, message: dict[str, Any]) -> None:
        raise ConnectionError("Redis is gone")

    engine = make_engine(Settings(database_url=database_url))
    rooms = Rooms(Store(make_sessionmaker(engine)), unreachable)
    try:
        state, token = await rooms.create(
            "blokus", 2, {"variant": "duo"}, "Anna", 0, {1: "random"}, RoomRules()
        )
        state = await rooms.start(state.room.id, token, shuffle=False)
        blokus = get_engine("blokus")
        moved = await rooms.move(
            state.room.id, token, state.seq, blokus.legal_moves(state.game, 0)[0]
        )
        assert moved.seq == state.seq + 1
        rooms.cache.clear()
        assert (await rooms.load(state.room.id)).seq == moved.seq
    finally:
        await engine.dispose()


async def test_without_redis_a_process_starts_and_plays_degraded(settings: Settings) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    svc = Services.build(settings.model_copy(update={"redis_url": nowhere}))
    await svc.start()
    try:
        state, token = await svc.rooms.create(
            "blokus", 2, {"variant": "duo"}, "Anna", 0, {}, RoomRules()
        )
        room = state.room.id
        await svc.presence.join(room, 0, "tab")
        assert await svc.presence.online(room, 2) == {0: True, 1: False}
        await svc.rooms.claim(room, 1, "Ben", None)
        state = await svc.rooms.start(room, token, shuffle=False)
        state = await svc.rooms.move(
            room, token, state.seq, get_engine("blokus").legal_moves(state.game, 0)[0]
        )
        assert state.seq == 4
        status, body = await health.check(svc)
        assert status == 200
        assert body["status"] == "degraded"
        assert body["degraded"] == ["redis"]
        assert body["checks"]["redis"]["status"] == "down"
    finally:
        await svc.stop()


async def test_health_is_503_when_the_database_does_not_answer(services: Services) -> None:
    status, body = await health.check(services)
    assert (status, body["status"]) == (200, "ok")
    nowhere = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/nothing"
    broken = make_engine(Settings(database_url=nowhere))
    try:
        status, body = await health.check(dataclasses.replace(services, engine=broken))
    finally:
        await broken.dispose()
    assert status == 503
    assert body["status"] == "down"
    assert body["down"] == ["database"]
    assert body["checks"]["database"]["status"] == "down"


# -- bots ------------------------------------------------------------------------------


def _bot_room(server: ServerProcess) -> tuple[str, str]:
    created = _create(server, bots={"1": "random"}, options={"variant": "duo"})
    room, token = created["room"], created["token"]
    assert httpx.post(f"{server.url}/api/rooms/{room}/start", headers=_auth(token)).is_success
    return room, token


def _bot_answered(server: ServerProcess, room: str, token: str, after: int) -> int:
    """Wait until the bot has moved after seq ``after`` and it is Anna's turn; the seq."""
    state = eventually(
        lambda: (s := _state(server, room, token))["seq"] > after and s["legal_moves"] and s,
        f"the bot moves after seq {after}",
    )
    return int(state["seq"])


def test_a_killed_bot_worker_is_replaced_and_bots_keep_moving(tmp_path: Path) -> None:
    clock_file = tmp_path / "clock"
    server = ServerProcess(
        tmp_path / "data",
        env={"CLOCK_OFFSET_FILE": str(clock_file), "CATCH_UP_SECONDS": "0.5"},
    )
    server.start()
    try:
        room, token = _bot_room(server)
        _bot_answered(server, room, token, _rest_move(server, room, token)["seq"])
        [worker] = _bot_workers(server)
        os.kill(worker, signal.SIGKILL)
        # health tells at once (a monitor sees it for a minute)
        health = eventually(
            lambda: (h := _health(server))["status"] == "degraded" and h, "health names the bots"
        )
        assert health["http_status"] == 200
        assert health["degraded"] == ["bots"]
        assert health["checks"]["bots"]["restarts"] == 1
        assert "died" in health["checks"]["bots"]["message"]
        # and the bots go on playing on a new worker
        _bot_answered(server, room, token, _rest_move(server, room, token)["seq"])
        _bot_answered(server, room, token, _rest_move(server, room, token)["seq"])
        assert _bot_workers(server) and worker not in _bot_workers(server)

        # once the failure is old news, health is ok again (and still counts it)
        clock_file.write_text("120")
        health = _health(server)
        assert health["status"] == "ok"
        assert health["checks"]["bots"]["restarts"] == 1
        _bot_answered(server, room, token, _rest_move(server, room, token)["seq"])
    finally:
        server.stop()


async def test_a_bot_turn_asked_of_a_dead_worker_is_asked_again_of_a_new_pool() -> None:
    blokus = get_engine("blokus")
    game = blokus.dump(blokus.new_game(2, 7, {"variant": "duo"}))
    pool = BotPool(workers=1)
    try:
        assert await pool.run("blokus", game, 0, "random", 1)
        [worker] = multiprocessing.active_children()
        os.kill(worker.pid or 0, signal.SIGKILL)
        move = await pool.run("blokus", game, 0, "random", 1)
        assert move in blokus.legal_moves(blokus.load(game), 0)
        assert pool.restarts == 1
        assert pool.health()["restarts"] == 1
    finally:
        await asyncio.to_thread(pool.close)


def test_a_clean_stop_leaves_no_leaked_semaphores_behind(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        room, token = _bot_room(server)
        _bot_answered(server, room, token, _rest_move(server, room, token)["seq"])
        assert _bot_workers(server)
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Shutdown complete" in log or "Finished server process" in log, log[-2000:]
    assert "leaked semaphore" not in log, log[-2000:]
    assert "Traceback" not in log, log[-2000:]


async def _many_bot_rooms(database_url: str, count: int) -> list[str]:
    """``count`` running Duo games where the bot (seat 0) is to move, made straight in the store."""

    async def nobody(room_id: str, message: dict[str, Any]) -> None:
        return None

    engine = make_engine(Settings(database_url=database_url))
    rooms = Rooms(Store(make_sessionmaker(engine)), nobody)
    made: list[str] = []
    try:

        async def one() -> None:
            state, token = await rooms.create(
                "blokus", 2, {"variant": "duo"}, "Anna", 1, {0: "random"}, RoomRules()
            )
            await rooms.start(state.room.id, token, shuffle=False)
            made.append(state.room.id)

        for _ in range(count // 10):
            await asyncio.gather(*(one() for _ in range(10)))
    finally:
        await engine.dispose()
    return made


async def _rooms_with_a_move(database_url: str, room_ids: list[str]) -> int:
    engine = make_engine(Settings(database_url=database_url))
    try:
        async with Store(make_sessionmaker(engine)).transaction() as session:
            moved = 0
            for room_id in room_ids:
                events = await store.events_after(session, room_id, 0)
                moved += any(e.kind == "move" for e in events)
            return moved
    finally:
        await engine.dispose()


def test_a_restart_resumes_the_bots_of_every_room_beyond_one_page(
    tmp_path: Path, database_url: str
) -> None:
    rooms = asyncio.run(_many_bot_rooms(database_url, 520))
    assert asyncio.run(_rooms_with_a_move(database_url, rooms)) == 0
    # the grace period is far off: only resuming on start can move these bots
    server = ServerProcess(
        tmp_path / "data",
        env={"DATABASE_URL": database_url, "BOT_DELAY_MS": "0", "BOT_GRACE_SECONDS": "86400"},
    )
    server.start()
    try:
        eventually(
            lambda: asyncio.run(_rooms_with_a_move(database_url, rooms)) == len(rooms),
            "every room's bot moves",
            deadline=2 * HANG,
        )
    finally:
        server.stop()


def test_a_bot_turn_whose_process_died_is_taken_over_by_the_survivor(
    tmp_path: Path, database_url: str
) -> None:
    survivor_clock = tmp_path / "clock"
    env = {"DATABASE_URL": database_url, "BOT_GRACE_SECONDS": "3600", "CATCH_UP_SECONDS": "0.5"}
    # the first process thinks for ten minutes before each bot move: it dies meanwhile
    doomed = ServerProcess(tmp_path / "a", env={**env, "BOT_DELAY_MS": "600000"})
    survivor = ServerProcess(
        tmp_path / "b",
        env={**env, "BOT_DELAY_MS": "0", "CLOCK_OFFSET_FILE": str(survivor_clock)},
    )
    doomed.start()
    survivor.start()
    try:
        room, token = _bot_room(doomed)
        seq = _rest_move(doomed, room, token)["seq"]
        doomed.stop(kill=True)
        assert _state(survivor, room, token)["seq"] == seq  # the bot's turn is pending
        # an hour and more later, by the survivor's clock, nobody has acted on it
        survivor_clock.write_text("7200")
        seq = _bot_answered(survivor, room, token, seq)
        # and the game goes on on the survivor alone
        _bot_answered(survivor, room, token, _rest_move(survivor, room, token)["seq"])
    finally:
        doomed.stop()
        survivor.stop()


async def test_two_processes_racing_for_the_same_bot_turns_store_each_turn_once(
    settings: Settings,
) -> None:
    """Both runners drive every bot turn at once; ``move_as`` at the seq lets one win."""
    first, second = Services.build(settings), Services.build(settings)
    await first.start()
    await second.start()
    try:
        state, token = await first.rooms.create(
            "blokus", 4, None, "Anna", 0, {1: "random", 2: "random", 3: "random"}, RoomRules()
        )
        room = state.room.id
        state = await first.rooms.start(room, token, shuffle=False)
        engine = get_engine("blokus")
        for _ in range(4):
            state = await first.rooms.move_as(
                room, 0, state.seq, engine.legal_moves(state.game, 0)[0]
            )
            # both go for every bot turn
            first.bots.kick(room)
            second.bots.kick(room)
            end = time.monotonic() + HANG
            while (state := await first.rooms.load(room)).status != "finished":
                if 0 in engine.to_act(state.game):
                    break
                assert time.monotonic() < end, "the bots never got back to Anna"
                await asyncio.sleep(0.01)
        events = await first.rooms.events(room, 0, limit=10_000)
    finally:
        await first.stop()
        await second.stop()
    # replaying the log plays every move against the state before it: no turn twice
    replayed = RoomState(room=state.room)
    movers = []
    for event in events:
        if event.kind == "move":
            assert event.data["seat"] in engine.to_act(replayed.game)
            movers.append(event.data["seat"])
        replayed = fold(replayed, [event])
    assert replayed.seq == state.seq
    assert movers[:16] == [0, 1, 2, 3] * 4
