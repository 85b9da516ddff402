"""Taking a move back in the browser: alone while nobody moved since, by asking once
someone has, the others accepting or declining (app/play/undo.py, docs/client.md)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import create_room, place_by_clicking, wait_my_turn
from tests.e2e.test_m_room import place_by_click, seq_of, wait_past
from tests.e2e.test_maedn_room import play_turn, sit_down

pytestmark = pytest.mark.e2e


def filled(page: Page) -> int:
    return page.locator(".bk-board .cell.filled").count()


def _sit(person, url: str, name: str) -> Page:  # type: ignore[no-untyped-def]
    page: Page = person(url)
    page.get_by_role("button", name="Take seat 2").click()
    page.get_by_label("Your name for seat 2").fill(name)
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator(".seat.you")).to_contain_text(name)
    return page


def test_blokus_a_placement_is_taken_back_then_asked_for_declined_and_accepted(
    person,  # type: ignore[no-untyped-def]
) -> None:
    anna = person()
    url = create_room(anna, "Anna", players=2)
    ben = _sit(person, url, "Ben")
    anna.get_by_role("button", name="Start the game").click()
    wait_my_turn(anna)
    take_back = anna.get_by_role("button", name="Take back my move")
    expect(take_back).to_have_count(0)

    # Anna places and takes it back at once, with the keyboard
    place_by_clicking(anna, "V5")
    expect(ben.locator(".bk-board .cell.filled")).to_have_count(5)
    expect(ben.get_by_role("button", name="Take back my move")).to_have_count(0)
    take_back.focus()
    anna.keyboard.press("Enter")
    expect(ben.locator(".bk-board .cell.filled")).to_have_count(0)
    expect(ben.locator("#log")).to_contain_text("Anna's move was taken back.")
    wait_my_turn(anna)
    expect(take_back).to_have_count(0)

    # once Ben has moved, Anna can only ask; Ben declines, and the board stays
    place_by_clicking(anna, "V5")
    place_by_clicking(ben)
    asking = anna.get_by_role("button", name="Ask to take back my move")
    asking.click()
    expect(anna.locator("#undo-bar")).to_contain_text("waiting for the others")
    expect(ben.locator("#undo-bar")).to_contain_text("Anna asks to take back their last move.")
    ben.get_by_role("button", name="Decline").click()
    expect(anna.locator("#log")).to_contain_text("Ben declines the take-back.")
    expect(anna.locator("#undo-bar")).not_to_contain_text("waiting")
    # Ben's own placement is the last move: he alone may take it back
    expect(ben.get_by_role("button", name="Take back my move")).to_be_visible()
    assert filled(anna) > 5

    # asked again, Ben accepts: both moves go, and Anna is to place again
    asking.click()
    ben.get_by_role("button", name="Accept").click()
    expect(anna.locator(".bk-board .cell.filled")).to_have_count(0)
    expect(ben.locator(".bk-board .cell.filled")).to_have_count(0)
    wait_my_turn(anna)
    expect(ben.locator("#undo-bar")).to_be_hidden()
    expect(anna.locator("#log")).to_contain_text("Anna's move was taken back.")


def test_a_move_that_drew_a_die_offers_no_take_back(person) -> None:  # type: ignore[no-untyped-def]
    anna = person()
    url = create_room(anna, "Anna", players=2, game="maedn")
    ben = person(url)
    sit_down(ben, 1, "Ben")
    anna.get_by_role("button", name="Start the game").click()
    play_turn(anna)
    expect(ben.locator(".md-status.your-turn")).to_be_visible()
    expect(anna.locator("#log")).to_contain_text("Anna")
    for page in (anna, ben):
        expect(page.locator("#undo-bar")).to_be_hidden()
        expect(page.get_by_role("button", name="Take back my move")).to_have_count(0)


def _table_with_time(person, game: str) -> tuple[Page, Page]:  # type: ignore[no-untyped-def]
    """Anna's table for two with a day per move (so it confirms moves), Ben seated."""
    anna = person()
    url = create_room(anna, "Anna", players=2, game=game)
    settings = anna.locator(".table-settings")
    settings.get_by_label("Time per move").select_option(label="1 day per move")
    expect(settings.get_by_label("Confirm moves that can't be taken back")).to_be_checked()
    settings.get_by_role("button", name="Save the settings").click()
    expect(anna.locator("#log")).to_contain_text("The host changed the table's settings")
    ben = _sit(person, url, "Ben")
    anna.get_by_role("button", name="Start the game").click()
    return anna, ben


