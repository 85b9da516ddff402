"""Ending a game early over REST: a seat resigns (the engine decides what that does,
and the game counts in the tally), or the seated people agree to abort (no result,
no tally); both are events of the log, so a restart, the replay and a record agree."""

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


def _game(client: TestClient, game: str = "secret", players: int = 3) -> tuple[str, list[str]]:
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


def _events(client: TestClient, room: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/rooms/{room}/events").json()["events"])


def test_a_resignation_ends_the_game_as_the_engine_says_and_counts_in_the_tally(
    client: TestClient,
) -> None:
    room, tokens = _game(client)
    refused(client.post(f"/api/rooms/{room}/resign"), 401, "no_token")
    refused(client.post(f"/api/rooms/{room}/resign", headers=auth("forged")), 401, "bad_token")
    # not their turn: a player may resign all the same
    resigned = client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[1]))
    assert resigned.status_code == 200, resigned.text
    body = resigned.json()
    assert body["room"]["status"] == "finished" and body["you"] == 1
    assert body["result"]["ranks"][2] == 1, "the secret game's next seat wins"
    kinds = [(e["kind"], e.get("resigned")) for e in _events(client, room)[-2:]]
    assert kinds == [("move", True), ("game_over", None)]
    refused(client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[1])), 409, "not_playing")
    history = client.get(f"/api/rooms/{room}/games").json()
    assert history["games"][0]["aborted"] is False
    assert {t["name"]: t["wins"] for t in history["tally"]}["P2"] == 1


def test_a_resignation_meant_for_an_earlier_game_is_stale(client: TestClient) -> None:
    room, tokens = _game(client)
    seq = client.get(f"/api/rooms/{room}/state").json()["seq"]
    move = client.post(
        f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 1}}, headers=auth(tokens[0])
    )
    assert move.status_code == 200, move.text
    refused(
        client.post(f"/api/rooms/{room}/resign", json={"seq": seq}, headers=auth(tokens[2])),
        409,
        "stale",
    )


def test_in_blokus_the_resigning_colour_stops_and_the_others_play_on(
    client: TestClient,
) -> None:
    room, tokens = _game(client, "blokus", 4)
    resigned = client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[0]))
    assert resigned.status_code == 200, resigned.text
    body = resigned.json()
    assert body["room"]["status"] == "playing" and body["to_act"] == [1]
    assert body["view"]["colours"][0]["out"] is True
    refused(client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[0])), 409, "cannot_resign")
    # the replay plays the resignation like a move
    step = client.get(f"/api/rooms/{room}/games/1/steps/1").json()
    assert step["to_act"] == [1] and step["view"]["colours"][0]["out"] is True


@pytest.mark.parametrize("game", ["m", "maedn"])
def test_in_the_card_games_a_resignation_ends_the_game_with_the_seat_last(
    client: TestClient, game: str
) -> None:
    room, tokens = _game(client, game, 3)
    resigned = client.post(f"/api/rooms/{room}/resign", headers=auth(tokens[2]))
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["result"]["ranks"][2] == 3
    # the record of the game replays and verifies with the resignation in it
    record = client.get(f"/api/rooms/{room}/games/1/record").json()
    assert record["moves"][-1]["move"] == {"type": "resign"}
    checked = client.post("/api/records/verify", json=record).json()
    assert checked["ok"] is True, checked
    imported = client.post("/api/records", json=record)
    assert imported.status_code == 201, imported.text


def test_a_game_is_aborted_only_when_every_seated_person_agrees(client: TestClient) -> None:
    room, tokens = _game(client)
    bot = client.post(f"/api/rooms/{room}/seats/2/hand-over", headers=auth(tokens[0]))
    assert bot.status_code == 200, bot.text  # an away person still has a say
    refused(client.post(f"/api/rooms/{room}/abort"), 401, "no_token")
    first = client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[1]))
    assert first.status_code == 200, first.text
    assert first.json()["room"]["status"] == "playing"
    assert first.json()["room"]["abort_votes"] == [1]
    refused(client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[1])), 409, "already_agreed")
    assert client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[0])).status_code == 200
    last = client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[2]))
    body = last.json()
    assert body["room"]["status"] == "finished" and body["room"]["aborted"] is True
    assert body["result"] is None and body["to_act"] == [] and body["legal_moves"] == []
    over = _events(client, room)[-1]
    assert over["kind"] == "game_over" and over["aborted"] is True and over["result"] is None
    refused(client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[0])), 409, "not_playing")
    history = client.get(f"/api/rooms/{room}/games").json()
    assert history["games"][0]["aborted"] is True and history["games"][0]["result"] is None
    assert all(t["wins"] == 0 for t in history["tally"]), "an aborted game counts for nobody"
    # the next game starts afresh: nobody has agreed to abort it
    again = client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    assert again.status_code == 200, again.text
    assert again.json()["room"]["abort_votes"] == [] and again.json()["room"]["aborted"] is False


def test_votes_and_aborts_survive_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        room, tokens = _game(client, players=2)
        assert client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[0])).status_code == 200
    with TestClient(create_app(settings)) as client:
        info = client.get(f"/api/rooms/{room}").json()
        assert info["abort_votes"] == [0] and info["status"] == "playing"
        done = client.post(f"/api/rooms/{room}/abort", headers=auth(tokens[1])).json()
        assert done["room"]["aborted"] is True
    with TestClient(create_app(settings)) as client:
        assert client.get(f"/api/rooms/{room}").json()["aborted"] is True
