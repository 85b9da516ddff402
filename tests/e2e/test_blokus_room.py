"""Two friends and a spectator play Blokus through the browser, across a server restart."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import create_room, log_lines, place_by_clicking, wait_my_turn
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e


def filled(page: Page) -> int:
    return page.locator(".bk-board .cell.filled").count()


def test_friends_play_live_and_a_spectator_watches_through_a_restart(
    person, server: ServerProcess
) -> None:
    anna = person()
    url = create_room(anna, "Anna", players=2)
    share = anna.locator("#share-link")
    expect(share).to_have_value(url)
    expect(anna.locator("#lobby")).to_contain_text("1 of 2 seats taken")

    # Ben opens the shared link and sits down
    ben = person(url)
    ben.get_by_role("button", name="Take seat 2").click()
    ben.get_by_label("Your name for seat 2").fill("Ben")
    ben.get_by_role("button", name="Sit down").click()
    expect(ben.locator(".seat.you")).to_contain_text("Ben")
    expect(anna.locator(".seat[data-seat='1']")).to_contain_text("Ben")
    expect(anna.locator(".seat[data-seat='1'] .online-dot")).to_have_class(re.compile(r"\bon\b"))

    anna.get_by_role("button", name="Start the game").click()
    wait_my_turn(anna)
    expect(anna).to_have_title(re.compile(r"^● Your turn"))
    expect(anna.locator("link[rel=icon]")).to_have_attribute("href", re.compile("favicon-turn"))
    expect(ben.locator(".bk-status")).to_contain_text("Anna is placing Blue")

    # Anna places blue with the mouse; Ben sees it without reloading
    piece = place_by_clicking(anna, "V5")
    assert piece == "V5"
    expect(ben.locator("#log")).to_contain_text("Anna placed V5 (Blue).")
    expect(ben.locator(".bk-board .cell.filled.bk-blue")).to_have_count(5)
    expect(ben.locator(".bk-board .cell.last")).to_have_count(5)
    expect(anna).not_to_have_title(re.compile("Your turn"))

    # Ben places yellow with the keyboard only
    wait_my_turn(ben)
    expect(ben).to_have_title(re.compile(r"^● Your turn"))
    ben.locator('.bk-tray .bk-piece[data-piece="I2"]').focus()
    ben.keyboard.press("Enter")
    expect(ben.locator(".bk-ghost.legal rect")).to_have_count(2)
    ben.keyboard.press("ArrowLeft")  # off the corner: no longer fits
    expect(ben.locator(".bk-ghost.illegal")).to_have_count(1)
    ben.keyboard.press("d")
    expect(ben.locator(".bk-ghost.legal")).to_have_count(1)
    ben.keyboard.press("r")
    ben.keyboard.press("r")
    ben.keyboard.press("Enter")
    expect(anna.locator("#log")).to_contain_text("Ben placed I2 (Yellow).")
    expect(anna.locator(".bk-board .cell.filled.bk-yellow")).to_have_count(2)
    # the newest move (yellow's I2) is marked strongly, blue's V5 of the same round faintly
    expect(anna.locator(".bk-board .cell.last.newest.bk-yellow")).to_have_count(2)
    expect(anna.locator(".bk-board .cell.last.recent.bk-blue")).to_have_count(5)
    expect(anna.locator(".bk-board .cell.newest.bk-blue")).to_have_count(0)

    # a third person only watches: same board, no tray, no seat to take
    carla = person(url)
    expect(carla.locator(".bk-board .cell.filled")).to_have_count(7)
    expect(carla.locator(".bk-tray-box")).to_be_hidden()
    expect(carla.get_by_role("button", name=re.compile("Take seat"))).to_have_count(0)
    expect(carla.locator("#chat-input")).to_be_disabled()
    assert "Anna placed V5 (Blue)." in log_lines(carla)

    # the server dies mid-game; every page reconnects by itself and catches up
    server.restart(kill=True)
    for page in (anna, ben, carla):
        expect(page.locator("#conn")).to_have_attribute("data-status", "open", timeout=20_000)
    place_by_clicking(anna)
    for page in (ben, carla):
        expect(page.locator(".bk-board .cell.filled.bk-red")).not_to_have_count(0)
        expect(page.locator(".bk-board .cell.filled")).not_to_have_count(7)

    # a graceful restart (close code 1012) too, with a move made while one page is away
    server.restart(kill=False)
    expect(ben.locator("#conn")).to_have_attribute("data-status", "open", timeout=20_000)
    count = filled(carla)
    place_by_clicking(ben)
    expect(carla.locator(".bk-board .cell.filled")).not_to_have_count(count, timeout=20_000)
    expect(anna.locator(".bk-board .cell.filled")).to_have_count(filled(ben))

    # chat is plain text, never markup
    anna.get_by_label("Message").fill("<b>good luck</b> & have fun")
    anna.get_by_role("button", name="Send").click()
    line = ben.locator(".chat-line").last
    expect(line).to_contain_text("<b>good luck</b> & have fun")
    expect(ben.locator(".chat-line b")).to_have_count(0)
    expect(carla.locator(".chat-line")).to_have_count(1)


def server_url(page) -> str:
    return page.url.split("/r/")[0]


def test_a_duo_game_against_a_bot_ends_with_results_and_a_rematch(person) -> None:
    page = person()
    create_room(page, "Dora", players=2, variant="duo", bots={1: "medium"})
    expect(page.locator(".seat[data-seat='1']")).to_contain_text("Medium bot")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".bk-board .cell")).to_have_count(14 * 14)

    result = page.locator("#result")
    for _ in range(25):
        page.wait_for_function(
            "() => document.querySelector('.bk-status.your-turn')"
            " || !document.getElementById('result').hidden",
            timeout=15_000,
        )
        if result.is_visible():
            break
        place_by_clicking(page)
    expect(result).to_be_visible(timeout=30_000)
    expect(result.locator("h2")).to_have_text(re.compile(r"(You win!|Medium bot wins!|share)"))
    expect(result.locator("tbody tr")).to_have_count(2)
    expect(result).to_contain_text("Purple")
    assert "Game over" in page.locator("#log").inner_text()

    # someone who may not start the next game is told who may, even after closing the result
    watcher = person(page.url.replace(server_url(page), ""))
    expect(watcher.locator("#result")).to_contain_text("Dora can start another game.")
    watcher.locator("#result").get_by_role("button", name="Show the board").click()
    bar = watcher.locator("#rematch-bar")
    expect(bar).to_contain_text("Dora can start another game.")
    expect(bar.get_by_role("button", name="Play again")).to_have_count(0)
    bar.get_by_role("button", name="Show the result").click()
    expect(watcher.locator("#result")).to_be_visible()

    # the host closes the result to look at the board: the rematch stays one click away
    result.get_by_role("button", name="Show the board").click()
    expect(result).to_be_hidden()
    page.locator("#rematch-bar").get_by_role("button", name="Play again").click()
    expect(page.locator("#rematch-bar")).to_be_hidden()
    expect(result).to_be_hidden()
    expect(page.locator("#log")).to_contain_text("Game 2 started.")
    expect(watcher.locator("#log")).to_contain_text("Game 2 started.")
    expect(page.locator(".bk-board .cell.filled")).to_have_count(0, timeout=5_000)


def test_on_a_phone_a_tap_shows_the_piece_and_a_second_tap_places_it(browser, server) -> None:
    context = browser.new_context(
        base_url=server.url,
        viewport={"width": 390, "height": 844},
        locale="en-US",
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        create_room(page, "Pia", players=2, variant="duo", bots={1: "easy"})
        page.get_by_role("button", name="Start the game").click()
        wait_my_turn(page)
        board = page.locator(".bk-board").bounding_box()
        assert board is not None and board["width"] <= 390, "the board fits the phone's width"
        page.locator('.bk-tray .bk-piece[data-piece="T5"]').tap()
        spot = page.locator(".bk-board .cell.legal").first
        spot.tap()
        expect(page.locator(".bk-ghost.legal")).to_have_count(1)
        expect(page.locator(".bk-board .cell.filled")).to_have_count(0)
        spot.tap()
        expect(page.locator("#log")).to_contain_text("Pia placed T5 (Purple).")
        expect(page.locator(".bk-board .cell.filled.bk-purple")).to_have_count(5)
    finally:
        context.close()


def test_on_a_phone_the_board_zooms_and_the_tray_stays_in_reach(browser, server) -> None:
    context = browser.new_context(
        base_url=server.url,
        viewport={"width": 390, "height": 844},
        locale="en-US",
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        create_room(page, "Pia", players=2, bots={1: "easy"})
        page.get_by_role("button", name="Start the game").click()
        wait_my_turn(page)
        small = page.locator(".bk-board .cell").first.bounding_box()
        assert small is not None and small["width"] < 20  # 20 x 20 cells across a phone
        page.get_by_role("button", name="Zoom in").tap()
        page.get_by_role("button", name="Zoom in").tap()
        expect(page.locator(".bk-zoom-level")).to_have_text("200 %")
        big = page.locator(".bk-board .cell").first.bounding_box()
        assert big is not None and big["width"] >= 30, big

        page.locator('.bk-tray .bk-piece[data-piece="V5"]').tap()
        # the board window, the buttons and the tray are all on the screen at once
        window = page.locator(".bk-board-wrap").bounding_box()
        assert window is not None and window["y"] >= 0 and window["height"] > 300
        for control in ("Rotate", "Flip", "Place"):
            box = page.locator(".bk-controls").get_by_role("button", name=control).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, control
            assert box["y"] >= window["y"] + window["height"] - 20, "no button hides the board"
        piece = page.locator('.bk-tray .bk-piece[data-piece="V5"]').bounding_box()
        assert piece is not None and piece["y"] + piece["height"] <= 844

        # the zoomed board pans by itself to where the piece fits; tap, tap places it
        spot = page.locator(".bk-board .cell.legal").first
        spot.tap()
        expect(page.locator(".bk-ghost.legal")).to_have_count(1)
        spot.tap()
        expect(page.locator("#log")).to_contain_text("Pia placed V5 (Blue).")
        expect(page.locator(".bk-board .cell.filled.bk-blue")).to_have_count(5)

        # the zoom is remembered
        page.reload()
        expect(page.locator(".bk-zoom-level")).to_have_text("200 %")
    finally:
        context.close()
