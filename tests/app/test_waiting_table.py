"""Putting a waiting table right before the start: a person stands up from a seat
taken by mistake, the host frees any seat, and the host changes the players, the
options and the time per move until the game starts (docs/protocol.md, "A waiting
table")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.services import create_app
from tests.calls import auth, refused


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _room(client: TestClient, game: str = "secret", players: int = 4) -> tuple[str, str]:
    created = client.post("/api/rooms", json={"game": game, "players": players, "name": "Anna"})
    assert created.status_code == 201, created.text
    return created.json()["room"], created.json()["token"]


def _claim(client: TestClient, room: str, seat: int, name: str) -> str:
    claimed = client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": name})
    assert claimed.status_code == 200, claimed.text
    return str(claimed.json()["token"])


def _events(client: TestClient, room: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/rooms/{room}/events").json()["events"])


def test_a_person_holding_two_seats_stands_up_from_one(client: TestClient) -> None:
    room, anna = _room(client)
    ben = _claim(client, room, 1, "Ben")
    ben_again = _claim(client, room, 2, "Ben")  # the shared link instead of the resume link
    stood = client.post(f"/api/rooms/{room}/stand-up", headers=auth(ben_again))
    assert stood.status_code == 200, stood.text
    assert stood.json()["you"] is None
    seat = stood.json()["room"]["seats"][2]
    assert seat["kind"] == "empty" and seat["name"] is None
    assert _events(client, room)[-1] | {"at": None} == {
        "seq": _events(client, room)[-1]["seq"],
        "kind": "seat_vacated",
        "seat": 2,
        "name": "Ben",
        "at": None,
    }
    # that token holds nothing any more; Ben's other seat is as it was
    refused(client.get(f"/api/rooms/{room}/state", headers=auth(ben_again)), 401, "bad_token")
    assert client.get(f"/api/rooms/{room}/state", headers=auth(ben)).json()["you"] == 1
    # the seat is free for someone else
    assert _claim(client, room, 2, "Cleo")
    # the host stands up only after handing the role on; a spectator has no seat
    refused(client.post(f"/api/rooms/{room}/stand-up", headers=auth(anna)), 409, "own_seat")
    refused(client.post(f"/api/rooms/{room}/stand-up"), 401, "no_token")


def test_nobody_stands_up_while_a_game_runs(client: TestClient) -> None:
    room, anna = _room(client, players=2)
    ben = _claim(client, room, 1, "Ben")
    assert client.post(f"/api/rooms/{room}/start", headers=auth(anna)).status_code == 200
    refused(client.post(f"/api/rooms/{room}/stand-up", headers=auth(ben)), 409, "game_running")


def test_the_host_frees_any_seat_of_a_waiting_table_but_their_own(client: TestClient) -> None:
    room, anna = _room(client)
    ben = _claim(client, room, 1, "Ben")
    ben_again = _claim(client, room, 2, "Ben")
    bot = client.post(f"/api/rooms/{room}/seats/3/bot", json={"bot": "one"}, headers=auth(anna))
    assert bot.status_code == 200, bot.text
    refused(client.post(f"/api/rooms/{room}/seats/2/free", headers=auth(ben)), 403, "not_creator")
    refused(client.post(f"/api/rooms/{room}/seats/2/free"), 401, "no_token")
    refused(client.post(f"/api/rooms/{room}/seats/0/free", headers=auth(anna)), 409, "own_seat")
    refused(client.post(f"/api/rooms/{room}/seats/9/free", headers=auth(anna)), 404, "no_such_seat")
    freed = client.post(f"/api/rooms/{room}/seats/2/free", headers=auth(anna))
    assert freed.status_code == 200, freed.text
    seat = freed.json()["seats"][2]
    assert seat == {**seat, "kind": "empty", "name": None, "bot": None, "stand_in": None}
    event = _events(client, room)[-1]
    assert event == {**event, "kind": "seat_released", "seat": 2, "name": "Ben", "bot": None}
    refused(client.get(f"/api/rooms/{room}/state", headers=auth(ben_again)), 401, "bad_token")
    # a bot's seat too
    freed = client.post(f"/api/rooms/{room}/seats/3/free", headers=auth(anna))
    assert freed.status_code == 200, freed.text
    assert freed.json()["seats"][3]["kind"] == "empty"
    refused(client.post(f"/api/rooms/{room}/seats/3/free", headers=auth(anna)), 409, "seat_free")
    # and between games as well
    for seat, name in ((2, "Cleo"), (3, "Dan")):
        _claim(client, room, seat, name)
    assert client.post(f"/api/rooms/{room}/start", headers=auth(anna)).status_code == 200


def test_the_host_changes_players_options_and_time_until_the_start(client: TestClient) -> None:
    room, anna = _room(client, game="blokus", players=4)
    ben = _claim(client, room, 1, "Ben")
    cleo = _claim(client, room, 3, "Cleo")
    path = f"/api/rooms/{room}/settings"
    refused(client.post(path, json={"players": 3}, headers=auth(ben)), 403, "not_creator")
    refused(client.post(path, json={"players": 3}), 401, "no_token")
    # a person in a seat that would go: they stand up (or are freed) first
    refused(client.post(path, json={"players": 3}, headers=auth(anna)), 409, "seat_taken")
    refused(client.post(path, json={"players": 5}, headers=auth(anna)), 400, "bad_players")
    refused(
        client.post(path, json={"options": {"variant": "duo"}}, headers=auth(anna)),
        400,
        "bad_players",
    )
    refused(
        client.post(path, json={"options": {"speed": 1}}, headers=auth(anna)),
        400,
        "unknown_option",
    )
    refused(client.post(path, json={"turn_seconds": 5}, headers=auth(anna)), 400, "malformed")
    assert client.post(f"/api/rooms/{room}/stand-up", headers=auth(cleo)).status_code == 200
    changed = client.post(
        path,
        json={"players": 2, "options": {"variant": "duo"}, "turn_seconds": 3600},
        headers=auth(anna),
    )
    assert changed.status_code == 200, changed.text
    info = changed.json()
    assert info["players"] == 2 and len(info["seats"]) == 2
    assert info["options"] == {"variant": "duo", "free_corners": False}
    assert info["rules"]["turn_seconds"] == 3600 and info["rules"]["on_timeout"] == "bot_move"
    event = _events(client, room)[-1]
    assert event["kind"] == "room_settings" and event["players"] == 2
    # a field left out keeps its value; null lifts the time limit
    lifted = client.post(path, json={"turn_seconds": None}, headers=auth(anna)).json()
    assert lifted["rules"]["turn_seconds"] is None and lifted["options"]["variant"] == "duo"
    more = client.post(path, json={"players": 3, "options": {}}, headers=auth(anna)).json()
    assert more["players"] == 3 and more["seats"][2]["kind"] == "empty"
    assert more["options"]["variant"] == "classic"
    _claim(client, room, 2, "Dan")
    started = client.post(f"/api/rooms/{room}/start", headers=auth(anna))
    assert started.status_code == 200, started.text
    begun = [e for e in _events(client, room) if e["kind"] == "game_started"][-1]
    assert begun["players"] == 3 and begun["options"]["variant"] == "classic"
    refused(client.post(path, json={"players": 2}, headers=auth(anna)), 409, "game_running")


def test_changed_settings_survive_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        room, anna = _room(client, players=4)
        changed = client.post(
            f"/api/rooms/{room}/settings", json={"players": 2}, headers=auth(anna)
        )
        assert changed.status_code == 200, changed.text
        _claim(client, room, 1, "Ben")
    with TestClient(create_app(settings)) as client:
        info = client.get(f"/api/rooms/{room}").json()
        assert info["players"] == 2 and [s["name"] for s in info["seats"]] == ["Anna", "Ben"]
        started = client.post(f"/api/rooms/{room}/start", headers=auth(anna))
        assert started.status_code == 200, started.text


def test_the_new_routes_answer_every_kind_of_caller_between_games(client: TestClient) -> None:
    """Stand up, free, settings, resign, abort and take back on a table between games,
    after a shuffled game: as a spectator, an outsider, a freed seat's old token,
    another room's token, a seated player, and the host wherever the shuffle put them."""
    room, anna = _room(client, players=3)
    ben, cleo = _claim(client, room, 1, "Ben"), _claim(client, room, 2, "Cleo")
    other = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "Zoe"})
    callers = {
        "outsider": "a-token-nobody-holds",
        "other_room": other.json()["token"],
        "freed": cleo,
    }
    started = client.post(f"/api/rooms/{room}/start", json={"shuffle": True}, headers=auth(anna))
    assert started.status_code == 200, started.text
    assert client.post(f"/api/rooms/{room}/resign", headers=auth(ben)).status_code == 200
    cleo_seat = client.get(f"/api/rooms/{room}/state", headers=auth(cleo)).json()["you"]
    anna_seat = client.get(f"/api/rooms/{room}/state", headers=auth(anna)).json()["you"]
    freed = client.post(f"/api/rooms/{room}/seats/{cleo_seat}/free", headers=auth(anna))
    assert freed.status_code == 200, freed.text
    base = f"/api/rooms/{room}"
    routes: list[tuple[str, Any]] = [
        ("stand-up", None),
        ("settings", {"turn_seconds": 3600}),
        (f"seats/{anna_seat}/free", None),
        ("resign", None),
        ("abort", None),
        (f"seats/{anna_seat}/take-back", None),
    ]
    for path, body in routes:
        refused(client.post(f"{base}/{path}", json=body), 401, "no_token")
        for token in callers.values():
            refused(client.post(f"{base}/{path}", json=body, headers=auth(token)), 401, "bad_token")
    host = auth(anna)
    refused(
        client.post(f"{base}/settings", json={"turn_seconds": 3600}, headers=auth(ben)),
        403,
        "not_creator",
    )
    refused(client.post(f"{base}/seats/{anna_seat}/free", headers=auth(ben)), 403, "not_creator")
    refused(client.post(f"{base}/settings", json={"players": 99}, headers=host), 400, "malformed")
    refused(
        client.post(f"{base}/settings", json={"options": {"x": 1}}, headers=host),
        400,
        "unknown_option",
    )
    refused(
        client.post(f"{base}/settings", json={"players": "two"}, headers=host), 400, "malformed"
    )
    refused(client.post(f"{base}/seats/99/free", headers=host), 404, "no_such_seat")
    refused(client.post(f"{base}/seats/{anna_seat}/free", headers=host), 409, "own_seat")
    refused(client.post(f"{base}/stand-up", headers=host), 409, "own_seat")
    refused(client.post(f"{base}/resign", headers=host), 409, "not_playing")
    refused(client.post(f"{base}/abort", headers=host), 409, "not_playing")
    refused(client.post(f"{base}/seats/{anna_seat}/take-back", headers=host), 409, "not_stood_in")
    refused(client.post("/api/rooms/no-such-room/stand-up", headers=host), 404, "room_not_found")
    assert (
        client.post(f"{base}/settings", json={"turn_seconds": 3600}, headers=host).status_code
        == 200
    )
    assert client.post(f"{base}/stand-up", headers=auth(ben)).status_code == 200
