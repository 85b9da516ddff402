""" "Notify me" once for all my tables, in Chromium: a set-up on one table reaches the
others this browser holds and a table joined later, and a table's own switch turns its
alerts off (and on again) without touching the others.

Push goes to the test's HTTP receiver and on to the service worker through DevTools, as
in ``test_alerts.py``; mail to a real SMTP server (aiosmtpd).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.calls import auth
from tests.e2e.accessibility import report, violations
from tests.e2e.pushes import deliver, worker_active
from tests.e2e.test_alerts import FAKE_PUSH, alert_server
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver, SmtpServer, wait_for
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e
__all__ = ["alert_server"]  # the fixture, shared with test_alerts.py


def _table(http: httpx.Client) -> tuple[str, str, str]:
    """A two-seat Blokus table, Anna and Ben seated, not started: (room, anna, ben)."""
    created = http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}).json()
    room, anna = created["room"], created["token"]
    ben = http.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    return room, anna, ben


def _alerts(http: httpx.Client, room: str, token: str) -> dict[str, Any]:
    found: dict[str, Any] = http.get(f"/api/rooms/{room}/alerts", headers=auth(token)).json()
    return found


def _open(page: Any, room: str, token: str) -> None:
    page.goto(f"/r/{room}#token={token}")
    expect(page.locator("#conn")).to_have_attribute("data-status", "open")
    # the page keeps the seat once the server's state for it arrived
    page.wait_for_function(
        "(room) => (localStorage.getItem('spieltisch.rooms') || '').includes(room)", arg=room
    )


def test_notify_me_once_reaches_every_table_and_a_table_joined_later(
    browser: Browser, alert_server: ServerProcess, receiver: HttpReceiver, smtp: SmtpServer
) -> None:
    http = httpx.Client(base_url=alert_server.url, timeout=30)
    first, second = _table(http), _table(http)
    address = "ben@example.org"
    keys = PushKeys.make()
    context = browser.new_context(base_url=alert_server.url, locale="en-US", bypass_csp=True)
    context.set_default_timeout(15_000)
    errors: list[str] = []
    try:
        context.grant_permissions(["notifications"], origin=alert_server.url)
        context.add_init_script(FAKE_PUSH % json.dumps(keys.subscription(receiver.url("/push"))))
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        cdp = context.new_cdp_session(page)
        registrations: dict[str, str] = {}
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.update(
                {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}
            ),
        )
        cdp.send("ServiceWorker.enable")
        _open(page, second[0], second[2])  # this browser holds Ben's seat at both tables
        _open(page, first[0], first[2])

        page.get_by_role("button", name="Notify me").click()
        dialog = page.locator("#alerts-dialog")
        expect(dialog.get_by_label("All my tables on this device")).to_be_checked()
        expect(dialog.get_by_label("Alerts for this table")).to_be_checked()
        dialog.get_by_role("button", name="Turn on notifications").click()
        expect(page.locator("#alerts-push-status")).to_have_text(
            "This device shows a notification when it's your turn."
        )
        page.get_by_label("Your e-mail address").fill(address)
        dialog.get_by_role("button", name="Save").click()
        expect(page.locator("#alerts-email-status")).to_contain_text("Check your inbox")
        faults = violations(page)
        assert not faults, report(faults)
        dialog.get_by_role("button", name="Close").click()
        for room, _, ben in (first, second):
            mine = _alerts(http, room, ben)
            assert mine["push"] == 1 and mine["email"] is True, (room, mine)

        asking = smtp.take(address, "/alerts/confirm?key=")
        assert "turn alerts of 2 tables" in asking.get_content(), "one mail for both"
        link = next(
            line for line in asking.get_content().splitlines() if "/alerts/confirm?key=" in line
        )
        page.goto(link)
        page.get_by_role("button", name="Confirm the address").click()
        expect(page.locator("#confirm-message")).to_contain_text("at 2 tables")
        assert _alerts(http, second[0], second[2])["email_confirmed"] is True

        # a third table, joined later by Ben's personal link: the kept set-up reaches it
        third = _table(http)
        _open(page, third[0], third[2])
        wait_for(
            lambda: _alerts(http, third[0], third[2])["email_confirmed"] is True,
            "the confirmed address at the new table",
        )
        assert _alerts(http, third[0], third[2])["push"] == 1
        page.get_by_role("button", name="Notify me").click()
        expect(page.locator("#alerts-push-status")).to_have_text(
            "This device shows a notification when it's your turn."
        )
        expect(page.locator("#alerts-email-status")).to_contain_text("An address is set")
        page.locator("#alerts-dialog").get_by_role("button", name="Close").click()

        # Ben's turn at the new table, with every page of it closed
        page.goto("/")
        room, anna, _ = third
        http.post(f"/api/rooms/{room}/start", headers=auth(anna))
        while http.get(f"/api/rooms/{room}/state").json()["to_act"] != [1]:
            mine = http.get(f"/api/rooms/{room}/state", headers=auth(anna)).json()
            http.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
                headers=auth(anna),
            )
        (pushed,) = receiver.wait(1)
        payload = keys.decrypt(pushed.body)
        assert payload["url"] == f"/r/{room}"
        (mail,) = smtp.wait(1)
        assert f"/r/{room}#token={third[2]}" in mail.get_content()
        assert smtp.mails == [mail], "no confirmation mail for the table joined later"

        scope = f"{alert_server.url}/"
        wait_for(lambda: scope in registrations, "the service worker")
        wait_for(lambda: worker_active(page), "the service worker to be active")
        shown = deliver(page, cdp, alert_server.url, registrations[scope], payload)
        assert [n["url"] for n in shown] == [f"{alert_server.url}/r/{room}"]
    finally:
        context.close()
    assert not errors, errors


def test_a_tables_own_switch_turns_its_alerts_off_and_on_and_stays_off(
    browser: Browser, alert_server: ServerProcess, smtp: SmtpServer
) -> None:
    http = httpx.Client(base_url=alert_server.url, timeout=30)
    first, second = _table(http), _table(http)
    address = "cleo@example.org"
    context = browser.new_context(base_url=alert_server.url, locale="de-DE")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        _open(page, second[0], second[2])
        _open(page, first[0], first[2])
        page.get_by_role("button", name="Benachrichtigen").click()
        page.get_by_label("Deine E-Mail-Adresse").fill(address)
        page.locator("#alerts-dialog").get_by_role("button", name="Speichern").click()
        expect(page.locator("#alerts-email-status")).to_contain_text("Postfach")
        page.goto(smtp_link(smtp, address))
        page.get_by_role("button", name="Adresse bestätigen").click()
        assert _alerts(http, second[0], second[2])["email_confirmed"] is True

        # the second table's own page switches its alerts off
        _open(page, second[0], second[2])
        page.get_by_role("button", name="Benachrichtigen").click()
        switch = page.get_by_label("Benachrichtigungen für diesen Tisch")
        switch.uncheck()
        expect(page.locator("#alerts-table-off")).to_contain_text("Hier ausgeschaltet")
        wait_for(lambda: _alerts(http, second[0], second[2])["email"] is False, "off there")
        assert _alerts(http, first[0], first[2])["email_confirmed"] is True, "the other stays"

        # a new choice for all my tables, made at the first table, leaves it off
        _open(page, first[0], first[2])
        page.get_by_role("button", name="Benachrichtigen").click()
        page.get_by_label("Eine Mail pro Zug").check()
        wait_for(lambda: _alerts(http, first[0], first[2])["each_turn"] is True, "the choice")
        assert _alerts(http, second[0], second[2])["email"] is False, "still off"

        # and on again: the kept set-up comes back, confirmed, without another mail
        _open(page, second[0], second[2])
        page.get_by_role("button", name="Benachrichtigen").click()
        expect(page.locator("#alerts-table-off")).to_be_visible()
        page.get_by_label("Benachrichtigungen für diesen Tisch").check()
        wait_for(lambda: _alerts(http, second[0], second[2])["email_confirmed"] is True, "on")
        assert _alerts(http, second[0], second[2])["each_turn"] is True
        expect(page.locator("#alerts-table-off")).to_have_count(0)
        assert smtp.mails == [], "no second confirmation mail"
    finally:
        context.close()


def smtp_link(smtp: SmtpServer, address: str) -> str:
    """The confirmation link of the one mail asking ``address`` (taken from the inbox)."""
    asking = smtp.take(address, "/alerts/confirm?key=")
    return next(
        line for line in asking.get_content().splitlines() if "/alerts/confirm?key=" in line
    )


def test_tables_carried_over_by_a_device_link_get_the_kept_set_up(
    browser: Browser, alert_server: ServerProcess, smtp: SmtpServer
) -> None:
    import base64

    http = httpx.Client(base_url=alert_server.url, timeout=30)
    mine, carried = _table(http), _table(http)
    address = "dora@example.org"
    context = browser.new_context(base_url=alert_server.url, locale="fr-FR")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        _open(page, mine[0], mine[2])
        page.get_by_role("button", name="Me prévenir").click()
        expect(page.get_by_label("Toutes mes tables sur cet appareil")).to_be_checked()
        page.get_by_label("Votre adresse e-mail").fill(address)
        page.locator("#alerts-dialog").get_by_role("button", name="Enregistrer").click()
        wait_for(lambda: _alerts(http, mine[0], mine[2])["email"] is True, "the address")
        page.goto(smtp_link(smtp, address))
        page.get_by_role("button").click()
        assert _alerts(http, mine[0], mine[2])["email_confirmed"] is True
        seats = json.dumps([[carried[0], carried[2], 1, "Ben", "blokus"]]).encode()
        link = base64.urlsafe_b64encode(seats).decode().rstrip("=")
        page.goto(f"/#tables={link}")
        wait_for(
            lambda: _alerts(http, carried[0], carried[2])["email_confirmed"] is True,
            "the address at the carried table, confirmed by the seat this device holds",
        )
        assert smtp.mails == [], "no confirmation mail for it"
    finally:
        context.close()
