"""One alert set-up for every seat a device holds: ``POST /api/alerts``.

Push and mail for many tables at once, one confirmation mail for them all (a real
SMTP server, aiosmtpd), a table joined later that the device proves it confirmed the
address for, and callers who try it with seats that are not theirs.
"""

from __future__ import annotations

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
    own_database,
    table,
    work,
)
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver, SmtpServer

DELAY_MINUTES = 3


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    with mail_client(settings, smtp, DELAY_MINUTES, webhook_allow_private=True) as client:
        yield client


def _set_up(
    client: TestClient, seats: list[tuple[str, str]], channel: dict[str, Any], **more: Any
) -> Any:
    body = {"seats": [{"room": r, "token": t} for r, t in seats], "channel": channel, **more}
    return client.post("/api/alerts", json=body)


def _settings(client: TestClient, room: str, token: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/rooms/{room}/alerts", headers=auth(token)).json()
    return found


def test_one_push_set_up_reaches_every_table(client: TestClient, receiver: HttpReceiver) -> None:
    tables = [table(client) for _ in range(3)]
    keys = PushKeys.make()
    sub = keys.subscription(receiver.url("/push/ben"))
    answer = _set_up(
        client,
        [(room, ben) for room, (_, ben) in tables],
        {"kind": "push", "subscription": sub, "kinds": {"chat": True}},
        lang="fr",
    )
    assert answer.status_code == 200, answer.text
    assert [s["set"] for s in answer.json()["seats"]] == [True, True, True]
    assert "/push/ben" not in answer.text
    for room, (_, ben) in tables:
        mine = _settings(client, room, ben)
        assert mine["push"] == 1 and mine["lang"] == "fr"
        assert mine["kinds"]["push"]["chat"] is True
    for room, (anna, _) in tables:
        move(client, room, anna)
    clock.advance((DELAY_MINUTES + 1) * 60)
    work(client)
    pushes = receiver.wait(3)
    assert sorted(keys.decrypt(p.body)["url"] for p in pushes) == sorted(
        f"/r/{room}" for room, _ in tables
    )
    again = _set_up(
        client, [(tables[0][0], tables[0][1][1])], {"kind": "push", "subscription": sub}
    )
    assert again.status_code == 200
    assert _settings(client, tables[0][0], tables[0][1][1])["push"] == 1, "the same device once"


def test_one_confirmation_mail_covers_every_table_and_a_later_table_is_not_asked_again(
    client: TestClient, smtp: SmtpServer
) -> None:
    tables = [table(client) for _ in range(3)]
    address = f"ben.{tables[0][0]}@x.org"
    seats = [(room, ben) for room, (_, ben) in tables]
    answer = _set_up(client, seats, {"kind": "email", "address": address})
    assert answer.status_code == 200, answer.text
    assert answer.json()["email_confirmed"] is False
    work(client)
    (asking,) = smtp.wait(1)
    assert "turn alerts of 3 tables" in asking.get_content()
    for room, ben in seats:
        assert _settings(client, room, ben)["email_confirmed"] is False
    page = client.post(confirm_path(smtp.take(address, CONFIRM_PATH)))
    assert page.status_code == 200
    assert "at 3 tables" in page.text
    for room, ben in seats:
        assert _settings(client, room, ben)["email_confirmed"] is True
    later_room, (_, later_ben) = table(client)
    proof = [{"room": room, "token": ben} for room, ben in seats[:1]]
    joined = _set_up(
        client, [(later_room, later_ben)], {"kind": "email", "address": address}, proof=proof
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["email_confirmed"] is True
    assert _settings(client, later_room, later_ben)["email_confirmed"] is True
    work(client)
    assert smtp.mails == [], "no confirmation mail for a table the device proved"


def test_proof_with_another_address_or_someone_elses_seat_proves_nothing(
    client: TestClient, smtp: SmtpServer
) -> None:
    (room, (anna, ben)), (other, (_, cleo)) = table(client), table(client)
    address = f"ben.{room}@x.org"
    _set_up(client, [(room, ben)], {"kind": "email", "address": address})
    work(client)
    client.post(confirm_path(smtp.take(address, CONFIRM_PATH)))
    # Anna sits at Ben's table but never confirmed Ben's address: her seat proves nothing
    tried = _set_up(
        client,
        [(other, cleo)],
        {"kind": "email", "address": address},
        proof=[{"room": room, "token": anna}, {"room": room, "token": "made-up"}],
    )
    assert tried.status_code == 200, tried.text
    assert tried.json()["email_confirmed"] is False
    assert _settings(client, other, cleo)["email_confirmed"] is False
    work(client)
    smtp.take(address, CONFIRM_PATH)  # asked, as for any new address


def test_seats_that_are_not_the_callers_are_refused_alike_and_change_nothing(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    other, (cleo, _) = table(client)
    freed = client.post(f"/api/rooms/{room}/seats/1/free", headers=auth(anna))
    assert freed.status_code == 200, freed.text
    sub = PushKeys.make().subscription(receiver.url("/push/x"))
    answer = _set_up(
        client,
        [
            (room, "made-up-token"),
            (room, cleo),  # another room's token
            ("no-such-room", anna),
            (other, "\u0000"),
            (room, ben),  # a freed seat's old token
            (other, cleo),
        ],
        {"kind": "push", "subscription": sub},
    )
    assert answer.status_code == 200, answer.text
    seats = answer.json()["seats"]
    refused = [s for s in seats if not s["set"]]
    assert {s["code"] for s in refused} == {"not_seated"}, "one code whatever the reason"
    assert {tuple(sorted(s)) for s in refused} == {("code", "room", "set")}
    assert seats[-1] == {"room": other, "set": True}
    assert _settings(client, room, anna)["push"] == 0
    assert _settings(client, other, cleo)["push"] == 1


@pytest.mark.parametrize(
    "body",
    [
        {"seats": [], "channel": {"kind": "push"}},
        {
            "seats": [{"room": "r", "token": "t"}] * 101,
            "channel": {"kind": "email", "address": "a@b.c"},
        },
        {"seats": [{"room": "r", "token": "t"}], "channel": {"kind": "webhook", "url": "http://x"}},
        {"seats": [{"room": "r", "token": "t"}], "channel": {"kind": "email", "address": "no"}},
        {"seats": [{"room": "r"}], "channel": {"kind": "email", "address": "a@example.org"}},
        {"seats": "r", "channel": {"kind": "email", "address": "a@example.org"}},
    ],
)
def test_bad_set_ups_get_a_clear_error(client: TestClient, body: dict[str, Any]) -> None:
    answer = client.post("/api/alerts", json=body)
    assert answer.status_code == 400, answer.text
    assert set(answer.json()) >= {"code", "message"}


def test_the_stop_link_of_the_one_confirmation_mail_cancels_every_table(
    client: TestClient, smtp: SmtpServer
) -> None:
    import re

    tables = [table(client) for _ in range(2)]
    address = f"ben.{tables[0][0]}@x.org"
    seats = [(room, ben) for room, (_, ben) in tables]
    _set_up(client, seats, {"kind": "email", "address": address})
    work(client)
    body = smtp.take(address, CONFIRM_PATH).get_content()
    stop = re.search(r"https://play\.example\.org(/api/rooms/\S+/alerts/stop\?key=\S+)", body)
    assert stop is not None
    assert client.post(stop.group(1)).status_code == 200
    for room, ben in seats:
        assert _settings(client, room, ben)["email"] is False, room
