"""A store session is never opened inside another of the same task.

On SQLite this process's transactions take turns on one lock: a second session asked
for inside the first waits for the lock the first holds, for ever, and every later
database call of the process waits behind it. On PostgreSQL such a request holds two
pool connections, and a burst of them empties the pool. So the store refuses the
second session at once, on both databases, and the callers pass their session down.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.core.config import Settings
from app.core.db import make_sessionmaker
from app.core.errors import ApiError
from app.history.replay import Replays
from app.play import store
from app.play.rooms import RoomRules
from app.play.state import RoomState
from app.play.store import NestedTransaction, Store
from app.play.tables import Seat
from app.services import Services, create_app

# a hang guard: a deadlock fails here in seconds instead of stalling the run
GUARD = 20.0


async def _room(svc: Services) -> tuple[RoomState, list[str]]:
    state, anna = await svc.rooms.create("m", 3, {}, "Anna", 0, {}, RoomRules())
    _, ben = await svc.rooms.claim(state.room.id, 1, "Ben", None)
    _, cleo = await svc.rooms.claim(state.room.id, 2, "Cleo", None)
    return await svc.rooms.start(state.room.id, anna, False), [anna, ben, cleo]


async def test_a_session_inside_another_is_refused_at_once_and_the_store_goes_on(
    services: Services,
) -> None:
    db = services.rooms.db
    async with asyncio.timeout(GUARD):
        for outer in (db.transaction, db.reading):
            for inner in (db.transaction, db.reading):
                async with outer() as session:
                    with pytest.raises(NestedTransaction, match="pass that session down"):
                        async with inner():
                            pass  # pragma: no cover - never entered
                    # the outer session is still good
                    assert await store.get_room(session, "no-such-room") is None

                async def nothing(_session: Any) -> None:
                    return None

                async with outer():
                    with pytest.raises(NestedTransaction):
                        await db.write("some-room", nothing)
        # one after the other is fine, as always
        async with db.transaction() as first:
            await store.get_room(first, "a")
        async with db.reading() as second:
            await store.get_room(second, "b")
        state, _ = await _room(services)
        assert (await services.rooms.load(state.room.id)).status == "playing"


async def test_a_grouped_writes_work_may_not_open_a_session_of_its_own(
    services: Services,
) -> None:
    """The group writer runs the work in its caller's context, inside its own
    transaction: the work is inside a session too, and only that write fails."""
    db = services.rooms.db

    async def nests(_session: Any) -> str:
        async with db.reading():
            return "never"  # pragma: no cover

    async def fine(session: Any) -> str:
        return "kept" if await store.get_room(session, "nothing") is None else "?"

    async with asyncio.timeout(GUARD):
        results = await asyncio.gather(
            db.write("room-a", nests), db.write("room-b", fine), return_exceptions=True
        )
    assert isinstance(results[0], NestedTransaction), results[0]
    assert results[1] == "kept"
    assert not store.in_session()


async def test_a_task_started_inside_a_session_may_open_its_own_once_that_one_ends(
    services: Services,
) -> None:
    db = services.rooms.db
    started = asyncio.Event()

    async def later() -> str:
        await started.wait()
        async with db.transaction() as session:
            await store.get_room(session, "x")
        return "done"

    async with asyncio.timeout(GUARD):
        async with db.transaction():
            assert store.in_session()
            task = asyncio.create_task(later())
        assert not store.in_session()
        started.set()
        assert await task == "done"


async def test_a_replay_step_asked_by_a_token_not_seated_at_the_start_answers(
    services: Services,
) -> None:
    """The review's request that froze a SQLite server: a step of a running game
    asked with a token that held no seat when the game began (a stranger's, another
    room's, a newcomer's in a freed seat) looked the token up in today's room inside
    the step's transaction."""
    state, tokens = await _room(services)
    room = state.room.id
    other, stranger = await services.rooms.create("blokus", 2, {}, "Zoe", 0, {}, RoomRules())
    replays = Replays(services.rooms)
    async with asyncio.timeout(GUARD):
        for token in ("not-a-token-at-all", stranger, tokens[1], None):
            got = await replays.step(room, 1, 0, token, None)
            assert got["you"] == (1 if token == tokens[1] else None)
        # and the store still serves everyone else
        made, _ = await services.rooms.create("blokus", 2, {}, "Bo", 0, {}, RoomRules())
        assert (await services.rooms.load(made.room.id)).seq == made.seq
    assert other.room.id != room


