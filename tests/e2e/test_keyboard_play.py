"""Playing with the keyboard alone and listening to the room's one live region.

A whole Blokus Duo game against a bot, and turns of M and MÄDN in real rooms:
each move made with Tab, Enter, arrows and letter keys only, with checks on where
the focus lands after each move and at the end, and on what the announcement
region (``#announce``) says. The scoring phase of M, what each place of an M card
would pay, and a steal in MÄDN are played on a renderer mounted in a page with a
state the real engine made (M) or a state built for the purpose (MÄDN), so they
happen every run.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engines import get_engine
from tests.e2e.helpers import create_room
from tests.e2e.test_maedn_room import MOUNT as MAEDN_MOUNT
from tests.e2e.test_maedn_room import fake_state

pytestmark = pytest.mark.e2e

ANNOUNCE = "#announce"


def tab_to(page: Page, selector: str, limit: int = 200) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def log_count(page: Page) -> int:
    return page.locator("#log li").count()


def wait_log_past(page: Page, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=count)


def listen(page: Page) -> None:
    """Keep every text the announcement region is given (the bot may answer at once)."""
    page.evaluate(
        """() => {
            window.heard = [];
            const region = document.getElementById("announce");
            new MutationObserver(() => window.heard.push(region.textContent))
                .observe(region, {childList: true, characterData: true, subtree: true});
        }"""
    )


def heard_since(page: Page, start: int) -> list[str]:
    heard: list[str] = page.evaluate("window.heard")
    return heard[start:]


def heard_count(page: Page) -> int:
    return int(page.evaluate("window.heard.length"))


def start_by_keyboard(page: Page) -> None:
    tab_to(page, "#start")
    page.keyboard.press("Enter")


def wait_turn_or_end(page: Page, mine: str, timeout: int = 30_000) -> bool:
    """Wait until the JS condition ``mine`` holds (your turn) or the result shows;
    returns whether the game is still on."""
    page.wait_for_function(
        f"() => ({mine}) || !document.getElementById('result').hidden", timeout=timeout
    )
    return not page.locator("#result").is_visible()


def play_and_listen(page: Page, turn: Callable[[], object], status: str, said: str) -> None:
    """Make one move with ``turn`` and check what follows: the log grows, the status
    line ``status`` has the keyboard, the region says a line starting with ``said``,
    and never the same text twice in a row."""
    before = log_count(page)
    start = heard_count(page)
    turn()
    wait_log_past(page, before)
    # the control that made the move is gone: the status line has the keyboard
    expect(page.locator(status)).to_be_focused()
    page.wait_for_function(
        "([n, said]) => window.heard.slice(n).some((text) => text.startsWith(said))",
        arg=[start, said],
    )
    texts = heard_since(page, start)
    # each message is new: the region is never rewritten with what it says already
    assert all(a != b for a, b in itertools.pairwise(texts)), texts


M_MINE = "document.querySelector('.mm')?.dataset.mine === '1'"
MAEDN_MINE = "document.querySelector('.md-status.your-turn')"
BLOKUS_MINE = "document.querySelector('.bk-status.your-turn')"


def test_a_whole_blokus_duo_game_by_keyboard_with_words_and_focus(person) -> None:
    page = person()
    # the page asks for the compact legal moves and plays from them
    hellos: list[str] = []
    compact: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda text: hellos.append(text) if '"hello"' in text else None)
        ws.on(
            "framereceived", lambda text: compact.append(text) if "legal_compact" in text else None
        )

    page.on("websocket", watch)
    create_room(page, "Anna", players=2, variant="duo", bots={1: "medium"}, game="blokus")
    start_by_keyboard(page)
    announce = page.locator(ANNOUNCE)
    board = page.locator(".bk-board")
    moves = 0
    listen(page)
    for _ in range(40):
        if not wait_turn_or_end(page, BLOKUS_MINE, timeout=60_000):
            break
        expect(announce).to_contain_text("Your turn")
        piece = page.locator(".bk-tray .bk-piece:not([disabled])").last.get_attribute("data-piece")
        tab_to(page, f'.bk-tray .bk-piece[data-piece="{piece}"]')
        page.keyboard.press("Enter")
        # the board takes the keyboard; the piece, how it lies and where it would go, in words
        expect(board).to_be_focused()
        expect(announce).to_contain_text(f"{piece}, ")
        expect(announce).to_contain_text(re.compile(r"Covers row \d+, columns? \d+"))
        expect(announce).to_contain_text("Fits here.")
        if moves == 0:
            page.keyboard.press("c")
            expect(announce).to_contain_text("Orange has no piece yet and starts at row")
            page.keyboard.press("b")
            expect(announce).to_contain_text(re.compile(r"^Around row \d+, column \d+: row \d+:"))
            page.keyboard.press("o")
            expect(announce).to_contain_text(re.compile(r"Purple \(Anna\): 21 pieces left"))
            page.keyboard.press("p")
            expect(announce).to_contain_text("Fits here.")
        if moves == 1:
            page.keyboard.press("c")
            expect(announce).to_contain_text(re.compile(r"Purple, \d+ free corners?: row \d+"))
        before = log_count(page)
        page.keyboard.press("Enter")
        wait_log_past(page, before)
        moves += 1
        # after the move the keyboard is still on the board (or, if it ended the game,
        # on the result heading, checked below)
        page.wait_for_function(
            "() => document.activeElement?.matches('.bk-board')"
            " || !document.getElementById('result').hidden"
        )
    else:
        raise AssertionError("the game did not end")
    assert moves >= 5, moves
    assert hellos and all('"legal_form":"compact"' in hello for hello in hellos), hellos
    assert len(compact) >= moves, "the turns' legal moves did not come in the compact form"
    # the end: the result heading has the keyboard, the region says who won
    expect(page.locator("#result-title")).to_be_focused()
    expect(announce).to_contain_text("Game over")
    texts = page.evaluate("window.heard")
    assert all(a != b for a, b in itertools.pairwise(texts)), texts
    expect(announce).to_contain_text(page.locator("#result-title").inner_text())


def m_turn_by_keyboard(page: Page) -> None:
    """Place a card that fits (or pass) with the keyboard alone."""
    fitting = page.locator('.mm-hand-card[data-fits="yes"]')
    if fitting.count() == 0:
        tab_to(page, ".mm-pass-btn")
        page.keyboard.press("Enter")
        return
    card = fitting.first.get_attribute("data-card")
    tab_to(page, f'.mm-hand-card[data-card="{card}"]')
    page.keyboard.press("Enter")
    expect(page.locator(".mm-cell.target:focus")).to_have_count(1)
    page.keyboard.press("t")
    # each place, what it would pay (the server's view says it) and what it touches
    expect(page.locator(ANNOUNCE)).to_contain_text(
        re.compile(
            r"fits in \d+ places?: row \d+, column \d+, "
            r"(you get \d+ tokens? from [^,]+|no tokens)(, \d+ unpaid)?, touching \d+ cards?: "
        )
    )
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")


def test_turns_of_m_by_keyboard_focus_on_the_status_and_one_announcement(person) -> None:
    page = person()
    create_room(page, "Anna", players=2, bots={1: "medium"}, game="m")
    start_by_keyboard(page)
    announce = page.locator(ANNOUNCE)
    status = page.locator(".mm-status")
    expect(status).to_have_text("Your turn: place a card or pass.")
    expect(announce).to_have_text("Game 1 started. Your turn: place a card or pass.")
    page.keyboard.press("o")
    expect(announce).to_contain_text(re.compile(r"^Pile: \d+ cards\. You: 6 tokens, 4 cards"))
    page.keyboard.press("t")
    expect(announce).to_contain_text(re.compile(r"^The table: 5 cards, .* Row \d+: "))
    listen(page)
    for _ in range(3):
        if not wait_turn_or_end(page, M_MINE):
            break
        if page.locator(".mm").get_attribute("data-phase") != "play":
            break  # a scoring phase: played in the next test, on a state made for it
        fits = page.locator('.mm-hand-card[data-fits="yes"]').count() > 0
        said = "Anna placed the " if fits else "Anna passed"
        play_and_listen(page, lambda: m_turn_by_keyboard(page), ".mm-status", said)
        # the bot's move and the turn come back as one message, the status line's words last
        wait_turn_or_end(page, M_MINE)
        expect(announce).to_contain_text(re.compile(r"(Your turn|your turn|game is over)"))


M_MOUNT = """async (state) => {
  const { mount } = await import("/static/js/games/m.js");
  const { t } = await import("/static/js/i18n.js");
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/css/games/m.css";
  document.head.append(link);
  await new Promise((done) => link.addEventListener("load", done));
  const root = document.createElement("div");
  document.body.replaceChildren(root);
  window.sent = [];
  window.said = [];
  window.renderer = mount(root, {
    t,
    onMove: async (move) => { window.sent.push(move); },
    say: (text) => window.said.push(text),
  });
  window.renderer.update(state);
}"""


NAMES = ["Anna", "Ben", "Cleo", "Dora"]


def m_state_message(state: Any, seat: int = 0) -> dict[str, Any]:
    """The state message the server would send ``seat`` of this M game."""
    engine = get_engine("m")
    players = engine.view(state, None)["players"]
    to_act = engine.to_act(state)
    seats = [
        {"seat": i, "name": NAMES[i], "kind": "human", "bot": None, "online": True}
        for i in range(players)
    ]
    return {
        "seq": 50,
        "you": seat,
        "to_act": to_act,
        "legal_moves": engine.legal_moves(state, seat) if seat in to_act else [],
        "view": engine.view(state, seat),
        "room": {"game": "m", "status": "playing", "players": players, "seats": seats},
        "events": [],
    }


def m_state_in_a_scoring_phase() -> dict[str, Any]:
    """Play random legal moves with the real engine until seat 0 takes a card."""
    engine = get_engine("m")
    for seed in range(1, 200):
        rng = random.Random(seed)
        state = engine.new_game(2, seed)
        for _ in range(400):
            acting = engine.to_act(state)
            if not acting:
                break
            seat = acting[0]
            legal = engine.legal_moves(state, seat)
            if seat == 0 and legal and legal[0]["type"] == "take":
                return m_state_message(state, 0)
            places = [m for m in legal if m["type"] == "place"]
            state = engine.play(state, seat, rng.choice(places or legal))
    raise AssertionError("no scoring phase for seat 0 in 200 games")


def test_a_scoring_phase_of_m_by_keyboard(person) -> None:
    page = person("/")
    state = m_state_in_a_scoring_phase()
    page.evaluate(M_MOUNT, state)
    expect(page.locator(".mm-status")).to_contain_text("your turn to take a card")
    page.keyboard.press("t")
    said = page.evaluate("window.said")[-1]
    assert said.startswith("The table: ") and "Being scored, the " in said, said
    tab_to(page, ".mm-cell.can-take")
    take = page.evaluate("document.activeElement.dataset.take")
    expect(page.locator(".mm-cell.can-take:focus")).to_have_accessible_name(
        re.compile(r"^Take the ")
    )
    page.keyboard.press("Enter")
    assert page.evaluate("window.sent") == [{"type": "take", "card": take}]
    # the taken card's button went away with the redraw: focus is on the status line
    expect(page.locator(".mm-status")).to_be_focused()


def said_pay(pay: dict[str, Any]) -> str:
    """What the region should say of one entry of the view's ``pays`` (English)."""
    if pay["earned"]:
        payers = pay["paid_by"]
        source = (
            NAMES[payers[0]["seat"]]
            if len(payers) == 1
            else ", ".join(f"{NAMES[p['seat']]} ({p['tokens']})" for p in payers)
        )
        plural = "s" if pay["earned"] != 1 else ""
        words = f"you get {pay['earned']} token{plural} from {source}"
    else:
        words = "no tokens"
    return f"{words}, {pay['lost']} unpaid" if pay["lost"] else words


