"""Leaving does not carry into the rematch: a person who left a game is asked back
when the next one starts (their own seat, no bot), unless they chose a bot between
games; and between games a person takes their seat back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.services import create_app
from tests.calls import auth


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _game(client: TestClient, players: int = 3) -> tuple[str, list[str]]:
    created = client.post("/api/rooms", json={"game": "secret", "players": players, "name": "Anna"})
    room, tokens = created.json()["room"], [created.json()["token"]]
    for seat in range(1, players):
        claimed = client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": f"P{seat}"})
        tokens.append(claimed.json()["token"])
    started = client.post(
        f"/api/rooms/{room}/start", json={"shuffle": False}, headers=auth(tokens[0])
    )
    assert started.status_code == 200, started.text
    return room, tokens


def _to_the_end(client: TestClient, room: str, tokens: list[str]) -> None:
    """The people play their turns (3 each); the bots standing in play theirs."""
    for _ in range(800):
        state = client.get(f"/api/rooms/{room}/state").json()
        if state["room"]["status"] == "finished":
            return
        seat = state["to_act"][0]
        if state["room"]["seats"][seat]["stand_in"] is None:
            client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": state["seq"], "move": {"n": 3}},
                headers=auth(tokens[seat]),
            )
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def _seats(client: TestClient, room: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/rooms/{room}").json()["seats"])


def test_people_who_left_are_asked_back_by_the_rematch_not_replaced(client: TestClient) -> None:
    room, tokens = _game(client)
    for token in tokens[1:]:
        assert client.post(f"/api/rooms/{room}/leave", headers=auth(token)).status_code == 200
    _to_the_end(client, room, tokens)
    rematch = client.post(
        f"/api/rooms/{room}/start", json={"shuffle": False}, headers=auth(tokens[0])
    )
    assert rematch.status_code == 200, rematch.text
    seats = rematch.json()["room"]["seats"]
    assert [s["stand_in"] for s in seats] == [None, None, None]
    assert [s["name"] for s in seats] == ["Anna", "P1", "P2"]
    # each plays their own seat again: the game waits for them, no bot moves for them
    for seat, token in enumerate(tokens):
        assert client.get(f"/api/rooms/{room}/state", headers=auth(token)).json()["you"] == seat


def test_between_games_a_person_takes_their_seat_back(client: TestClient) -> None:
    room, tokens = _game(client)
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[1])).status_code == 200
    _to_the_end(client, room, tokens)
    back = client.post(f"/api/rooms/{room}/seats/1/take-back", headers=auth(tokens[1]))
    assert back.status_code == 200, back.text
    assert back.json()["room"]["seats"][1]["stand_in"] is None


def test_a_bot_plays_the_next_game_only_where_the_person_chose_it(client: TestClient) -> None:
    room, tokens = _game(client)
    assert client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[1])).status_code == 200
    _to_the_end(client, room, tokens)
    # between games P2 says a bot should play for them next time
    chose = client.post(f"/api/rooms/{room}/leave", headers=auth(tokens[2]))
    assert chose.status_code == 200, chose.text
    rematch = client.post(
        f"/api/rooms/{room}/start", json={"shuffle": True}, headers=auth(tokens[0])
    )
    assert rematch.status_code == 200, rematch.text
    by_name = {s["name"]: s for s in rematch.json()["room"]["seats"]}
    assert by_name["P1"]["stand_in"] is None, "P1 left game 1 only"
    assert by_name["P2"]["stand_in"] == "one", "P2 chose the bot for this game"
