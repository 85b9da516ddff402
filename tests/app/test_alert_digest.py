"""One mail a day for many tables, against a real SMTP server (aiosmtpd).

A person at many tables gets one digest a day listing every table that waits for
them (app/alerts/digest.py), unless they chose one mail per turn for the address.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from tests.app.alerting import (
    CONFIRM_PATH,
    auth,
    confirm_path,
    mail_client,
    move,
    outbox,
    own_database,
    work,
)
from tests.receivers import SmtpServer

DELAY_MINUTES = 10
DAY_MINUTES = 24 * 60


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    with mail_client(settings, smtp, DELAY_MINUTES) as client:
        yield client


def _later(minutes: float) -> None:
    clock.advance(minutes * 60)


def _table(client: TestClient, turn_seconds: int | None = None) -> tuple[str, str, str]:
    """A started two-seat "secret" game, Anna to move: (room, Anna's token, Ben's token)."""
    body: dict[str, Any] = {"game": "secret", "players": 2, "name": "Anna"}
    if turn_seconds:
        body["turn_seconds"] = turn_seconds
    created = client.post("/api/rooms", json=body).json()
    room = created["room"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    started = client.post(f"/api/rooms/{room}/start", headers=auth(created["token"]))
    assert started.status_code == 200, started.text
    return room, created["token"], ben


def _mail_me(
    client: TestClient,
    smtp: SmtpServer,
    seats: list[tuple[str, str]],
    address: str,
    each_turn: bool = False,
) -> None:
    """Ben leaves one address for all his tables at once and confirms it (one mail)."""
    channel: dict[str, Any] = {"kind": "email", "address": address}
    if each_turn:
        channel["each_turn"] = True
    body = {"seats": [{"room": r, "token": t} for r, t in seats], "channel": channel}
    response = client.post("/api/alerts", json=body)
    assert response.status_code == 200, response.text
    work(client)
    confirmed = client.post(confirm_path(smtp.take(address, CONFIRM_PATH)))
    assert confirmed.status_code == 200, confirmed.text
    assert smtp.mails == [], "one confirmation mail for every table"


def _links(mail: Any) -> list[tuple[str, str]]:
    """The (room, token) of every resume link in a mail."""
    body = mail.get_content()
    return re.findall(r"https://play\.example\.org/r/([\w-]+)#token=(\S+)", body)


def test_three_tables_waiting_bring_one_mail_that_lists_all_three(
    client: TestClient, smtp: SmtpServer
) -> None:
    tables = [_table(client), _table(client), _table(client, turn_seconds=86400)]
    address = f"ben.{tables[0][0]}@x.org"
    _mail_me(client, smtp, [(room, ben) for room, _, ben in tables], address)
    for room, anna, _ in tables:
        move(client, room, anna)  # Ben's turn at every table
    _later(DELAY_MINUTES + 1)
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["Subject"] == "3 tables wait for your move"
    assert sorted(_links(mail)) == sorted((room, ben) for room, _, ben in tables)
    body = mail.get_content()
    assert body.count("/alerts/stop?key=") == 3, "each table can be stopped on its own"
    assert "time left: 23 h" in body, "the table with a deadline says how long is left"
    assert mail["List-Unsubscribe"].startswith("<https://play.example.org/api/rooms/")
    _later(DAY_MINUTES)
    work(client)
    assert len(smtp.mails) == 1, "every table was told of in that one mail"
    for room, _, _ in tables:
        assert [r["status"] for r in outbox(client, room) if r["kind"] == "turn"] == ["sent"]


def test_turns_within_a_day_wait_for_the_next_digest_and_a_moved_table_is_dropped(
    client: TestClient, smtp: SmtpServer
) -> None:
    first, *held, moved = [_table(client) for _ in range(4)]
    address = f"ben.{first[0]}@x.org"
    _mail_me(client, smtp, [(room, ben) for room, _, ben in [first, *held, moved]], address)
    move(client, first[0], first[1])
    _later(DELAY_MINUTES + 1)
    work(client)
    (alone,) = smtp.wait(1)
    assert alone["Subject"] == "Your turn — Secret count with Anna", "one table: the usual mail"
    assert _links(alone) == [(first[0], first[2])]
    _later(60)
    for room, anna, _ in [*held, moved]:
        move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    assert len(smtp.mails) == 1, "no second mail within a day"
    move(client, moved[0], moved[2])  # Ben plays at one table meanwhile
    _later(DAY_MINUTES - 60 - DELAY_MINUTES - 2)
    work(client)
    assert len(smtp.mails) == 1, "still within the day of the first mail"
    _later(2)
    work(client)
    mails = smtp.wait(2)
    assert len(mails) == 2
    digest = mails[1]
    assert digest["Subject"] == "2 tables wait for your move"
    assert sorted(_links(digest)) == sorted((room, ben) for room, _, ben in held)
    assert moved[0] not in digest.get_content(), "the table where Ben moved is left out"
    _later(DAY_MINUTES)
    work(client)
    assert len(smtp.mails) == 2


def test_one_mail_per_turn_when_the_person_chose_it(client: TestClient, smtp: SmtpServer) -> None:
    tables = [_table(client) for _ in range(3)]
    address = f"ben.{tables[0][0]}@x.org"
    _mail_me(client, smtp, [(room, ben) for room, _, ben in tables], address, each_turn=True)
    for room, anna, _ in tables:
        move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    mails = smtp.wait(3)
    assert len(mails) == 3
    assert {m["Subject"] for m in mails} == {"Your turn — Secret count with Anna"}
    assert sorted(link for m in mails for link in _links(m)) == sorted(
        (room, ben) for room, _, ben in tables
    )
    settings = client.get(f"/api/rooms/{tables[0][0]}/alerts", headers=auth(tables[0][2]))
    assert settings.json()["each_turn"] is True


def test_the_digest_speaks_the_seats_language(client: TestClient, smtp: SmtpServer) -> None:
    tables = [_table(client), _table(client)]
    address = f"ben.{tables[0][0]}@x.org"
    response = client.post(
        "/api/alerts",
        json={
            "seats": [{"room": r, "token": b} for r, _, b in tables],
            "lang": "de",
            "channel": {"kind": "email", "address": address},
        },
    )
    assert response.status_code == 200, response.text
    work(client)
    confirm = smtp.take(address, CONFIRM_PATH)
    assert "von 2 Tischen" in confirm.get_content(), "one mail asks for both tables"
    page = client.post(confirm_path(confirm))
    assert "an 2 Tischen" in page.text
    for room, anna, _ in tables:
        move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["Subject"] == "2 Tische warten auf deinen Zug"
    assert "Hallo Ben," in mail.get_content()


def test_a_table_the_person_has_open_waits_for_the_next_digest(
    client: TestClient, smtp: SmtpServer
) -> None:
    from app.alerts.outbox import WATCH

    away, here = _table(client), _table(client)
    address = f"ben.{away[0]}@x.org"
    _mail_me(client, smtp, [(away[0], away[2]), (here[0], here[2])], address)
    with client.websocket_connect(f"/api/rooms/{here[0]}/ws") as ws:
        ws.send_json({"type": "hello", "token": here[2]})
        assert ws.receive_json()["type"] == "state"
        move(client, away[0], away[1])
        move(client, here[0], here[1])
        _later(DELAY_MINUTES + 1)
        work(client)
        (mail,) = smtp.wait(1)
        assert _links(mail) == [(away[0], away[2])], "not the table Ben is looking at"
    clock.advance(WATCH.total_seconds())
    work(client)
    _later(DELAY_MINUTES + 1)
    work(client)
    assert len(smtp.mails) == 1, "the next one waits for the day to pass"
    _later(DAY_MINUTES)
    work(client)
    mails = smtp.wait(2)
    assert _links(mails[1]) == [(here[0], here[2])]