def m_card_with_spread_payments() -> tuple[dict[str, Any], str, list[tuple[int, int]]]:
    """A first turn of three where a card of Anna's fits places paying nothing and
    more than Cleo, on Anna's right, can pay: Cleo has one token, Ben none.
    Returns the state message for Anna, the card and its places."""
    engine = get_engine("m")
    for seed in range(1, 200):
        state = replace(engine.new_game(3, seed), tokens=(6, 0, 1))
        message = m_state_message(state, 0)
        pays = {tuple(p["at"]): p for p in message["view"]["pays"]}
        fits: dict[str, list[tuple[int, int]]] = {}
        for move in message["legal_moves"]:
            if move["type"] == "place":
                fits.setdefault(move["card"], []).append((move["at"][0], move["at"][1]))
        for card, cells in fits.items():
            owed = {pays[cell]["owed"] for cell in cells}
            if 0 in owed and max(owed) > 1:
                return message, card, cells
    raise AssertionError("no such card in 200 deals")


def test_hearing_the_m_table_says_what_each_place_of_the_chosen_card_would_pay(person) -> None:
    message, card, cells = m_card_with_spread_payments()
    pays = {tuple(p["at"]): p for p in message["view"]["pays"]}
    page = person("/")
    page.evaluate(M_MOUNT, message)
    tab_to(page, f'.mm-hand-card[data-card="{card}"]')
    page.keyboard.press("Enter")
    target = page.locator(".mm-cell.target:focus")
    expect(target).to_have_count(1)
    # the place the keyboard lands on says what it would pay, too
    at = (int(target.get_attribute("data-r") or ""), int(target.get_attribute("data-c") or ""))
    expect(target).to_have_accessible_name(
        re.compile(rf"^Place the .+ here: row \d+, column \d+, {re.escape(said_pay(pays[at]))}$")
    )
    page.keyboard.press("t")
    said = page.evaluate("window.said")[-1]
    # the places in the order of the legal moves, each with its payment and the cards
    # it touches (k cards owe k-1 tokens: the count ties each payment to its place)
    found = re.search(rf"fits in {len(cells)} places: (.*)\.$", said)
    assert found, said
    places = found.group(1).split("; ")
    assert len(places) == len(cells), said
    for place, cell in zip(places, cells, strict=True):
        pay = pays[cell]
        touching = f"touching {pay['owed'] + 1} card{'s' if pay['owed'] else ''}: "
        assert re.match(rf"row \d+, column \d+, {re.escape(said_pay(pay))}, {touching}", place), (
            place,
            pay,
        )
    assert "no tokens" in said and "from Cleo, 1 unpaid" in said, said


