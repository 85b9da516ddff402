"""A resume link whose token the server refuses leaves the seat this browser holds alone."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import create_room

pytestmark = pytest.mark.e2e


def _stored(page: Page, room: str) -> str | None:
    raw = page.evaluate("() => localStorage.getItem('spieltisch.rooms')")
    entry = json.loads(raw or "{}").get(room)
    return entry["token"] if entry else None


def test_a_refused_resume_link_keeps_the_stored_seat_and_says_so(person) -> None:
    page = person()
    url = create_room(page, "Hanna")
    room = url.rsplit("/", 1)[1]
    token = _stored(page, room)
    assert token

    page.goto("/")  # a fresh load: a new fragment alone would not reload the room page
    page.goto(f"{url}#token=not-a-token-of-this-room")
    expect(page.locator(".toast-error")).to_contain_text("You keep your own seat.")
    expect(page.locator(".seat.you")).to_contain_text("Hanna")
    expect(page).to_have_url(url)
    assert _stored(page, room) == token

    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-status", "open")
    expect(page.locator(".seat.you")).to_contain_text("Hanna")
    assert _stored(page, room) == token


def test_a_refused_resume_link_in_a_new_browser_watches_and_stores_nothing(person) -> None:
    host = person()
    url = create_room(host, "Hanna")
    room = url.rsplit("/", 1)[1]

    guest = person(f"{url}#token=forged", locale="de-DE")
    expect(guest.locator(".toast-error")).to_contain_text("du schaust zu")
    expect(guest.locator("#conn")).to_have_attribute("data-status", "open")
    expect(guest.locator(".seat.you")).to_have_count(0)
    assert _stored(guest, room) is None
