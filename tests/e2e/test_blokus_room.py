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


def test_a_duo_game_against_a_bot_ends_with_results_and_a_rematch(person) -> None:
    page = person()
    create_room(page, "Dora", players=2, variant="duo", bots={1: "strong"})
    expect(page.locator(".seat[data-seat='1']")).to_contain_text("Greedy bot")
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
    expect(result.locator("h2")).to_have_text(re.compile(r"(You win!|Greedy bot wins!|share)"))
    expect(result.locator("tbody tr")).to_have_count(2)
    expect(result).to_contain_text("Purple")
    assert "Game over" in page.locator("#log").inner_text()

    result.get_by_role("button", name="Play again").click()
    expect(result).to_be_hidden()
    expect(page.locator("#log")).to_contain_text("Game 2 started.")
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
        create_room(page, "Pia", players=2, variant="duo", bots={1: "random"})
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
