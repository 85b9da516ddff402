"""The start page, the list of your tables, the resume link, bots for free seats, languages."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_room

pytestmark = pytest.mark.e2e


def test_my_tables_resume_link_and_host_bots(person) -> None:
    host = person()
    expect(host.locator(".game-option")).not_to_have_count(0)
    expect(host.locator(".game-option.selected")).to_contain_text("Blokus")
    expect(host.locator(".game-option.selected")).to_contain_text("2\u20134 players")
    url = create_room(host, "Hanna", players=4)
    room = url.rsplit("/", 1)[1]

    # the host marks a free seat as a bot before the start
    host.get_by_label("Who plays seat 3").select_option("easy")
    expect(host.locator("#log")).to_contain_text("Seat 3 is played by the Easy bot.")
    expect(host.locator(".seat[data-seat='2']")).to_contain_text("Easy bot")

    # the start page lists the table with where it stands
    host.goto("/")
    item = host.locator(f'.mg-item[data-room="{room}"]')
    expect(item).to_contain_text("Blokus")
    expect(item).to_contain_text("Waiting for players (2 of 4 seated)")

    # the personal link resumes the seat in another browser and leaves the address bar
    host.goto(url)
    host.get_by_text("Resume on another device").click()
    resume = host.locator("#resume-link").input_value()
    assert resume.startswith(url + "#token=")
    other = person(resume)
    expect(other.locator(".seat.you")).to_contain_text("Hanna")
    expect(other).to_have_url(url)
    stored = other.evaluate("() => localStorage.getItem('spieltisch.rooms')")
    assert room in stored


def test_language_follows_the_browser_and_the_switcher_is_remembered(person) -> None:
    page = person(locale="de-DE")
    expect(page.locator("h1")).to_have_text("Brettspiele mit Freunden")
    page.get_by_label("Sprache").select_option("fr")
    expect(page.locator("h1")).to_have_text("Jeux de société entre amis")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.reload()
    expect(page.get_by_role("button", name="Ouvrir la table")).to_be_visible()


def test_an_unknown_room_says_so(person) -> None:
    page = person("/r/no-such-room")
    expect(page.get_by_role("heading", name="This table does not exist")).to_be_visible()
    expect(page.locator("#conn")).to_have_attribute("data-status", "gone")


def test_server_errors_show_as_a_toast(person) -> None:
    page = person()
    page.get_by_label("Your name").fill("Max")
    message = "Too many new rooms from your address; wait a minute."
    page.route(
        "**/api/rooms",
        lambda route: route.fulfill(
            status=429,
            content_type="application/json",
            body=json.dumps({"code": "too_many_rooms", "message": message}),
        ),
    )
    page.get_by_role("button", name="Open the table").click()
    # the code is known, so the page says it in the reader's language
    expect(page.locator(".toast-error")).to_contain_text("Too many new tables")
    expect(page).to_have_url(re.compile(r"/$"))


def test_duo_offers_only_two_players(person) -> None:
    page = person()
    page.get_by_label("Board", exact=True).select_option("duo")
    expect(page.locator('.segmented input[value="2"]')).to_be_checked()
    expect(page.locator('.segmented input[value="4"]')).to_have_count(0)
    expect(page.locator('.segmented input[value="3"]')).to_have_count(0)
