"""``make screenshots``: capture the start page, a game in progress and a result screen.

Runs a real server on a temporary data directory, sets the tables up through
the public API (as players' browsers would), then looks at them with Debian's
Chromium through Playwright and writes PNGs to ``docs/screenshots/``.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.chromium import launch  # noqa: E402
from tests.server import ServerProcess  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Table:
    """One room seen through the API, with every seat's token."""

    def __init__(self, http: httpx.Client, body: dict[str, Any], names: list[str]) -> None:
        created = http.post("/api/rooms", json=body).raise_for_status().json()
        self.http = http
        self.room: str = created["room"]
        self.game: str = body["game"]
        self.tokens: dict[int, str] = {0: created["token"]}
        for seat, name in enumerate(names, start=1):
            claimed = http.post(f"/api/rooms/{self.room}/seats/{seat}", json={"name": name})
            self.tokens[seat] = claimed.raise_for_status().json()["token"]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def start(self) -> None:
        self.http.post(f"/api/rooms/{self.room}/start", headers=self.auth(0)).raise_for_status()

    def state(self, seat: int = 0) -> dict[str, Any]:
        return (
            self.http.get(f"/api/rooms/{self.room}/state", headers=self.auth(seat))
            .raise_for_status()
            .json()
        )

    def chat(self, seat: int, text: str) -> None:
        self.http.post(
            f"/api/rooms/{self.room}/chat", json={"text": text}, headers=self.auth(seat)
        ).raise_for_status()

    def play(self, moves: int, rng: random.Random) -> None:
        """Play up to ``moves`` placements with a simple, good-looking choice each time."""
        for _ in range(moves):
            acting = self.state()["to_act"]
            if not acting:
                return
            seat = acting[0]
            state = self.state(seat)
            move = pleasant_move(state, rng)
            self.http.post(
                f"/api/rooms/{self.room}/moves",
                json={"seq": state["seq"], "move": move},
                headers=self.auth(seat),
            ).raise_for_status()

    def play_randomly(self, moves: int, rng: random.Random, prefer: str | None = None) -> None:
        """Any game: a random legal move each time, taking ``prefer``-type moves when offered."""
        for _ in range(moves):
            acting = self.state()["to_act"]
            if not acting:
                return
            seat = acting[0]
            state = self.state(seat)
            options = [m for m in state["legal_moves"] if m.get("type") == prefer] or state[
                "legal_moves"
            ]
            self.http.post(
                f"/api/rooms/{self.room}/moves",
                json={"seq": state["seq"], "move": rng.choice(options)},
                headers=self.auth(seat),
            ).raise_for_status()

    def play_until(self, seat: int, rng: random.Random) -> None:
        """Keep playing until ``seat`` is to move."""
        for _ in range(200):
            acting = self.state()["to_act"]
            if not acting or acting[0] == seat:
                return
            self.play(1, rng)

    def finish(self, rng: random.Random) -> None:
        for _ in range(400):
            if not self.state()["to_act"]:
                return
            self.play(1, rng)


def pleasant_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A big piece, pushed towards the middle of the board: it makes a lively picture."""
    size = state["view"]["size"]
    middle = (size - 1) / 2

    def score(move: dict[str, Any]) -> float:
        cells = move["cells"]
        spread = sum(abs(r - middle) + abs(c - middle) for r, c in cells) / len(cells)
        return len(cells) * 10 - spread + rng.random() * 6

    return max(state["legal_moves"], key=score)


def sign_in(page: Page, base: str, tables: list[tuple[Table, int]]) -> None:
    """Put seat tokens into the browser's storage, as creating or joining would have."""
    entries = {
        t.room: {"token": t.tokens[seat], "seat": seat, "game": t.game, "at": 1000 + i}
        for i, (t, seat) in enumerate(tables)
    }
    page.goto(base + "/static/favicon.svg")
    page.evaluate(
        "data => { localStorage.setItem('spieltisch.rooms', data);"
        " localStorage.setItem('spieltisch.name', 'Anna'); }",
        json.dumps(entries),
    )


