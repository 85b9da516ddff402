"""Alert mails against a real SMTP server (aiosmtpd): content, language, links, delay, cap."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import (
    auth,
    leave_address,
    mail_client,
    move,
    outbox,
    own_database,
    table,
    work,
)
from tests.receivers import SmtpServer, smtp_server

DELAY_MINUTES = 10
# addresses name their room: on PostgreSQL the session's tests share one database, and
# with it each address's mail counts


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test here counts all the mails its SMTP server got: a database of its own."""
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    # the room's two confirmation mails count too: the third turn mail waits
    with mail_client(settings, smtp, DELAY_MINUTES, alert_room_hourly_cap=4) as client:
        yield client


def _later(minutes: float) -> None:
    clock.advance(minutes * 60)


def test_a_mail_goes_out_once_after_the_delay_in_the_seats_language(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org", "de")
    settings = client.get(f"/api/rooms/{room}/alerts", headers=auth(ben))
    assert settings.json()["email"] is True
    assert f"ben.{room}@example.org" not in settings.text
    move(client, room, anna)
    work(client)
    assert smtp.mails == [], "no mail before the delay has passed"
    _later(DELAY_MINUTES + 1)
    work(client)
    (mail,) = smtp.wait(1)
    assert smtp.inbox.rcpt == [[f"ben.{room}@example.org"]]
    assert mail["Subject"] == "Du bist dran — Secret count mit Anna"
    body = mail.get_content()
    assert "Hallo Ben," in body
    resume = re.search(r"https://play\.example\.org/r/([\w-]+)#token=(\S+)", body)
    assert resume is not None and resume.group(1) == room and resume.group(2) == ben
    stop = re.search(r"(https://play\.example\.org/api/rooms/\S+/alerts/stop\?key=\S+)", body)
    assert stop is not None
    assert mail["List-Unsubscribe"] == f"<{stop.group(1)}>"
    _later(DELAY_MINUTES)
    work(client)
    assert len(smtp.mails) == 1, "one mail per turn"


def test_no_mail_when_the_player_moved_within_the_delay(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@x.org")
    leave_address(client, smtp, room, anna, f"anna.{room}@x.org")
    move(client, room, anna)
    _later(DELAY_MINUTES / 2)
    move(client, room, ben)
    _later(DELAY_MINUTES + 1)
    work(client)
    mails = smtp.wait(1)
    assert [m["To"] for m in mails] == [f"anna.{room}@x.org"], "only Anna waits; Ben just moved"
    assert {r["status"] for r in outbox(client, room)} == {"cancelled", "sent"}


def test_a_tab_left_open_elsewhere_delays_the_mail_until_it_closes(
    client: TestClient, smtp: SmtpServer
) -> None:
    """A laptop left open at home: no mail while it is open, one after it closed."""
    from app.alerts.outbox import WATCH

    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org")
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": ben})
        assert ws.receive_json()["type"] == "state"
        move(client, room, anna)
        _later(3 * DELAY_MINUTES)
        work(client)
        assert smtp.mails == []
    clock.advance(WATCH.total_seconds())
    work(client)
    _later(DELAY_MINUTES / 2)
    work(client)
    assert smtp.mails == [], "the delay runs from the moment the tab closed"
    _later(DELAY_MINUTES / 2 + 1)
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["Subject"].startswith("Your turn")


def test_the_stop_link_stops_the_mails_and_says_so_in_the_seats_language(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@x.org", "fr")
    move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    body = smtp.wait(1)[0].get_content()
    link = re.search(r"https://play\.example\.org(/api/rooms/\S+/alerts/stop\?key=\S+)", body)
    assert link is not None
    page = client.get(link.group(1))
    assert page.status_code == 200
    assert "Vous ne recevrez plus de mails pour cette table." in page.text
    assert client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()["email"] is False
    move(client, room, ben)
    move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    assert len(smtp.mails) == 1
    again = client.get(link.group(1))
    assert again.status_code == 200, "a second click (or a mail scanner's) still says it worked"
    unknown = client.get(f"/api/rooms/{room}/alerts/stop?key=nope")
    assert unknown.status_code == 404 and "no longer valid" in unknown.text


def test_a_one_click_post_to_the_stop_link_stops_the_mails(client: TestClient) -> None:
    room, (_, ben) = table(client)
    client.put(
        f"/api/rooms/{room}/alerts/email", json={"address": f"ben.{room}@x.org"}, headers=auth(ben)
    )
    from app.alerts import store as alert_store
    from app.play.access import hash_token
    from tests.app.alerting import services

    svc = services(client)

    async def key() -> str:
        async with svc.rooms.db.transaction() as session:
            mine = await alert_store.seat_settings(session, room, hash_token(ben))
            assert mine is not None
            return mine.stop_key

    stop_key = client.portal.call(key)  # type: ignore[union-attr]
    response = client.post(
        f"/api/rooms/{room}/alerts/stop?key={stop_key}", data={"List-Unsubscribe": "One-Click"}
    )
    assert response.status_code == 200
    assert client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()["email"] is False


def test_the_rooms_hourly_cap_holds_mails_back_until_a_slot_frees(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@x.org", each_turn=True)
    leave_address(client, smtp, room, anna, f"anna.{room}@x.org", each_turn=True)
    move(client, room, anna)  # Ben's turn
    _later(DELAY_MINUTES + 1)
    work(client)
    move(client, room, ben)  # Anna's turn
    _later(DELAY_MINUTES + 1)
    work(client)
    move(client, room, anna)  # Ben's turn again: the third mail within the hour
    _later(DELAY_MINUTES + 1)
    work(client)
    assert len(smtp.wait(2)) == 2
    assert outbox(client, room)[-1]["status"] == "pending"
    _later(60)
    work(client)
    mails = smtp.wait(3)
    assert [m["To"] for m in mails] == [
        f"ben.{room}@x.org",
        f"anna.{room}@x.org",
        f"ben.{room}@x.org",
    ]


def test_a_failing_smtp_server_is_retried_then_given_up(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.server import free_port

    configured = settings.model_copy(
        update={
            "smtp_host": "127.0.0.1",
            "smtp_port": free_port(),  # nobody listens there
            "smtp_security": "none",
            "alert_delay_minutes": 1,
            "alert_poll_seconds": 3600,
            "alert_attempts": 3,
            "alert_retry_seconds": 60,
            "public_url": "https://play.example.org",
        }
    )
    try:
        with TestClient(create_app(configured)) as client:
            room, (anna, ben) = table(client)
            client.put(
                f"/api/rooms/{room}/alerts/email",
                json={"address": f"ben.{room}@x.org"},
                headers=auth(ben),
            )
            work(client)
            assert outbox(client, room)[0] == {
                "seat": 1,
                "kind": "confirm",
                "status": "pending",
                "attempts": 1,
            }
            move(client, room, anna)
            _later(1.01)
            work(client)
            assert outbox(client, room)[0]["attempts"] == 2
            assert outbox(client, room)[1]["status"] == "skipped", "no turn mail unconfirmed"
            _later(1.01)
            work(client)
            assert outbox(client, room)[0]["attempts"] == 2, "the second retry waits twice as long"
            _later(1.01)
            work(client)
            assert outbox(client, room)[0]["status"] == "failed"
            assert any("given up after 3 tries" in r.getMessage() for r in caplog.records)
    finally:
        clock.reset()


def test_addresses_are_checked_and_mail_needs_a_server(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        room, (anna, _) = table(client)
        refused = client.put(
            f"/api/rooms/{room}/alerts/email", json={"address": "a@b.org"}, headers=auth(anna)
        )
        assert refused.status_code == 409 and refused.json()["code"] == "mail_unavailable"
    mail_only = settings.model_copy(update={"smtp_host": "127.0.0.1"})
    with TestClient(create_app(mail_only)) as client:
        room, (anna, _) = table(client)
        assert (
            client.get(f"/api/rooms/{room}/alerts", headers=auth(anna)).json()["mail_available"]
            is False
        ), "without PUBLIC_URL the e-mail option is hidden"
        refused = client.put(
            f"/api/rooms/{room}/alerts/email", json={"address": "a@b.org"}, headers=auth(anna)
        )
        assert refused.status_code == 409 and refused.json()["code"] == "mail_needs_public_url"
    mailing = mail_only.model_copy(update={"public_url": "https://play.example.org"})
    with TestClient(create_app(mailing)) as client:
        room, (anna, _) = table(client)
        for bad in ("no-at-sign", "a@b@c", "x y@z.org", "a@b.org\nBcc: c@d.org"):
            response = client.put(
                f"/api/rooms/{room}/alerts/email", json={"address": bad}, headers=auth(anna)
            )
            assert response.status_code == 400 and response.json()["code"] == "bad_email", bad
        spectator = client.put(f"/api/rooms/{room}/alerts/email", json={"address": "a@b.org"})
        assert spectator.status_code == 401


def test_a_reminder_queued_by_another_part_goes_out_at_once_with_its_own_words(
    client: TestClient, smtp: SmtpServer
) -> None:
    from app.alerts import due as alerts
    from tests.app.alerting import services

    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@x.org", "de")
    move(client, room, anna)
    svc = services(client)

    async def remind() -> None:
        state = await svc.rooms.load(room)
        async with svc.rooms.db.transaction() as session:
            await alerts.enqueue_turn_alert(session, state, 1, "reminder")

    client.portal.call(remind)  # type: ignore[union-attr]
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["Subject"] == "Die Zeit wird knapp — Secret count mit Anna"
    assert "noch am Zug, und die Zeit wird knapp" in mail.get_content()


def test_each_mail_sent_is_counted_in_the_metrics(client: TestClient, smtp: SmtpServer) -> None:
    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org")
    move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    smtp.wait(1)
    registry = client.app.state.metrics.registry  # type: ignore[attr-defined]
    sent = registry.get_sample_value(
        "spieltisch_alert_deliveries_total", {"channel": "email", "outcome": "sent"}
    )
    # on PostgreSQL the session's database is shared: other tests' due alerts may go too
    assert sent is not None and sent >= 1


def test_the_unsubscribe_headers_reach_the_mail_server_plain(
    client: TestClient, smtp: SmtpServer
) -> None:
    """Mail clients offer one-click unsubscribe only for a plain ``List-Unsubscribe``
    (RFC 2369) beside ``List-Unsubscribe-Post`` (RFC 8058): never RFC 2047-encoded,
    however long the link. Read in the bytes the SMTP server got."""
    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org", "fr")
    move(client, room, anna)
    _later(DELAY_MINUTES + 1)
    work(client)
    (mail,) = smtp.wait(1)
    head = smtp.raw[-1].split(b"\r\n\r\n", 1)[0].decode("ascii").replace("\r\n", "\n")
    unfolded = re.sub(r"\n[ \t]+", " ", head)
    lines = dict(line.split(": ", 1) for line in unfolded.split("\n"))
    stop = lines["List-Unsubscribe"]
    assert re.fullmatch(
        rf"<https://play\.example\.org/api/rooms/{room}/alerts/stop\?key=[\w-]+>", stop
    ), stop
    assert lines["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert lines["Content-Language"] == "fr"
    encoded = [name for name, value in lines.items() if "=?" in value]
    assert encoded == ["Subject"], "only the French subject needs RFC 2047"
    assert mail["List-Unsubscribe"] == stop


@pytest.mark.parametrize("utf8", [True, False], ids=["smtputf8", "ascii-only"])
def test_an_address_beyond_ascii_goes_with_smtputf8_or_fails_cleanly(
    settings: Settings, utf8: bool
) -> None:
    """``jürgen@…`` passes the address check: a server offering SMTPUTF8 gets the mail
    with the address as written; one without refuses it, and the alert is a failed try
    like any other (no crash, the next alerts still go)."""
    with smtp_server(utf8=utf8) as smtp:
        configured = settings.model_copy(
            update={
                "smtp_host": "127.0.0.1",
                "smtp_port": smtp.port,
                "smtp_security": "none",
                "alert_poll_seconds": 3600,
                "public_url": "https://play.example.org",
            }
        )
        with TestClient(create_app(configured)) as client:
            room, (_, ben) = table(client)
            address = f"jürgen.{room.lower()}@example.org"
            put = client.put(
                f"/api/rooms/{room}/alerts/email", json={"address": address}, headers=auth(ben)
            )
            assert put.status_code == 200, put.text
            work(client)
            (row,) = outbox(client, room)
            if utf8:
                (mail,) = smtp.wait(1)
                assert smtp.inbox.rcpt == [[address]] and mail["To"] == address
                assert "confirm?key=" in mail.get_content()
                assert row["status"] == "sent"
            else:
                assert smtp.mails == []
                assert row["status"] != "sent" and row["attempts"] == 1
