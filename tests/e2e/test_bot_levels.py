"""The bot levels in the browser: the host picks "Hard" for a seat and for the stand-in,
reads what each level is like, and a hard bot plays the seat and for who leaves."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import place_by_clicking

pytestmark = pytest.mark.e2e


def test_the_host_picks_the_hard_bot_for_a_seat_and_the_stand_in_and_it_plays(person) -> None:
    host = person()
    expect(host.locator(".game-option")).not_to_have_count(0)
    host.get_by_label("Your name").fill("Hanna")
    host.get_by_label("Board", exact=True).select_option("duo")
    host.locator('.segmented input[value="2"]').check()
    seat = host.locator("#seat-1")
    expect(seat.locator("option")).to_have_text(
        ["A friend (invite by link)", "Hard bot", "Medium bot", "Easy bot"]
    )
    seat.select_option(label="Hard bot")
    # what each level is like, where the host picks
    levels = host.locator("#bot-levels")
    levels.locator("summary").click()
    expect(levels).to_contain_text("Thinks ahead")
    expect(levels).to_contain_text("A beginner")
    host.get_by_text("More settings").click()
    stand_in = host.get_by_label("Bot that plays for someone away")
    stand_in.select_option(label="Easy bot")
    expect(host.locator("#stand-in-about")).to_contain_text("A beginner")
    stand_in.select_option(label="Hard bot")
    expect(host.locator("#stand-in-about")).to_contain_text("Thinks ahead")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/r/[\w-]+$"))
    expect(host.locator(".seat[data-seat='1']")).to_contain_text("Hard bot")

    host.get_by_role("button", name="Start the game").click()
    place_by_clicking(host)
    expect(host.locator("#log")).to_contain_text("Hard bot placed")

    # Hanna leaves: the room's stand-in, the hard bot, is offered and plays for her
    host.get_by_role("button", name="Leave the game").click()
    dialog = host.get_by_role("dialog")
    pick = dialog.get_by_label("Bot that plays for you")
    expect(pick).to_have_value("hard")
    expect(dialog).to_contain_text("Thinks ahead")
    dialog.get_by_role("button", name="Leave").click()
    expect(host.locator("#log")).to_contain_text(
        "Hanna left the game; the Hard bot plays for them."
    )
    expect(host.locator("#log")).to_contain_text("Hard bot for Hanna placed")
