"""Every table on every device: "Your tables" keeps itself current, and one link
carries every seat this browser holds to another device, its tokens in the URL
fragment only (no request the browser makes, no line the server logs, holds one)."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e


def _open_table(page: Page, name: str, game: str | None = None) -> str:
    page.goto("/")
    expect(page.locator(".game-option")).not_to_have_count(0)
    if game:
        page.locator(f'.game-option input[value="{game}"]').check()
    page.get_by_label("Your name").fill(name)
    page.locator('.segmented input[value="2"]').check()
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


def _tokens(page: Page) -> list[str]:
    held = json.loads(page.evaluate("localStorage.getItem('spieltisch.rooms')") or "{}")
    return [entry["token"] for entry in held.values()]


def test_one_link_carries_every_seat_to_another_device_and_no_request_holds_a_token(
    person: Person, server: ServerProcess
) -> None:
    phone = person()
    seen: list[str] = []
    phone.on("request", lambda request: seen.append(request.url))
    first = _open_table(phone, "Hanna")
    second = _open_table(phone, "Hanna", game="m")
    tokens = _tokens(phone)
    assert len(tokens) == 2

    phone.goto("/")
    expect(phone.locator("#my-games-list .mg-item")).to_have_count(2)
    carry = phone.locator("#carry")
    carry.get_by_text("Use my tables on another device").click()
    expect(carry).to_contain_text("whoever opens it plays as you")
    link = carry.get_by_role("textbox", name="Link to all your tables").input_value()
    assert "#tables=" in link and not any(token in link for token in tokens)

    laptop = person("/")  # the start page open already: only the fragment changes
    laptop.on("request", lambda request: seen.append(request.url))
    laptop.goto(link.removeprefix(server.url))
    expect(laptop.get_by_text("2 tables from your other device added.")).to_be_visible()
    expect(laptop.locator("#my-games-list .mg-item")).to_have_count(2)
    assert "#tables" not in laptop.url, "the fragment is dropped once merged"
    assert sorted(_tokens(laptop)) == sorted(tokens)
    laptop.locator(f'.mg-item[data-room="{first}"] a').click()
    expect(laptop.locator(".seat.you")).to_contain_text("Hanna")

    # opened again, in a new tab, it adds nothing and replaces nothing
    laptop = laptop.context.new_page()
    laptop.on("request", lambda request: seen.append(request.url))
    laptop.goto(link.removeprefix(server.url))
    expect(
        laptop.get_by_text("The link carried no table this device didn't have already.")
    ).to_be_visible()

    log = server.log.read_text()
    for token in tokens:
        assert not any(token in url for url in seen), "a request carried a token"
        assert token not in log, "the server logged a token"
    assert "tables=" not in log and second in log


def test_your_tables_refresh_themselves_when_the_page_comes_back_into_view(
    person: Person, server: ServerProcess
) -> None:
    page = person()
    room = _open_table(page, "Hanna")
    page.goto("/")
    item = page.locator(f'.mg-item[data-room="{room}"]')
    expect(item).to_contain_text("Waiting for players (1 of 2 seated)")
    claimed = httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"})
    assert claimed.status_code == 200, claimed.text
    expect(item).to_contain_text("1 of 2")  # nothing reloads the page
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(item).to_contain_text("Waiting for players (2 of 2 seated)")
    expect(item).to_contain_text("Ben")


def test_a_seat_taken_in_another_tab_shows_up_in_your_tables(
    person: Person, server: ServerProcess
) -> None:
    page = person()
    page.goto("/")
    expect(page.locator("#my-games-empty")).to_be_visible()
    other = page.context.new_page()
    _open_table(other, "Hanna")
    expect(page.locator("#my-games-list .mg-item")).to_have_count(1)
