"""Redis faults with real parts: a private redis-server stopped and restarted under two
server processes on PostgreSQL; a process without Redis; a doorbell that fails; a
database that does not answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker
from app.play.rooms import RoomRules, Rooms
from app.play.store import Store
from app.services import Services
from app.web import health
from engines import get_engine
from tests.app.live import Tab, auth, create, eventually, get_state, healthz, online, rest_move
from tests.redis_server import RedisServer
from tests.server import ServerProcess, free_port


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
        created = create(first)
        room, anna_token = created["room"], created["token"]
        ben_token = httpx.post(
            f"{second.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}
        ).json()["token"]
        anna, ben = Tab(first, room, anna_token), Tab(second, room, ben_token)
        started = httpx.post(f"{first.url}/api/rooms/{room}/start", headers=auth(anna_token))
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
        assert healthz(first)["status"] == healthz(second)["status"] == "ok"

        redis_server.stop()
        for server in (first, second):
            health = eventually(
                lambda server=server: (h := healthz(server))["status"] == "degraded" and h,
                "health says Redis is degraded",
            )
            assert health["http_status"] == 200
            assert health["degraded"] == ["redis"]
            assert health["checks"]["redis"]["status"] == "down"
            assert health["checks"]["database"] == {"status": "ok"}
        # moves are committed and answered as such; sockets catch up on both processes
        play_round()
        rest = rest_move(second, room, anna_token if anna.state["legal_moves"] else ben_token)
        seq = rest["seq"]
        for tab in tabs:
            tab.until_seq(seq)
        # everything else answers too: state, room info, a new room, a new socket
        for server in (first, second):
            assert get_state(server, room)["seq"] == seq
            info = httpx.get(f"{server.url}/api/rooms/{room}")
            assert info.status_code == 200
            assert info.json()["seq"] == seq
            create(server)
            late = Tab(server, room, None)
            assert late.state["seq"] == seq
            late.close()
        # presence shows what each process knows: its own sockets
        assert online(first, room)[0]
        assert online(second, room)[1]

        redis_server.start()
        # the very first move after Redis returns (on stale pooled connections) is answered
        play_round()
        for server in (first, second):
            eventually(
                lambda server=server: healthz(server)["status"] == "ok", "health is ok again"
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
