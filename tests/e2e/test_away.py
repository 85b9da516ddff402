"""Away in the browser, across two tables: Ben says on the start page that he is away
until tomorrow, both tables show "away until …" beside his name at once, and when he is
back they show it no more; at a table his own box says so and brings him back too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person

pytestmark = pytest.mark.e2e


def _open_timed(page: Page) -> str:
    page.goto("/")
    expect(page.locator(".game-option")).not_to_have_count(0)
    page.get_by_label("Your name").fill("Hanna")
    page.locator('.segmented input[value="2"]').check()
    page.get_by_text("More settings").click()
    page.get_by_label("Time per move").select_option(label="1 day per move")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return page.url


def _sit(guest: Page, url: str) -> None:
    guest.goto(url)
    guest.get_by_role("button", name="Take seat 2").click()
    guest.locator("#claim-name").fill("Ben")
    guest.get_by_role("button", name="Sit down").click()
    expect(guest.locator(".seat.you")).to_contain_text("Ben")


def test_away_from_the_start_page_shows_at_both_tables_and_back_clears_it(
    person: Person,
) -> None:
    first = person()
    url1 = _open_timed(first)
    second = first.context.new_page()
    url2 = _open_timed(second)
    guest = person()
    _sit(guest, url1)
    _sit(guest, url2)
    for page in (first, second):
        page.locator("#start").click()
        expect(page.locator("#room-sub")).to_contain_text("Game 1 in progress")
    bens = [page.locator(".seat[data-seat='1']") for page in (first, second)]
    for ben in bens:
        expect(ben.locator(".seat-away-until")).to_have_count(0)

    guest.goto("/")
    expect(guest.locator(".mg-item")).to_have_count(2)
    box = guest.locator("#away-box")
    date = box.get_by_label("I'm away until")
    expect(date).to_be_visible()
    assert date.get_attribute("max") and date.get_attribute("min")
    box.get_by_role("button", name="Pause my clocks").click()
    expect(box).to_contain_text(re.compile(r"You are away until .+: your clocks wait"))

    # both tables see it at once, beside Ben's name
    for ben in bens:
        expect(ben.locator(".seat-away-until")).to_contain_text("away until")

    # at one table his own box says so
    guest.goto(url1)
    own = guest.locator("#room-away")
    expect(own).to_contain_text("You are away until")
    expect(guest.locator(".seat.you .seat-away-until")).to_contain_text("away until")

    guest.goto("/")
    box.get_by_role("button", name="I'm back").click()
    expect(box.get_by_role("button", name="Pause my clocks")).to_be_visible()
    for ben in bens:
        expect(ben.locator(".seat-away-until")).to_have_count(0)


def test_away_at_one_table_from_its_room_page(person: Person) -> None:
    host = person()
    url = _open_timed(host)
    guest = person()
    _sit(guest, url)
    host.locator("#start").click()
    expect(guest.locator("#room-sub")).to_contain_text("Game 1 in progress")
    own = guest.locator("#room-away")
    own.get_by_text("I'm away…").click()
    own.get_by_role("button", name="Pause my clocks").click()
    expect(own).to_contain_text("You are away until")
    expect(host.locator(".seat[data-seat='1'] .seat-away-until")).to_contain_text("away until")
    expect(host.locator("#log")).to_contain_text("Ben is away until")
    own.get_by_role("button", name="I'm back").click()
    expect(host.locator(".seat[data-seat='1'] .seat-away-until")).to_have_count(0)
    expect(host.locator("#log")).to_contain_text("Ben is back")
