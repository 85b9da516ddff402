"""The short way for grouped writes that only append events (``Store._write_staged``).

A move or a chat line in a room where nothing else needs writing goes in with one
statement and one commit, with no ORM session: on SQLite on the driver's connection
(no SQLAlchemy transaction begins), on PostgreSQL on a connection the store holds for
it. A write whose work needs more, fails, or loses its seq (or, on PostgreSQL, its
connection) runs again the usual way: what it writes lands, and each write of a group
is told its own outcome.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.migrate import upgrade
from app.play import store
from app.play.access import hash_token
from app.play.actor import Actor
from app.play.rooms import RoomRules
from app.play.state import RoomState
from app.play.store import Conflict
from app.services import Services

GUARD = 20.0  # a hang guard: a lock taken twice fails here in seconds


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite only (the conftest's services and settings take it): PostgreSQL stores
    never stage."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'staged.db'}"
    upgrade(url)
    return url


@pytest.fixture
def begins(services: Services) -> Iterator[list[str]]:
    """The SQLAlchemy-level transactions the store's group writer begins (the short
    way begins none: the driver begins and commits its own). The service's background
    loops, which may read meanwhile, are not counted."""
    engine = services.rooms.db._sessions.kw["bind"]
    seen: list[str] = []

    def begun(_conn: Any) -> None:
        task = asyncio.current_task()
        name = task.get_coro().__qualname__ if task is not None else ""  # type: ignore[union-attr]
        if name.startswith(("Store._write_queued", "_Write.run")):
            seen.append("begin")

    event.listen(engine.sync_engine, "begin", begun)
    yield seen
    event.remove(engine.sync_engine, "begin", begun)


async def _table(svc: Services) -> tuple[RoomState, dict[int, Actor]]:
    state, anna = await svc.rooms.create(
        "blokus", 2, {"variant": "duo"}, "Anna", 0, {}, RoomRules()
    )
    _, ben = await svc.seats.claim(state.room.id, 1, "Ben", None)
    state = await svc.rooms.start(state.room.id, anna, False)
    return state, {0: Actor(token_hash=hash_token(anna)), 1: Actor(token_hash=hash_token(ben))}


async def _move(svc: Services, state: RoomState, actors: dict[int, Actor]) -> RoomState:
    seat = state.engine.to_act(state.game)[0]
    move = state.engine.legal_moves(state.game, seat)[0]
    return await svc.rooms.move_by(state.room.id, actors[seat], state.seq, move)


async def test_a_move_goes_in_without_an_orm_transaction_and_is_in_the_log(
    services: Services, begins: list[str]
) -> None:
    async with asyncio.timeout(GUARD):
        state, actors = await _table(services)
        begins.clear()
        after = await _move(services, state, actors)
        assert begins == []
        assert after.seq == state.seq + 1
        # read back from the database itself, not the cache: the row is committed
        services.rooms.cache.clear()
        events = await services.rooms.events(state.room.id, state.seq)
        assert [(e.seq, e.kind) for e in events] == [(after.seq, "move")]
        assert (await services.rooms.load(state.room.id)).seq == after.seq


async def test_a_write_that_needs_its_session_runs_again_in_a_real_transaction(
    services: Services, begins: list[str]
) -> None:
    db = services.rooms.db
    runs: list[str] = []

    async def reads(session: Any) -> str:
        runs.append("run")
        return "none" if await store.get_room(session, "no-such-room") is None else "?"

    async with asyncio.timeout(GUARD):
        begins.clear()
        assert await db.write("some-room", reads) == "none"
    # tried on the staging session (which refused at the first query), then for real
    assert runs == ["run", "run"]
    assert begins == ["begin"]


async def test_a_seq_taken_meanwhile_is_a_conflict_for_that_write_alone(
    either: Services,
) -> None:
    """Two rooms' moves in one group, one of them behind the log (another process
    took its seq): that one is told ``Conflict``, the other is kept."""
    db = either.rooms.db
    async with asyncio.timeout(GUARD):
        first, _ = await _table(either)
        second, _ = await _table(either)
        # the row the first room's move will want, written behind the cache's back
        async with db.transaction() as session:
            await store.append_events(session, first.room.id, first.seq + 1, [("chat", {}, {})])

        async def write_for(state: RoomState) -> Any:
            records = [("chat", {"n": 1}, {"n": 1})]

            async def work(session: Any) -> Any:
                return await store.append_events(session, state.room.id, state.seq + 1, records)

            return await db.write(state.room.id, work)

        results = await asyncio.gather(write_for(first), write_for(second), return_exceptions=True)
    assert isinstance(results[0], Conflict), results[0]
    assert [r.seq for r in results[1]] == [second.seq + 1]
    kept = await either.rooms.events(second.room.id, second.seq)
    assert [e.data for e in kept] == [{"n": 1}]


async def test_an_error_in_a_work_reaches_its_caller_and_spares_the_others(
    services: Services,
) -> None:
    db = services.rooms.db

    async def fails(_session: Any) -> None:
        raise ValueError("no")

    async def fine(_session: Any) -> str:
        return "kept"

    async with asyncio.timeout(GUARD):
        results = await asyncio.gather(
            db.write("room-a", fails), db.write("room-b", fine), return_exceptions=True
        )
    assert isinstance(results[0], ValueError)
    assert results[1] == "kept"
    assert not store.in_session()


async def test_a_game_of_moves_ends_as_the_usual_way_ends_it(services: Services) -> None:
    """Moves go the short way, a snapshot or the game's end goes the usual way: a whole
    game played through, then loaded from the log alone, is the state the cache held."""
    async with asyncio.timeout(GUARD * 3):
        state, actors = await _table(services)
        while state.status == "playing":
            state = await _move(services, state, actors)
        assert state.status == "finished"
        services.rooms.cache.clear()
        loaded = await services.rooms.load(state.room.id)
    assert loaded.seq == state.seq and loaded.status == "finished"
    assert loaded.engine.dump(loaded.game) == state.engine.dump(state.game)


async def test_a_move_while_another_connection_writes_waits_off_the_event_loop(
    database_url: str, services: Services
) -> None:
    """Another process holds SQLite's write lock: the inline write (which never waits)
    gives way to the driver's, which waits on its thread; meanwhile the event loop
    turns, and once the lock is free the move is in the log."""
    state, actors = await _table(services)
    other = sqlite3.connect(database_url.removeprefix("sqlite+aiosqlite:///"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        async with asyncio.timeout(GUARD):
            moving = asyncio.create_task(_move(services, state, actors))
            turns = 0
            while turns < 50:  # the loop goes round while the move waits for the lock
                await asyncio.sleep(0)
                turns += 1
            assert not moving.done()
            other.execute("COMMIT")
            after = await moving
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()
    services.rooms.cache.clear()
    assert (await services.rooms.load(state.room.id)).seq == after.seq == state.seq + 1


async def test_a_closed_store_writes_again_the_usual_way(services: Services) -> None:
    """Closing the store (as the service's stop does) closes its inline connection; a
    later write opens another."""
    state, actors = await _table(services)
    services.rooms.db.close()
    after = await _move(services, state, actors)
    services.rooms.cache.clear()
    assert (await services.rooms.load(state.room.id)).seq == after.seq


@pytest.mark.parametrize(("setting", "pragma"), [("normal", 1), ("full", 2)])
async def test_sqlite_synchronous_is_what_every_connection_commits_with(
    settings: Settings, setting: str, pragma: int
) -> None:
    """``SQLITE_SYNCHRONOUS``: the pool's connections sync as told; the inline writes,
    which never sync the disk, are on with ``normal`` only (a ``full`` commit's sync
    would hold the event loop), and a move lands either way."""
    settings = settings.model_copy(update={"sqlite_synchronous": setting})
    svc = Services.build(settings)
    await svc.start()
    try:
        async with svc.rooms.db.transaction() as session:
            assert (await session.execute(text("PRAGMA synchronous"))).scalar() == pragma
        state, actors = await _table(svc)
        after = await _move(svc, state, actors)
        # the inline writer opened its connection for the move, or there is none
        opened = getattr(svc.rooms.db._inline, "_conn", None) is not None
        assert opened == (setting == "normal")
        svc.rooms.cache.clear()
        assert (await svc.rooms.load(state.room.id)).seq == after.seq
    finally:
        await svc.stop()


@pytest.fixture
async def pg_services(pg_url: str, settings: Settings) -> AsyncIterator[Services]:
    """Services on the session's PostgreSQL database (this module's ``services`` are
    SQLite's)."""
    svc = Services.build(settings.model_copy(update={"database_url": pg_url}))
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def either(request: pytest.FixtureRequest) -> Services:
    """This module's SQLite services, and PostgreSQL's."""
    name = "services" if request.param == "sqlite" else "pg_services"
    svc: Services = request.getfixturevalue(name)
    return svc


async def test_on_postgresql_a_move_goes_in_without_an_orm_session(pg_services: Services) -> None:
    sessions: list[str] = []

    def begun(_session: Any, _transaction: Any, _connection: Any) -> None:
        task = asyncio.current_task()
        name = task.get_coro().__qualname__ if task is not None else ""  # type: ignore[union-attr]
        if name.startswith(("Store._write_queued", "_Write.run")):
            sessions.append("session")

    event.listen(Session, "after_begin", begun)
    try:
        async with asyncio.timeout(GUARD):
            state, actors = await _table(pg_services)
            sessions.clear()
            after = await _move(pg_services, state, actors)
            assert sessions == []

            # and a write that needs its session still gets one
            async def reads(session: Any) -> bool:
                return await store.get_room(session, state.room.id) is not None

            assert await pg_services.rooms.db.write(state.room.id, reads)
            assert sessions == ["session"]
    finally:
        event.remove(Session, "after_begin", begun)
    pg_services.rooms.cache.clear()
    events = await pg_services.rooms.events(state.room.id, state.seq)
    assert [(e.seq, e.kind) for e in events] == [(after.seq, "move")]


async def test_on_postgresql_a_lost_connection_sends_the_move_the_usual_way(
    pg_url: str, pg_services: Services
) -> None:
    """The server ends the store's held connection (a restart, an administrator): the
    next move still lands, the usual way, and the one after it goes the short way
    again on a new connection."""
    state, actors = await _table(pg_services)
    db = pg_services.rooms.db
    async with asyncio.timeout(GUARD):
        state = await _move(pg_services, state, actors)
        held = db._held
        assert held is not None and held._conn is not None
        pid = held._conn.get_server_pid()
        other = create_async_engine(pg_url)
        try:
            async with other.connect() as admin:
                await admin.execute(text(f"SELECT pg_terminate_backend({pid})"))
        finally:
            await other.dispose()
        after = await _move(pg_services, state, actors)
        assert after.seq == state.seq + 1
        last = await _move(pg_services, after, actors)
        assert held._conn is not None and held._conn.get_server_pid() != pid
    pg_services.rooms.cache.clear()
    events = await pg_services.rooms.events(state.room.id, state.seq)
    assert [(e.seq, e.kind) for e in events] == [(after.seq, "move"), (last.seq, "move")]


async def test_on_postgresql_a_held_connection_that_cannot_open_is_not_tried_each_move(
    pg_services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The held connection's server refuses it (here: nothing listens on its port): the
    moves land the usual way, and the refused connect is not tried again before
    ``HELD_RETRY_AFTER`` (an hour here, so that no machine is too slow for it), so
    each move does not pay for it."""
    monkeypatch.setattr(store, "HELD_RETRY_AFTER", 3600.0)
    state, actors = await _table(pg_services)
    held = pg_services.rooms.db._held
    assert held is not None
    held.close()
    held._dsn = "postgresql://postgres@127.0.0.1:1/nowhere"
    async with asyncio.timeout(GUARD):
        after = await _move(pg_services, state, actors)
        refused_at = held._failed_at
        assert refused_at is not None
        last = await _move(pg_services, after, actors)
    assert held._failed_at == refused_at  # no second try
    pg_services.rooms.cache.clear()
    events = await pg_services.rooms.events(state.room.id, state.seq)
    assert [(e.seq, e.kind) for e in events] == [(after.seq, "move"), (last.seq, "move")]


async def test_on_postgresql_many_rooms_moving_at_once_keep_every_move_in_order(
    pg_services: Services,
) -> None:
    """Twelve rooms, each moving as fast as its answers come back, their moves grouped
    as they queue: every move lands once, each room's log is gapless and in order, and
    a load from the log alone is the state the cache held."""
    tables = [await _table(pg_services) for _ in range(12)]

    async def play(state: RoomState, actors: dict[int, Actor]) -> RoomState:
        for _ in range(10):
            state = await _move(pg_services, state, actors)
        return state

    async with asyncio.timeout(GUARD * 3):
        ends = await asyncio.gather(*(play(state, actors) for state, actors in tables))
    pg_services.rooms.cache.clear()
    for (start, _), end in zip(tables, ends, strict=True):
        events = await pg_services.rooms.events(start.room.id, start.seq)
        assert [e.seq for e in events] == list(range(start.seq + 1, end.seq + 1))
        loaded = await pg_services.rooms.load(start.room.id)
        assert loaded.engine.dump(loaded.game) == end.engine.dump(end.game)
