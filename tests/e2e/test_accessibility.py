"""axe-core finds nothing on any page: the start page, a running game of each kind
for a seated player and for a spectator, and a result screen, at desktop and phone
size, in English, German and French.

The tables are set up through the HTTP API (a person against bots); each page is
opened once and then resized and switched between the languages, so one browser
and the session's one server serve every check.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.accessibility import report, violations
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e

SIZES = [(1280, 800), (390, 844)]
LANGUAGES = ["en", "de", "fr"]


@dataclass
class Table:
    room: str
    token: str


def open_table(http: httpx.Client, game: str, options: dict[str, Any] | None = None) -> Table:
    """A two-seat table, Anna against the random bot, started."""
    body = {"game": game, "players": 2, "name": "Anna", "bots": {"1": "random"}}
    if options:
        body["options"] = options
    made = http.post("/api/rooms", json=body).raise_for_status().json()
    table = Table(made["room"], made["token"])
    http.post(f"/api/rooms/{table.room}/start", headers=auth(table)).raise_for_status()
    return table


def auth(table: Table) -> dict[str, str]:
    return {"Authorization": f"Bearer {table.token}"}


def state_of(http: httpx.Client, table: Table) -> dict[str, Any]:
    return http.get(f"/api/rooms/{table.room}/state", headers=auth(table)).raise_for_status().json()


def wait_for_turn(http: httpx.Client, table: Table, deadline: float = 60.0) -> dict[str, Any]:
    """Anna's state once she is to move or the game is over (the bot moves on its own)."""
    end = time.monotonic() + deadline
    while True:
        state = state_of(http, table)
        if state["room"]["status"] == "finished" or state["legal_moves"]:
            return state
        if time.monotonic() > end:
            raise AssertionError(f"the bot did not move: {state['room']}")
        time.sleep(0.05)


def play_to_the_end(http: httpx.Client, table: Table) -> None:
    """Anna plays the first legal move the server offers until the result is in."""
    for _ in range(500):
        state = wait_for_turn(http, table)
        if state["room"]["status"] == "finished":
            return
        body = {"seq": state["seq"], "move": state["legal_moves"][0]}
        http.post(f"/api/rooms/{table.room}/moves", json=body, headers=auth(table))
    raise AssertionError("the game did not end within 500 moves")


@pytest.fixture(scope="module")
def tables(server: ServerProcess) -> Iterator[dict[str, Table]]:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = {
            "m": open_table(http, "m"),
            "maedn": open_table(http, "maedn"),
            "blokus": open_table(http, "blokus", {"variant": "duo"}),
            "finished": open_table(http, "blokus", {"variant": "duo"}),
        }
        play_to_the_end(http, made["finished"])
        for name in ("m", "maedn", "blokus"):
            wait_for_turn(http, made[name])
        yield made


def audit(page: Page, ready: str) -> list[str]:
    """Every size and language on one page: the faults axe finds, by where they were."""
    found = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for language in LANGUAGES:
            page.locator("#lang").select_option(language)
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator(ready).first).to_be_visible()
            faults = violations(page)
            if faults:
                found.append(f"--- {width}x{height} {language}\n{report(faults)}")
    return found


def open_page(browser: Browser, server: ServerProcess, path: str) -> Page:
    context = browser.new_context(
        base_url=server.url, viewport={"width": 1280, "height": 800}, bypass_csp=True
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(path)
    return page


CASES = [
    ("start page", None, False, "#create-form, form"),
    ("M, seated", "m", True, ".mm-hand-card"),
    ("M, watching", "m", False, ".mm-grid"),
    ("MÄDN, seated", "maedn", True, ".md-dice"),
    ("MÄDN, watching", "maedn", False, ".md-middle"),
    ("Blokus, seated", "blokus", True, ".bk-tray"),
    ("Blokus, watching", "blokus", False, ".bk-board"),
    ("result", "finished", True, "#result h2"),
]


@pytest.mark.parametrize(("what", "table", "seated", "ready"), CASES, ids=[c[0] for c in CASES])
def test_axe_finds_nothing_at_either_size_in_any_language(
    browser: Browser,
    server: ServerProcess,
    tables: dict[str, Table],
    what: str,
    table: str | None,
    seated: bool,
    ready: str,
) -> None:
    if table is None:
        path = "/"
    else:
        room = tables[table]
        path = f"/r/{room.room}" + (f"#token={room.token}" if seated else "")
    page = open_page(browser, server, path)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        if table is not None:
            expect(page.locator("#conn")).to_have_attribute("data-status", "open")
        found = audit(page, ready)
    finally:
        page.context.close()
    assert not errors, errors
    assert not found, f"axe on {what}:\n" + "\n".join(found)
