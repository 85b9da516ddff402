"""Unread chat on a phone: a message that lands far down the page shows as a count on the
chat's heading, on a button in the top bar and in the tab's title, until the chat is seen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_room

pytestmark = pytest.mark.e2e


def _say(page: Page, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-form button[type=submit]").click()
    expect(page.locator("#chat-list .chat-text").last).to_have_text(text)


def _table(person: Person) -> tuple[Page, Page]:
    """Anna at a desktop, Ben on a phone, a Blokus game running."""
    anna = person()
    url = create_room(anna, "Anna")
    ben = person(url, width=390, height=844)
    ben.get_by_role("button", name="Take seat 2").click()
    ben.locator("#claim-name").fill("Ben")
    ben.get_by_role("button", name="Sit down").click()
    expect(ben.locator(".seat.you")).to_contain_text("Ben")
    anna.locator("#start").click()
    expect(ben.locator("#board-root")).not_to_be_empty()
    ben.evaluate("window.scrollTo(0, 0)")
    expect(ben.locator("#chat-list")).not_to_be_in_viewport()
    return anna, ben


def test_chat_out_of_view_on_a_phone_is_marked_until_the_chat_is_opened(person: Person) -> None:
    anna, ben = _table(person)
    badge, jump = ben.locator("#chat-unread"), ben.locator("#chat-jump")
    expect(badge).to_be_hidden()
    _say(anna, "Hello Ben")
    _say(anna, "Your move, I think")
    expect(badge).to_have_text("2")
    expect(jump).to_be_visible()
    expect(jump).to_be_in_viewport()
    expect(jump).to_have_accessible_name("2 unread in the chat")
    expect(ben).to_have_title(re.compile(r"^\(2\) "))
    expect(anna.locator("#chat-unread")).to_be_hidden()  # one's own lines are never unread
    jump.click()
    expect(ben.locator("#chat-list")).to_be_in_viewport()
    expect(badge).to_be_hidden()
    expect(jump).to_be_hidden()
    expect(ben).not_to_have_title(re.compile(r"^\(\d+\) "))
    # a line that arrives while the chat is in view is read at once
    _say(anna, "Good luck")
    expect(ben.locator("#chat-list .chat-text").last).to_have_text("Good luck")
    expect(badge).to_be_hidden()


def test_scrolling_down_to_the_chat_clears_the_mark(person: Person) -> None:
    anna, ben = _table(person)
    _say(anna, "Are you there?")
    expect(ben.locator("#chat-unread")).to_have_text("1")
    expect(ben).to_have_title(re.compile(r"^\(1\) "))
    ben.locator("#chat-list").scroll_into_view_if_needed()
    expect(ben.locator("#chat-unread")).to_be_hidden()
    expect(ben).not_to_have_title(re.compile(r"^\(\d+\) "))
