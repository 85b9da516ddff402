"""Away: a person pauses the clocks of their seats in every table, the deadline keeps
the time it had left and resumes with it when they come back or the away time runs
out, and only then may a stand-in bot take over (docs/protocol.md, "Away"). On a real
database, SQLite and PostgreSQL; the test clock moves, nobody sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.core.errors import ApiError
from app.play import store
from app.play.rooms import RoomRules
from app.play.state import RoomState
from app.play.store import DeadlineRecord
from app.services import Services, create_app
from tests.calls import auth

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture(autouse=True)
def test_clock() -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


async def _timed_game(
    svc: Services, policy: str = "bot_move", seconds: int = HOUR, anna: str | None = None
) -> tuple[RoomState, list[str]]:
    rules = RoomRules(turn_seconds=seconds, on_timeout=policy)
    state, token = await svc.rooms.create("secret", 2, {}, "Anna", 0, {}, rules)
    _, ben = await svc.rooms.claim(state.room.id, 1, "Ben", None)
    return await svc.rooms.start(state.room.id, token, None), [token, ben]


async def _deadlines(svc: Services, room: str) -> list[DeadlineRecord]:
    async with svc.rooms.db.transaction() as session:
        return await store.deadlines_of(session, room)


async def _kinds(svc: Services, room: str, after: int = 0) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, e.public) for e in await svc.rooms.events(room, after)]


async def _until(svc: Services, room: str, done: Any, what: str) -> RoomState:
    for _ in range(400):
        state = await svc.rooms.load(room)
        if done(state):
            return state
        await asyncio.sleep(0.025)
    raise AssertionError(f"never happened: {what}")


async def test_away_pauses_the_deadline_with_the_time_it_had_left(services: Services) -> None:
    state, (anna, _) = await _timed_game(services)
    room = state.room.id
    clock.advance(20 * 60)
    away = await services.aways.declare(room, anna, clock.now() + timedelta(days=2))
    assert away.seats[0].away_until is not None
    [deadline] = await _deadlines(services, room)
    assert deadline.paused_left is not None and abs(deadline.paused_left - 40 * 60) < 5
    assert deadline.remind_at is None
    [shown] = await services.deadlines.clocks(away)
    assert shown.paused and abs(shown.left - 40 * 60) < 5
    # a day later nothing happened: no stand-in, no reminder, the clock still waits
    clock.advance(DAY)
    # (the count tick returns is of every room in the database, other tests' too)
    await services.deadlines.tick()
    assert [k for k, _ in await _kinds(services, room, away.seq)] == []
    [still] = await _deadlines(services, room)
    assert still == deadline


async def test_coming_back_resumes_the_deadline_with_the_time_it_had_left(
    services: Services,
) -> None:
    state, (anna, _) = await _timed_game(services)
    room = state.room.id
    clock.advance(20 * 60)
    await services.aways.declare(room, anna, clock.now() + timedelta(days=2))
    clock.advance(DAY)
    back = await services.aways.back(room, anna)
    assert back.seats[0].away_until is None and back.seats[0].back_at is not None
    [deadline] = await _deadlines(services, room)
    assert deadline.paused_left is None
    assert abs((deadline.due_at - clock.now()).total_seconds() - 40 * 60) < 5
    assert deadline.remind_at == deadline.due_at - timedelta(minutes=15)
    assert [k for k, _ in await _kinds(services, room, state.seq)] == ["seat_away", "seat_back"]
    # and it runs out as any deadline: now the stand-in bot plays
    clock.advance(40 * 60 + 1)
    await services.deadlines.tick()
    await _until(services, room, lambda s: s.game.total > 0, "the bot's move after the pause")


async def test_bots_take_over_only_once_the_away_time_and_then_the_time_left_ran_out(
    services: Services,
) -> None:
    state, (anna, _) = await _timed_game(services)
    room = state.room.id
    clock.advance(50 * 60)
    await services.aways.declare(room, anna, clock.now() + timedelta(hours=3))
    clock.advance(3 * HOUR - 60)  # far past the first deadline, still away
    await services.deadlines.tick()
    assert (await services.rooms.load(room)).game.total == 0
    clock.advance(61)  # the away time is over: the loop says she is back
    await services.deadlines.tick()
    kinds = await _kinds(services, room, state.seq)
    assert kinds[-1][0] == "seat_back" and kinds[-1][1]["reason"] == "expired"
    [deadline] = await _deadlines(services, room)
    assert deadline.paused_left is None
    assert abs((deadline.due_at - clock.now()).total_seconds() - 10 * 60) < 5
    assert (await services.rooms.load(room)).game.total == 0
    clock.advance(10 * 60 + 1)
    await services.deadlines.tick()
    await _until(services, room, lambda s: s.game.total > 0, "the bot's move")
    assert (await _kinds(services, room, state.seq))[2][0] == "seat_stand_in"


async def test_away_pauses_every_table_at_once_and_back_resumes_them(
    services: Services,
) -> None:
    first, (anna1, ben1) = await _timed_game(services)
    second, (anna2, ben2) = await _timed_game(services, seconds=DAY)
    clock.advance(10 * 60)
    outcomes = await services.aways.declare_all(
        [anna1, anna2, "not-a-token"], clock.now() + timedelta(days=14)
    )
    assert [(o.room_id, o.seat) for o in outcomes] == [
        (first.room.id, 0),
        (second.room.id, 0),
        (None, None),
    ]
    for room in (first.room.id, second.room.id):
        [deadline] = await _deadlines(services, room)
        assert deadline.paused_left is not None
    # Ben's turn in the first room runs as usual, and is not paused
    moved = await services.rooms.move(first.room.id, anna1, first.seq, {"n": 1})
    [running] = await _deadlines(services, first.room.id)
    assert running.seat == 1 and running.paused_left is None
    assert moved.seats[0].away_until is not None  # a move does not end the away time
    # Anna's next turn there waits for her too
    moved = await services.rooms.move(first.room.id, ben1, moved.seq, {"n": 1})
    [paused] = await _deadlines(services, first.room.id)
    assert paused.seat == 0 and paused.paused_left == HOUR
    back = await services.aways.back_all([anna1, anna2])
    assert all(o.state is not None and o.state.seats[0].away_until is None for o in back)
    for room, left in ((first.room.id, HOUR), (second.room.id, DAY - 10 * 60)):
        [deadline] = await _deadlines(services, room)
        assert deadline.paused_left is None
        assert abs((deadline.due_at - clock.now()).total_seconds() - left) < 5
    del ben2


async def test_away_at_most_14_days_then_a_cooldown(services: Services) -> None:
    state, (anna, _) = await _timed_game(services)
    room = state.room.id
    with pytest.raises(ApiError) as too_long:
        await services.aways.declare(room, anna, clock.now() + timedelta(days=14, minutes=1))
    assert too_long.value.code == "away_too_long" and too_long.value.status == 400
    with pytest.raises(ApiError) as past:
        await services.aways.declare(room, anna, clock.now() - timedelta(minutes=1))
    assert past.value.code == "away_past"
    await services.aways.declare(room, anna, clock.now() + timedelta(days=10))
    # moving the end keeps the start: 14 days from then at most
    clock.advance(5 * DAY)
    with pytest.raises(ApiError) as moved:
        await services.aways.declare(room, anna, clock.now() + timedelta(days=10))
    assert moved.value.code == "away_too_long"
    await services.aways.declare(room, anna, clock.now() + timedelta(days=8))
    clock.advance(8 * DAY + 1)
    await services.deadlines.tick()
    assert (await services.rooms.load(room)).seats[0].away_until is None
    clock.advance(6 * DAY)
    with pytest.raises(ApiError) as cooling:
        await services.aways.declare(room, anna, clock.now() + timedelta(days=1))
    assert cooling.value.code == "away_cooldown" and cooling.value.status == 409
    assert "again" in cooling.value.extra
    clock.advance(DAY)
    again = await services.aways.declare(room, anna, clock.now() + timedelta(days=1))
    assert again.seats[0].away_until is not None


async def test_a_cooldown_at_one_table_refuses_the_call_for_every_table_before_any_change(
    services: Services,
) -> None:
    first, (anna1, _) = await _timed_game(services)
    second, (anna2, _) = await _timed_game(services)
    await services.aways.declare(second.room.id, anna2, clock.now() + timedelta(hours=1))
    await services.aways.back(second.room.id, anna2)
    with pytest.raises(ApiError) as cooling:
        await services.aways.declare_all([anna1, anna2], clock.now() + timedelta(days=1))
    assert cooling.value.code == "away_cooldown"
    assert (await services.rooms.load(first.room.id)).seats[0].away_until is None


async def test_away_in_a_room_without_a_time_limit_ends_by_itself(services: Services) -> None:
    state, anna = await services.rooms.create("secret", 2, {}, "Anna", 0, {}, RoomRules())
    room = state.room.id
    await services.aways.declare(room, anna, clock.now() + timedelta(hours=2))
    assert await _deadlines(services, room) == []
    clock.advance(2 * HOUR + 1)
    assert await services.deadlines.tick() >= 1
    assert (await services.rooms.load(room)).seats[0].away_until is None


async def test_a_freed_seat_is_no_longer_away(services: Services) -> None:
    state, (anna, ben) = await _timed_game(services)
    room = state.room.id
    await services.aways.declare(room, ben, clock.now() + timedelta(days=1))
    freed = await services.seats.release(room, anna, 1)
    assert freed.seats[1].away_until is None
    async with services.rooms.db.transaction() as session:
        assert await store.aways_ended(session, clock.now() + timedelta(days=2)) == []
    with pytest.raises(ApiError) as old:
        await services.aways.back(room, ben)
    assert old.value.code == "bad_token"


# -- the routes ------------------------------------------------------------------


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _timed_room(client: TestClient) -> tuple[str, str, str]:
    created = client.post(
        "/api/rooms",
        json={"game": "secret", "players": 2, "name": "Anna", "turn_seconds": 86400},
    )
    assert created.status_code == 201, created.text
    room, anna = created.json()["room"], created.json()["token"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    assert client.post(f"/api/rooms/{room}/start", headers=auth(anna)).status_code == 200
    return room, anna, ben


def _later(days: float) -> str:
    return (clock.now() + timedelta(days=days)).isoformat()


def test_the_room_routes_pause_and_resume_and_everyone_sees_away_until(
    client: TestClient,
) -> None:
    room, anna, _ = _timed_room(client)
    away = client.post(f"/api/rooms/{room}/away", json={"until": _later(3)}, headers=auth(anna))
    assert away.status_code == 200, away.text
    seat = away.json()["room"]["seats"][0]
    assert seat["away_until"] and seat["paused"] and seat["deadline"] is None
    assert seat["time_left"] > 86000
    public = client.get(f"/api/rooms/{room}").json()["seats"][0]
    assert public["away_until"] == seat["away_until"] and public["paused"]
    events = client.get(f"/api/rooms/{room}/events").json()["events"]
    assert events[-1]["kind"] == "seat_away" and events[-1]["until"] == seat["away_until"]
    back = client.delete(f"/api/rooms/{room}/away", headers=auth(anna))
    assert back.status_code == 200, back.text
    seat = back.json()["room"]["seats"][0]
    assert seat["away_until"] is None and not seat["paused"] and seat["deadline"]
    again = client.delete(f"/api/rooms/{room}/away", headers=auth(anna))
    assert again.status_code == 409 and again.json()["code"] == "not_away"


def test_the_room_routes_refuse_outsiders_and_bad_times(client: TestClient) -> None:
    room, anna, _ = _timed_room(client)
    url = f"/api/rooms/{room}/away"
    nobody = client.post(url, json={"until": _later(1)})
    assert nobody.status_code == 401 and nobody.json()["code"] == "no_token"
    stranger = client.post(url, json={"until": _later(1)}, headers=auth("x" * 40))
    assert stranger.status_code == 401 and stranger.json()["code"] == "bad_token"
    naive = client.post(url, json={"until": "2030-01-01T00:00:00"}, headers=auth(anna))
    assert naive.status_code == 400 and naive.json()["code"] == "malformed"
    long = client.post(url, json={"until": _later(15)}, headers=auth(anna))
    assert long.status_code == 400 and long.json()["code"] == "away_too_long"
    assert long.json()["latest"]


def test_away_everywhere_takes_the_tokens_in_the_body_and_answers_for_each(
    client: TestClient,
) -> None:
    room1, anna1, _ = _timed_room(client)
    room2, anna2, _ = _timed_room(client)
    tokens = [anna1, "nope", anna2, anna1]
    away = client.post("/api/away", json={"tokens": tokens, "until": _later(2)})
    assert away.status_code == 200, away.text
    first, unknown, second, again = away.json()["seats"]
    assert unknown is None and again == first
    kinds = [e["kind"] for e in client.get(f"/api/rooms/{room1}/events").json()["events"]]
    assert kinds.count("seat_away") == 1, "a token sent twice is away once"
    assert (first["room"], first["seat"]) == (room1, 0) and first["away_until"]
    assert (second["room"], second["seat"]) == (room2, 0) and second["away_until"]
    for room in (room1, room2):
        assert client.get(f"/api/rooms/{room}").json()["seats"][0]["away_until"]
    back = client.request("DELETE", "/api/away", json={"tokens": [anna1, anna2]})
    assert back.status_code == 200, back.text
    assert [s["away_until"] for s in back.json()["seats"]] == [None, None]
    for room in (room1, room2):
        assert client.get(f"/api/rooms/{room}").json()["seats"][0]["away_until"] is None
    none = client.post("/api/away", json={"tokens": ["nope"], "until": _later(2)})
    assert none.status_code == 401 and none.json()["code"] == "bad_token"
    cooling = client.post("/api/away", json={"tokens": [anna1], "until": _later(2)})
    assert cooling.status_code == 409 and cooling.json()["code"] == "away_cooldown"
    many = client.post("/api/away", json={"tokens": ["t"] * 51, "until": _later(1)})
    assert many.status_code == 400 and many.json()["code"] == "malformed"
