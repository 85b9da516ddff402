"""Turn alerts from the room page: "Notify me" in Chromium, Web Push end to end, mail, webhook.

The browser's push service is the one thing the test stands in for: Chromium
here has no network to reach one, so ``pushManager.subscribe`` answers with a
subscription whose endpoint is the test's own HTTP receiver and whose keys the
test made. The server encrypts the push for those keys; the test decrypts what
arrived (proving it was encrypted to the subscription) and hands the payload to
the service worker through the DevTools protocol, as a push service would.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.calls import auth
from tests.e2e.accessibility import report, violations
from tests.e2e.pushes import deliver, worker_active
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver, SmtpServer, wait_for
from tests.server import ServerProcess, free_port

pytestmark = pytest.mark.e2e

FAKE_PUSH = """
(() => {
  const sub = %s;
  let subscribed = false;
  const fake = {
    endpoint: sub.endpoint,
    expirationTime: null,
    options: {},
    getKey: () => null,
    unsubscribe: async () => { subscribed = false; return true; },
    toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__applicationServerKey = btoa(String.fromCharCode(...key))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    subscribed = true;
    return fake;
  };
  PushManager.prototype.getSubscription = async function () { return subscribed ? fake : null; };
})();
"""


@pytest.fixture
def alert_server(tmp_path: Path, smtp: SmtpServer) -> Iterator[ServerProcess]:
    port = free_port()
    proc = ServerProcess(
        tmp_path / "data",
        port=port,
        env={
            # mail needs the site's own address: every link in a mail is built from it
            "PUBLIC_URL": f"http://127.0.0.1:{port}",
            "ALERT_DELAY_MINUTES": "0",
            "ALERT_POLL_SECONDS": "0.2",
            "WEBHOOK_ALLOW_PRIVATE": "true",
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": str(smtp.port),
            "SMTP_SECURITY": "none",
        },
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_notify_me_subscribes_and_a_push_shows_the_turn_notification(
    browser: Browser, alert_server: ServerProcess, receiver: HttpReceiver, smtp: SmtpServer
) -> None:
    http = httpx.Client(base_url=alert_server.url, timeout=30)
    created = http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}).json()
    room, anna = created["room"], created["token"]
    ben = http.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    http.post(f"/api/rooms/{room}/start", headers=auth(anna))

    keys = PushKeys.make()
    context = browser.new_context(base_url=alert_server.url, locale="en-US")
    context.set_default_timeout(15_000)
    errors: list[str] = []
    try:
        context.grant_permissions(["notifications"], origin=alert_server.url)
        context.add_init_script(
            FAKE_PUSH % json.dumps(keys.subscription(receiver.url("/push/ben")))
        )
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
        page.goto(f"/r/{room}#token={ben}")
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")

        page.get_by_role("button", name="Notify me").click()
        dialog = page.locator("#alerts-dialog")
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name="Turn on notifications").click()
        expect(page.locator("#alerts-push-status")).to_have_text(
            "This device shows a notification when it's your turn."
        )
        vapid = http.get(f"/api/rooms/{room}/alerts/vapid-key").json()["key"]
        assert page.evaluate("window.__applicationServerKey") == vapid
        page.get_by_label("Your e-mail address").fill("ben@example.org")
        dialog.get_by_role("button", name="Save").click()
        expect(page.locator("#alerts-email-status")).to_contain_text("Check your inbox")
        expect(dialog.locator("#alerts-email")).to_have_value("")
        assert "#alerts-webhook" not in dialog.inner_html(), "only the host sets a webhook"
        dialog.get_by_role("button", name="Close").click()

        # the first mail only asks to confirm; its link shows a button, which confirms
        asking = smtp.take("ben@example.org", "/alerts/confirm?key=")
        assert asking["Subject"] == "Confirm your address for turn alerts"
        confirm = next(
            line for line in asking.get_content().splitlines() if "/alerts/confirm?key=" in line
        )
        assert confirm.startswith(f"{alert_server.url}/api/rooms/{room}/alerts/confirm?key=")
        # axe on the page with the button (opening it changes nothing: scanners do too)
        audit = browser.new_context(base_url=alert_server.url, bypass_csp=True)
        try:
            shown = audit.new_page()
            shown.goto(confirm)
            faults = violations(shown)
            assert not faults, report(faults)
        finally:
            audit.close()
        page.goto(confirm)
        expect(page.locator("#confirm-message")).to_contain_text("Mails about your turn")
        page.get_by_role("button", name="Confirm the address").click()
        expect(page.locator("#confirm-message")).to_have_text(
            "From now on you get a mail when it is your turn at this table."
        )
        page.goto(f"/r/{room}#token={ben}")
        page.get_by_role("button", name="Notify me").click()
        expect(page.locator("#alerts-email-status")).to_contain_text("An address is set")
        page.locator("#alerts-dialog").get_by_role("button", name="Close").click()

        # Ben leaves the table; his alerts only go out while he doesn't have it open
        page.goto("/")
        wait_for(
            lambda: not http.get(f"/api/rooms/{room}").json()["seats"][1]["online"],
            "Ben to be offline",
        )
        while (state := http.get(f"/api/rooms/{room}/state").json())["to_act"] != [1]:
            token = anna
            mine = http.get(f"/api/rooms/{room}/state", headers=auth(token)).json()
            http.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
                headers=auth(token),
            )
        assert state["to_act"] == [1]

        (pushed,) = receiver.wait(1)
        assert pushed.path == "/push/ben"
        payload = keys.decrypt(pushed.body)
        assert payload["title"] == "Your turn — Blokus with Anna"
        (mail,) = smtp.wait(1)
        assert mail["Subject"] == "Your turn — Blokus with Anna"
        assert f"/r/{room}#token={ben}" in mail.get_content()

        # the worker's scope is the whole site (push and the offline shell)
        scope = f"{alert_server.url}/"
        wait_for(lambda: scope in registrations, "the service worker")
        wait_for(lambda: worker_active(page), "the service worker to be active")
        shown = deliver(page, cdp, alert_server.url, registrations[scope], payload)
        assert shown == [
            {
                "title": "Your turn — Blokus with Anna",
                "body": "Open the table to play your move.",
                "url": f"{alert_server.url}/r/{room}",
            }
        ]
    finally:
        context.close()
    assert not errors, errors


def test_the_host_sets_the_tables_webhook_from_the_dialog(
    browser: Browser, alert_server: ServerProcess, receiver: HttpReceiver
) -> None:
    http = httpx.Client(base_url=alert_server.url, timeout=30)
    created = http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}).json()
    room, anna = created["room"], created["token"]
    ben = http.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    context = browser.new_context(base_url=alert_server.url, locale="de-DE")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto(f"/r/{room}#token={anna}")
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")
        page.get_by_role("button", name="Benachrichtigen").click()
        page.get_by_label("Webhook-URL").fill(receiver.url("/discord"))
        page.get_by_label("Format", exact=True).select_option("discord")
        page.get_by_role("region", name="Webhook für den ganzen Tisch").get_by_role(
            "button", name="Speichern"
        ).click()
        expect(page.locator("#alerts-webhook-status")).to_contain_text("Ein Webhook ist gesetzt")
        assert receiver.url("/discord") not in page.content()
        http.post(f"/api/rooms/{room}/start", headers=auth(anna))
        while http.get(f"/api/rooms/{room}/state").json()["to_act"] != [1]:
            mine = http.get(f"/api/rooms/{room}/state", headers=auth(anna)).json()
            http.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
                headers=auth(anna),
            )
        (hook,) = receiver.wait(1)
        assert hook.path == "/discord"
        assert hook.json()["content"].startswith("Ben ist in Blokus am Zug.")
        assert ben not in hook.body.decode()
    finally:
        context.close()


def test_the_dialog_chooses_what_a_channel_says_besides_turns(
    browser: Browser, alert_server: ServerProcess, receiver: HttpReceiver
) -> None:
    http = httpx.Client(base_url=alert_server.url, timeout=30)
    created = http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}).json()
    room, anna = created["room"], created["token"]
    context = browser.new_context(base_url=alert_server.url, locale="de-DE", bypass_csp=True)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto(f"/r/{room}#token={anna}")
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")
        page.get_by_role("button", name="Benachrichtigen").click()
        dialog = page.locator("#alerts-dialog")
        # the dialog is drawn once the settings are in (its "all my tables" choice shows)
        expect(dialog.locator("#alerts-scope")).to_be_visible()
        # no channel set up yet: no channel's kinds to choose (checked on the drawn
        # dialog: before, an empty one passed whatever the settings said)
        expect(dialog.locator("[id^='alerts-kinds-']")).to_have_count(0)
        page.get_by_label("Webhook-URL").fill(receiver.url("/hook"))
        page.get_by_role("region", name="Webhook für den ganzen Tisch").get_by_role(
            "button", name="Speichern"
        ).click()
        kinds = dialog.locator("#alerts-kinds-webhook")
        expect(kinds).to_be_visible()
        ending = kinds.get_by_label("das Spiel vorbei ist")
        expect(ending).not_to_be_checked()
        expect(kinds.get_by_label("ein Bot meinen Platz übernimmt")).not_to_be_checked()
        expect(kinds.get_by_label("jemand im Chat schreibt")).to_have_count(0)
        ending.check()
        expect(dialog.locator("#alerts-kind-webhook-game_over")).to_be_checked()
        wait_for(
            lambda: (
                http.get(f"/api/rooms/{room}/alerts", headers=auth(anna)).json()["webhook"][
                    "kinds"
                ]["game_over"]
                is True
            ),
            "the choice to be kept",
        )
        faults = violations(page)
        assert not faults, report(faults)
    finally:
        context.close()