def show_piece(page: Page, piece: str) -> None:
    """Pick a piece and hold it over a spot where it fits, as a player about to place it."""
    page.locator(f'.bk-tray .bk-piece[data-piece="{piece}"]').click()
    spot = page.locator(".bk-board .cell.legal").first
    spot.hover()
    page.wait_for_timeout(150)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp), env={"BOT_DELAY_MS": "0"})
        server.start()
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                capture(server.url, http, rng)
        finally:
            server.stop()
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(ROOT))


def capture(base: str, http: httpx.Client, rng: random.Random) -> None:
    blokus = {"game": "blokus", "options": {}, "name": "Anna"}
    # a four-player game in progress, Anna to move
    live = Table(http, {**blokus, "players": 4}, ["Ben", "Chloé", "David"])
    live.start()
    live.play(26, rng)
    live.play_until(0, rng)
    live.chat(1, "Nice corner, Anna!")
    live.chat(2, "Careful, I'm coming for the middle 😄")
    live.chat(0, "We'll see about that")
    # a table waiting for friends, and a finished Duo game
    waiting = Table(http, {**blokus, "players": 3}, [])
    duo = Table(http, {**blokus, "players": 2, "options": {"variant": "duo"}}, ["Ben"])
    duo.start()
    duo.finish(rng)

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            desktop = browser.new_context(viewport=DESKTOP, locale="en-US")
            page = desktop.new_page()
            sign_in(page, base, [(duo, 0), (waiting, 0), (live, 0)])

            page.goto(base + "/")
            page.locator(".mg-status.mg-turn").wait_for()
            page.wait_for_timeout(300)
            page.screenshot(path=OUT / "lobby.png")

            page.goto(f"{base}/r/{live.room}")
            page.locator(".bk-status.your-turn").wait_for()
            show_piece(
                page,
                page.locator(".bk-tray .bk-piece:not([disabled])").last.get_attribute("data-piece")
                or "",
            )
            page.screenshot(path=OUT / "game-desktop.png")

            page.goto(f"{base}/r/{duo.room}")
            page.locator("#result:not([hidden])").wait_for()
            page.wait_for_timeout(300)
            page.screenshot(path=OUT / "result.png")
            capture_card_games(base, http, rng, page)
            desktop.close()

            phone = browser.new_context(
                viewport=PHONE,
                locale="en-US",
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
            )
            page = phone.new_page()
            sign_in(page, base, [(live, 0)])
            page.goto(f"{base}/r/{live.room}")
            page.locator(".bk-status.your-turn").wait_for()
            # zoomed to 150 %, a piece picked: the page keeps the tray below the board
            page.locator(".bk-zoom-in").click()
            page.locator(".bk-tray .bk-piece:not([disabled])").last.click()
            page.locator(".bk-board .cell.legal").first.dispatch_event("click")
            page.wait_for_timeout(300)
            page.screenshot(path=OUT / "game-phone.png")
            phone.close()
        finally:
            browser.close()


def card_table(http: httpx.Client, game: str, moves: int, prefer: str, rng: random.Random) -> Table:
    """A 3-player table of ``game`` after about ``moves`` moves, stopped when Anna is to move."""
    table = Table(http, {"game": game, "players": 3, "name": "Anna"}, ["Ben", "Chloé"])
    table.start()
    table.play_randomly(moves, rng, prefer=prefer)
    for _ in range(20):
        if table.state()["to_act"] == [0]:
            break
        table.play_randomly(1, rng, prefer=prefer)
    return table


def capture_card_games(base: str, http: httpx.Client, rng: random.Random, page: Page) -> None:
    """An M table and a MÄDN table in the middle of a game, Anna to move."""
    m = card_table(http, "m", moves=14, prefer="place", rng=rng)
    maedn = card_table(http, "maedn", moves=24, prefer="extend", rng=rng)
    sign_in(page, base, [(m, 0), (maedn, 0)])
    for table, root, name in [
        (m, ".mm-root", "m-desktop.png"),
        (maedn, ".md-root", "maedn-desktop.png"),
    ]:
        page.goto(f"{base}/r/{table.room}")
        page.locator(root).wait_for()
        page.wait_for_timeout(500)
        page.screenshot(path=OUT / name)


if __name__ == "__main__":
    main()
