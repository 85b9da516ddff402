"""Bot faults with real parts: a killed worker, a process killed in a bot's turn, a
restart with more bot rooms than one page, two processes racing for the same bot turns,
and a clean stop that leaves nothing behind.

Time a server must see pass (a bot grace period, how long health reports a dead
worker) is moved through its clock file, never waited for.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx

from app.bots.runner import BotPool
from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker
from app.play import store
from app.play.rooms import RoomRules, Rooms
from app.play.state import RoomState, fold
from app.play.store import Store
from app.services import Services
from engines import get_engine
from tests.app.live import (
    HANG,
    auth,
    bot_workers,
    create,
    eventually,
    get_state,
    healthz,
    rest_move,
)
from tests.server import ServerProcess


def _bot_room(server: ServerProcess) -> tuple[str, str]:
    created = create(server, bots={"1": "random"}, options={"variant": "duo"})
    room, token = created["room"], created["token"]
    assert httpx.post(f"{server.url}/api/rooms/{room}/start", headers=auth(token)).is_success
    return room, token


def _bot_answered(server: ServerProcess, room: str, token: str, after: int) -> int:
    """Wait until the bot has moved after seq ``after`` and it is Anna's turn; the seq."""
    state = eventually(
        lambda: (s := get_state(server, room, token))["seq"] > after and s["legal_moves"] and s,
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
        _bot_answered(server, room, token, rest_move(server, room, token)["seq"])
        [worker] = bot_workers(server)
        os.kill(worker, signal.SIGKILL)
        # health tells at once (a monitor sees it for a minute)
        health = eventually(
            lambda: (h := healthz(server))["status"] == "degraded" and h, "health names the bots"
        )
        assert health["http_status"] == 200
        assert health["degraded"] == ["bots"]
        assert health["checks"]["bots"]["restarts"] == 1
        assert "died" in health["checks"]["bots"]["message"]
        # and the bots go on playing on a new worker
        _bot_answered(server, room, token, rest_move(server, room, token)["seq"])
        _bot_answered(server, room, token, rest_move(server, room, token)["seq"])
        assert bot_workers(server) and worker not in bot_workers(server)

        # once the failure is old news, health is ok again (and still counts it)
        clock_file.write_text("120")
        health = healthz(server)
        assert health["status"] == "ok"
        assert health["checks"]["bots"]["restarts"] == 1
        _bot_answered(server, room, token, rest_move(server, room, token)["seq"])
    finally:
        server.stop()
    # the broken pool was let go of properly too
    assert "leaked semaphore" not in server.log.read_text()


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
        _bot_answered(server, room, token, rest_move(server, room, token)["seq"])
        assert bot_workers(server)
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
        seq = rest_move(doomed, room, token)["seq"]
        doomed.stop(kill=True)
        assert get_state(survivor, room, token)["seq"] == seq  # the bot's turn is pending
        # an hour and more later, by the survivor's clock, nobody has acted on it
        survivor_clock.write_text("7200")
        seq = _bot_answered(survivor, room, token, seq)
        # and the game goes on on the survivor alone
        _bot_answered(survivor, room, token, rest_move(survivor, room, token)["seq"])
    finally:
        doomed.stop()
        survivor.stop()


async def test_two_processes_racing_for_the_same_bot_turns_store_each_turn_once(
    settings: Settings,
) -> None:
    """Both runners drive every bot turn at once; ``move_by`` at the seq lets one win."""
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
            state = await first.rooms.move(
                room, token, state.seq, engine.legal_moves(state.game, 0)[0]
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
