"""Mensch ärgere Dich nicht: Das Kartenspiel through the browser: two friends play a
whole game by clicking dice and targets, a bot joins a three-player table, and a
steal with two possible victims lets the player choose."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import create_room, log_lines

pytestmark = pytest.mark.e2e

TURN = ".md-status.your-turn"


def sit_down(page: Page, seat: int, name: str) -> None:
    page.get_by_role("button", name=f"Take seat {seat + 1}").click()
    page.get_by_label(f"Your name for seat {seat + 1}").fill(name)
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator(".seat.you")).to_contain_text(name)


def log_count(page: Page) -> int:
    return page.locator("#log li").count()


def play_turn(page: Page) -> None:
    """Play one turn by clicking: the highest usable die, the target it lights up
    that takes the highest figure, then Play (a dead end's target is its discard)."""
    expect(page.locator(TURN)).to_be_visible()
    page.locator(".md-dice .md-die:not([disabled])").last.click()
    figures = page.locator(".md-target").evaluate_all(
        "els => els.map(e => Number(e.dataset.figure || 0))"
    )
    page.locator(".md-target").nth(figures.index(max(figures))).click()
    before = log_count(page)
    page.locator(".md-play").click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")


def wait_turn_or_result(page: Page) -> bool:
    """Wait until ``page`` is to move (True) or the game is over (False)."""
    page.wait_for_function(
        "() => document.querySelector('.md-status.your-turn')"
        " || !document.getElementById('result').hidden"
    )
    return page.locator("#result").is_hidden()


def test_two_friends_play_a_whole_game_by_clicking_dice_and_targets(person) -> None:
    anna = person()
    url = create_room(anna, "Anna", players=2, game="maedn")
    ben = person(url)
    sit_down(ben, 1, "Ben")
    expect(anna.locator(".seat[data-seat='1']")).to_contain_text("Ben")
    anna.get_by_role("button", name="Start the game").click()

    # the table: 40 figures in the middle (single cards with two players), a score to 40
    expect(anna.locator(TURN)).to_be_visible()
    expect(anna.locator(".md-middle .md-slot")).to_have_count(40)
    expect(anna.locator(".md-middle .md-double")).to_have_count(0)
    expect(anna.locator(".md-target-line")).to_have_text("First to 40 points wins.")
    expect(ben.locator(".md-status")).to_have_text("Anna is playing.")
    expect(ben.locator(".md-dice button:disabled")).to_have_count(2)
    expect(ben.locator(".md-score[data-seat='0']")).to_contain_text("2 dice in hand")

    # Anna picks a die: the targets light up, each says what it takes, before she plays
    die = anna.locator(".md-dice .md-die:not([disabled])").first
    expect(die).to_have_attribute("aria-label", re.compile(r"^Die \d$"))
    die.click()
    expect(die).to_have_attribute("aria-pressed", "true")
    target = anna.locator(".md-target").first
    expect(target).to_contain_text("New row")
    expect(target).to_contain_text("from the middle")
    expect(anna.locator(".md-mine-box .md-new-row.md-legal")).to_have_count(1)
    expect(anna.locator(".md-play")).to_be_disabled()
    target.click()
    figure = target.get_attribute("data-figure")
    expect(anna.locator(".md-preview")).to_have_text(f"You take {figure} from the middle.")
    expect(anna.locator(f".md-middle .md-slot.md-taking[data-figure='{figure}']")).to_have_count(1)
    anna.locator(".md-play").click()

    # Ben sees it at once: the log line, Anna's new row, the figure gone from the middle
    expect(ben.locator("#log")).to_contain_text(
        f"Anna starts a row with a {figure} and takes {figure} from the middle."
    )
    expect(ben.locator(".md-player[data-seat='0'] .md-row .md-card")).to_have_count(1)
    expect(ben.locator(f".md-middle .md-slot.md-gone[data-figure='{figure}']")).to_have_count(1)
    expect(ben.locator(".md-lastline")).to_contain_text("Last move: Anna starts a row")
    expect(ben.locator(TURN)).to_be_visible()

    # then they play on, turn about, until someone reaches 40 points
    started = time.monotonic()
    order = [anna, ben]
    moves = 1
    while moves < 300:
        mover, watcher = order[moves % 2], order[(moves + 1) % 2]
        if not wait_turn_or_result(mover):
            break
        before = log_count(watcher)
        play_turn(mover)
        moves += 1
        if moves <= 6:  # the other one sees each move live, without reloading
            expect(watcher.locator("#log li")).not_to_have_count(before)
    print(f"\n{moves} moves through the UI in {time.monotonic() - started:.1f} s")

    for page in (anna, ben):
        result = page.locator("#result")
        expect(result).to_be_visible()
        expect(result.locator("tbody tr")).to_have_count(2)
        expect(result.locator("h2")).to_have_text(re.compile(r"^(You win!|Anna wins!|Ben wins!)$"))
    top = anna.locator("#result tbody tr").first.locator("td.num").inner_text()
    assert int(top) >= 40
    lines = log_lines(anna)
    assert any("steals" in line for line in lines), "a steal happened and reads as one"
    assert any("finishes a row at 40" in line for line in lines)
    assert "Game over" in anna.locator("#log").inner_text()


def test_a_bot_takes_the_third_seat_and_its_moves_show(person) -> None:
    anna = person()
    url = create_room(anna, "Anna", players=3, bots={2: "easy"}, game="maedn")
    ben = person(url, width=390, height=844)
    sit_down(ben, 1, "Ben")
    anna.get_by_role("button", name="Start the game").click()
    expect(anna.locator(".md-middle .md-double")).to_have_count(10)
    expect(anna.locator(".md-target-line")).to_have_text("First to 35 points wins.")

    # on a phone the table fits the width, the dice come first
    expect(ben.locator(".md-status")).to_have_text("Anna is playing.")
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390
    hand = ben.locator(".md-hand-box").bounding_box()
    middle = ben.locator(".md-middle-box").bounding_box()
    assert hand and middle and hand["y"] < middle["y"]

    for _ in range(3):
        for page in (anna, ben):
            play_turn(page)
        # the bot answers by itself; everyone sees its move
        expect(anna.locator(TURN)).to_be_visible()
    bot_lines = ben.locator("#log li").filter(has_text=re.compile(r"^Easy bot "))
    expect(bot_lines).to_have_count(3)
    expect(bot_lines.first).to_have_text(
        re.compile(r"(starts a row|plays a \d on row \d|discards)")
    )
    expect(anna.locator(".md-player[data-seat='2']")).to_contain_text("Easy bot")
    assert anna.locator(".md-player[data-seat='2'] .md-row .md-card").count() >= 1
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390


def fake_state(
    legal: list[dict[str, Any]], rows: list[list[list[int]]], hand: list[int]
) -> dict[str, Any]:
    """A three-player state message as the server would send it to seat 0."""
    stars = {5: 1, 10: 1, 15: 1, 20: 1, 25: 1, 30: 1, 35: 1, 36: 1, 37: 1, 38: 2, 39: 3}
    used: dict[int, int] = {}
    for seat_rows in rows:
        for row in seat_rows:
            for figure in row:
                used[figure] = used.get(figure, 0) + 1
    copies = {f: 2 if f <= 10 else 1 for f in range(1, 41)}
    names = ["Anna", "Ben", "Carla"]
    view = {
        "game": "maedn",
        "players": 3,
        "seat": 0,
        "turn": 0,
        "target": 35,
        "max_open_rows": 3,
        "hand": hand,
        "hand_sizes": [2, 2, 2],
        "rows": [
            [{"figures": row, "stars": [stars.get(f, 0) for f in row]} for row in seat_rows]
            for seat_rows in rows
        ],
        "finished": [[], [], []],
        "middle": [
            {
                "figure": f,
                "count": copies[f] - used.get(f, 0),
                "copies": copies[f],
                "stars": stars.get(f, 0),
            }
            for f in range(1, 41)
        ],
        "scores": [0, 0, 0],
        "draw_pile": 100,
        "discard_pile": {"size": 5, "top": 3},
        "quiet": {"turns": 4, "limit": 900},
        "over": False,
        "winner": None,
        "end": None,
    }
    seats = [
        {"seat": i, "name": n, "kind": "human", "bot": None, "online": True, "to_act": i == 0}
        for i, n in enumerate(names)
    ]
    room = {
        "id": "fake",
        "game": "maedn",
        "title": "MÄDN",
        "players": 3,
        "options": {},
        "rules": {},
        "creator_seat": 0,
        "host_seat": 0,
        "status": "playing",
        "seq": 10,
        "game_no": 1,
        "seats": seats,
    }
    return {
        "type": "state",
        "seq": 10,
        "game_seq": 5,
        "you": 0,
        "room": room,
        "view": view,
        "to_act": [0],
        "legal_moves": legal,
        "result": None,
        "events": [],
    }


MOUNT = """async (state) => {
  const { mount } = await import("/static/js/games/maedn.js");
  const { t } = await import("/static/js/i18n.js");
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/css/games/maedn.css";
  document.head.append(link);
  await new Promise((done) => link.addEventListener("load", done));
  const root = document.createElement("div");
  document.body.replaceChildren(root);
  window.sent = [];
  window.renderer = mount(root, { t, onMove: async (move) => { window.sent.push(move); } });
  window.renderer.update(state);
}"""


def test_a_steal_with_two_possible_victims_lets_the_player_choose_by_keyboard(person) -> None:
    page = person("/")
    # Ben and Carla both hold a 7; Anna's row ends at 3 and she holds a 4 and a 5
    legal = [
        {"type": "start", "dice": [4]},
        {"type": "start", "dice": [5]},
        {"type": "start", "dice": [4, 5]},
        {"type": "extend", "row": 0, "die": 4, "from": 1},
        {"type": "extend", "row": 0, "die": 4, "from": 2},
        {"type": "extend", "row": 0, "die": 5},
    ]
    rows = [[[1, 3]], [[7, 12]], [[2, 7]]]
    page.evaluate(MOUNT, fake_state(legal, rows, [4, 5]))
    expect(page.locator(TURN)).to_have_text("Your turn: pick a die, then where it goes.")

    # both dice together only start a row: 4 + 5 = 9
    expect(page.locator(".md-both")).to_have_attribute(
        "aria-label", "Both together, 4 + 5 = 9: both dice, to start a row"
    )
    die = page.get_by_role("button", name="Die 4", exact=True)
    die.focus()
    page.keyboard.press("Enter")
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(die).to_be_focused()
    expect(page.locator(".md-hint")).to_have_text(
        "Two players hold 7: choose whom you take it from."
    )
    expect(page.locator(".md-target")).to_have_count(3)
    ben = page.get_by_role(
        "button", name=re.compile(r"^7 .*steal from Ben\W+Play the 4 on row 1.*steal 7 from Ben")
    )
    carla = page.get_by_role(
        "button",
        name=re.compile(r"^7 .*steal from Carla\W+Play the 4 on row 1.*steal 7 from Carla"),
    )
    expect(ben).to_contain_text("steal from Ben")
    expect(carla).to_contain_text("steal from Carla")

    # choosing Carla marks her 7 on the table and says so before the move goes
    for _ in range(5):  # the other die, both together, then the three targets
        page.keyboard.press("Tab")
    expect(page.locator(".md-target").nth(2)).to_be_focused()
    page.keyboard.press("Space")
    expect(carla).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".md-preview")).to_have_text("You steal 7 from Carla (their row 1).")
    expect(page.locator(".md-player[data-seat='2'] .md-card.md-taking.md-steal")).to_have_text("7")
    expect(page.locator(".md-player[data-seat='1'] .md-card.md-taking")).to_have_count(0)
    expect(page.locator(".md-mine-box .md-row.md-target-row .md-ghost")).to_have_text("7")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "keyboard focus is visible"
    page.keyboard.press("Escape")
    expect(page.locator(".md-target")).to_have_count(0)
    die.click()
    carla.click()
    page.get_by_role("button", name="Play", exact=True).click()
    assert page.evaluate("window.sent") == [{"type": "extend", "row": 0, "die": 4, "from": 2}]

    # a dead end: three rows, nothing fits; the only way on is to discard a die
    discard = [{"type": "discard", "die": 5}, {"type": "discard", "die": 6}]
    rows = [[[30, 36], [37], [38]], [], []]
    page.evaluate("state => window.renderer.update(state)", fake_state(discard, rows, [5, 6]))
    expect(page.locator(TURN)).to_have_text(
        "Your turn: neither die fits anywhere, so you discard one."
    )
    page.get_by_role("button", name="Die 6: discard it").click()
    page.get_by_role("button", name="Discard the 6").click()
    expect(page.locator(".md-preview")).to_have_text(
        "You discard the 6 and draw back up to two dice."
    )
    page.get_by_role("button", name="Discard", exact=True).click()
    assert page.evaluate("window.sent")[-1] == {"type": "discard", "die": 6}
