"""Ending a game early and the table's life after it, in the browser: resigning with a
confirmation, aborting by agreement, and a person who left asked back by the rematch
or taking their seat back between games."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_room

pytestmark = pytest.mark.e2e


def _table(person: Person) -> tuple[Page, Page]:
    """Anna opens an M table for two, Ben sits down, Anna starts."""
    host = person()
    url = create_room(host, "Anna", players=2, game="m")
    guest = person(url)
    guest.get_by_role("button", name="Take seat 2").click()
    guest.locator("#claim-name").fill("Ben")
    guest.get_by_role("button", name="Sit down").click()
    expect(guest.locator(".seat.you")).to_contain_text("Ben")
    host.locator("#start").click()
    expect(guest.get_by_role("button", name="Resign")).to_be_visible()
    return host, guest


def _confirm(page: Page, says: str, button: str) -> None:
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(says)
    dialog.get_by_role("button", name=button).click()
    expect(dialog).to_have_count(0)


def test_a_player_resigns_after_confirming_and_ranks_last(person: Person) -> None:
    host, guest = _table(person)
    guest.get_by_role("button", name="Resign").click()
    # cancelling changes nothing
    guest.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(guest.locator("#log")).not_to_contain_text("resigned")
    guest.get_by_role("button", name="Resign").click()
    _confirm(guest, "Resign this game?", "Resign")
    for page in (host, guest):
        expect(page.locator("#log")).to_contain_text("Ben resigned.")
        expect(page.locator("#result-title")).to_be_visible()
        expect(page.locator(".result-table tr[data-seat='1'] td").first).to_have_text("2")
    expect(host.locator("#result-title")).to_have_text("You win!")


def test_a_game_is_aborted_when_everyone_agrees_and_a_rematch_follows(person: Person) -> None:
    host, guest = _table(person)
    host.get_by_role("button", name="Propose abort").click()
    _confirm(host, "Propose to abort this game?", "Propose abort")
    expect(host.get_by_role("button", name="Waiting for the others to agree")).to_be_disabled()
    expect(guest.locator("#log")).to_contain_text("Anna wants to abort the game.")
    guest.get_by_role("button", name="Agree to abort").click()
    _confirm(guest, "Agree to abort this game?", "Agree to abort")
    for page in (host, guest):
        expect(page.locator("#rematch-bar")).to_contain_text("The game was aborted by agreement.")
        expect(page.locator("#log")).to_contain_text("The game was aborted by agreement.")
    expect(guest.locator("#history")).to_contain_text("The game was aborted by agreement.")
    host.locator("#rematch-bar-start").click()
    expect(guest.get_by_role("button", name="Resign")).to_be_visible()
    expect(guest.get_by_role("button", name="Propose abort")).to_be_visible()


def test_a_player_who_left_is_asked_back_and_takes_the_seat_back_between_games(
    person: Person,
) -> None:
    host, guest = _table(person)
    ben = host.locator(".seat[data-seat='1']")
    guest.get_by_role("button", name="Leave the game").click()
    _confirm(guest, "Leave the game?", "Leave")
    expect(ben.locator(".tag-away")).to_be_visible()
    host.get_by_role("button", name="Resign").click()
    _confirm(host, "Resign this game?", "Resign")
    # the rematch seats Ben himself: no bot plays his seat in game 2
    host.locator("#rematch").click()
    expect(host.locator("#room-sub")).to_contain_text("Game 2")
    expect(ben.locator(".tag-away")).to_have_count(0)
    expect(guest.get_by_role("button", name="Leave the game")).to_be_visible()
    # Ben leaves game 2; once it is over he takes his seat back before game 3
    guest.get_by_role("button", name="Leave the game").click()
    _confirm(guest, "Leave the game?", "Leave")
    host.get_by_role("button", name="Resign").click()
    _confirm(host, "Resign this game?", "Resign")
    guest.get_by_role("button", name="Take my seat back").click()
    expect(ben.locator(".tag-away")).to_have_count(0)
    expect(guest.get_by_role("button", name="A bot plays my next game")).to_be_visible()