def test_m_a_placement_waits_for_a_second_click_and_escape_cancels_it(person) -> None:  # type: ignore[no-untyped-def]
    anna, ben = _table_with_time(person, "m")
    rng = random.Random(3)
    expect(anna.locator(".mm-status.your-turn")).to_be_visible()
    seq = seq_of(anna)
    place_by_click(anna, rng)
    bar = anna.locator("#confirm-bar")
    expect(bar).to_contain_text("This move can't be taken back. Play it?")
    confirm = anna.get_by_role("button", name="Confirm move")
    expect(confirm).to_be_focused()
    anna.keyboard.press("Escape")  # not played: the table stays as it was
    expect(bar).to_be_hidden()
    assert seq_of(anna) == seq and seq_of(ben) == seq
    # the card stays picked: a lit cell places it, and the second click is asked again
    anna.locator(".mm-cell.target").first.click()
    expect(confirm).to_be_focused()
    anna.keyboard.press("Enter")  # the focused Confirm: the placement is played
    wait_past(ben, seq)
    expect(bar).to_be_hidden()


def test_maedn_every_turn_asks_to_confirm_when_the_table_does(person) -> None:  # type: ignore[no-untyped-def]
    anna = person()
    url = create_room(anna, "Anna", players=2, game="maedn")
    settings = anna.locator(".table-settings")
    settings.get_by_label("Confirm moves that can't be taken back").check()
    settings.get_by_role("button", name="Save the settings").click()
    expect(anna.locator("#log")).to_contain_text("The host changed the table's settings")
    ben = person(url)
    sit_down(ben, 1, "Ben")
    anna.get_by_role("button", name="Start the game").click()
    expect(anna.locator(".md-status.your-turn")).to_be_visible()
    before = anna.locator("#log li").count()
    anna.locator(".md-dice .md-die:not([disabled])").last.click()
    anna.locator(".md-target").first.click()
    anna.locator(".md-play").click()
    anna.get_by_role("button", name="Cancel").click()
    expect(anna.locator("#confirm-bar")).to_be_hidden()
    assert anna.locator("#log li").count() == before
    anna.locator(".md-dice .md-die:not([disabled])").last.click()
    anna.locator(".md-target").first.click()
    anna.locator(".md-play").click()
    anna.get_by_role("button", name="Confirm move").click()
    expect(ben.locator(".md-status.your-turn")).to_be_visible()
    expect(anna.locator("#log li")).not_to_have_count(before)


def test_blokus_placements_ask_no_confirmation_even_with_a_time_per_move(person) -> None:  # type: ignore[no-untyped-def]
    anna, ben = _table_with_time(person, "blokus")
    place_by_clicking(anna, "V5")  # waits for the log line: played at the first click
    expect(anna.locator("#confirm-bar")).to_be_hidden()
    expect(ben.locator(".bk-board .cell.filled")).to_have_count(5)
    expect(anna.get_by_role("button", name="Take back my move")).to_be_visible()


def test_m_a_pass_is_taken_back_and_the_turn_is_the_passers_again(person) -> None:  # type: ignore[no-untyped-def]
    anna = person()
    url = create_room(anna, "Anna", players=2, game="m")
    ben = _sit(person, url, "Ben")
    anna.get_by_role("button", name="Start the game").click()
    expect(anna.locator(".mm-status.your-turn")).to_be_visible()
    take_back = anna.get_by_role("button", name="Take back my move")
    expect(take_back).to_have_count(0)
    seq = seq_of(anna)
    anna.locator(".mm-pass-btn").click()  # a pass by choice draws nothing (M-24)
    wait_past(ben, seq)
    expect(ben.locator(".mm-status.your-turn")).to_be_visible()
    expect(ben.get_by_role("button", name="Take back my move")).to_have_count(0)
    take_back.click()
    expect(ben.locator("#log")).to_contain_text("Anna's move was taken back.")
    expect(anna.locator(".mm-status.your-turn")).to_be_visible()
    expect(ben.locator(".mm-status.your-turn")).to_have_count(0)
    expect(take_back).to_have_count(0)
