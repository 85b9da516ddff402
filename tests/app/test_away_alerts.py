"""Away and alerts, against a real SMTP server (aiosmtpd): while a person is away no turn
mail nor reminder goes to them, and when the away time ends the usual mails resume."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from tests.app.alerting import (
    auth,
    leave_address,
    mail_client,
    move,
    outbox,
    own_database,
    services,
    work,
)
from tests.receivers import SmtpServer

DELAY_MINUTES = 10
HOUR = 3600


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test here counts all the mails its SMTP server got: a database of its own."""
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    with mail_client(settings, smtp, DELAY_MINUTES, deadline_poll_seconds=3600) as client:
        yield client


def _timed(client: TestClient, smtp: SmtpServer) -> tuple[str, list[str]]:
    created = client.post(
        "/api/rooms",
        json={"game": "secret", "players": 2, "name": "Anna", "turn_seconds": HOUR},
    ).json()
    room = created["room"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    # one mail per turn: a reminder is not held for the day's digest (app/alerts/digest.py)
    leave_address(client, smtp, room, ben, f"ben.{room}@x.org", each_turn=True)
    started = client.post(f"/api/rooms/{room}/start", headers=auth(created["token"]))
    assert started.status_code == 200, started.text
    return room, [created["token"], ben]


def _later(client: TestClient, minutes: float) -> None:
    clock.advance(minutes * 60)
    client.portal.call(services(client).deadlines.tick)  # type: ignore[union-attr]
    work(client)


def _away(client: TestClient, room: str, token: str, hours: float) -> None:
    until = (clock.now() + timedelta(hours=hours)).isoformat()
    response = client.post(f"/api/rooms/{room}/away", json={"until": until}, headers=auth(token))
    assert response.status_code == 200, response.text


def test_no_turn_mail_nor_reminder_while_away_and_both_once_back(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = _timed(client, smtp)
    move(client, room, anna)  # Ben's turn: his turn mail is queued for after the delay
    _away(client, room, ben, hours=48)
    _later(client, DELAY_MINUTES + 1)
    _later(client, 50)  # past the time a reminder would have gone
    _later(client, 24 * 60)
    assert smtp.mails == [], "nothing goes to a person who is away"
    assert [r["kind"] for r in outbox(client, room) if r["status"] == "pending"] == []
    back = client.delete(f"/api/rooms/{room}/away", headers=auth(ben))
    assert back.status_code == 200, back.text
    _later(client, DELAY_MINUTES + 1)
    (mail,) = smtp.wait(1)
    assert mail["To"] == f"ben.{room}@x.org"
    # his hour runs again from where it stood: the reminder at a quarter left
    _later(client, 60 - DELAY_MINUTES - 1 - 15 + 1)
    mails = smtp.wait(2)
    assert len(mails) == 2
    assert [r["kind"] for r in outbox(client, room) if r["status"] == "sent"][-2:] == [
        "turn",
        "reminder",
    ]


def test_when_the_away_time_runs_out_the_turn_mail_comes_again(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = _timed(client, smtp)
    move(client, room, anna)
    _away(client, room, ben, hours=3)
    _later(client, 2 * 60)
    assert smtp.mails == []
    _later(client, 61)  # the away time ran out: the loop says he is back
    state = client.get(f"/api/rooms/{room}").json()
    assert state["seats"][1]["away_until"] is None and not state["seats"][1]["paused"]
    _later(client, DELAY_MINUTES + 1)
    (mail,) = smtp.wait(1)
    assert mail["To"] == f"ben.{room}@x.org"