async def test_two_writes_of_one_room_that_wait_on_each_other_end_in_a_conflict(
    services: Services,
) -> None:
    """PostgreSQL only (SQLite has one writer at a time): one transaction holds the
    room's next seq and wants a seat row, the other holds that row and wants the seq, as
    a player leaving and the host freeing a seat at the same moment did. PostgreSQL ends
    one of them; that one is a lost race (``Conflict``, tried again by the use cases),
    not a 500."""
    if services.engine.dialect.name != "postgresql":
        pytest.skip("SQLite runs one writing transaction at a time")
    state, _ = await _room(services)
    room, seq = state.room.id, state.seq + 1
    db = Store(make_sessionmaker(services.engine))
    inserted, updated = asyncio.Event(), asyncio.Event()

    async def takes_the_seq_first() -> str:
        async with db.transaction() as session:
            await store.append_events(session, room, seq, [("chat", {}, {})])
            inserted.set()
            await updated.wait()
            await store.set_stand_in(session, room, 0, "random")
        return "kept"

    async def takes_the_seat_first() -> str:
        await inserted.wait()
        async with db.transaction() as session:
            await store.set_stand_in(session, room, 0, None)
            updated.set()
            await store.append_events(session, room, seq, [("chat", {}, {})])
        return "kept"

    async with asyncio.timeout(GUARD):
        results = await asyncio.gather(
            takes_the_seq_first(), takes_the_seat_first(), return_exceptions=True
        )
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "str"], results


async def test_a_retried_write_that_a_deadlock_ended_is_tried_again_and_kept(
    services: Services,
) -> None:
    """PostgreSQL only: two writes take two seat rows in opposite orders, so PostgreSQL
    ends one of them. ``Store.retried`` runs the ended one again from the start, after
    the other has committed: both writes are kept, nobody gets a 500."""
    if services.engine.dialect.name != "postgresql":
        pytest.skip("SQLite runs one writing transaction at a time")
    state, _ = await _room(services)
    room = state.room.id
    db = Store(make_sessionmaker(services.engine))
    first_holds, second_holds = asyncio.Event(), asyncio.Event()
    tries = {"first": 0, "second": 0}

    async def first(session: Any) -> str:
        tries["first"] += 1
        await store.set_stand_in(session, room, 0, "random")
        first_holds.set()
        await second_holds.wait()
        await store.set_stand_in(session, room, 1, "random")
        return "first"

    async def second(session: Any) -> str:
        tries["second"] += 1
        await first_holds.wait()
        await store.set_stand_in(session, room, 1, "strong")
        second_holds.set()
        await store.set_stand_in(session, room, 0, "strong")
        return "second"

    async with asyncio.timeout(GUARD):
        done = await asyncio.gather(db.retried(first), db.retried(second))
    assert done == ["first", "second"]
    # the deadlock's victim ran again; its second try may meet the other write's second
    # lock again (the events stay set), so PostgreSQL may end a try more than once
    assert min(tries.values()) >= 1 and sum(tries.values()) >= 3, tries
    async with db.transaction() as session:
        rows = await session.execute(
            select(Seat.seat, Seat.stand_in).where(Seat.room_id == room).order_by(Seat.seat)
        )
        stand_ins = [stand_in for _, stand_in in rows]
    # whichever went second wrote last, both seats alike: nothing of the ended try stayed
    assert stand_ins[0] == stand_ins[1] in ("random", "strong")


async def test_retried_gives_up_busy_after_its_tries(services: Services) -> None:
    calls = 0

    async def always_lost(session: Any) -> None:
        nonlocal calls
        calls += 1
        raise store.Conflict("lost again")

    with pytest.raises(ApiError) as refused:
        await services.rooms.db.retried(always_lost)
    assert refused.value.code == "busy" and calls == store.TRANSACTION_TRIES


def test_a_lost_race_that_reaches_a_route_answers_busy_not_500(settings: Settings) -> None:
    """A write the database ended and nobody tried again is the caller's to retry: 409
    ``busy`` with a sentence, never an internal error."""
    app = create_app(settings)

    async def ended() -> None:
        raise store.Conflict("the database ended this transaction: deadlock detected")

    app.add_api_route("/api/test/ended", ended, methods=["POST"])
    with TestClient(app) as client:
        answer = client.post("/api/test/ended")
    assert answer.status_code == 409
    assert answer.json()["code"] == "busy" and "try again" in answer.json()["message"]
