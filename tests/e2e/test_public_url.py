"""With PUBLIC_URL set, every link the room page offers to share uses it, not the
address the browser happened to open (a proxy's inner name, a LAN address)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.helpers import create_room
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e

PUBLIC = "https://games.example.org"


@pytest.fixture
def public_server(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path, env={"PUBLIC_URL": PUBLIC + "/", "BOT_WORKERS": "0"})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_share_and_resume_links_use_the_public_url(
    browser: Browser, public_server: ServerProcess
) -> None:
    assert httpx.get(f"{public_server.url}/api/config").json() == {"public_url": PUBLIC}
    context = browser.new_context(base_url=public_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        url = create_room(page, "Anna")
        room = url.rsplit("/", 1)[1]
        assert url.startswith(public_server.url)
        expect(page.locator("#share-link")).to_have_value(f"{PUBLIC}/r/{room}")
        page.get_by_text("Resume on another device").click()
        resume = page.locator("#resume-link").input_value()
        assert resume.startswith(f"{PUBLIC}/r/{room}#token=")
    finally:
        context.close()
    assert not errors, errors
