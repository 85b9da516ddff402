"""Seats in a running game over REST: leave, hand over, free, take back, claim, who may."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.alerts.tables import AlertChannel, AlertSeat
from app.core.config import Settings
from app.core.db import make_engine
from app.play.access import hash_token
from app.services import create_app
from tests.app.alerting import drop_addresses
from tests.calls import auth, refused


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _game(client: TestClient, players: int = 3, **rules: Any) -> tuple[str, list[str]]:
    created = client.post(
        "/api/rooms", json={"game": "secret", "players": players, "name": "Anna", **rules}
    ).json()
    tokens = [created["token"]]
    for seat in range(1, players):
        claimed = client.post(
            f"/api/rooms/{created['room']}/seats/{seat}", json={"name": f"P{seat}"}
        )
        tokens.append(claimed.json()["token"])
    started = client.post(f"/api/rooms/{created['room']}/start", headers=auth(tokens[0]))
    assert started.status_code == 200, started.text
    return created["room"], tokens


def _events(client: TestClient, room: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/rooms/{room}/events").json()["events"])


def _seat(client: TestClient, room: str, seat: int) -> dict[str, Any]:
    return dict(client.get(f"/api/rooms/{room}").json()["seats"][seat])


def _until_moved(client: TestClient, room: str, seat: int) -> None:
    for _ in range(400):
        if any(e["kind"] == "move" and e["seat"] == seat for e in _events(client, room)):
            return
        time.sleep(0.025)
    raise AssertionError(f"seat {seat} never moved")


def test_a_player_leaves_and_a_bot_plays_for_them_until_they_take_the_seat_back(
    client: TestClient,
) -> None:
    room, tokens = _game(client)
    left = client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[0]))
    assert left.status_code == 200, left.text
    assert left.json()["you"] == 0
    seat = _seat(client, room, 0)
    assert seat["kind"] == "human" and seat["name"] == "Anna" and seat["stand_in"] == "one"
    _until_moved(client, room, 0)  # the bot played Anna's turn
    by_bot = [e for e in _events(client, room) if e["kind"] == "move" and e["seat"] == 0]
    assert by_bot[0]["stand_in"] == "one", "the log credits the bot, not Anna"
    last = [e for e in _events(client, room) if e["kind"] == "seat_stand_in"][-1]
    assert last == {**last, "seat": 0, "name": "Anna", "reason": "left", "bot": "one"}
    refused(client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[0])), 409, "stood_in")
    back = client.post(f"/api/rooms/{room}/seats/0/take-back", headers=auth(tokens[0]))
    assert back.status_code == 200, back.text
    assert back.json()["room"]["seats"][0]["stand_in"] is None
    assert _events(client, room)[-1]["kind"] in {"seat_taken_back", "move"}


def test_only_the_seats_own_token_takes_it_back(client: TestClient) -> None:
    room, tokens = _game(client)
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[1])).status_code == 200
    refused(client.post(f"/api/rooms/{room}/seats/1/take-back"), 401, "no_token")
    for other in (tokens[0], tokens[2]):
        refused(
            client.post(f"/api/rooms/{room}/seats/1/take-back", headers=auth(other)),
            403,
            "not_your_seat",
        )
    refused(
        client.post(f"/api/rooms/{room}/seats/1/take-back", headers=auth("forged")),
        401,
        "bad_token",
    )
    refused(
        client.post(f"/api/rooms/{room}/seats/2/take-back", headers=auth(tokens[2])),
        409,
        "not_stood_in",
    )
    assert _seat(client, room, 1)["stand_in"] == "one"
    ok = client.post(f"/api/rooms/{room}/seats/1/take-back", headers=auth(tokens[1]))
    assert ok.status_code == 200, ok.text


def test_only_the_host_hands_a_seat_to_a_bot_or_frees_it(client: TestClient) -> None:
    room, tokens = _game(client)
    for path in ("hand-over", "free"):
        refused(client.post(f"/api/rooms/{room}/seats/2/{path}"), 401, "no_token")
        refused(
            client.post(f"/api/rooms/{room}/seats/2/{path}", headers=auth(tokens[1])),
            403,
            "not_creator",
        )
        refused(
            client.post(f"/api/rooms/{room}/seats/9/{path}", headers=auth(tokens[0])),
            404,
            "no_such_seat",
        )
    refused(
        client.post(
            f"/api/rooms/{room}/seats/2/hand-over", json={"bot": "nobody"}, headers=auth(tokens[0])
        ),
        400,
        "unknown_bot",
    )
    refused(
        client.post(f"/api/rooms/{room}/seats/0/free", headers=auth(tokens[0])), 409, "own_seat"
    )
    assert all(e["kind"] not in {"seat_stand_in", "seat_released"} for e in _events(client, room))
    handed = client.post(f"/api/rooms/{room}/seats/2/hand-over", headers=auth(tokens[0]))
    assert handed.status_code == 200, handed.text
    assert handed.json()["seats"][2]["stand_in"] == "one"
    event = _events(client, room)[-1]
    assert event["kind"] == "seat_stand_in" and event["reason"] == "host" and event["name"] == "P2"
    # the person still holds the seat and takes it back
    back = client.post(f"/api/rooms/{room}/seats/2/take-back", headers=auth(tokens[2]))
    assert back.status_code == 200, back.text


def test_a_freed_seat_is_played_by_a_bot_until_someone_claims_it_by_the_link(
    client: TestClient,
) -> None:
    room, tokens = _game(client)
    freed = client.post(f"/api/rooms/{room}/seats/1/free", headers=auth(tokens[0]))
    assert freed.status_code == 200, freed.text
    seat = freed.json()["seats"][1]
    assert seat["kind"] == "empty" and seat["name"] is None and seat["stand_in"] == "one"
    event = _events(client, room)[-1]
    assert event == {**event, "kind": "seat_released", "seat": 1, "name": "P1", "bot": "one"}
    # the old token is worth nothing now
    refused(client.get(f"/api/rooms/{room}/state", headers=auth(tokens[1])), 401, "bad_token")
    refused(
        client.post(f"/api/rooms/{room}/seats/1/free", headers=auth(tokens[0])), 409, "seat_free"
    )
    refused(client.post(f"/api/rooms/{room}/seats/2", json={"name": "Cleo"}), 409, "seat_taken")
    refused(
        client.post(f"/api/rooms/{room}/seats/1", json={"name": "Cleo"}, headers=auth(tokens[2])),
        409,
        "already_seated",
    )
    claimed = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Cleo"})
    assert claimed.status_code == 200, claimed.text
    body = claimed.json()
    assert body["seat"] == 1 and body["state"]["you"] == 1
    seat = body["state"]["room"]["seats"][1]
    assert seat["name"] == "Cleo" and seat["kind"] == "human" and seat["stand_in"] is None
    refused(client.post(f"/api/rooms/{room}/seats/1", json={"name": "Dan"}), 409, "seat_taken")


def test_seats_change_this_way_only_while_a_game_runs(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "Anna"})
    room, anna = created.json()["room"], created.json()["token"]
    refused(
        client.post(f"/api/rooms/{room}/seats/1/hand-over", headers=auth(anna)),
        409,
        "not_playing",
    )


def test_a_timed_room_shows_each_waiting_seats_deadline_and_time_left(
    client: TestClient,
) -> None:
    room, tokens = _game(client, players=2, turn_seconds=86400, on_timeout="bot_seat")
    info = client.get(f"/api/rooms/{room}").json()
    assert info["rules"]["turn_seconds"] == 86400 and info["rules"]["on_timeout"] == "bot_seat"
    waiting = [s for s in info["seats"] if s["deadline"] is not None]
    assert [s["seat"] for s in waiting] == [0]
    assert 86400 - 120 < waiting[0]["time_left"] <= 86400
    assert info["seats"][1]["time_left"] is None
    state = client.get(f"/api/rooms/{room}/state", headers=auth(tokens[1])).json()
    assert state["room"]["seats"][0]["time_left"] == waiting[0]["time_left"]
    listed = client.get(f"/api/rooms/{room}/deadlines").json()
    assert listed["turn_seconds"] == 86400 and listed["on_timeout"] == "bot_seat"
    assert [d["seat"] for d in listed["deadlines"]] == [0]
    assert listed["deadlines"][0]["due"] == waiting[0]["deadline"]


def test_a_time_per_move_outside_the_choices_is_refused(client: TestClient) -> None:
    for bad in ({"turn_seconds": 60}, {"on_timeout": "nothing"}):
        response = client.post(
            "/api/rooms", json={"game": "secret", "players": 2, "name": "Anna", **bad}
        )
        refused(response, 400, "malformed")


def test_freeing_a_seat_forgets_its_persons_address_and_settings(settings: Settings) -> None:
    """An address serves its seat's alerts and nothing else: once the host frees the
    seat, the old token can't remove it any more, so the server forgets it itself."""
    mailing = settings.model_copy(
        update={"smtp_host": "127.0.0.1", "smtp_port": 9, "public_url": "https://x.example.org"}
    )
    with TestClient(create_app(mailing)) as client:
        room, tokens = _game(client)
        for token, address in ((tokens[1], "ben@example.org"), (tokens[2], "cleo@example.org")):
            response = client.put(
                f"/api/rooms/{room}/alerts/email", json={"address": address}, headers=auth(token)
            )
            assert response.status_code == 200, response.text
        freed = client.post(f"/api/rooms/{room}/seats/1/free", headers=auth(tokens[0]))
        assert freed.status_code == 200, freed.text
        left_behind = asyncio.run(_left(mailing, room))
        drop_addresses(client, room, tokens[2:])

    targets, people = left_behind
    assert targets == ["cleo@example.org"], "a freed person's address must be forgotten"
    assert people == [hash_token(tokens[2])]


async def _left(settings: Settings, room: str) -> tuple[list[str], list[str]]:
    """The room's alert addresses and the people with alert settings, from the database."""
    engine = make_engine(settings)
    try:
        async with engine.connect() as conn:
            targets = await conn.execute(
                select(AlertChannel.target).where(AlertChannel.room_id == room)
            )
            people = await conn.execute(
                select(AlertSeat.token_hash).where(AlertSeat.room_id == room)
            )
            return [t for (t,) in targets], [p for (p,) in people]
    finally:
        await engine.dispose()
