"""The room page's "How to play" panel and the optional turn sound, in Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_room, place_by_clicking, wait_my_turn

pytestmark = pytest.mark.e2e


def test_how_to_play_reflects_the_rooms_options_in_each_language(person) -> None:
    page = person()
    create_room(page, "Dora", players=2, variant="duo", bots={1: "easy"})
    page.locator("#help-btn").click()
    help_panel = page.locator("#help")
    expect(help_panel).to_be_visible()
    expect(help_panel.locator("h2")).to_have_text("How to play Blokus")
    expect(help_panel).to_contain_text("board for two, purple against orange")
    expect(help_panel).to_contain_text("ring near the top left")
    expect(help_panel).not_to_contain_text("Free start points")
    page.keyboard.press("Escape")
    expect(help_panel).to_be_hidden()

    # in German, and for a four-player classic room with free corners
    other = person(locale="de-DE")
    other.goto("/")
    other.get_by_label("Dein Name").fill("Dora")
    other.locator('.segmented input[value="4"]').check()
    other.get_by_label("Freie Ecken").check()
    other.get_by_role("button", name="Tisch öffnen").click()
    other.wait_for_url("**/r/*")
    other.locator("#help-btn").click()
    panel = other.locator("#help")
    expect(panel.locator("h2")).to_have_text("So wird Blokus gespielt")
    expect(panel).to_contain_text("Vier Personen, eine Farbe für jede")
    expect(panel).to_contain_text("Freie Ecken")
    # switching the language rewrites the open panel
    other.locator("#lang").select_option("fr")
    expect(panel.locator("h2")).to_have_text("Comment jouer à Blokus")
    expect(panel).to_contain_text("Coins libres")
    panel.get_by_role("button", name="Fermer").click()
    expect(panel).to_be_hidden()


def test_m_and_maedn_help_names_the_player_count(person) -> None:
    page = person()
    create_room(page, "Emil", players=3, game="m")
    page.locator("#help-btn").click()
    expect(page.locator("#help")).to_contain_text("3 players: 60 cards are in the game.")
    page.keyboard.press("Escape")
    create_room(page, "Emil", players=2, game="maedn")
    page.locator("#help-btn").click()
    expect(page.locator("#help")).to_contain_text("the first to reach 40 points wins")
    expect(page.locator("#help")).to_contain_text("every figure from 1 to 40 is in the game once")


def test_the_turn_sound_is_off_by_default_and_once_on_chimes_and_is_remembered(person) -> None:
    page = person()
    create_room(page, "Pia", players=2, variant="duo", bots={1: "easy"})
    button = page.locator("#sound-btn")
    expect(button).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Start the game").click()
    wait_my_turn(page)
    expect(button).to_have_attribute("data-chimes", "0")  # off: the turn came in silence

    button.click()  # on: one sample chime
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_attribute("data-chimes", "1")
    assert page.evaluate("() => localStorage.getItem('spieltisch.turn_sound')") == "1"

    page.reload()
    expect(button).to_have_attribute("aria-pressed", "true")
    wait_my_turn(page)
    expect(button).to_have_attribute("data-chimes", "1")  # the turn came: one chime
    place_by_clicking(page)
    # the turn goes to the bot and comes back (too fast to watch): one more chime
    expect(page.locator("#log")).to_contain_text("Easy bot placed")
    wait_my_turn(page)
    expect(button).to_have_attribute("data-chimes", "2")

    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('spieltisch.turn_sound')") == "0"
