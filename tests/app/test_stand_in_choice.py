"""Who plays for a person who is away: the game's strongest bot level, unless the host
chose another for the room or the person picks one as they leave; and the names bots
had before the levels (``strong``, ``random``) still work, as the levels they stand for."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.play import store
from app.play.kinds import ROOM_SETTINGS, SEAT_BOT
from app.play.rooms import Append, RoomRules
from app.services import Services, create_app
from tests.calls import auth

HOUR = 3600


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture(autouse=True)
def test_clock() -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


def _blokus(client: TestClient, **rules: Any) -> tuple[str, list[str]]:
    created = client.post(
        "/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna", **rules}
    )
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    tokens = [created.json()["token"], ben]
    started = client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    assert started.status_code == 200, started.text
    return room, tokens


def _stand_ins(client: TestClient, room: str) -> list[dict[str, Any]]:
    events = client.get(f"/api/rooms/{room}/events").json()["events"]
    return [e for e in events if e["kind"] == "seat_stand_in"]


@pytest.mark.parametrize("game", ["blokus", "m", "maedn"])
def test_every_game_lists_its_strongest_bot_first(client: TestClient, game: str) -> None:
    [info] = [g for g in client.get("/api/games").json() if g["name"] == game]
    assert [b["name"] for b in info["bots"]] == ["hard", "medium", "easy"]
    assert info["bots"][0]["name"] == "hard", "the first bot is the stand-in: the strongest"


def test_a_person_who_leaves_gets_the_strongest_bot_unless_they_pick_one(
    client: TestClient,
) -> None:
    room, tokens = _blokus(client)
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[0])).status_code == 200
    assert client.post(f"/api/rooms/{room}/seats/0/take-back", headers=auth(tokens[0]))
    left = client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[1]), json={"bot": "easy"})
    assert left.status_code == 200, left.text
    assert [e["bot"] for e in _stand_ins(client, room)] == ["hard", "easy"]


def test_a_leaving_persons_unknown_bot_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    room, tokens = _blokus(client)
    for bot in ["clever", "", "strong\x00", "Hard", 7]:
        refused = client.post(
            f"/api/rooms/{room}/leave", headers=auth(tokens[0]), json={"bot": bot}
        )
        assert refused.status_code in (400, 422), refused.text
        assert refused.json()["code"] in ("unknown_bot", "malformed") and refused.json()["message"]
    outsider = client.post(f"/api/rooms/{room}/leave", json={"bot": "clever"})
    assert outsider.status_code == 401 and outsider.json()["code"] == "no_token"
    assert _stand_ins(client, room) == []


def test_the_hosts_choice_for_the_room_plays_for_who_leaves_and_who_is_handed_over(
    client: TestClient,
) -> None:
    room, tokens = _blokus(client, stand_in="medium")
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[1])).status_code == 200
    assert client.post(f"/api/rooms/{room}/seats/1/take-back", headers=auth(tokens[1]))
    handed = client.post(f"/api/rooms/{room}/seats/1/hand-over", headers=auth(tokens[0]))
    assert handed.status_code == 200, handed.text
    assert [e["bot"] for e in _stand_ins(client, room)] == ["medium", "medium"]


def test_a_room_with_a_stand_in_the_game_lacks_is_refused(client: TestClient) -> None:
    refused = client.post(
        "/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna", "stand_in": "clever"}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_bot"
    assert "hard, medium, easy" in refused.json()["message"]


@pytest.mark.parametrize(
    ("chosen", "plays"), [(None, "hard"), ("easy", "easy"), ("random", "easy")]
)
async def test_when_time_is_up_the_rooms_stand_in_plays(
    services: Services, chosen: str | None, plays: str
) -> None:
    rules = RoomRules(turn_seconds=HOUR, on_timeout="bot_seat", stand_in=chosen)
    state, anna = await services.rooms.create("blokus", 2, {}, "Anna", 0, {}, rules)
    await services.rooms.claim(state.room.id, 1, "Ben", None)
    state = await services.rooms.start(state.room.id, anna, None)
    clock.advance(HOUR + 1)
    await services.deadlines.tick()
    stand_ins = [e.public for e in await services.rooms.events(state.room.id, 0)]
    stand_ins = [p for p in stand_ins if p.get("reason") == "timeout"]
    assert [p["bot"] for p in stand_ins] == [plays]


def test_the_host_changes_a_waiting_tables_stand_in_and_the_next_leaver_gets_it(
    client: TestClient,
) -> None:
    created = client.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"})
    room, anna = created.json()["room"], created.json()["token"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    path = f"/api/rooms/{room}/settings"
    refused = client.post(path, json={"stand_in": "clever"}, headers=auth(anna))
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_bot"
    other = client.post(path, json={"stand_in": "easy"}, headers=auth(ben))
    assert other.status_code == 403 and other.json()["code"] == "not_creator"
    changed = client.post(path, json={"stand_in": "easy"}, headers=auth(anna))
    assert changed.status_code == 200, changed.text
    assert client.get(f"/api/rooms/{room}").json()["rules"]["stand_in"] == "easy"
    assert client.post(f"/api/rooms/{room}/start", headers=auth(anna)).status_code == 200
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(ben)).status_code == 200
    assert [e["bot"] for e in _stand_ins(client, room)] == ["easy"]


def test_old_bot_names_in_api_calls_are_taken_as_the_levels_they_stand_for(
    client: TestClient,
) -> None:
    created = client.post(
        "/api/rooms",
        json={
            "game": "blokus",
            "players": 4,
            "name": "Anna",
            "bots": {"1": "strong", "2": "random"},
            "stand_in": "strong",
        },
    )
    assert created.status_code == 201, created.text
    room, anna = created.json()["room"], created.json()["token"]
    seated = client.post(
        f"/api/rooms/{room}/seats/3/bot", json={"bot": "random"}, headers=auth(anna)
    )
    assert seated.status_code == 200, seated.text
    info = client.get(f"/api/rooms/{room}").json()
    assert [s["bot"] for s in info["seats"]] == [None, "medium", "easy", "easy"]
    assert info["rules"]["stand_in"] == "medium"
    # the log says what was stored: the levels
    events = client.get(f"/api/rooms/{room}/events").json()["events"]
    assert [e["bot"] for e in events if e["kind"] == "seat_bot"] == ["easy"]


def test_a_room_whose_log_names_the_old_bots_plays_and_shows_their_levels(
    client: TestClient,
) -> None:
    """A room stored before the levels: its log says ``strong`` and ``random``."""
    created = client.post(
        "/api/rooms",
        json={"game": "blokus", "players": 2, "name": "Anna", "options": {"variant": "duo"}},
    )
    room, anna = created.json()["room"], created.json()["token"]
    services: Services = client.app.state.services  # type: ignore[attr-defined]

    async def the_old_way() -> None:
        state = await services.rooms.load(room)
        old = {"seat": 1, "bot": "strong"}
        rules = {**state.room.rules, "stand_in": "random"}
        settings = {"players": 2, "options": state.room.options, "rules": rules}

        async def sit(session: Any) -> None:
            assert await store.set_bot(session, room, 1, "strong")
            assert await store.change_settings(session, room, 2, state.room.options, rules)

        await services.rooms.append(
            state, Append([(SEAT_BOT, old, old), (ROOM_SETTINGS, settings, settings)], extra=sit)
        )

    client.portal.call(the_old_way)  # type: ignore[union-attr]
    info = client.get(f"/api/rooms/{room}").json()
    assert info["seats"][1]["bot"] == "medium" and info["seats"][1]["kind"] == "bot"
    assert info["rules"]["stand_in"] == "easy"
    assert client.post(f"/api/rooms/{room}/start", headers=auth(anna)).status_code == 200
    # the old "strong" bot plays (the greedy: medium) whenever its turn comes
    for _ in range(3):
        state = client.get(f"/api/rooms/{room}/state", headers=auth(anna)).json()
        if not state["legal_moves"]:
            state = _wait_for_my_turn(client, room, anna)
        move = state["legal_moves"][0]
        moved = client.post(
            f"/api/rooms/{room}/moves", json={"move": move, "seq": state["seq"]}, headers=auth(anna)
        )
        assert moved.status_code == 200, moved.text
    _wait_for_my_turn(client, room, anna)
    moves = [
        e for e in client.get(f"/api/rooms/{room}/events").json()["events"] if e["kind"] == "move"
    ]
    assert [m["seat"] for m in moves] == [0, 1, 0, 1, 0, 1]
    # and who leaves gets the room's stand-in, the old "random": easy
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(anna)).status_code == 200
    assert [e["bot"] for e in _stand_ins(client, room)] == ["easy"]


def test_the_settings_forms_whole_answer_keeps_the_timeout_policy_and_the_stand_in(
    client: TestClient,
) -> None:
    """The host's settings form sends every field it shows; null for what happens when
    the time is up keeps it, null for the stand-in goes back to the strongest."""
    created = client.post("/api/rooms", json={"game": "m", "players": 2, "name": "Anna"})
    room, anna = created.json()["room"], created.json()["token"]
    path = f"/api/rooms/{room}/settings"
    form = {
        "players": 2,
        "options": {},
        "turn_seconds": HOUR,
        "on_timeout": "bot_seat",
        "stand_in": "medium",
    }
    changed = client.post(path, json=form, headers=auth(anna))
    assert changed.status_code == 200, changed.text
    rules = client.get(f"/api/rooms/{room}").json()["rules"]
    assert (rules["turn_seconds"], rules["on_timeout"], rules["stand_in"]) == (
        HOUR,
        "bot_seat",
        "medium",
    )
    kept = client.post(path, json={"on_timeout": None, "stand_in": None}, headers=auth(anna))
    assert kept.status_code == 200, kept.text
    rules = client.get(f"/api/rooms/{room}").json()["rules"]
    assert (rules["on_timeout"], rules["stand_in"]) == ("bot_seat", None)
    events = client.get(f"/api/rooms/{room}/events").json()["events"]
    assert [e["rules"]["stand_in"] for e in events if e["kind"] == ROOM_SETTINGS] == [
        "medium",
        None,
    ]


def _wait_for_my_turn(client: TestClient, room: str, token: str) -> dict[str, Any]:
    for _ in range(400):
        state: dict[str, Any] = client.get(f"/api/rooms/{room}/state", headers=auth(token)).json()
        if state["legal_moves"]:
            return state
        client.portal.call(asyncio.sleep, 0.05)  # type: ignore[union-attr]
    raise AssertionError("the bot never moved")
