"""A page that comes back far behind fetches what its first message left out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.server import ServerProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def short_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """State messages carry at most 3 events."""
    proc = ServerProcess(tmp_path / "data", env={"CATCH_UP_EVENTS": "3"})
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_page_back_from_far_behind_shows_every_chat_line(
    browser: Browser, short_server: ServerProcess
) -> None:
    server = short_server
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "m", "players": 2, "name": "Anna"}
    ).json()
    room = created["room"]
    ben = httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()

    # the first socket goes straight to the server; a later one is held until we let it go
    routes: list[WebSocketRoute] = []
    held: list[str | bytes] = []

    def route(ws: WebSocketRoute) -> None:
        routes.append(ws)
        if len(routes) == 1:
            ws.connect_to_server()
        else:
            ws.on_message(lambda message: held.append(message))

    context = browser.new_context(base_url=server.url)
    try:
        page: Page = context.new_page()
        page.route_web_socket("**/ws", route)
        page.goto(f"/r/{room}#token={created['token']}")
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")
        expect(page.locator(".seat.you")).to_contain_text("Anna")

        routes[0].close(code=1012)  # "the server restarts": the page comes back with since
        expect(page.locator("#conn")).to_have_attribute("data-status", "reconnecting")
        lines = [f"line {n}" for n in range(8)]
        for text in lines:
            httpx.post(
                f"{server.url}/api/rooms/{room}/chat",
                json={"text": text},
                headers={"Authorization": f"Bearer {ben['token']}"},
            ).raise_for_status()
        deadline = time.monotonic() + 30
        while len(routes) < 2 or not held:  # the page reconnects and says hello to us
            assert time.monotonic() < deadline, "the page never came back"
            page.wait_for_timeout(20)
        assert '"since":2' in str(held[0]).replace(" ", "")
        upstream = routes[1].connect_to_server()
        for message in held:
            upstream.send(message)
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")
        expect(page.locator("#chat-list .chat-text")).to_have_text(lines)
    finally:
        context.close()
