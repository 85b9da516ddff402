"""What a person does in the browser, as small steps the tests share."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def create_room(
    page: Page,
    name: str,
    *,
    players: int = 2,
    variant: str | None = None,
    bots: dict[int, str] | None = None,
    game: str | None = None,
) -> str:
    """Fill in the start page's form and open the table; returns the room URL."""
    page.goto("/")
    if game is not None:
        page.locator(f'.game-option[data-game="{game}"] input').check()
    page.get_by_label("Your name").fill(name)
    if variant is not None:
        page.get_by_label("Board", exact=True).select_option(variant)
    page.locator(f'.segmented input[value="{players}"]').check()
    for seat, bot in (bots or {}).items():
        page.locator(f"#seat-{seat}").select_option(bot)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    expect(page.locator("#conn")).to_have_attribute("data-status", "open")
    return page.url


def log_lines(page: Page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def wait_my_turn(page: Page) -> None:
    expect(page.locator(".bk-status.your-turn")).to_be_visible()


def place_by_clicking(page: Page, piece: str | None = None) -> str:
    """Pick a piece from the tray (the given one, else the largest that fits), click where it fits."""
    wait_my_turn(page)
    before = page.locator("#log li").count()
    tray = page.locator(".bk-tray .bk-piece:not([disabled])")
    button = page.locator(f'.bk-tray .bk-piece[data-piece="{piece}"]') if piece else tray.last
    name = button.get_attribute("data-piece") or ""
    button.click()
    spots = page.locator(".bk-board .cell.legal")
    for turn in range(8):
        if spots.count():
            break
        page.keyboard.press("f" if turn == 3 else "r")
    spots.first.click()
    expect(page.locator("#log li")).not_to_have_count(before)
    return name
