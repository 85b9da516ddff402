"""The site as an installed web app: installable the way Chromium judges it, an offline
shell that shows each table's last state and reconnects by itself, and the way to the
Home Screen where push needs it.

Chromium says why a page could not be installed through the DevTools protocol
(``Page.getInstallabilityErrors``), the same checks that decide whether it offers
to install. A browser context Playwright makes is an incognito one, which is never
installable, so those checks run in a persistent profile.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.calls import auth
from tests.e2e.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.helpers import log_lines
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


def _table(http: httpx.Client) -> tuple[str, str, str]:
    """A running two-seat Blokus table: (room, Anna's token, Ben's token)."""
    created = http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"})
    room, anna = created.json()["room"], created.json()["token"]
    ben = http.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    http.post(f"/api/rooms/{room}/start", headers=auth(anna)).raise_for_status()
    return room, anna, ben


def _play_first_move(http: httpx.Client, room: str, token: str) -> None:
    mine = http.get(f"/api/rooms/{room}/state", headers=auth(token)).json()
    http.post(
        f"/api/rooms/{room}/moves",
        json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
        headers=auth(token),
    ).raise_for_status()


def _controlled(page: Page) -> None:
    """Wait until the service worker controls the page (it claims pages as it starts)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


@pytest.fixture
def profile(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A persistent Chromium profile, as a person's browser is (installable at all),
    started by the session's Playwright: a second one can't run beside it."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


def test_the_start_page_and_a_room_are_installable(
    profile: BrowserContext, server: ServerProcess
) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    room, anna, _ = _table(http)
    page = profile.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    cdp = profile.new_cdp_session(page)
    for path in ["/", f"/r/{room}#token={anna}"]:
        page.goto(f"{server.url}{path}")
        _controlled(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{server.url}/manifest.webmanifest"
        assert manifest["errors"] == [], manifest["errors"]
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    data = json.loads(manifest["data"])
    assert (data["start_url"], data["scope"], data["display"]) == ("/", "/", "standalone")
    assert {icon["purpose"] for icon in data["icons"]} == {"any", "maskable"}
    registrations: list[str] = page.evaluate(
        "async () => (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope)"
    )
    assert registrations == [f"{server.url}/"], "one worker, for the whole site"
    assert not errors, errors


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own, to take away and bring back as a network would."""
    proc = ServerProcess(tmp_path / "data")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def _kept_urls(page: Page) -> list[str]:
    urls: list[str] = page.evaluate(
        """async () => {
          const found = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) found.push(request.url);
          }
          return found;
        }"""
    )
    return urls


def test_a_table_opens_offline_with_its_last_state_and_reconnects_by_itself(
    browser: Browser, own_server: ServerProcess
) -> None:
    http = httpx.Client(base_url=own_server.url, timeout=30)
    room, anna, ben = _table(http)
    context = browser.new_context(base_url=own_server.url, locale="en-US")
    context.set_default_timeout(15_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/r/{room}#token={anna}")
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")
        _controlled(page)
        _play_first_move(http, room, anna)
        expect(page.locator(".bk-status")).to_contain_text("Ben")
        # the worker has the renderer it loaded, the page the state it last had
        page.wait_for_function(
            "async () => Boolean(await caches.match('/static/js/games/blokus/board.js'))"
        )
        page.wait_for_function(
            "([room, seq]) => JSON.parse(localStorage.getItem(`spieltisch.last.${room}`))?.seq === seq",
            arg=[room, http.get(f"/api/rooms/{room}").json()["seq"]],
        )
        lines = log_lines(page)
        assert any("Anna placed" in line for line in lines), lines

        # no network: the server is gone and the browser knows it is offline
        own_server.stop()
        context.set_offline(True)
        page.reload()
        note = page.locator("#offline-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("Offline — showing the last state")
        expect(page.locator(".bk-board")).to_be_visible()
        expect(page.locator(".bk-status")).to_contain_text("Ben")
        assert log_lines(page) == lines
        expect(page.locator("#conn")).to_have_attribute("data-status", "reconnecting")

        page.goto("/")
        table = page.locator(f'.mg-item[data-room="{room}"]')
        expect(table).to_contain_text("Offline — last state: Waiting for Ben")
        table.get_by_role("link").click()
        expect(page.locator("#offline-note")).to_be_visible()

        # the network comes back: the page reconnects without a reload and goes live
        own_server.start()
        context.set_offline(False)
        expect(page.locator("#conn")).to_have_attribute("data-status", "open", timeout=30_000)
        expect(page.locator("#offline-note")).to_be_hidden()
        _play_first_move(http, room, ben)
        expect(page.locator("#log li", has_text="Ben placed")).to_have_count(1)

        # nothing kept holds a token: not a cache key, not the kept state
        urls = _kept_urls(page)
        assert f"{own_server.url}/static/room.html" in urls
        assert all("?" not in url and "#" not in url for url in urls), urls
        assert not [url for url in urls if anna in url or ben in url]
        kept = page.evaluate("(room) => localStorage.getItem('spieltisch.last.' + room)", room)
        assert anna not in kept and ben not in kept
        assert json.loads(kept)["legal_moves"] == []
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize(
    ("locale", "button", "words"),
    [
        ("en-US", "Notify me", "“Add to Home Screen”"),
        ("de-DE", "Benachrichtigen", "„Zum Home-Bildschirm“"),
        ("fr-FR", "Me prévenir", "« Sur l'écran d'accueil »"),
    ],
)
def test_notify_me_on_an_iphone_says_how_to_add_the_site_to_the_home_screen(
    browser: Browser, server: ServerProcess, locale: str, button: str, words: str
) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    room, _, ben = _table(http)

    def dialog_text(**options: Any) -> str:
        context = browser.new_context(base_url=server.url, locale=locale, **options)
        context.set_default_timeout(15_000)
        try:
            # Safari outside a Home Screen app has no PushManager at all
            context.add_init_script("delete window.PushManager;")
            page = context.new_page()
            page.goto(f"/r/{room}#token={ben}")
            expect(page.locator("#conn")).to_have_attribute("data-status", "open")
            page.get_by_role("button", name=button).click()
            missing = page.locator("#alerts-dialog #alerts-push-missing")
            expect(missing).to_be_visible()
            assert page.locator("#alerts-push").count() == 0, "no button that can't work"
            return missing.inner_text()
        finally:
            context.close()

    assert words in dialog_text(user_agent=IPHONE, is_mobile=True, has_touch=True)
    assert words not in dialog_text(), "elsewhere it only says push is missing"


def test_a_table_that_is_gone_forgets_its_kept_state(person: Any) -> None:
    page = person("/")
    kept = {"type": "state", "seq": 3, "you": 0, "room": {"game": "blokus"}, "events": []}
    page.evaluate(
        "(kept) => localStorage.setItem('spieltisch.last.no-such-room', JSON.stringify(kept))",
        kept,
    )
    page.goto("/r/no-such-room")
    expect(page.locator("#conn")).to_have_attribute("data-status", "gone")
    expect(page.locator("#offline-note")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('spieltisch.last.no-such-room')") is None
