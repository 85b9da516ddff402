"""The board's marks of what changed since your last turn, in Chromium: when the turn
comes back, what the others did in between is marked where it happened, with words
for a screen reader, and the points it brought are shown beside the scores."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from engines import get_engine
from tests.app.records_help import bot_record
from tests.e2e.accessibility import report, violations
from tests.e2e.helpers import place_by_clicking
from tests.server import ServerProcess

pytestmark = pytest.mark.e2e


def _import(server: ServerProcess, record: dict[str, Any]) -> dict[str, Any]:
    made = httpx.post(f"{server.url}/api/records", json=record, timeout=30)
    assert made.status_code == 201, made.text
    return dict(made.json())


def _state(server: ServerProcess, room: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    got = httpx.get(f"{server.url}/api/rooms/{room}/state", headers=headers, timeout=30)
    return dict(got.json())


def _play_first_legal(server: ServerProcess, room: str, token: str) -> dict[str, Any]:
    mine = _state(server, room, token)
    move = mine["legal_moves"][0]
    sent = httpx.post(
        f"{server.url}/api/rooms/{room}/moves",
        json={"seq": mine["seq"], "move": move},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert sent.status_code == 200, sent.text
    return dict(move)


def _expect_marked(page: Page, cells: list[list[int]]) -> None:
    """Exactly ``cells`` carry the mark: a folded corner to see, words in their label."""
    expect(page.locator(".bk-board rect.cell.since")).to_have_count(len(cells))
    expect(page.locator(".bk-since .bk-since-mark")).to_have_count(len(cells))
    for r, c in cells:
        cell = page.locator(f'.bk-board rect.cell[data-r="{r}"][data-c="{c}"]')
        expect(cell).to_have_class(re.compile(r"\bsince\b"))
        expect(cell).to_have_attribute("aria-label", re.compile(r", new since your last turn$"))


def test_blokus_marks_the_others_pieces_and_points_when_the_turn_comes_back(
    person, browser: Browser, server: ServerProcess
) -> None:
    record = bot_record("blokus", 4, {"variant": "classic"}, seed=23)
    record["moves"] = record["moves"][:9]
    record["result"] = None
    made = _import(server, record)
    room = made["room"]
    tokens = [seat["token"] for seat in made["seats"]]
    page = person(f"/r/{room}#token={tokens[1]}")  # yellow, to move; its last piece was move 6

    # the turn is here: moves 7, 8 and 9 (red, green, blue) are marked, and their points
    since = [cell for entry in record["moves"][6:9] for cell in entry["move"]["cells"]]
    _expect_marked(page, since)
    expect(page.locator(".bk-score .since-gain")).to_have_count(3)
    expect(page.locator('.bk-score[data-colour="red"] .since-gain')).to_contain_text(
        f"+{len(record['moves'][6]['move']['cells'])}"
    )
    expect(page.locator('.bk-score[data-colour="red"] .since-gain .sr-only')).to_have_text(
        f"+{len(record['moves'][6]['move']['cells'])} points since your last turn"
    )
    expect(page.locator("#since")).to_contain_text("Since your last turn: 3 moves")
    _axe_clean(browser, server, f"/r/{room}#token={tokens[1]}", ".bk-score .since-gain")

    # you place a piece: no marks while the others play
    place_by_clicking(page)
    expect(page.locator(".bk-board rect.cell.since")).to_have_count(0)
    expect(page.locator(".bk-score .since-gain")).to_have_count(0)

    # the other three move; when the turn comes back only their pieces are marked
    played = [_play_first_legal(server, room, tokens[seat]) for seat in (2, 3, 0)]
    expect(page.locator(".bk-status.your-turn")).to_be_visible()
    _expect_marked(page, [cell for move in played for cell in move["cells"]])
    expect(page.locator(".bk-score .since-gain")).to_have_count(3)
    expect(page.locator('.bk-score[data-colour="yellow"] .since-gain')).to_have_count(0)

    page.locator("#lang").select_option("de")
    first = played[0]["cells"][0]
    expect(
        page.locator(f'.bk-board rect.cell[data-r="{first[0]}"][data-c="{first[1]}"]')
    ).to_have_attribute("aria-label", re.compile(r", neu seit deinem letzten Zug$"))


def _axe_clean(browser: Browser, server: ServerProcess, path: str, marked: str) -> None:
    """axe-core finds nothing on the page once ``marked`` shows (its own context: axe
    is injected, which the page's CSP forbids unless bypassed)."""
    context = browser.new_context(
        base_url=server.url, viewport={"width": 1280, "height": 800}, bypass_csp=True
    )
    try:
        page = context.new_page()
        page.goto(path)
        expect(page.locator(marked).first).to_be_visible()
        found = violations(page)
        assert not found, report(found)
    finally:
        context.close()


def _last_turn_step(moves: list[dict[str, Any]], seat: int) -> int:
    return max((i + 1 for i, move in enumerate(moves) if move["seat"] == seat), default=0)


def _card_game_at_a_turn(
    server: ServerProcess, game: str, players: int, seed: int
) -> tuple[dict[str, Any], int, dict[str, Any], dict[str, Any]]:
    """An imported card game cut where a seat's turn has come back after the others
    changed the table; returns the room, that seat, its view then and now."""
    record = bot_record(game, players, {}, seed=seed)
    for cut in range(players + 4, len(record["moves"])):
        seat = record["moves"][cut]["seat"]
        if record["moves"][cut - 1]["seat"] == seat:
            continue  # the same seat again (a scoring phase): nobody else moved
        made = _import(server, {**record, "moves": record["moves"][:cut], "result": None})
        token = made["seats"][seat]["token"]
        step = _last_turn_step(record["moves"][:cut], seat)
        before = httpx.get(
            f"{server.url}/api/rooms/{made['room']}/games/1/steps/{step}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        ).json()["view"]
        now = _state(server, made["room"], token)
        assert now["to_act"] == [seat]
        if now["view"] != before:
            return made, seat, before, now["view"]
    raise AssertionError("no cut found")


def test_m_marks_the_cards_laid_and_taken_since_your_last_turn(
    person, browser: Browser, server: ServerProcess
) -> None:
    made, seat, before, now = _card_game_at_a_turn(server, "m", 3, seed=31)
    on_table = {e["card"]["id"] for e in before["table"]}
    placed = [e["card"]["id"] for e in now["table"] if e["card"]["id"] not in on_table]
    held = {c["id"] for cards in before["collections"] for c in cards}
    taken = [c["id"] for cards in now["collections"] for c in cards if c["id"] not in held]
    assert placed or taken
    page = person(f"/r/{made['room']}#token={made['seats'][seat]['token']}")
    expect(page.locator("#since")).to_be_visible()
    expect(page.locator(".mm-grid .mm-cell.since")).to_have_count(len(placed))
    for card in placed:
        cell = page.locator(".mm-grid .mm-cell.since", has=page.locator(f'svg[data-card="{card}"]'))
        expect(cell.locator(".since-flag")).to_have_count(1)
        expect(cell).to_have_attribute("aria-label", re.compile(r", new since your last turn$"))
    expect(page.locator(".mm-players svg.mm-card.since")).to_have_count(len(taken))
    for seat_no, cards in enumerate(now["collections"]):
        if any(c["id"] in taken for c in cards):
            group = page.locator(f'.mm-player[data-seat="{seat_no}"] .mm-group.since')
            expect(group.first).to_have_attribute(
                "aria-label", re.compile(r"new since your last turn: ")
            )
    gains = [
        now["scores"][s]["total"] - before["scores"][s]["total"] for s in range(now["players"])
    ]
    expect(page.locator(".mm-player .mm-player-head .since-gain")).to_have_count(
        sum(1 for g in gains if g)
    )
    _axe_clean(browser, server, f"/r/{made['room']}#token={made['seats'][seat]['token']}", ".since")


def test_maedn_marks_the_figures_taken_since_your_last_turn(
    person, browser: Browser, server: ServerProcess
) -> None:
    made, seat, before, now = _card_game_at_a_turn(server, "maedn", 3, seed=32)

    def figures(view: dict[str, Any], who: int) -> list[int]:
        return [f for row in view["rows"][who] for f in row["figures"]]

    fresh = 0
    for who in range(now["players"]):
        had = figures(before, who)
        for figure in figures(now, who):
            if figure in had:
                had.remove(figure)
            else:
                fresh += 1
    assert fresh > 0
    page = person(f"/r/{made['room']}#token={made['seats'][seat]['token']}")
    expect(page.locator("#since")).to_be_visible()
    expect(page.locator(".md-player .md-strip .md-card.since")).to_have_count(fresh)
    expect(page.locator(".md-player .md-strip .md-card.since .since-flag")).to_have_count(fresh)
    expect(
        page.locator(".md-player li.md-row[aria-label*='new since your last turn']").first
    ).to_be_visible()
    gains = [now["scores"][s] - before["scores"][s] for s in range(now["players"])]
    expect(page.locator(".md-scores .since-gain")).to_have_count(sum(1 for g in gains if g))
    _axe_clean(browser, server, f"/r/{made['room']}#token={made['seats'][seat]['token']}", ".since")


def _maedn_cut_after_a_steal(seed: int) -> tuple[dict[str, Any], int, int, int]:
    """A 3-player MÄDN record cut where a seat's turn has come back and the move just
    before was another seat's steal; returns the cut record, that seat, the victim and
    the figure stolen."""
    engine = get_engine("maedn")
    record = bot_record("maedn", 3, {}, seed=seed)
    state = engine.new_game(3, seed, record["options"])
    for cut, entry in enumerate(record["moves"]):
        after = engine.play(state, entry["seat"], entry["move"])
        line = engine.log_line(state, entry["seat"], entry["move"], after)
        state = after
        if cut + 1 >= len(record["moves"]) or line.get("taken_from") != "stolen":
            continue
        seat = record["moves"][cut + 1]["seat"]
        if seat != entry["seat"] and _last_turn_step(record["moves"][: cut + 1], seat):
            cut_record = {**record, "moves": record["moves"][: cut + 1], "result": None}
            return cut_record, seat, int(line["from_seat"]), int(line["figure"])
    raise AssertionError(f"no steal right before a turn in seed {seed}")


def test_maedn_says_a_figure_stolen_by_the_last_move_once(
    person, browser: Browser, server: ServerProcess
) -> None:
    """The victim's box names the last move's steal in its own note; the note of what
    it lost since your last turn names only the other figures, not that one again."""
    record, seat, victim, figure = _maedn_cut_after_a_steal(seed=32)
    made = _import(server, record)
    token = made["seats"][seat]["token"]
    step = _last_turn_step(record["moves"], seat)
    before = httpx.get(
        f"{server.url}/api/rooms/{made['room']}/games/1/steps/{step}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    ).json()["view"]
    now = _state(server, made["room"], token)["view"]

    def figures(view: dict[str, Any]) -> list[int]:
        return [f for row in view["rows"][victim] for f in row["figures"]]

    lost = figures(before)
    for kept in figures(now):
        if kept in lost:
            lost.remove(kept)
    assert figure in lost
    lost.remove(figure)  # the steal's own note names it

    page = person(f"/r/{made['room']}#token={token}")
    expect(page.locator("#since")).to_be_visible()
    box = page.locator(f'article.md-player[data-seat="{victim}"]')
    expect(box.locator(f'.md-note-steal[data-figure="{figure}"]')).to_be_visible()
    since = box.locator(".md-note-since")
    if lost:
        expect(since).to_have_text(
            f"Taken since your last turn: {', '.join(map(str, sorted(lost)))}"
        )
    else:
        expect(since).to_have_count(0)
