"""Replays in Chromium: a finished M game stepped to its end, a running Blokus game watched,
the deal of a game whose seed is above 2^53 verified, and imported tables marked."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.app.records_help import bot_record
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e


def _import(server: ServerProcess, record: dict[str, object]) -> str:
    made = httpx.post(f"{server.url}/api/records", json=record, timeout=30)
    assert made.status_code == 201, made.text
    return str(made.json()["room"])


def test_stepping_through_a_finished_m_game_to_its_end_and_verifying_the_deal(
    person, server: ServerProcess
) -> None:
    record = bot_record("m", 2, {}, seed=21)
    steps = len(record["moves"])
    room = _import(server, record)
    page = person(f"/r/{room}/games/1")
    expect(page.locator("#replay-title")).to_have_text("Replay of game 1")
    expect(page.locator("#position")).to_have_text("Start of game 1")
    expect(page.locator("#board-root.mm-root")).to_be_visible()
    expect(page.locator("#moves li[data-step]")).to_have_count(steps + 1)
    # over: each draw is an item of its own under its move, and the step says it too
    info = httpx.get(f"{server.url}/api/rooms/{room}/games/1", timeout=30).json()
    drawn = sum(len(move["draws"]) for move in info["moves"])
    assert drawn > 0
    expect(page.locator("#moves li.replay-draw")).to_have_count(drawn)
    first = info["moves"][0]["draws"][0]
    expect(page.locator("#moves li[data-draw-step='1']").first).to_contain_text(
        f"{record['names'][first['seat']]} drew the"
    )
    expect(page.locator("#step-draws")).to_be_hidden()

    page.get_by_role("button", name="Next move").click()
    expect(page.locator("#position")).to_have_text(f"Move 1 of {steps}")
    expect(page.locator("#step-draws")).to_contain_text("Drawn with this move:")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#position")).to_have_text(f"Move 2 of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#position")).to_have_text(f"Move 1 of {steps}")
    page.locator("#moves li[data-step='5'] button").click()
    expect(page.locator("#position")).to_have_text(f"Move 5 of {steps}")
    expect(page.locator("#moves li[data-step].current")).to_have_attribute("data-step", "5")
    # the move's draws are highlighted with it
    expect(page.locator("#moves li.replay-draw.current")).to_have_count(
        len(info["moves"][4]["draws"])
    )
    page.locator("#slider").fill(str(steps - 3))
    expect(page.locator("#position")).to_have_text(f"Move {steps - 3} of {steps}")
    for _ in range(3):
        page.get_by_role("button", name="Next move").click()
    expect(page.locator("#position")).to_have_text(f"Move {steps} of {steps}")
    expect(page.get_by_role("button", name="Next move")).to_be_disabled()
    expect(page.locator("#board-root")).to_have_attribute("data-step", str(steps))

    # over: every hand may be seen; the other seat's hand as it was
    expect(page.locator("#seen-as option")).to_have_count(3)
    page.locator("#seen-as").select_option("1")
    expect(page.locator("#board-root")).to_have_attribute("data-step", str(steps))
    page.keyboard.press("Home")
    expect(page.locator("#position")).to_have_text("Start of game 1")
    expect(page.locator("#board-root .mm-hand .mm-card").first).to_be_visible()

    expect(page.locator("#download-json")).to_have_attribute(
        "href", f"/api/rooms/{room}/games/1/record"
    )
    # M lists no format of its own: the JSON record is the one download
    expect(page.locator("#downloads a")).to_have_count(1)
    page.get_by_role("button", name="Verify the deal").click()
    expect(page.locator("#verify-result")).to_contain_text("Verified")
    expect(page.locator("#verify-out")).to_contain_text("matches the commitment")

    page.locator("#lang").select_option("de")
    expect(page.locator("#replay-title")).to_have_text("Wiederholung von Partie 1")
    page.locator("#lang").select_option("fr")
    expect(page.locator("#position")).to_have_text(re.compile("^Début de la partie 1"))


# a seed JavaScript numbers can't hold: read as one, it rounds to another seed
BIG_SEED = 2**62 + 4_321


def test_verifying_a_finished_card_game_whose_seed_is_above_2_53_says_it_matches(
    person, server: ServerProcess
) -> None:
    assert float(BIG_SEED) != BIG_SEED
    record = bot_record("m", 2, {}, seed=BIG_SEED)
    room = _import(server, record)
    page = person(f"/r/{room}/games/1")
    expect(page.locator("#imported-note")).to_contain_text("Imported game")
    page.get_by_role("button", name="Verify the deal").click()
    expect(page.locator("#verify-out")).to_contain_text("matches the commitment")
    expect(page.locator("#verify-result")).to_contain_text("Verified: The commitment matches")
    expect(page.locator("#verify-out .bad")).to_have_count(0)
    # the seed came from the file: the check says so, in the page's language
    expect(page.locator("#verify-imported")).to_contain_text("came from the imported file")
    page.locator("#lang").select_option("de")
    expect(page.locator("#imported-note")).to_contain_text("Importierte Partie")
    page.get_by_role("button", name="Mischen prüfen").click()
    expect(page.locator("#verify-imported")).to_contain_text("aus der importierten Datei")
    expect(page.locator("#verify-result")).to_contain_text("Geprüft")
    page.locator("#lang").select_option("fr")
    expect(page.locator("#imported-note")).to_contain_text("Partie importée")


def test_an_imported_table_says_so_on_its_page_in_every_language(
    person, server: ServerProcess
) -> None:
    record = bot_record("maedn", 2, {}, seed=7)
    record["moves"] = record["moves"][:4]
    record["result"] = None
    made = httpx.post(f"{server.url}/api/records", json=record, timeout=30).json()
    page = person(f"/r/{made['room']}#token={made['seats'][1]['token']}")
    note = page.locator("#imported-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Imported game")
    expect(note).to_contain_text("may know every hidden card")
    expect(page.locator("#history li[data-game='1']")).to_contain_text("imported from a file")
    page.locator("#lang").select_option("de")
    expect(note).to_contain_text("Importierte Partie")
    expect(page.locator("#history li[data-game='1']")).to_contain_text("aus einer Datei importiert")
    page.locator("#lang").select_option("fr")
    expect(note).to_contain_text("Partie importée")
    # a table made here shows no such note
    made = httpx.post(
        f"{server.url}/api/rooms", json={"game": "m", "players": 2, "name": "Anna"}, timeout=30
    ).json()
    other = person(f"/r/{made['room']}")
    expect(other.locator("#room-title")).not_to_have_text("…")
    expect(other.locator("#imported-note")).to_be_hidden()


def test_a_spectator_steps_through_a_running_blokus_game(person, server: ServerProcess) -> None:
    record = bot_record("blokus", 4, {"variant": "classic"}, seed=22)
    record["moves"] = record["moves"][:9]
    record["result"] = None
    room = _import(server, record)
    page = person(f"/r/{room}/games/1")
    expect(page.locator("#position")).to_have_text("Move 9 of 9")
    cells = page.locator(".bk-board .cell.filled")
    placed = sum(len(m["move"]["cells"]) for m in record["moves"])
    expect(cells).to_have_count(placed)
    expect(page.locator("#seen-as option")).to_have_count(1)
    expect(page.locator("#visibility")).to_contain_text("still running")
    # the step buttons draw their own icons (no emoji font needed) and are named in words
    for button, name in (
        ("first", "First"),
        ("prev", "Previous"),
        ("next", "Next"),
        ("last", "Last"),
    ):
        step = page.locator(f"#{button}")
        expect(step.locator("svg")).to_be_visible()
        expect(step).to_have_text("")
        expect(step).to_have_accessible_name(re.compile(name, re.IGNORECASE))
    page.keyboard.press("Home")
    expect(page.locator("#position")).to_have_text("Start of game 1")
    expect(cells).to_have_count(0)
    for number in range(1, 4):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#position")).to_have_text(f"Move {number} of 9")
        done = sum(len(m["move"]["cells"]) for m in record["moves"][:number])
        expect(cells).to_have_count(done)
    # the engine lists .blksgf among its formats: the page offers it, as it runs
    expect(page.locator("#download-blksgf")).to_have_attribute(
        "href", f"/api/rooms/{room}/games/1/record.blksgf"
    )
    expect(page.locator("#download-blksgf")).to_have_text("Blokus file (.blksgf, for Pentobi)")
    expect(page.get_by_role("button", name="Verify the deal")).to_be_disabled()
    expect(page.locator("#history")).to_contain_text("Game 1")
    page.locator("#back").click()
    expect(page).to_have_url(re.compile(rf"/r/{room}$"))
    expect(page.locator("#history")).to_contain_text("Game 1 · running")
    expect(page.locator("#since")).to_be_hidden()


def test_since_your_last_turn_sums_up_the_others_moves_in_one_line(
    person, server: ServerProcess
) -> None:
    record = bot_record("blokus", 4, {"variant": "classic"}, seed=23)
    record["moves"] = record["moves"][:9]
    record["result"] = None
    made = httpx.post(f"{server.url}/api/records", json=record, timeout=30).json()
    token = made["seats"][1]["token"]  # yellow: its last piece was move 6
    page = person(f"/r/{made['room']}#token={token}")
    since = page.locator("#since")
    expect(since).to_be_visible()
    expect(since).to_contain_text("Since your last turn: 3 moves")
    expect(page.locator("#log li.log-since")).to_have_count(3)
    expect(page.locator("#open-replay")).to_have_attribute("href", f"/r/{made['room']}/games/1")
    page.locator("#lang").select_option("de")
    expect(since).to_contain_text("Seit deinem letzten Zug: 3 Züge")


def test_the_first_move_of_a_game_has_no_since_your_last_turn_line(
    person, server: ServerProcess
) -> None:
    record = bot_record("blokus", 4, {"variant": "classic"}, seed=23)
    record["moves"] = []
    record["result"] = None
    made = httpx.post(f"{server.url}/api/records", json=record, timeout=30).json()
    page = person(f"/r/{made['room']}#token={made['seats'][0]['token']}")
    expect(page).to_have_title(re.compile(r"^● Your turn"))
    expect(page.locator("#since")).to_be_hidden()
    expect(page.get_by_text("Nothing happened since your last turn")).to_have_count(0)


def test_an_unfinished_import_keeps_the_tables_time_and_hands_out_every_seats_link(
    person, server: ServerProcess, tmp_path
) -> None:
    host = person()
    expect(host.locator(".game-option")).not_to_have_count(0)
    host.get_by_label("Your name").fill("Hanna")
    host.get_by_text("More settings").click()
    host.get_by_label("Time per move").select_option(label="1 day per move")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/r/[\w-]+$"))
    waiting = host.url

    record = bot_record("blokus", 2, {"variant": "duo"}, seed=5)
    record["moves"], record["result"] = record["moves"][:4], None
    file = tmp_path / "unfinished.json"
    file.write_text(json.dumps(record))
    host.locator(".history-import input[type=file]").set_input_files(file)
    host.wait_for_url(lambda url: url.split("#")[0] != waiting)
    expect(host.locator("#room-sub")).to_contain_text("1 day per move")
    expect(host.locator(".seat.you")).to_contain_text("Anna")

    links = host.locator(".handout")
    expect(links).to_contain_text("Links for the other seats")
    link = links.get_by_role("textbox", name="Ben's link (seat 2)").input_value()
    assert "#token=" in link and "?" not in link, "the token rides in the fragment only"
    ben = person(link.removeprefix(server.url))
    expect(ben.locator(".seat.you")).to_contain_text("Ben")
    expect(ben.locator(".handout")).to_have_count(0)

    links.get_by_role("button", name="All handed out: forget these links").click()
    expect(host.locator(".handout")).to_have_count(0)
    host.reload()
    expect(host.locator(".seat.you")).to_contain_text("Anna")
    expect(host.locator(".handout")).to_have_count(0)


def test_a_blksgf_file_picked_on_a_table_opens_as_a_new_table(
    person, server: ServerProcess, tmp_path
) -> None:
    """The import box reads the suffixes GET /api/games lists and sends each file to its
    format's route; the room's downloads are the formats of its engine."""
    record = bot_record("blokus", 2, {"variant": "duo"}, seed=24)
    record["moves"] = record["moves"][:4]
    record["result"] = None
    room = _import(server, record)
    page = person(f"/r/{room}")
    downloads = page.locator(".history-downloads a")
    expect(downloads).to_have_count(3)  # the replay, the JSON record, the .blksgf file
    expect(downloads.nth(2)).to_have_attribute("href", f"/api/rooms/{room}/games/1/record.blksgf")
    picker = page.locator(".history-import input[type=file]")
    expect(picker).to_have_attribute("accept", re.compile(r"\.blksgf"))
    expect(page.locator(".history-import")).to_contain_text("Blokus file (.blksgf")
    sgf = httpx.get(f"{server.url}/api/rooms/{room}/games/1/record.blksgf", timeout=30)
    assert sgf.status_code == 200, sgf.text
    path = tmp_path / "game.blksgf"
    path.write_text(sgf.text)
    picker.set_input_files(str(path))
    page.wait_for_url(lambda url: "/r/" in url and f"/r/{room}" not in url)
    new_room = page.url.split("/r/")[1].split("#")[0]
    info = httpx.get(f"{server.url}/api/rooms/{new_room}/games/1", timeout=30).json()
    assert info["steps"] == 4 and info["imported"] is True
    assert [m["seat"] for m in info["moves"]] == [m["seat"] for m in record["moves"]]
