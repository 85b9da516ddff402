"""Time per move and seats in a running game, in the browser: the clock, the host's
confirmation before a seat changes hands, taking a seat back, a freed seat claimed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person

pytestmark = pytest.mark.e2e


def _timed_table(person: Person) -> tuple[Page, Page, str]:
    """Hanna opens a Blokus table with a day per move; Ben sits down; the game starts."""
    host = person()
    expect(host.locator(".game-option")).not_to_have_count(0)
    host.get_by_label("Your name").fill("Hanna")
    host.locator('.segmented input[value="2"]').check()
    host.get_by_text("More settings").click()
    expect(host.locator("#on-timeout-row")).to_be_hidden()
    host.get_by_label("Time per move").select_option(label="1 day per move")
    host.get_by_label("When the time is up").select_option("bot_seat")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/r/[\w-]+$"))
    url = host.url
    guest = person(url)
    guest.get_by_role("button", name="Take seat 2").click()
    guest.locator("#claim-name").fill("Ben")
    guest.get_by_role("button", name="Sit down").click()
    expect(guest.locator(".seat.you")).to_contain_text("Ben")
    host.locator("#start").click()
    # the game has begun on both pages (a waiting table shows its time per move too)
    expect(host.locator("#room-sub")).to_contain_text("Game 1 in progress · 1 day per move")
    expect(guest.locator("#room-sub")).to_contain_text("Game 1 in progress")
    return host, guest, url


def test_the_seat_to_move_shows_its_time_left_and_my_tables_put_my_turn_first(
    person: Person,
) -> None:
    host, guest, url = _timed_table(person)
    acting = host.locator(".seat.to-act")
    expect(acting).to_have_count(1)
    expect(acting.locator(".seat-clock")).to_have_text(re.compile(r"(23 h 5\d min|1 d) left"))
    expect(guest.locator(".seat.to-act .seat-clock")).to_have_text(
        re.compile(r"(23 h 5\d min|1 d) left")
    )
    # an older table without a turn for Hanna goes below the one where she is to move
    first_is_hannas = host.locator(".seat.to-act.you").count() == 1
    page = host if first_is_hannas else guest
    room = url.rsplit("/", 1)[1]
    page.goto("/")
    page.get_by_label("Your name").fill("Other")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    page.goto("/")
    items = page.locator(".mg-item")
    expect(items).to_have_count(2)
    expect(items.first).to_have_attribute("data-room", room)
    expect(items.first).to_contain_text(re.compile(r"Your turn! · (23 h 5\d min|1 d) left"))
    expect(items.nth(1)).to_contain_text("Waiting for players")


def test_the_host_confirms_before_handing_a_seat_to_a_bot_and_the_player_takes_it_back(
    person: Person,
) -> None:
    host, guest, _ = _timed_table(person)
    ben = host.locator(".seat[data-seat='1']")
    hand_over = ben.get_by_role("button", name="Hand to a bot: Ben's seat")

    # cancelling the question changes nothing
    hand_over.click()
    dialog = host.get_by_role("dialog")
    expect(dialog).to_contain_text("Hand Ben's seat to a bot?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(ben.locator(".tag-away")).to_have_count(0)

    hand_over.click()
    host.get_by_role("dialog").get_by_role("button", name="Hand over").click()
    expect(host.locator("#log")).to_contain_text("The host handed Ben's seat to the")
    expect(ben.locator(".tag-away")).to_be_visible()
    expect(ben.locator(".seat-note")).to_contain_text("plays for them")

    # Ben still holds his seat: he takes it back himself
    guest.get_by_role("button", name="Take my seat back").click()
    expect(guest.locator("#log")).to_contain_text("Ben is back and plays again.")
    expect(host.locator(".seat[data-seat='1'] .tag-away")).to_have_count(0)
    expect(guest.get_by_role("button", name="Leave the game")).to_be_visible()
    # only the host sees the host's buttons
    expect(guest.get_by_role("button", name="Hand to a bot: Hanna's seat")).to_have_count(0)


def test_a_freed_seat_is_played_by_a_bot_until_someone_takes_it_by_the_link(
    person: Person,
) -> None:
    host, guest, url = _timed_table(person)
    host.locator(".seat[data-seat='1']").get_by_role(
        "button", name="Free the seat of Ben for someone else"
    ).click()
    dialog = host.get_by_role("dialog")
    expect(dialog).to_contain_text("Ben loses the seat for good")
    dialog.get_by_role("button", name="Free the seat").click()
    expect(host.locator("#log")).to_contain_text("The host freed seat 2 (Ben)")
    expect(host.locator(".seat[data-seat='1']")).to_contain_text("Seat 2 is free")

    # Ben's old seat link is worth nothing now; a newcomer takes the seat by the link
    expect(guest.get_by_role("button", name="Take seat 2")).to_be_visible()
    cleo = person(url)
    cleo.get_by_role("button", name="Take seat 2").click()
    cleo.locator("#claim-name").fill("Cleo")
    cleo.get_by_role("button", name="Sit down").click()
    expect(cleo.locator(".seat.you")).to_contain_text("Cleo")
    expect(host.locator(".seat[data-seat='1']")).to_contain_text("Cleo")


def test_the_host_makes_another_player_host_and_the_controls_move_with_the_role(
    person: Person,
) -> None:
    host, guest, _ = _timed_table(person)
    hanna, ben = host.locator(".seat[data-seat='0']"), host.locator(".seat[data-seat='1']")
    expect(hanna.locator(".tag-host")).to_be_visible()
    expect(guest.get_by_role("button", name="Make host: Hanna")).to_have_count(0)
    ben.get_by_role("button", name="Make host: Ben").click()
    dialog = host.get_by_role("dialog")
    expect(dialog).to_contain_text("Make Ben the host?")
    dialog.get_by_role("button", name="Make host").click()
    for page in (host, guest):
        expect(page.locator("#log")).to_contain_text("Hanna made Ben the host.")
        expect(page.locator(".seat[data-seat='1'] .tag-host")).to_be_visible()
        expect(page.locator(".seat[data-seat='0'] .tag-host")).to_have_count(0)
    # the host's buttons are Ben's now, and Hanna's are gone
    expect(guest.get_by_role("button", name="Hand to a bot: Hanna's seat")).to_be_visible()
    expect(guest.get_by_role("button", name="Make host: Hanna")).to_be_visible()
    expect(host.get_by_role("button", name="Hand to a bot: Ben's seat")).to_have_count(0)
    expect(host.get_by_role("button", name="Make host: Ben")).to_have_count(0)


def test_the_stand_in_is_the_strongest_bot_unless_the_host_or_the_leaving_player_picks(
    person: Person,
) -> None:
    host = person()
    expect(host.locator(".game-option")).not_to_have_count(0)
    host.get_by_label("Your name").fill("Hanna")
    host.locator('.segmented input[value="2"]').check()
    host.get_by_text("More settings").click()
    stand_in = host.get_by_label("Bot that plays for someone away")
    expect(stand_in).to_have_value("hard")  # the strongest level
    stand_in.select_option(label="Easy bot")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/r/[\w-]+$"))
    guest = person(host.url)
    guest.get_by_role("button", name="Take seat 2").click()
    guest.locator("#claim-name").fill("Ben")
    guest.get_by_role("button", name="Sit down").click()
    expect(guest.locator(".seat.you")).to_contain_text("Ben")
    host.locator("#start").click()

    # Ben leaves: the question offers the room's choice, and he picks another
    guest.get_by_role("button", name="Leave the game").click()
    dialog = guest.get_by_role("dialog")
    pick = dialog.get_by_label("Bot that plays for you")
    expect(pick).to_have_value("easy")
    pick.select_option(label="Medium bot")
    dialog.get_by_role("button", name="Leave").click()
    expect(guest.locator("#log")).to_contain_text(
        "Ben left the game; the Medium bot plays for them."
    )
    guest.get_by_role("button", name="Take my seat back").click()
    expect(guest.locator("#log")).to_contain_text("Ben is back and plays again.")

    # the host hands Ben's seat over: the room's stand-in is offered first
    host.locator(".seat[data-seat='1']").get_by_role(
        "button", name="Hand to a bot: Ben's seat"
    ).click()
    dialog = host.get_by_role("dialog")
    expect(dialog.get_by_label("Bot that plays for Ben")).to_have_value("easy")
    dialog.get_by_role("button", name="Hand over").click()
    expect(host.locator("#log")).to_contain_text("The host handed Ben's seat to the Easy bot.")
