"""Retention: rooms quiet for longer than RETENTION_DAYS go, with seats, events and
snapshots; rooms with recent activity stay; 0 keeps everything."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import func, select, update

from app.core.clock import Clock
from app.play.access import hash_token
from app.play.retention import Retention
from app.play.rooms import RoomRules
from app.play.tables import Event, Room, Seat, Snapshot
from app.services import Services


async def _finished_room(services: Services) -> str:
    """A two-seat game played to its end: a log long enough to have snapshots."""
    state, anna = await services.rooms.create(
        game="secret", players=2, options=None, name="Anna", seat=0, bots={}, rules=RoomRules()
    )
    room = state.room.id
    state, ben = await services.rooms.claim(room, 1, "Ben", None)
    state = await services.rooms.start(room, anna, None)
    tokens = [anna, ben]
    while state.status == "playing":
        seat = state.engine.to_act(state.game)[0]
        state = await services.rooms.move(room, tokens[seat], state.seq, {"n": 1})
    assert state.seats[1].token_hash == hash_token(ben)
    return room


async def _lobby(services: Services) -> str:
    state, _ = await services.rooms.create(
        game="secret", players=2, options=None, name="Cleo", seat=0, bots={}, rules=RoomRules()
    )
    return state.room.id


async def _age(services: Services, room: str, days: float) -> None:
    """Make everything in ``room`` happen ``days`` days earlier than it did."""
    shift = timedelta(days=days)
    async with services.rooms.db.transaction() as session:
        await session.execute(
            update(Room).where(Room.id == room).values(created_at=Room.created_at - shift)
        )
        await session.execute(
            update(Event).where(Event.room_id == room).values(created_at=Event.created_at - shift)
        )


async def _rows(services: Services, room: str) -> dict[str, int]:
    async with services.rooms.db.transaction() as session:
        return {
            table.__tablename__: int(
                await session.scalar(
                    select(func.count()).select_from(table).where(table.room_id == room)  # type: ignore[attr-defined]
                )
                or 0
            )
            for table in (Seat, Event, Snapshot)
        } | {
            "rooms": int(
                await session.scalar(select(func.count()).select_from(Room).where(Room.id == room))
                or 0
            )
        }


async def test_rooms_quiet_longer_than_the_retention_go_with_their_log(services: Services) -> None:
    old_game = await _finished_room(services)
    old_lobby = await _lobby(services)
    fresh = await _finished_room(services)
    before = await _rows(services, old_game)
    assert before["snapshots"] > 0 and before["events"] > 0 and before["seats"] == 2
    await _age(services, old_game, 31)
    await _age(services, old_lobby, 31)

    deleted = await Retention(services.rooms.db, days=30).sweep()

    assert deleted >= 2  # on PostgreSQL the session's other tests share the database
    for room in (old_game, old_lobby):
        assert await _rows(services, room) == {"seats": 0, "events": 0, "snapshots": 0, "rooms": 0}
    assert (await _rows(services, fresh))["rooms"] == 1
    assert (await services.rooms.load(fresh)).status == "finished"


async def test_a_recent_event_keeps_an_old_room(services: Services) -> None:
    room = await _lobby(services)
    await _age(services, room, 60)
    await services.rooms.claim(room, 1, "Ben", None)  # activity today

    await Retention(services.rooms.db, days=30).sweep()
    assert (await _rows(services, room))["rooms"] == 1


async def test_the_retention_counts_days_on_the_servers_clock(services: Services) -> None:
    room = await _lobby(services)
    wall = Clock()
    retention = Retention(services.rooms.db, days=7, wall=wall)
    wall.advance(timedelta(days=6).total_seconds())
    await retention.sweep()
    assert (await _rows(services, room))["rooms"] == 1
    wall.advance(timedelta(days=2).total_seconds())
    assert await retention.sweep() >= 1
    assert (await _rows(services, room))["rooms"] == 0


async def test_zero_days_keeps_everything(services: Services) -> None:
    room = await _finished_room(services)
    await _age(services, room, 3650)
    assert await Retention(services.rooms.db, days=0).sweep() == 0
    assert (await _rows(services, room))["rooms"] == 1


async def test_the_periodic_task_sweeps_when_it_starts(services: Services) -> None:
    room = await _lobby(services)
    await _age(services, room, 10)
    retention = Retention(services.rooms.db, days=5)
    retention.start()
    try:
        await asyncio.wait_for(retention.swept.wait(), timeout=60)
    finally:
        await retention.stop()
    assert (await _rows(services, room))["rooms"] == 0
