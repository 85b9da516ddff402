"""Taking a move back and alerts, against a real SMTP server (aiosmtpd): the turn alert of
the seat whose turn a take-back ends goes to nobody, and the next real turn is told as
usual (app/play/undo.py, app/alerts/due.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from tests.app.alerting import auth, leave_address, mail_client, outbox, own_database, work
from tests.receivers import SmtpServer

DELAY_MINUTES = 10


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test here counts all the mails its SMTP server got: a database of its own."""
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    with mail_client(settings, smtp, DELAY_MINUTES) as client:
        yield client


def _place(client: TestClient, room: str, token: str) -> None:
    state: dict[str, Any] = client.get(f"/api/rooms/{room}/state", headers=auth(token)).json()
    played = client.post(
        f"/api/rooms/{room}/moves",
        json={"seq": state["seq"], "move": state["legal_moves"][0]},
        headers=auth(token),
    )
    assert played.status_code == 200, played.text


def test_the_turn_a_take_back_ends_is_told_to_nobody(client: TestClient, smtp: SmtpServer) -> None:
    created = client.post(
        "/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}
    ).json()
    room, anna = created["room"], created["token"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    leave_address(client, smtp, room, ben, f"ben.{room}@x.org", each_turn=True)
    started = client.post(f"/api/rooms/{room}/start", json={"shuffle": False}, headers=auth(anna))
    assert started.status_code == 200, started.text

    _place(client, room, anna)  # Ben's turn: his mail waits for the delay
    assert [r["kind"] for r in outbox(client, room) if r["status"] == "pending"] == ["turn"]
    undone = client.post(f"/api/rooms/{room}/undo", headers=auth(anna))
    assert undone.status_code == 200, undone.text
    clock.advance((DELAY_MINUTES + 1) * 60)
    work(client)
    assert smtp.mails == [], "a turn taken back is told to nobody"
    turns = [r["status"] for r in outbox(client, room) if r["kind"] == "turn"]
    assert turns and "pending" not in turns and "sent" not in turns, turns

    _place(client, room, anna)  # placed again: this turn of Ben's is real
    clock.advance((DELAY_MINUTES + 1) * 60)
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["To"] == f"ben.{room}@x.org"
