"""The host picks, in a waiting table's settings, what happens when the time per move is
up and which bot level plays for whoever is away (issue 24); the server keeps both, and
the seat the host hands over and the seat whose time runs out get that level.

The table's server runs on a clock the test moves by writing a file (as in
tests/app/test_deadlines_live.py): nobody waits an hour for a move's time to run out.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import Person, people_on
from tests.e2e.helpers import create_room
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e

HOUR = 3600


@pytest.fixture
def timed_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, Path]]:
    """A server whose clock moves by the seconds written to the returned file."""
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    server = ServerProcess(
        tmp_path / "data",
        env={
            "BOT_DELAY_MS": "20",
            "CLOCK_OFFSET_FILE": str(offset),
            "DEADLINE_POLL_SECONDS": "0.2",
        },
    )
    server.start()
    try:
        yield server, offset
    finally:
        server.stop()


@pytest.fixture
def people(browser: Browser, timed_server: tuple[ServerProcess, Path]) -> Iterator[Person]:
    """``people(path)`` opens a fresh browser context on the timed server."""
    with people_on(browser, timed_server[0].url) as open_person:
        yield open_person


def test_the_hosts_stand_in_level_plays_the_seat_handed_over_and_the_one_out_of_time(
    timed_server: tuple[ServerProcess, Path], people: Person
) -> None:
    server, offset = timed_server
    host = people("/")
    url = create_room(host, "Anna", players=2, variant="duo")
    room = url.rsplit("/", 1)[1]
    ben = people(url)
    ben.get_by_role("button", name="Take seat 2").click()
    ben.locator("#claim-name").fill("Ben")
    ben.get_by_role("button", name="Sit down").click()
    expect(host.locator(".seat[data-seat='1']")).to_contain_text("Ben")

    settings = host.locator(".table-settings")
    on_timeout = settings.get_by_label("When the time is up")
    stand_in = settings.get_by_label("Bot that plays for someone away")
    # what happens when the time is up is asked only once there is a time per move
    expect(on_timeout).to_be_hidden()
    settings.get_by_label("Time per move").select_option(label="1 hour per move")
    expect(on_timeout).to_be_visible()
    on_timeout.select_option(label="A bot takes the seat until the player is back")
    # the strongest level stands in until the host picks another; each says what it is like
    expect(stand_in).to_have_value("hard")
    expect(settings.locator("#settings-stand-in-about")).to_contain_text("Thinks ahead")
    stand_in.select_option(label="Easy bot")
    expect(settings.locator("#settings-stand-in-about")).to_contain_text("A beginner")
    settings.get_by_role("button", name="Save the settings").click()
    expect(host.locator("#log")).to_contain_text("The host changed the table's settings")

    # the server keeps them: the room's state says so, and the form shows them after a reload
    rules = httpx.get(f"{server.url}/api/rooms/{room}").raise_for_status().json()["rules"]
    assert (rules["turn_seconds"], rules["on_timeout"], rules["stand_in"]) == (
        HOUR,
        "bot_seat",
        "easy",
    )
    host.reload()
    expect(stand_in).to_have_value("easy")
    expect(on_timeout).to_have_value("bot_seat")
    expect(ben.locator(".table-settings")).to_have_count(0)

    host.get_by_role("button", name="Start the game").click()
    expect(host.locator(".seat.to-act")).to_have_count(1)
    # the host hands Ben's seat over: the room's stand-in is the one offered first
    host.get_by_role("button", name="Hand to a bot: Ben's seat").click()
    dialog = host.get_by_role("dialog")
    expect(dialog.get_by_label("Bot that plays for Ben")).to_have_value("easy")
    expect(dialog).to_contain_text("A beginner")
    dialog.get_by_role("button", name="Hand over").click()
    expect(host.locator("#log")).to_contain_text("The host handed Ben's seat to the Easy bot.")

    # an hour and a minute later Anna has not moved: the easy bot takes her seat
    expect(host.locator(".seat.you.to-act")).to_be_visible()
    offset.write_text(str(HOUR + 60))
    expect(host.locator("#log")).to_contain_text(
        "Time ran out for Anna: the Easy bot plays for them until they are back."
    )
    expect(host.locator(".seat[data-seat='0']")).to_contain_text("the Easy bot plays for them")
    events = httpx.get(f"{server.url}/api/rooms/{room}/events").raise_for_status().json()
    stand_ins = [e for e in events["events"] if e["kind"] == "seat_stand_in"]
    assert [(e["seat"], e["bot"], e["reason"]) for e in stand_ins] == [
        (1, "easy", "host"),
        (0, "easy", "timeout"),
    ]
