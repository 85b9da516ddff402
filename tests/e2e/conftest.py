"""Browser tests: a real server process and Debian's Chromium driven by Playwright.

Playwright never downloads a browser here: it launches ``/usr/bin/chromium``
(``make browser`` installs it). One server runs for the whole session, on a
temporary data directory; each test opens as many browser contexts (people) as
it needs, and a JavaScript error on any page fails the test.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.e2e.chromium import CHROMIUM, launch
from tests.server import ServerProcess

TIMEOUT_MS = 15_000


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("e2e-data"), env={"BOT_DELAY_MS": "20"})
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"no Chromium at {CHROMIUM}: CI must run `make browser` first")
        pytest.skip(f"no Chromium at {CHROMIUM} (run `make browser`)")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


Person = Callable[..., Page]


@contextmanager
def people_on(browser: Browser, base_url: str) -> Iterator[Person]:
    """``person()`` of the block opens a fresh browser context (its own storage) on the
    server at ``base_url`` and returns its page; a JavaScript error on any of them fails."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_person(
        path: str = "/", *, width: int = 1280, height: int = 800, locale: str = "en-US"
    ) -> Page:
        context = browser.new_context(
            base_url=base_url, viewport={"width": width, "height": height}, locale=locale
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        page.goto(path)
        return page

    try:
        yield open_person
    finally:
        for context in contexts:
            context.close()
    assert not errors, "JavaScript errors in the page:\n" + "\n".join(errors)


@pytest.fixture
def person(browser: Browser, server: ServerProcess) -> Iterator[Person]:
    """``person()`` opens a fresh browser context (its own storage) and returns its page."""
    with people_on(browser, server.url) as open_person:
        yield open_person
