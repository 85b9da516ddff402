"""Mail goes only to addresses their owners confirmed, within per-address caps, with
links from PUBLIC_URL alone. Against a real SMTP server (aiosmtpd), mails read as it
got them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import (
    CONFIRM_PATH,
    auth,
    confirm_path,
    drop_addresses,
    leave_address,
    move,
    outbox,
    own_database,
    services,
    table,
    work,
)
from tests.receivers import HttpReceiver, SmtpServer

DELAY_MINUTES = 10
SITE = "https://play.example.org"


def _settings(settings: Settings, smtp: SmtpServer, **more: Any) -> Settings:
    return settings.model_copy(
        update={
            "smtp_host": "127.0.0.1",
            "smtp_port": smtp.port,
            "smtp_security": "none",
            "alert_delay_minutes": DELAY_MINUTES,
            "alert_poll_seconds": 3600,
            "public_url": SITE,
            "webhook_allow_private": True,
            **more,
        }
    )


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test here counts all the mails its SMTP server got: a database of its own."""
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    try:
        with TestClient(create_app(_settings(settings, smtp))) as client:
            yield client
    finally:
        clock.reset()


def _later(minutes: float) -> None:
    clock.advance(minutes * 60)


def _put(
    client: TestClient, room: str, token: str, address: str, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    response = client.put(
        f"/api/rooms/{room}/alerts/email",
        json={"address": address},
        headers={**auth(token), **(headers or {})},
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _everything(mail: EmailMessage, raw: bytes) -> str:
    """A mail's headers, its decoded text and its bytes as sent, to search in."""
    headers = "\n".join(f"{k}: {v}" for k, v in mail.items())
    return f"{headers}\n{mail.get_content()}\n{raw.decode('utf-8', 'replace')}"


def _turns(client: TestClient, room: str, tokens: list[str], count: int) -> None:
    """``count`` turns, each waited out past the alert delay."""
    for i in range(count):
        move(client, room, tokens[i % len(tokens)])
        _later(DELAY_MINUTES + 1)
        work(client)


def test_a_strangers_address_gets_one_confirmation_mail_and_nothing_else_until_confirmed(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, mallory) = table(client, ("Anna", "Mallory Visit-evil.example"))
    stranger = f"victim.{room}@example.org"
    body = _put(client, room, mallory, stranger)
    assert body["email"] is True and body["email_confirmed"] is False
    work(client)
    (asking,) = smtp.wait(1)
    assert smtp.inbox.rcpt == [[stranger]]
    text = _everything(asking, smtp.raw[0])
    assert asking["Subject"] == "Confirm your address for turn alerts"
    assert "Someone at play.example.org asked for turn alerts of a Secret count table" in text
    assert f"{SITE}/api/rooms/{room}/alerts/confirm?key=" in text
    assert asking["List-Unsubscribe"].startswith(f"<{SITE}/api/rooms/{room}/alerts/stop?key=")
    # nothing a player typed, and no way into the seat, reaches a stranger
    assert "Mallory" not in text and "evil" not in text
    assert mallory not in text and "#token=" not in text

    # turns come and go: no other mail, and none is waiting to go either
    _turns(client, room, [anna, mallory], 4)
    assert len(smtp.mails) == 1
    rows = outbox(client, room)
    assert [r["kind"] for r in rows if r["status"] == "sent"] == ["confirm"]
    assert {r["status"] for r in rows if r["kind"] == "turn"} == {"skipped"}

    # the owner confirms: from the next turn on, turn mails go out
    confirmed = client.post(confirm_path(asking))
    assert confirmed.status_code == 200 and 'data-code="confirmed"' in confirmed.text
    state = client.get(f"/api/rooms/{room}/state", headers=auth(anna)).json()
    if state["to_act"] == [1]:
        move(client, room, mallory)
    move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    turn = smtp.wait(2)[1]
    assert turn["To"] == stranger and turn["Subject"].startswith("Your turn")
    assert f"{SITE}/r/{room}#token={mallory}" in turn.get_content()


def test_the_confirmation_link_shows_a_button_and_only_its_post_confirms(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (_, ben) = table(client)
    _put(client, room, ben, f"ben.{room}@example.org")
    work(client)
    path = confirm_path(smtp.wait(1)[0])
    for _ in range(3):  # a mail scanner opening the link, twice, then the person
        page = client.get(path)
        assert page.status_code == 200 and 'data-code="confirm"' in page.text
        assert f'<form method="post" action="{path}">' in page.text.replace("&amp;", "&")
    settings = client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()
    assert settings["email_confirmed"] is False, "a GET confirms nothing"
    assert client.post(path).status_code == 200
    assert client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()["email_confirmed"]


def test_unknown_used_and_expired_keys_each_say_what_is_wrong(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = table(client)
    _put(client, room, ben, f"ben.{room}@example.org")
    client.put(f"/api/rooms/{room}/alerts/lang", json={"lang": "de"}, headers=auth(ben))
    work(client)
    path = confirm_path(smtp.wait(1)[0])
    for method in ("GET", "POST"):
        for key in ("nope", "%00", "x" * 100):
            wrong = client.request(method, f"/api/rooms/{room}/alerts/confirm?key={key}")
            assert wrong.status_code == 404 and 'data-code="unknown_key"' in wrong.text
            assert "This link is not valid." in wrong.text
        other_room, _ = table(client)
        elsewhere = client.request(method, path.replace(room, other_room))
        assert elsewhere.status_code == 404, "a key confirms only in its own room"
    too_long = client.get(f"/api/rooms/{room}/alerts/confirm?key={'x' * 101}")
    assert too_long.status_code == 400 and too_long.json()["code"] == "malformed"
    missing = client.post(f"/api/rooms/{room}/alerts/confirm")
    assert missing.status_code == 400 and missing.json()["code"] == "malformed"

    assert client.post(path).status_code == 200
    for method in ("GET", "POST"):
        used = client.request(method, path)
        assert used.status_code == 409 and 'data-code="key_used"' in used.text
        assert "Diese Adresse ist schon bestätigt" in used.text, "in the seat's language"

    # a key nobody used within a week has expired; entering the address again sends a new one
    _put(client, room, anna, f"anna.{room}@example.org")
    work(client)
    stale = confirm_path(smtp.wait(2)[1])
    _later(7 * 24 * 60 + 1)
    for method in ("GET", "POST"):
        expired = client.request(method, stale)
        assert expired.status_code == 410 and 'data-code="key_expired"' in expired.text
        assert "This link has expired." in expired.text
    assert not client.get(f"/api/rooms/{room}/alerts", headers=auth(anna)).json()["email_confirmed"]
    _put(client, room, anna, f"anna.{room}@example.org")
    work(client)
    fresh = confirm_path(smtp.wait(3)[2])
    assert client.post(stale).status_code == 404, "a new mail's key voids the old one"
    assert client.post(fresh).status_code == 200


def test_the_same_confirmed_address_again_stays_confirmed_and_a_new_one_is_asked(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (_, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org")
    again = _put(client, room, ben, f"Ben.{room}@EXAMPLE.org")
    assert again["email_confirmed"] is True
    work(client)
    assert smtp.mails == [], "no second confirmation for the address confirmed already"
    other = _put(client, room, ben, f"ben.{room}@example.net")
    assert other["email_confirmed"] is False
    work(client)
    (asking,) = smtp.wait(1)
    assert asking["To"] == f"ben.{room}@example.net"


def test_saving_the_same_address_again_soon_keeps_the_mail_already_sent(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (_, ben) = table(client)
    address = f"ben.{room}@example.org"
    _put(client, room, ben, address)
    _put(client, room, ben, address)  # before the worker even looked: one mail is queued
    work(client)
    first = confirm_path(smtp.wait(1)[0])
    for _ in range(3):  # an impatient person pressing Save again
        _put(client, room, ben, address)
        work(client)
    assert len(smtp.mails) == 1
    _later(61)
    _put(client, room, ben, address)  # an hour on: the mail may be lost, ask again
    work(client)
    second = confirm_path(smtp.wait(2)[1])
    assert client.post(first).status_code == 404
    assert client.post(second).status_code == 200


def test_the_confirmation_key_is_kept_only_as_its_hash(
    client: TestClient, smtp: SmtpServer
) -> None:
    from sqlalchemy import select

    from app.alerts.tables import AlertChannel

    room, (_, ben) = table(client)
    _put(client, room, ben, f"ben.{room}@example.org")
    work(client)
    key = confirm_path(smtp.wait(1)[0]).split("key=")[1]
    svc = services(client)

    async def stored() -> list[str]:
        async with svc.rooms.db.transaction() as session:
            rows = await session.scalars(select(AlertChannel).where(AlertChannel.room_id == room))
            return [repr((r.target, r.data, r.confirm_hash)) for r in rows]

    kept = "\n".join(client.portal.call(stored))  # type: ignore[union-attr]
    assert key not in kept
    import hashlib

    assert hashlib.sha256(key.encode()).hexdigest() in kept
    drop_addresses(client, room, [ben])


def test_six_rooms_asking_for_one_address_send_it_three_confirmation_mails_a_day(
    settings: Settings, smtp: SmtpServer
) -> None:
    try:
        with TestClient(create_app(_settings(settings, smtp))) as client:
            first, _ = table(client)
            mailbox = f"target.{first}@example.org"
            local, domain = mailbox.split("@")
            # one mailbox, spelled six ways: case and +tags do not make new addresses
            spellings = [
                mailbox,
                mailbox.upper(),
                f"{local}+a@{domain}",
                f"{local.title()}+b@{domain}",
                f"{local}+c@{domain.upper()}",
                f"{local}+d@{domain}",
            ]
            rooms = []
            for spelling in spellings:
                room, (_, mallory) = table(client)
                _put(client, room, mallory, spelling)
                rooms.append((room, mallory))
            work(client)
            assert len(smtp.wait(3)) == 3
            _later(60)
            work(client)
            assert len(smtp.mails) == 3, "the daily cap of confirmation mails holds"
            waiting = [
                r for room, _ in rooms for r in outbox(client, room) if r["kind"] == "confirm"
            ]
            assert sorted(r["status"] for r in waiting) == ["pending"] * 3 + ["sent"] * 3
            _later(24 * 60)
            work(client)
            assert len(smtp.wait(6)) == 6, "the next day, the others go"
            assert {m["To"] for m in smtp.mails} == set(spellings)
            for room, mallory in rooms:
                drop_addresses(client, room, [mallory])
    finally:
        clock.reset()


def test_turn_mails_to_one_address_over_many_rooms_keep_its_hourly_cap(
    settings: Settings, smtp: SmtpServer
) -> None:
    configured = _settings(settings, smtp, alert_address_hourly_cap=4, alert_confirm_daily_cap=6)
    try:
        with TestClient(create_app(configured)) as client:
            tables = [table(client) for _ in range(6)]
            mailbox = f"busy.{tables[0][0]}@example.org"
            for i, (room, (_, ben)) in enumerate(tables):
                if i == 4:
                    _later(61)  # the hourly cap counts confirmation mails too
                # one mail per turn: the daily digest would send one (test_alert_digest.py)
                leave_address(client, smtp, room, ben, mailbox, each_turn=True)
            _later(120)
            for room, (anna, _) in tables:
                move(client, room, anna)  # every table waits for the same person now
            _later(DELAY_MINUTES + 1)
            work(client)
            assert len(smtp.wait(4)) == 4
            _later(30)
            work(client)
            assert len(smtp.mails) == 4, "at most four mails an hour to one address"
            _later(31)
            work(client)
            assert len(smtp.wait(6)) == 6
            assert all(m["Subject"].startswith("Your turn") for m in smtp.mails)
    finally:
        clock.reset()


def test_a_hostile_host_header_never_reaches_a_mail_or_a_webhook(
    client: TestClient, smtp: SmtpServer, receiver: HttpReceiver
) -> None:
    evil = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    created = client.post(
        "/api/rooms", json={"game": "secret", "players": 2, "name": "Anna"}, headers=evil
    ).json()
    room, anna = created["room"], created["token"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}, headers=evil).json()[
        "token"
    ]
    client.post(f"/api/rooms/{room}/start", headers={**auth(anna), **evil})
    hooked = client.put(
        f"/api/rooms/{room}/alerts/webhook",
        json={"url": receiver.url(), "shape": "json"},
        headers={**auth(anna), **evil},
    )
    assert hooked.status_code == 200, hooked.text
    _put(client, room, ben, f"ben.{room}@example.org", headers=evil)
    work(client)
    asking = smtp.wait(1)[0]
    confirmed = client.post(confirm_path(asking), headers=evil)
    assert confirmed.status_code == 200
    move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    mails = smtp.wait(2)
    receiver.wait(1)
    for mail, raw in zip(mails, smtp.raw, strict=True):
        text = _everything(mail, raw)
        assert "evil" not in text
        links = re.findall(r"https?://[^\s>]+", text)
        assert links and all(link.startswith(f"{SITE}/") for link in links), links
    (hook,) = receiver.got()
    assert "evil" not in hook.body.decode()
    assert hook.json()["url"] == f"{SITE}/r/{room}"


def test_without_public_url_no_mail_is_offered_and_webhooks_carry_no_link(
    settings: Settings, smtp: SmtpServer, receiver: HttpReceiver
) -> None:
    configured = _settings(settings, smtp, public_url="")
    try:
        with TestClient(create_app(configured)) as client:
            room, (anna, ben) = table(client)
            mine = client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()
            assert mine["mail_available"] is False
            refused = client.put(
                f"/api/rooms/{room}/alerts/email",
                json={"address": f"ben.{room}@example.org"},
                headers=auth(ben),
            )
            assert refused.status_code == 409
            assert refused.json()["code"] == "mail_needs_public_url"
            assert "PUBLIC_URL" in refused.json()["message"]
            client.put(
                f"/api/rooms/{room}/alerts/webhook",
                json={"url": receiver.url(), "shape": "discord"},
                headers={**auth(anna), "Host": "evil.example"},
            )
            move(client, room, anna)
            _later(DELAY_MINUTES + 1)
            work(client)
            (hook,) = receiver.wait(1)
            assert hook.json()["content"] == "It is Ben's turn in Secret count."
            assert smtp.mails == []
    finally:
        clock.reset()


def test_a_confirmation_mail_not_sent_yet_outlives_the_turns_moving_on(
    client: TestClient, smtp: SmtpServer
) -> None:
    """Turn alerts are cancelled when the game moves on; a confirmation mail is not."""
    room, (anna, ben) = table(client)
    _put(client, room, ben, f"ben.{room}@example.org")
    move(client, room, anna)
    move(client, room, ben)
    work(client)
    assert smtp.take(f"ben.{room}@example.org", CONFIRM_PATH) is not None
    drop_addresses(client, room, [ben])


def test_addresses_left_before_the_upgrade_are_asked_to_confirm(empty_database_url: str) -> None:
    import asyncio

    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.core.migrate import downgrade, upgrade

    url = empty_database_url
    upgrade(url, "0003_deadlines")

    async def run(*statements: str) -> list[Any]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                rows: list[Any] = []
                for statement in statements:
                    result = await conn.execute(text(statement))
                    rows = list(result) if result.returns_rows else rows
                return rows
        finally:
            await engine.dispose()

    asyncio.run(
        run(
            "INSERT INTO rooms (id, game, players, options, rules, creator_seat, status) "
            "VALUES ('r1', 'blokus', 2, '{}', '{}', 0, 'playing')",
            "INSERT INTO alert_channels (room_id, token_hash, kind, target, data) VALUES "
            "('r1', 'h1', 'email', 'old@example.org', '{\"sealed\": \"x\", \"base\": \"b\"}'),"
            "('r1', 'h2', 'push', 'https://push.example.org/1', '{}')",
        )
    )
    upgrade(url)
    rows = asyncio.run(
        run(
            "SELECT c.kind, c.confirmed_at, o.kind, o.status FROM alert_channels c "
            "LEFT JOIN alert_outbox o ON o.channel_id = c.id ORDER BY c.id"
        )
    )
    assert [tuple(r) for r in rows] == [
        ("email", None, "confirm", "pending"),
        ("push", None, None, None),
    ]
    downgrade(url, "0003_deadlines")
    assert asyncio.run(run("SELECT kind FROM alert_outbox")) == []
    assert len(asyncio.run(run("SELECT id FROM alert_channels"))) == 2
