"""Time per move in process, on a real database: the test clock moves, nobody sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from app.core.clock import clock
from app.core.config import Settings
from app.core.errors import ApiError
from app.play import store
from app.play.rooms import RoomRules
from app.play.state import RoomState
from app.play.store import DeadlineRecord
from app.services import Services

HOUR = 3600


@pytest.fixture(autouse=True)
def test_clock() -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


async def _timed_game(
    svc: Services, policy: str = "bot_move", seconds: int = HOUR, players: int = 2
) -> tuple[RoomState, list[str]]:
    rules = RoomRules(turn_seconds=seconds, on_timeout=policy)
    state, anna = await svc.rooms.create("secret", players, {}, "Anna", 0, {}, rules)
    tokens = [anna]
    for seat in range(1, players):
        _, token = await svc.rooms.claim(state.room.id, seat, f"P{seat}", None)
        tokens.append(token)
    return await svc.rooms.start(state.room.id, anna, None), tokens


async def _deadlines(svc: Services, room: str) -> list[DeadlineRecord]:
    async with svc.rooms.db.transaction() as session:
        return await store.deadlines_of(session, room)


async def _until(svc: Services, room: str, done: Any, what: str) -> RoomState:
    """The room once ``done(state)`` holds: the bot runner plays in the background."""
    for _ in range(400):
        state = await svc.rooms.load(room)
        if done(state):
            return state
        await asyncio.sleep(0.025)
    raise AssertionError(f"never happened: {what}")


async def _kinds(svc: Services, room: str, after: int = 0) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, e.public) for e in await svc.rooms.events(room, after)]


async def test_a_timed_room_gives_the_seat_to_move_a_deadline_and_a_reminder_time(
    services: Services,
) -> None:
    before = clock.now()
    state, _ = await _timed_game(services)
    [deadline] = await _deadlines(services, state.room.id)
    assert deadline.seat == state.engine.to_act(state.game)[0] == 0
    assert deadline.seq == state.seq
    assert timedelta(hours=1) <= deadline.due_at - before < timedelta(hours=1, minutes=1)
    assert deadline.remind_at == deadline.due_at - timedelta(minutes=15)


async def test_a_room_without_a_time_limit_has_no_deadlines(services: Services) -> None:
    state, anna = await services.rooms.create("secret", 2, {}, "Anna", 0, {}, RoomRules())
    await services.rooms.claim(state.room.id, 1, "Ben", None)
    state = await services.rooms.start(state.room.id, anna, None)
    await services.rooms.move(state.room.id, anna, state.seq, {"n": 1})
    assert await _deadlines(services, state.room.id) == []
    assert await services.deadlines.clocks(state) == []


async def test_a_move_in_time_passes_the_deadline_to_the_next_seat(services: Services) -> None:
    state, tokens = await _timed_game(services)
    room = state.room.id
    clock.advance(30 * 60)
    moved = await services.rooms.move(room, tokens[0], state.seq, {"n": 2})
    [deadline] = await _deadlines(services, room)
    assert deadline.seat == 1 and deadline.seq == moved.seq
    assert deadline.due_at - clock.now() > timedelta(minutes=59)
    clock.advance(45 * 60)  # seat 0's old deadline would be over by now
    await services.deadlines.tick()
    assert [k for k, _ in await _kinds(services, room, moved.seq)] == []


async def test_when_time_is_up_a_bot_plays_that_one_move_and_the_log_says_so(
    services: Services,
) -> None:
    state, tokens = await _timed_game(services, policy="bot_move")
    room = state.room.id
    clock.advance(HOUR + 1)
    await services.deadlines.tick()
    state = await _until(services, room, lambda s: s.game.total > 0, "the bot's move")
    log = await _kinds(services, room, 3)
    assert log[0] == (
        "seat_stand_in",
        {"seat": 0, "name": "Anna", "bot": "one", "reason": "timeout", "once": True},
    )
    assert [k for k, p in log[1:]] == ["move"] and log[1][1]["seat"] == 0
    # that one move only: Anna plays her next turn herself, on a new deadline
    assert state.seats[0].stand_in is None and state.seats[0].token_hash is not None
    [deadline] = await _deadlines(services, room)
    assert deadline.seat == 1
    state = await services.rooms.move(room, tokens[1], state.seq, {"n": 1})
    [deadline] = await _deadlines(services, room)
    assert deadline.seat == 0 and deadline.seq == state.seq


async def test_when_time_is_up_a_bot_keeps_the_seat_until_its_person_takes_it_back(
    services: Services,
) -> None:
    state, tokens = await _timed_game(services, policy="bot_seat")
    room = state.room.id
    clock.advance(HOUR + 1)
    await services.deadlines.tick()
    state = await _until(services, room, lambda s: s.game.total > 0, "the bot's move")
    assert state.seats[0].stand_in == "one" and not state.seats[0].once
    # Ben moves; the bot answers for Anna again, and no deadline runs for a bot
    state = await services.rooms.move(room, tokens[1], state.seq, {"n": 1})
    state = await _until(services, room, lambda s: 1 in s.engine.to_act(s.game), "bot again")
    assert [d.seat for d in await _deadlines(services, room)] == [1]
    seats = (await services.rooms.load(room)).seat_records()
    assert seats[0].stand_in == "one" and seats[0].claimed
    state = await services.seats.take_back(room, tokens[0], 0)
    assert state.seats[0].stand_in is None
    state = await services.rooms.move(room, tokens[1], state.seq, {"n": 1})
    if state.status == "playing":
        [deadline] = await _deadlines(services, room)
        assert deadline.seat == 0
    moves = [p["seat"] for k, p in await _kinds(services, room) if k == "move"]
    assert moves[:4] == [0, 1, 0, 1]


async def test_the_reminder_goes_out_once_when_a_quarter_of_the_time_is_left(
    services: Services,
) -> None:
    sent: list[tuple[str, int, int]] = []

    async def remind(session: Any, state: RoomState, deadline: DeadlineRecord) -> None:
        assert session is not None
        sent.append((state.room.id, deadline.seat, deadline.seq))

    services.deadlines.reminders.append(remind)
    state, _ = await _timed_game(services, seconds=12 * HOUR)
    clock.advance(8 * HOUR)
    await services.deadlines.tick()
    assert sent == []
    clock.advance(HOUR + 1)  # 9 of 12 hours gone: a quarter is left
    await services.deadlines.tick()
    await services.deadlines.tick()
    assert sent == [(state.room.id, 0, state.seq)]
    [deadline] = await _deadlines(services, state.room.id)
    assert deadline.remind_at is None


async def test_no_reminder_once_the_time_is_up_already(services: Services) -> None:
    sent: list[int] = []

    async def remind(session: Any, state: RoomState, deadline: DeadlineRecord) -> None:
        sent.append(deadline.seat)

    services.deadlines.reminders.append(remind)
    state, _ = await _timed_game(services)
    clock.advance(2 * HOUR)
    await services.deadlines.tick()
    await _until(services, state.room.id, lambda s: s.game.total > 0, "the bot's move")
    assert sent == []


async def test_two_stores_on_one_database_fire_a_deadline_once(settings: Settings) -> None:
    first = Services.build(settings)
    second = Services.build(settings)
    await first.start()
    await second.start()
    try:
        rooms = [(await _timed_game(first))[0].room.id for _ in range(3)]
        clock.advance(HOUR + 1)
        await asyncio.gather(
            first.deadlines.tick(),
            second.deadlines.tick(),
            first.deadlines.tick(),
            second.deadlines.tick(),
        )
        for room in rooms:
            await _until(first, room, lambda s: s.game.total > 0, "the bot's move")
            log = await _kinds(first, room)
            assert [k for k, _ in log].count("seat_stand_in") == 1
            assert [p["seat"] for k, p in log if k == "move"] == [0]
    finally:
        await second.stop()
        await first.stop()


async def test_an_old_deadline_is_not_acted_on_once_the_seat_moved(services: Services) -> None:
    state, tokens = await _timed_game(services)
    room = state.room.id
    [old] = await _deadlines(services, room)
    clock.advance(30 * 60)
    state = await services.rooms.move(room, tokens[0], state.seq, {"n": 1})
    state = await services.rooms.move(room, tokens[1], state.seq, {"n": 1})
    [new] = await _deadlines(services, room)
    assert new.seat == 0 and new.seq == state.seq and new.due_at > old.due_at
    clock.advance(31 * 60)  # past the old deadline, not the new one
    # a process that read the old row just before the moves comes too late
    assert await services.deadlines._expire(old) == 0
    assert "seat_stand_in" not in [k for k, _ in await _kinds(services, room)]
    assert await _deadlines(services, room) == [new]


async def test_the_time_left_is_shown_per_seat(services: Services) -> None:
    state, _ = await _timed_game(services, seconds=24 * HOUR)
    clock.advance(HOUR)
    [running] = await services.deadlines.clocks(state)
    assert running.seat == 0
    assert 23 * HOUR - 60 < running.left <= 23 * HOUR
    with pytest.raises(ApiError) as refused:
        await services.seats.take_back(state.room.id, None, 0)
    assert refused.value.code == "no_token"


async def test_the_loop_fires_a_deadline_that_passed_before_it_started(
    settings: Settings,
) -> None:
    slow_poll = settings.model_copy(update={"deadline_poll_seconds": 3600})
    first = Services.build(slow_poll)
    await first.start()
    try:
        state, _ = await _timed_game(first)
    finally:
        await first.stop()
    clock.advance(HOUR + 1)
    again = Services.build(slow_poll)
    await again.start()
    try:
        await _until(again, state.room.id, lambda s: s.game.total > 0, "the bot's move")
    finally:
        await again.stop()
