"""Putting a waiting table right in the browser: a person who took a second seat by
mistake stands up, the host frees a seat and changes the table's settings before
the start."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_room

pytestmark = pytest.mark.e2e


def _sit(page: Page, seat: int, name: str) -> None:
    page.get_by_role("button", name=f"Take seat {seat}").click()
    page.locator("#claim-name").fill(name)
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator(".seat.you")).to_contain_text(name)


def test_a_second_seat_taken_by_mistake_is_stood_up_from(person: Person) -> None:
    host = person()
    url = create_room(host, "Anna", players=3)
    ben = person(url)
    _sit(ben, 2, "Ben")
    # Ben opens the shared link on his phone instead of the resume link
    phone = person(url)
    _sit(phone, 3, "Ben")
    expect(host.locator(".seat[data-seat='2']")).to_contain_text("Ben")
    # the host has no stand-up button while host; Ben's phone has one
    expect(host.get_by_role("button", name="Stand up")).to_have_count(0)
    phone.get_by_role("button", name="Stand up").click()
    dialog = phone.get_by_role("dialog")
    expect(dialog).to_contain_text("Stand up from your seat?")
    dialog.get_by_role("button", name="Stand up").click()
    expect(phone.locator(".seat.you")).to_have_count(0)
    expect(phone.get_by_role("button", name="Take seat 3")).to_be_visible()
    for page in (host, ben, phone):
        expect(page.locator(".seat[data-seat='2']")).to_contain_text("Seat 3 is free")
        expect(page.locator("#log")).to_contain_text("Ben stood up; seat 3 is free again.")
    # Ben's first seat is his still
    expect(ben.locator(".seat.you")).to_contain_text("Ben")


def test_the_host_frees_a_seat_and_changes_the_settings_before_the_start(
    person: Person,
) -> None:
    host = person()
    url = create_room(host, "Anna", players=3)
    ben = person(url)
    _sit(ben, 2, "Ben")
    cleo = person(url)
    _sit(cleo, 3, "Cleo")
    host.locator(".seat[data-seat='2']").get_by_role(
        "button", name="Free the seat of Cleo for someone else"
    ).click()
    dialog = host.get_by_role("dialog")
    expect(dialog).to_contain_text("Cleo loses the seat; it is free again")
    dialog.get_by_role("button", name="Free the seat").click()
    expect(host.locator("#log")).to_contain_text("The host freed seat 3 (Cleo); it is free again.")
    expect(cleo.get_by_role("button", name="Take seat 3")).to_be_visible()

    # only the host sees the settings; two players and a day per move
    expect(ben.locator(".table-settings")).to_have_count(0)
    settings = host.locator(".table-settings")
    settings.get_by_label("Players").select_option("2")
    settings.get_by_label("Time per move").select_option(label="1 day per move")
    settings.get_by_role("button", name="Save the settings").click()
    for page in (host, ben):
        expect(page.locator(".seat")).to_have_count(2)
        expect(page.locator("#room-sub")).to_contain_text("1 day per move")
        expect(page.locator("#log")).to_contain_text("The host changed the table's settings")
    host.locator("#start").click()
    expect(ben.locator(".seat.to-act")).to_have_count(1)
    # no settings once the game runs
    expect(host.locator(".table-settings")).to_be_hidden()
