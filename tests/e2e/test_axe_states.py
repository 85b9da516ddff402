"""axe-core finds nothing in any state a person can reach, as each role that sees it.

``STATES`` below is the table the test is parametrized from (and docs/client.md shows
the same one): a state of a table, the games it is checked at, the roles that look at
it, the languages and the widths. A new control that shows only in a state without a
row here goes unchecked, so a row is part of adding one.

Every state is reached through the real server: seats are claimed and games started,
left, resigned, aborted, asked to be taken back or paused with the seat tokens over
REST, then the page is opened as the role (a seat's link, or no token for someone
watching) and what only the browser holds (a dialog, the confirmation of a move, the
result closed to the rematch bar) is opened by clicking, as a person would. A page
is opened once per row and switched between the languages (opened again per language
where a click opens the state, so the dialog is built in that language), and resized.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.calls import auth
from tests.e2e.accessibility import report, violations
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e

GAMES = ("m", "maedn", "blokus")
LANGUAGES = ("en", "de", "fr")
WIDTHS = {"desktop": (1280, 800), "phone": (390, 844)}
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)

# what each game's board shows once it is drawn
BOARD = {"m": ".mm-grid", "maedn": ".md-middle", "blokus": ".bk-board"}


# ---------------------------------------------------------------- the table of states


@dataclass(frozen=True)
class Row:
    """One state: where it is reached, who looks, in which languages and at which widths.

    ``languages`` run at desktop width; ``phone`` lists the languages that run at phone
    width too. ``slow`` rows run only in the long suite (``-m slow``)."""

    state: str
    games: tuple[str, ...]
    roles: tuple[str, ...]
    languages: tuple[str, ...] = LANGUAGES
    phone: tuple[str, ...] = ("en",)
    slow: bool = False


ALL3 = LANGUAGES
NONE: tuple[str, ...] = ()
STATES: list[Row] = [
    # a waiting table: the host's settings (players, options, the time per move and what
    # happens when it is up, the stand-in's level) and bot pickers, a seated player's
    # "stand up" and its question, a watcher's "take seat"; the form to sit down
    Row("waiting", ("m",), ("host", "player")),
    Row("waiting", ("maedn", "blokus"), ("host",), slow=True),
    Row("waiting", ("m",), ("spectator",), slow=True),
    Row("waiting", ("maedn", "blokus"), ("player", "spectator"), slow=True),
    Row("claim form", ("m",), ("spectator",), phone=NONE, slow=True),
    Row("stand up dialog", ("m",), ("player",), phone=NONE),
    # a running game with people, a bot and a stand-in (Cleo left, a bot plays for her):
    # the host's "hand to a bot", "free the seat", "make host" (issue 26)
    Row("running", GAMES, ("host",), phone=ALL3),
    Row("running", ("m",), ("player",)),
    Row("running", ("m",), ("spectator",), slow=True),
    Row("running", ("maedn", "blokus"), ("player", "spectator"), slow=True),
    Row("running, a bot plays for me", ("m",), ("player",), phone=NONE),
    # the host's dialogs on another's seat, a player's on their own
    Row("hand over dialog", ("m",), ("host",)),
    Row("free a seat dialog", ("m",), ("host",), phone=NONE, slow=True),
    Row("make host dialog", ("m",), ("host",), phone=NONE, slow=True),
    Row("leave dialog", ("m",), ("player",), phone=NONE),
    Row("resign dialog", ("m",), ("player",), phone=NONE, slow=True),
    Row("abort dialog", ("m",), ("player",), phone=NONE, slow=True),
    Row("help dialog", GAMES, ("player",), phone=NONE, slow=True),
    Row("notify me dialog", ("m",), ("host",), phone=NONE),
    Row("notify me dialog", ("m",), ("player",), phone=NONE, slow=True),
    Row("install advice", ("m",), ("player",), languages=NONE, phone=ALL3),
    # a move waiting for its confirmation (Blokus never asks: a placement can be taken back)
    Row("confirm move", ("m", "maedn"), ("host",)),
    # ending early and taking back
    Row("abort vote", ("m",), ("player",), phone=NONE),
    Row("abort vote", ("m",), ("host",), phone=NONE, slow=True),
    Row("take back alone", ("blokus",), ("host",), slow=True),
    Row("take-back asked", ("blokus",), ("player",), phone=NONE),
    Row("take-back asked", ("blokus",), ("host", "spectator"), phone=NONE, slow=True),
    # time: clocks, the away form, "away until"
    Row("timed, away form", ("m",), ("player",), phone=NONE, slow=True),
    Row("away until", ("m",), ("player",), phone=NONE),
    Row("away until", ("m",), ("host",), phone=NONE, slow=True),
    # the end of a game
    Row("finished", GAMES, ("host",)),
    Row("finished", ("blokus",), ("spectator",)),
    Row("finished", ("blokus",), ("player",), slow=True),
    Row("rematch bar", ("blokus",), ("host",), phone=NONE),
    Row("rematch bar", ("blokus",), ("player",), phone=NONE, slow=True),
    Row("bot for the next game dialog", ("m",), ("player",), phone=NONE, slow=True),
    Row("aborted, rematch bar", ("m",), ("host",), phone=NONE, slow=True),
    # the replay page
    Row("replay, running", ("m",), ("spectator",), phone=NONE),
    Row("replay, running", ("maedn", "blokus"), ("spectator",), phone=NONE, slow=True),
    Row("replay, running", ("m",), ("player",), phone=NONE, slow=True),
    Row("replay, finished", ("blokus",), ("spectator",)),
    Row("replay, finished", ("m", "maedn"), ("spectator",), slow=True),
    Row("verify", ("m",), ("spectator",), phone=NONE),
    # an imported game, with the other seats' links to hand out
    Row("imported", ("m",), ("host",), phone=NONE),
    # the start page of someone with tables (their list, the away box), a table gone
    Row("start page with tables", ("m",), ("player",)),
    Row("gone", ("m",), ("spectator",), phone=NONE, slow=True),
    # the long run: every state above once more at phone width in German and French
    *[
        Row(row.state, row.games, row.roles, languages=NONE, phone=("de", "fr"), slow=True)
        for row in (
            Row("stand up dialog", ("m",), ("player",)),
            Row("hand over dialog", ("m",), ("host",)),
            Row("free a seat dialog", ("m",), ("host",)),
            Row("make host dialog", ("m",), ("host",)),
            Row("leave dialog", ("m",), ("player",)),
            Row("resign dialog", ("m",), ("player",)),
            Row("abort dialog", ("m",), ("player",)),
            Row("notify me dialog", ("m",), ("host", "player")),
            Row("confirm move", ("m", "maedn"), ("host",)),
            Row("abort vote", ("m",), ("host", "player")),
            Row("take-back asked", ("blokus",), ("host", "player")),
            Row("away until", ("m",), ("host", "player")),
            Row("finished", GAMES, ("host",)),
            Row("rematch bar", ("blokus",), ("host", "player")),
            Row("bot for the next game dialog", ("m",), ("player",)),
            Row("replay, finished", GAMES, ("spectator",)),
            Row("imported", ("m",), ("host",)),
            Row("start page with tables", ("m",), ("player",)),
        )
    ],
]


def markdown() -> str:
    """``STATES`` as the table docs/client.md shows (a test holds the two together)."""
    lines = [
        "| state | games | roles | desktop | phone | run |",
        "|---|---|---|---|---|---|",
    ]
    for row in STATES:
        games = "all three" if row.games == GAMES else ", ".join(row.games)
        lines.append(
            f"| {row.state} | {games} | {', '.join(row.roles)} | {' '.join(row.languages) or 'none'}"
            f" | {' '.join(row.phone) or 'none'} | {'slow' if row.slow else 'default'} |"
        )
    return "\n".join(lines)


def cases() -> list[Any]:
    out = []
    for row in STATES:
        for game in row.games:
            for role in row.roles:
                marks = [pytest.mark.slow] if row.slow else []
                where = "phone-de-fr-" if not row.languages and row.slow else ""
                name = f"{row.state}-{game}-{role}"
                out.append(pytest.param(row, game, role, id=where + name, marks=marks))
    return out


# ---------------------------------------------------------------- tables made over REST


@dataclass
class Table:
    room: str
    tokens: dict[str, str] = field(default_factory=dict)  # role -> seat token


class Tables:
    """Each state's table, made the first time a row asks for it."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.made: dict[tuple[str, str], Table] = {}

    def get(self, state: str, game: str) -> Table:
        key = (SETUP_OF.get(state, state), game)
        if key not in self.made:
            self.made[key] = SETUPS[key[0]](self, game)
        return self.made[key]

    # the steps
    def post(self, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = auth(token) if token else {}
        return self.http.post(path, json=body, headers=headers).raise_for_status().json()

    def create(self, game: str, players: int, **extra: Any) -> tuple[str, str]:
        body = {"game": game, "players": players, "name": "Anna"} | extra
        if game == "blokus" and players == 2:
            body["options"] = {"variant": "duo"}
        made = self.post("/api/rooms", body=body)
        return made["room"], made["token"]

    def claim(self, room: str, seat: int, name: str) -> str:
        token: str = self.post(f"/api/rooms/{room}/seats/{seat}", body={"name": name})["token"]
        return token

    def state(self, room: str, token: str) -> dict[str, Any]:
        got: dict[str, Any] = (
            self.http.get(f"/api/rooms/{room}/state", headers=auth(token)).raise_for_status().json()
        )
        return got

    def to_move(self, room: str, token: str) -> dict[str, Any]:
        """The seat's state once it is to move (bots move on their own)."""
        end = time.monotonic() + 60
        while True:
            state = self.state(room, token)
            if state["legal_moves"]:
                return state
            if time.monotonic() > end:
                raise AssertionError(f"the seat was never to move: {state['room']}")
            time.sleep(0.05)

    def move(self, room: str, token: str) -> None:
        state = self.to_move(room, token)
        body = {"seq": state["seq"], "move": state["legal_moves"][0]}
        self.post(f"/api/rooms/{room}/moves", token, body)

    def pair(self, game: str, *, start: bool = True, **extra: Any) -> Table:
        """Anna (the host) and Ben at a table for two."""
        room, anna = self.create(game, 2, **extra)
        ben = self.claim(room, 1, "Ben")
        if start:
            self.post(f"/api/rooms/{room}/start", anna)
        return Table(room, {"host": anna, "player": ben})


def _waiting(t: Tables, game: str) -> Table:
    """Four seats: Anna, Ben, a bot and one free; a day per move, so that the host's
    settings show every control (what happens when the time is up shows only then)."""
    room, anna = t.create(game, 4, bots={"2": "random"}, turn_seconds=86400)
    ben = t.claim(room, 1, "Ben")
    return Table(room, {"host": anna, "player": ben})


def _running(t: Tables, game: str) -> Table:
    """Anna, Ben, a bot and Cleo, who left: a bot plays for her. Anna is to move."""
    room, anna = t.create(game, 4, bots={"2": "random"})
    ben = t.claim(room, 1, "Ben")
    cleo = t.claim(room, 3, "Cleo")
    t.post(f"/api/rooms/{room}/start", anna)
    t.post(f"/api/rooms/{room}/leave", cleo)
    t.to_move(room, anna)
    return Table(room, {"host": anna, "player": ben, "left": cleo})


def _stood_in(t: Tables, game: str) -> Table:
    table = t.get("running", game)
    return Table(table.room, {"player": table.tokens["left"]})


def _two(t: Tables, game: str) -> Table:
    table = t.pair(game)
    t.to_move(table.room, table.tokens["host"])
    return table


def _abort_vote(t: Tables, game: str) -> Table:
    table = _two(t, game)
    t.post(f"/api/rooms/{table.room}/abort", table.tokens["host"])
    return table


def _confirm(t: Tables, game: str) -> Table:
    """A table that asks to confirm moves that can't be taken back (a day per move)."""
    table = t.pair(game, start=False, turn_seconds=86400)
    t.post(f"/api/rooms/{table.room}/settings", table.tokens["host"], {"confirm_moves": True})
    t.post(f"/api/rooms/{table.room}/start", table.tokens["host"])
    t.to_move(table.room, table.tokens["host"])
    return table


def _took_back_alone(t: Tables, game: str) -> Table:
    """Anna placed; nobody moved since: she alone may take it back."""
    table = _two(t, game)
    t.move(table.room, table.tokens["host"])
    return table


def _asked(t: Tables, game: str) -> Table:
    """Anna and Ben placed; Anna asks to take hers back."""
    table = _two(t, game)
    anna, ben = table.tokens["host"], table.tokens["player"]
    t.move(table.room, anna)
    t.move(table.room, ben)
    seq = t.to_move(table.room, anna)["seq"]
    t.post(f"/api/rooms/{table.room}/undo", anna, {"ask": True, "seq": seq})
    return table


def _timed(t: Tables, game: str) -> Table:
    table = t.pair(game, turn_seconds=86400)
    t.to_move(table.room, table.tokens["host"])
    return table


def _away(t: Tables, game: str) -> Table:
    table = _timed(t, game)
    until = (datetime.now(UTC) + timedelta(days=2)).replace(microsecond=0).isoformat()
    t.post(f"/api/rooms/{table.room}/away", table.tokens["player"], {"until": until})
    return table


def _finished(t: Tables, game: str) -> Table:
    """Ben resigned; Anna plays on alone where the game goes on without him (BLOKUS)."""
    table = _two(t, game)
    anna = table.tokens["host"]
    t.post(f"/api/rooms/{table.room}/resign", table.tokens["player"])
    for _ in range(200):
        state = t.state(table.room, anna)
        if state["room"]["status"] == "finished":
            return table
        t.move(table.room, anna)
    raise AssertionError("the game did not end")


def _aborted(t: Tables, game: str) -> Table:
    table = _abort_vote(t, game)
    t.post(f"/api/rooms/{table.room}/abort", table.tokens["player"])
    return table


def _import_from(t: Tables, game: str) -> Table:
    """A waiting table whose host imports the record of a finished game."""
    return t.pair(game, start=False)


SETUPS: dict[str, Callable[[Tables, str], Table]] = {
    "waiting": _waiting,
    "running": _running,
    "stood in": _stood_in,
    "two": _two,
    "abort vote": _abort_vote,
    "confirm move": _confirm,
    "take back alone": _took_back_alone,
    "take-back asked": _asked,
    "timed": _timed,
    "away until": _away,
    "finished": _finished,
    "aborted": _aborted,
    "import from": _import_from,
}
SETUP_OF = {
    "claim form": "waiting",
    "stand up dialog": "waiting",
    "bot for the next game dialog": "finished",
    "running, a bot plays for me": "stood in",
    "hand over dialog": "running",
    "free a seat dialog": "running",
    "make host dialog": "running",
    "leave dialog": "two",
    "resign dialog": "two",
    "abort dialog": "two",
    "help dialog": "running",
    "notify me dialog": "running",
    "install advice": "running",
    "timed, away form": "timed",
    "rematch bar": "finished",
    "aborted, rematch bar": "aborted",
    "replay, running": "running",
    "replay, finished": "finished",
    "verify": "finished",
    "imported": "import from",
    "start page with tables": "away until",
    "gone": "two",
}


# ---------------------------------------------------------------- how each state is opened


@dataclass(frozen=True)
class Visit:
    """Where the role's page goes, what it waits for, and what it clicks to get there."""

    path: Callable[[Table], str]
    ready: Callable[[str, str], str]  # (game, role) -> what shows once the state is drawn
    open: Callable[[Page], None] | None = None  # clicks, again in each language
    prepare: Callable[[Page, Table, Tables], None] | None = None  # once, before the languages


def room_path(table: Table) -> str:
    return f"/r/{table.room}"


def board(game: str, role: str) -> str:
    return BOARD[game]


def lobby(game: str, role: str) -> str:
    """The waiting table; the host's, once their settings are drawn with every control
    (they come with the game's list; what happens when the time is up shows only at a
    table with a time per move)."""
    return "#settings-on-timeout" if role == "host" else "#lobby"


def at(selector: str) -> Callable[[str, str], str]:
    return lambda game, role: selector


def dialog(selector: str) -> Callable[[Page], None]:
    def open_it(page: Page) -> None:
        page.locator(selector).first.click()
        expect(page.locator("dialog[open]")).to_be_visible()

    return open_it


def _take_seat(page: Page) -> None:
    page.locator(".seat[data-seat='3'] button").first.click()
    expect(page.locator("#claim-name")).to_be_visible()


def _confirm_move(page: Page) -> None:
    if page.locator(".mm").count():
        page.locator('.mm-hand-card[data-fits="yes"]').first.click()
        page.locator(".mm-cell.target").first.click()
    else:
        page.locator(".md-dice .md-die:not([disabled])").last.click()
        page.locator(".md-target").first.click()
        page.locator(".md-play").click()
    expect(page.locator("#confirm-bar")).to_be_visible()


def _away_form(page: Page) -> None:
    page.locator("#room-away summary").click()
    expect(page.locator("#away-here")).to_be_visible()


def _close_result(page: Page) -> None:
    page.locator("#result button.btn-ghost").last.click()
    expect(page.locator("#rematch-bar")).to_be_visible()


def _verify(page: Page) -> None:
    page.locator("#verify").click()
    expect(page.locator("#verify-result")).to_be_visible()


def _install_advice(page: Page) -> None:
    page.locator("#notify-btn").click()
    expect(page.locator("#alerts-dialog #alerts-push-missing")).to_be_visible()


def _import(page: Page, table: Table, tables: Tables) -> None:
    done = tables.get("finished", "m")
    record = tables.http.get(f"/api/rooms/{done.room}/games/1/record").raise_for_status().json()
    upload = page.locator(".history-import input[type=file]")
    upload.set_input_files(
        files=[
            {
                "name": "record.json",
                "mimeType": "application/json",
                "buffer": json.dumps(record).encode(),
            }
        ]
    )
    page.wait_for_url(lambda url: table.room not in url)
    expect(page.locator("#conn")).to_have_attribute("data-status", "open")


def _go_home(page: Page, table: Table, tables: Tables) -> None:
    """The role's browser opened its table first: it keeps the seat, and lists it."""
    page.goto("/")


def _replay(page: Page, table: Table, tables: Tables) -> None:
    """The replay of game 1, from the table's page (where a seat's link is kept)."""
    page.goto(f"/r/{table.room}/games/1")


VISITS: dict[str, Visit] = {
    "waiting": Visit(room_path, lobby),
    "claim form": Visit(room_path, lobby, open=_take_seat),
    "stand up dialog": Visit(room_path, lobby, open=dialog(".seat.you .stand-up")),
    "running": Visit(room_path, board),
    "running, a bot plays for me": Visit(room_path, at(".take-back")),
    "hand over dialog": Visit(room_path, board, open=dialog(".seat[data-seat='1'] .hand-over")),
    "free a seat dialog": Visit(room_path, board, open=dialog(".seat[data-seat='3'] .free-seat")),
    "make host dialog": Visit(room_path, board, open=dialog(".seat[data-seat='1'] .make-host")),
    "leave dialog": Visit(room_path, board, open=dialog(".seat.you .leave")),
    "resign dialog": Visit(room_path, board, open=dialog(".seat.you .resign")),
    "abort dialog": Visit(room_path, board, open=dialog(".seat.you .abort")),
    "help dialog": Visit(room_path, board, open=dialog("#help-btn")),
    "notify me dialog": Visit(room_path, board, open=dialog("#notify-btn")),
    "install advice": Visit(room_path, board, open=_install_advice),
    "confirm move": Visit(room_path, board, open=_confirm_move),
    "abort vote": Visit(room_path, at(".seat.you .abort")),
    "take back alone": Visit(room_path, at("#undo-bar button")),
    "take-back asked": Visit(room_path, board),
    "timed, away form": Visit(room_path, board, open=_away_form),
    "away until": Visit(room_path, at(".seat-away-until")),
    "finished": Visit(room_path, at("#result h2")),
    "rematch bar": Visit(room_path, at("#result h2"), open=_close_result),
    "aborted, rematch bar": Visit(room_path, at("#rematch-bar")),
    "bot for the next game dialog": Visit(
        room_path, at("#result h2"), open=dialog(".seat.you .leave")
    ),
    "replay, running": Visit(room_path, board, prepare=_replay),
    "replay, finished": Visit(room_path, board, prepare=_replay),
    "verify": Visit(room_path, board, open=_verify, prepare=_replay),
    "imported": Visit(room_path, at(".history-import"), prepare=_import),
    "start page with tables": Visit(room_path, at("#my-games-list li"), prepare=_go_home),
    "gone": Visit(lambda t: "/r/no-such-table", at("#gone")),
}


# ---------------------------------------------------------------- the test


@pytest.fixture(scope="module")
def tables(server: ServerProcess) -> Iterator[Tables]:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        yield Tables(http)


def test_every_state_has_a_row_and_a_way_there() -> None:
    states = {row.state for row in STATES}
    assert states == set(VISITS), states ^ set(VISITS)
    for row in STATES:
        assert set(row.games) <= set(GAMES) and set(row.roles) <= {"host", "player", "spectator"}
        assert SETUP_OF.get(row.state, row.state) in SETUPS, row.state


def test_docs_show_the_same_table() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "client.md").read_text(encoding="utf-8")
    assert markdown() in docs, "docs/client.md must show STATES as markdown() prints it"