def maedn_turn_by_keyboard(page: Page) -> None:
    """A die, its first target, Play: Tab and Enter only."""
    tab_to(page, ".md-dice .md-die:not([disabled])")
    page.keyboard.press("Enter")
    tab_to(page, ".md-target")
    page.keyboard.press("Enter")
    tab_to(page, ".md-play:not([disabled])")
    page.keyboard.press("Enter")


def test_turns_of_maedn_by_keyboard_focus_and_announcement(person) -> None:
    page = person()
    create_room(page, "Anna", players=2, bots={1: "medium"}, game="maedn")
    start_by_keyboard(page)
    announce = page.locator(ANNOUNCE)
    status = page.locator(".md-status")
    expect(announce).to_have_text(f"Game 1 started. {status.inner_text()}")
    page.keyboard.press("t")
    expect(announce).to_contain_text(
        re.compile(
            r"^In the middle, 40 figures: 1, 2, 3, 4, 5 with 1 star, .* You, 0 open rows: none\."
        )
    )
    page.keyboard.press("o")
    expect(announce).to_contain_text(re.compile(r"^You: 0 of 40 points, 2 dice in hand"))
    listen(page)
    for _ in range(3):
        if not wait_turn_or_end(page, MAEDN_MINE):
            break
        play_and_listen(page, lambda: maedn_turn_by_keyboard(page), ".md-status", "Anna ")
        wait_turn_or_end(page, MAEDN_MINE)
        expect(announce).to_contain_text(re.compile(r"Your turn|wins"))


def test_a_steal_in_maedn_by_keyboard_lands_on_the_status_line(person) -> None:
    page = person("/")
    legal = [
        {"type": "start", "dice": [4]},
        {"type": "extend", "row": 0, "die": 4, "from": 1},
        {"type": "extend", "row": 0, "die": 4, "from": 2},
    ]
    page.evaluate(MAEDN_MOUNT, fake_state(legal, [[[1, 3]], [[7, 12]], [[2, 7]]], [4, 5]))
    tab_to(page, ".md-dice .md-die:not([disabled])")
    page.keyboard.press("Enter")
    tab_to(page, '.md-target[data-target="row:0:from:1"]')
    page.keyboard.press("Enter")
    expect(page.locator(".md-preview")).to_have_text("You steal 7 from Ben (their row 1).")
    tab_to(page, ".md-play:not([disabled])")
    page.keyboard.press("Enter")
    assert page.evaluate("window.sent") == [{"type": "extend", "row": 0, "die": 4, "from": 1}]
    expect(page.locator(".md-status")).to_be_focused()
