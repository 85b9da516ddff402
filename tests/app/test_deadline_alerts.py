"""Deadlines and alerts together: the reminder goes to the person's channels, and a seat
a bot plays gets no turn alerts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import auth, drop_addresses, outbox, services
from tests.server import free_port

# the tables made by the running test: their addresses go afterwards (see drop_addresses)
TABLES: list[tuple[str, list[str]]] = []


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    # mail is set up (nothing is sent: these tests only look at what is queued)
    quiet = {
        "alert_delay_minutes": 30,
        "alert_poll_seconds": 3600,
        "deadline_poll_seconds": 3600,
        "smtp_host": "127.0.0.1",
        "smtp_port": free_port(),
        "public_url": "https://play.example.org",
    }
    clock.reset()
    try:
        with TestClient(create_app(settings.model_copy(update=quiet))) as client:
            yield client
            for room, tokens in TABLES:
                drop_addresses(client, room, tokens)
    finally:
        TABLES.clear()
        clock.reset()


def _timed(client: TestClient) -> tuple[str, list[str]]:
    created = client.post(
        "/api/rooms",
        json={"game": "secret", "players": 2, "name": "Anna", "turn_seconds": 3600},
    ).json()
    room = created["room"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    tokens = [created["token"], ben]
    for token, address in zip(tokens, ("anna@x.org", "ben@x.org"), strict=True):
        response = client.put(
            f"/api/rooms/{room}/alerts/email", json={"address": address}, headers=auth(token)
        )
        assert response.status_code < 300, response.text
    TABLES.append((room, tokens))
    started = client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    assert started.status_code == 200, started.text
    return room, tokens


def _tick(client: TestClient) -> None:
    client.portal.call(services(client).deadlines.tick)  # type: ignore[union-attr]


def test_a_quarter_of_the_time_left_queues_one_reminder_for_the_seat_to_move(
    client: TestClient,
) -> None:
    room, _ = _timed(client)
    _tick(client)
    assert [r for r in outbox(client, room) if r["kind"] == "reminder"] == []
    clock.advance(46 * 60)
    _tick(client)
    _tick(client)
    reminders = [r for r in outbox(client, room) if r["kind"] == "reminder"]
    assert [r["seat"] for r in reminders] == [0]


def test_a_seat_a_bot_plays_for_its_person_gets_no_turn_alert(client: TestClient) -> None:
    room, (anna, ben) = _timed(client)
    left = client.post(f"/api/rooms/{room}/leave", headers=auth(ben))
    assert left.status_code == 200, left.text
    state = client.get(f"/api/rooms/{room}/state", headers=auth(anna)).json()
    moved = client.post(
        f"/api/rooms/{room}/moves", json={"seq": state["seq"], "move": {"n": 1}}, headers=auth(anna)
    )
    assert moved.status_code == 200, moved.text
    turns = [r for r in outbox(client, room) if r["seat"] == 1 and r["kind"] != "confirm"]
    assert turns == []