@pytest.mark.parametrize(("row", "game", "role"), cases())
def test_axe_finds_nothing(
    browser: Browser, server: ServerProcess, tables: Tables, row: Row, game: str, role: str
) -> None:
    table = tables.get(row.state, game)
    visit = VISITS[row.state]
    token = None if role == "spectator" else table.tokens[role]
    phone_only = not row.languages
    options: dict[str, Any] = {}
    if row.state == "install advice":
        options = {"user_agent": IPHONE, "is_mobile": True, "has_touch": True}
    width, height = WIDTHS["phone" if phone_only else "desktop"]
    context = browser.new_context(
        base_url=server.url,
        viewport={"width": width, "height": height},
        bypass_csp=True,
        **options,
    )
    if row.state == "install advice":
        # Safari outside a Home Screen app has no PushManager at all
        context.add_init_script("delete window.PushManager;")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    path = visit.path(table) + (f"#token={token}" if token else "")
    found: list[str] = []
    try:
        page.goto(path)
        if visit.prepare is not None:
            settle(page)
            # the state has come (and with it, a seat's link is kept in this browser)
            expect(page.locator("#seats .seat").first).to_be_visible()
            visit.prepare(page, table, tables)
        runs: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
        for lang in row.languages:
            runs[lang].append("desktop")
        for lang in row.phone:
            runs[lang].append("phone")
        first = True
        for lang, widths in runs.items():
            if not widths:
                continue
            if not first and visit.open is not None:
                page.reload()
            first = False
            settle(page)
            page.locator("#lang").select_option(lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator(visit.ready(game, role)).first).to_be_visible()
            if visit.open is not None:
                visit.open(page)
            for name in widths:
                w, h = WIDTHS[name]
                page.set_viewport_size({"width": w, "height": h})
                faults = violations(page)
                if faults:
                    found.append(f"--- {name} {lang}\n{report(faults)}")
    finally:
        context.close()
    assert not errors, errors
    assert not found, f"axe on {row.state} ({game}, {role}):\n" + "\n".join(found)


def settle(page: Page) -> None:
    """A room's page is connected before anything is looked at."""
    if page.locator("#conn").count() and "no-such" not in page.url:
        expect(page.locator("#conn")).to_have_attribute("data-status", "open")
