"""Every label fits its box in English, German and French, on a phone and a desktop.

Each page a player meets is opened at both widths in the three languages, and a
script (``layout_check.js``) lists what sticks out of its box or breaks a word
across two lines: a long German button that leaves its card, or a French bot
name broken mid-word, fails here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server import ServerProcess

pytestmark = pytest.mark.e2e

CHECK = (Path(__file__).parent / "layout_check.js").read_text()
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
LANGUAGES = ["en", "de", "fr"]


class Rooms:
    """Tables set up through the public API, one per situation a player meets."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http

    def create(self, body: dict[str, Any]) -> tuple[str, str]:
        made = self.http.post("/api/rooms", json={"name": "Anna", **body}).raise_for_status()
        return made.json()["room"], made.json()["token"]

    def start(self, room: str, token: str) -> None:
        self.http.post(
            f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {token}"}
        ).raise_for_status()


@pytest.fixture(scope="module")
def tables(server: ServerProcess) -> Iterator[dict[str, tuple[str, str]]]:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        rooms = Rooms(http)
        made = {
            # a lobby with two bots of one kind and a free seat
            "waiting": rooms.create(
                {"game": "blokus", "players": 4, "bots": {"1": "strong", "2": "strong"}}
            ),
        }
        for game, players in (("blokus", 4), ("m", 3), ("maedn", 3)):
            bots = {str(seat): "strong" for seat in range(1, players)}
            room, token = rooms.create({"game": game, "players": players, "bots": bots})
            rooms.start(room, token)
            made[game] = (room, token)
        # Anna to move with twelve hours on her clock: the seat's longest line
        room, token = rooms.create(
            {
                "game": "maedn",
                "players": 3,
                "turn_seconds": 43200,
                "bots": {"1": "strong", "2": "strong"},
            }
        )
        rooms.start(room, token)
        made["maedn with a clock"] = (room, token)
        yield made


def _open(browser: Browser, base: str, size: str, lang: str) -> Page:
    width, height = SIZES[size]
    context = browser.new_context(
        base_url=base,
        viewport={"width": width, "height": height},
        locale={"en": "en-US", "de": "de-DE", "fr": "fr-FR"}[lang],
        is_mobile=size == "phone",
        has_touch=size == "phone",
    )
    return context.new_page()


