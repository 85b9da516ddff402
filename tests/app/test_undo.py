"""Taking a move back over REST (app/play/undo.py, docs/rules.md ALL-7): alone while
nobody has moved since, with everyone's agreement after; never across a move that
drew or showed something hidden. The take-back is an event of the log, so a restart,
the replay, a record and its verification all play the game as it stands."""

from __future__ import annotations

import time
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


def _game(client: TestClient, game: str, players: int) -> tuple[str, list[str]]:
    created = client.post("/api/rooms", json={"game": game, "players": players, "name": "Anna"})
    room, tokens = created.json()["room"], [created.json()["token"]]
    for seat in range(1, players):
        claimed = client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": f"P{seat}"})
        tokens.append(claimed.json()["token"])
    started = client.post(
        f"/api/rooms/{room}/start", json={"shuffle": False}, headers=auth(tokens[0])
    )
    assert started.status_code == 200, started.text
    return room, tokens


def _state(client: TestClient, room: str, token: str | None = None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    body: dict[str, Any] = client.get(f"/api/rooms/{room}/state", headers=headers).json()
    return body


def _move(client: TestClient, room: str, token: str, pick: int = 0) -> dict[str, Any]:
    state = _state(client, room, token)
    moves = state["legal_moves"]
    played = client.post(
        f"/api/rooms/{room}/moves",
        json={"seq": state["seq"], "move": moves[pick % len(moves)]},
        headers=auth(token),
    )
    assert played.status_code == 200, played.text
    body: dict[str, Any] = played.json()
    return body


def _undo(client: TestClient, room: str, token: str, **body: Any) -> Any:
    return client.post(f"/api/rooms/{room}/undo", json=body or None, headers=auth(token))


def _last_event(client: TestClient, room: str) -> dict[str, Any]:
    event: dict[str, Any] = client.get(f"/api/rooms/{room}/events").json()["events"][-1]
    return event


def test_a_blokus_placement_is_taken_back_alone_while_nobody_moved_since(
    client: TestClient, settings: Settings
) -> None:
    room, tokens = _game(client, "blokus", 2)
    start = _state(client, room, tokens[1])
    moved = _move(client, room, tokens[0])
    assert moved["room"]["take_back"] == [{"seat": 0, "ask": False}]
    refused(client.post(f"/api/rooms/{room}/undo"), 401, "no_token")
    refused(_undo(client, room, "forged"), 401, "bad_token")
    refused(_undo(client, room, tokens[1]), 409, "not_undoable")
    refused(_undo(client, room, tokens[0], seq=start["seq"]), 409, "stale")
    undone = _undo(client, room, tokens[0], seq=moved["seq"])
    assert undone.status_code == 200, undone.text
    body = undone.json()
    assert body["to_act"] == [0] and body["room"]["take_back"] == []
    assert _state(client, room, tokens[1])["view"] == start["view"]
    event = _last_event(client, room)
    assert event["kind"] == "undo" and event["seat"] == 0
    assert event["undone"] == [moved["seq"]] and event["to"] == moved["seq"] - 1
    assert "game" not in event, "the position is kept in the private part"
    refused(_undo(client, room, tokens[0]), 409, "not_undoable")
    # a restarted server folds the take-back from the log to the same game
    with TestClient(create_app(settings)) as again:
        assert _state(again, room, tokens[1])["view"] == start["view"]


def test_after_the_next_seat_moved_every_other_person_must_agree(client: TestClient) -> None:
    room, tokens = _game(client, "blokus", 3)
    start = _state(client, room, tokens[2])
    _move(client, room, tokens[0])
    after_one = _state(client, room, tokens[2])
    _move(client, room, tokens[1])
    refused(_undo(client, room, tokens[0]), 409, "others_moved")
    refused(
        client.post(f"/api/rooms/{room}/undo/accept", headers=auth(tokens[1])), 409, "no_request"
    )
    asked = _undo(client, room, tokens[0], ask=True)
    assert asked.status_code == 200, asked.text
    request = asked.json()["room"]["undo_request"]
    assert request["seat"] == 0 and request["agreed"] == [] and request["waiting"] == [1, 2]
    refused(_undo(client, room, tokens[1]), 409, "undo_requested")
    own = client.post(f"/api/rooms/{room}/undo/accept", headers=auth(tokens[0]))
    refused(own, 409, "own_request")
    first = client.post(f"/api/rooms/{room}/undo/accept", headers=auth(tokens[1]))
    assert first.status_code == 200, first.text
    assert first.json()["room"]["undo_request"]["agreed"] == [1]
    again = client.post(f"/api/rooms/{room}/undo/accept", headers=auth(tokens[1]))
    refused(again, 409, "already_agreed")
    last = client.post(f"/api/rooms/{room}/undo/accept", headers=auth(tokens[2]))
    assert last.status_code == 200, last.text
    assert last.json()["room"]["undo_request"] is None and last.json()["to_act"] == [0]
    assert _state(client, room, tokens[2])["view"] == start["view"]
    assert _last_event(client, room)["kind"] == "undo"
    # seat 1 alone may take back its own move, going back only that far
    _move(client, room, tokens[0])
    assert _state(client, room, tokens[2])["view"] == after_one["view"]
    _move(client, room, tokens[1])
    back = _undo(client, room, tokens[1])
    assert back.status_code == 200, back.text
    assert back.json()["to_act"] == [1]
    assert _state(client, room, tokens[2])["view"] == after_one["view"]


def test_with_only_bots_to_ask_a_move_is_taken_back_at_once(client: TestClient) -> None:
    created = client.post(
        "/api/rooms",
        json={"game": "blokus", "players": 2, "name": "Anna", "bots": {"1": "random"}},
    )
    room, anna = created.json()["room"], created.json()["token"]
    start = client.post(f"/api/rooms/{room}/start", headers=auth(anna)).json()
    _move(client, room, anna)
    for _ in range(400):  # the bot answers in the background
        state = _state(client, room, anna)
        if state["to_act"] == [0]:
            break
        time.sleep(0.025)
    assert state["room"]["take_back"] == [{"seat": 0, "ask": False}], "a bot has no say"
    undone = _undo(client, room, anna)
    assert undone.status_code == 200, undone.text
    assert len(_last_event(client, room)["undone"]) == 2
    assert undone.json()["view"]["board"] == start["view"]["board"]


def test_a_declined_request_or_a_move_ends_it(client: TestClient) -> None:
    room, tokens = _game(client, "blokus", 2)
    _move(client, room, tokens[0])
    before = _move(client, room, tokens[1])
    assert _undo(client, room, tokens[0], ask=True).status_code == 200
    declined = client.post(f"/api/rooms/{room}/undo/decline", headers=auth(tokens[1]))
    assert declined.status_code == 200, declined.text
    assert declined.json()["room"]["undo_request"] is None
    assert declined.json()["view"] == before["view"], "nothing was taken back"
    refused(
        client.post(f"/api/rooms/{room}/undo/decline", headers=auth(tokens[1])), 409, "no_request"
    )
    assert _undo(client, room, tokens[0], ask=True).status_code == 200
    moved = _move(client, room, tokens[0])  # seat 0 plays on instead
    assert moved["room"]["undo_request"] is None
    refused(
        client.post(f"/api/rooms/{room}/undo/accept", headers=auth(tokens[1])), 409, "no_request"
    )


def test_a_card_play_or_a_draw_is_never_taken_back(client: TestClient) -> None:
    room, tokens = _game(client, "maedn", 2)
    moved = _move(client, room, tokens[0])
    assert moved["room"]["take_back"] == []
    refused(_undo(client, room, tokens[0]), 409, "not_undoable")
    refused(_undo(client, room, tokens[0], ask=True), 409, "not_undoable")
    # in M a placement shows a card from the hand: it stays
    room, tokens = _game(client, "m", 2)
    state = _state(client, room, tokens[0])
    place = next(m for m in state["legal_moves"] if m["type"] == "place")
    played = client.post(
        f"/api/rooms/{room}/moves",
        json={"seq": state["seq"], "move": place},
        headers=auth(tokens[0]),
    )
    assert played.status_code == 200, played.text
    refused(_undo(client, room, tokens[0]), 409, "not_undoable")


def test_replay_records_and_verification_play_the_game_as_it_stands(
    settings: Settings,
) -> None:
    often = settings.model_copy(update={"snapshot_every": 1})
    with TestClient(create_app(often)) as client:
        room, tokens = _game(client, "blokus", 2)
        _move(client, room, tokens[0], pick=0)
        _move(client, room, tokens[1], pick=0)
        assert _undo(client, room, tokens[1]).status_code == 200
        _move(client, room, tokens[1], pick=5)
        live = _state(client, room)
        game = client.get(f"/api/rooms/{room}/games/1").json()
        assert len(game["moves"]) == 2
        step = client.get(f"/api/rooms/{room}/games/1/steps/2").json()
        assert step["view"] == live["view"] and step["to_act"] == live["to_act"]
        for _ in range(30):  # to the end: resign both, the record is then whole
            if _state(client, room)["room"]["status"] != "playing":
                break
            client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[0]))
            client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[1]))
        assert _state(client, room)["room"]["status"] == "finished"
        record = client.get(f"/api/rooms/{room}/games/1/record").json()
        assert len(record["moves"]) >= 2
        checked = client.post("/api/records/verify", json=record).json()
        assert checked["ok"] is True, checked
        imported = client.post("/api/records", json=record)
        assert imported.status_code == 201, imported.text