def _problems(page: Page) -> list[str]:
    page.wait_for_timeout(200)  # let fonts and late layout settle
    found: list[str] = page.evaluate(CHECK)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_no_label_overflows_its_box(
    browser: Browser,
    server: ServerProcess,
    tables: dict[str, tuple[str, str]],
    size: str,
    lang: str,
) -> None:
    page = _open(browser, server.url, size, lang)
    problems: dict[str, list[str]] = {}
    try:
        page.goto("/")
        expect(page.locator("#create-form, form").first).to_be_visible()
        problems["start page"] = _problems(page)
        radios = page.locator("#game-list input[type=radio]")
        expect(radios).to_have_count(3)
        widths = {round(box["width"]) for box in (r.bounding_box() for r in radios.all()) if box}
        if len(widths) != 1:
            problems["start page"].append(f"the games' radio buttons differ in width: {widths}")

        room, _ = tables["waiting"]
        page.goto(f"/r/{room}")
        expect(page.locator("#lobby")).to_be_visible()
        problems["table waiting for players"] = _problems(page)

        for game, root in (("blokus", ".bk-root"), ("m", ".mm-root"), ("maedn", ".md-root")):
            room, token = tables[game]
            page.goto(f"/r/{room}#token={token}")
            expect(page.locator(root)).to_be_visible()
            expect(page.locator("#conn")).to_have_attribute("data-status", "open")
            problems[f"{game} in play"] = _problems(page)
            page.locator("#help-btn").click()
            expect(page.locator("#help")).to_be_visible()
            problems[f"{game} how to play"] = _problems(page)
            page.keyboard.press("Escape")

        room, token = tables["maedn with a clock"]
        page.goto(f"/r/{room}#token={token}")
        expect(page.locator(".seat.you .seat-clock")).to_be_visible()
        problems["maedn, your turn with a clock"] = _problems(page)
    finally:
        page.context.close()
    found = {where: lines for where, lines in problems.items() if lines}
    assert not found, "\n".join(
        f"{where}: {line}" for where, lines in found.items() for line in lines
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_a_waiting_tables_import_box_reads_top_to_bottom(
    browser: Browser, server: ServerProcess, tables: dict[str, tuple[str, str]], size: str
) -> None:
    page = _open(browser, server.url, size, "en")
    try:
        room, _ = tables["waiting"]
        page.goto(f"/r/{room}")
        box = page.locator(".history-import")
        expect(box).to_be_visible()
        expect(page.locator("#history")).not_to_contain_text("null")
        title, button, help_text = (
            box.locator(part).bounding_box()
            for part in ("span >> nth=0", "input[type=file]", "span.muted")
        )
        assert title and button and help_text
        assert title["y"] + title["height"] <= button["y"] + 1, "the title above the button"
        assert button["y"] + button["height"] <= help_text["y"] + 1, "the help below the button"
    finally:
        page.context.close()


def test_on_a_phone_the_maedn_dice_come_first_and_the_keyboard_hint_last(
    browser: Browser, server: ServerProcess, tables: dict[str, tuple[str, str]]
) -> None:
    page = _open(browser, server.url, "phone", "en")
    try:
        room, token = tables["maedn with a clock"]
        page.goto(f"/r/{room}#token={token}")
        expect(page.locator(".md-hand-box .md-die").first).to_be_visible()
        boxes = [".md-hand-box", ".md-mine-box", ".md-middle-box", ".md-pile-box", ".md-keys"]
        tops = [page.locator(box).bounding_box() for box in boxes]
        assert all(top is not None for top in tops)
        ys = [top["y"] for top in tops if top is not None]
        assert ys == sorted(ys), dict(zip(boxes, ys, strict=True))
    finally:
        page.context.close()


def _play_until_rows(server: ServerProcess, rows_each: int, moves: int) -> tuple[str, str]:
    """A 3-player MÄDN table (Anna and two bots) played through the API until every
    player has ``rows_each`` open rows or ``moves`` of Anna's moves are made; Anna
    opens rows when she can."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        rooms = Rooms(http)
        room, token = rooms.create(
            {"game": "maedn", "players": 3, "bots": {"1": "strong", "2": "strong"}}
        )
        rooms.start(room, token)
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(moves):
            state = http.get(f"/api/rooms/{room}/state", headers=auth).json()
            for _ in range(200):
                if state["to_act"] in ([], [0]):
                    break
                time.sleep(0.05)
                state = http.get(f"/api/rooms/{room}/state", headers=auth).json()
            rows = [len(seat_rows) for seat_rows in state["view"]["rows"]]
            if not state["to_act"] or min(rows) >= rows_each:
                break
            legal = state["legal_moves"]
            starts = [m for m in legal if m["type"] == "start"]
            move = (starts or legal)[-1]
            http.post(
                f"/api/rooms/{room}/moves", json={"seq": state["seq"], "move": move}, headers=auth
            ).raise_for_status()
        return room, token


def test_maedn_on_a_desktop_shows_every_row_of_a_three_player_game(
    browser: Browser, server: ServerProcess
) -> None:
    room, token = _play_until_rows(server, rows_each=2, moves=40)
    page = _open(browser, server.url, "desktop", "en")
    try:
        page.goto(f"/r/{room}#token={token}")
        expect(page.locator(".md-player")).to_have_count(3)
        page.wait_for_timeout(300)
        rows = page.locator(".md-row:not(.md-new-row)")
        assert rows.count() >= 3
        height = page.evaluate("() => window.innerHeight")
        for index in range(rows.count()):
            box = rows.nth(index).bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, (
                f"row {index} ends at {box and box['y'] + box['height']}, below {height}"
            )
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_phone_the_waiting_table_points_to_the_seats_where_they_are(
    browser: Browser, server: ServerProcess, tables: dict[str, tuple[str, str]], lang: str
) -> None:
    page = _open(browser, server.url, "phone", lang)
    try:
        room, _ = tables["waiting"]
        page.goto(f"/r/{room}")
        lobby = page.locator("#lobby")
        expect(lobby).to_be_visible()
        text = lobby.inner_text().lower()
        for word in ("right", "rechts", "droite"):  # the seats are below it on a phone
            assert word not in text, text
        seats = page.locator("#seats")
        page.locator("#to-seats").click()
        expect(seats).to_be_in_viewport()
    finally:
        page.context.close()
