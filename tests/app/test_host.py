"""The host is a person, not a seat number: kept through shuffles, rematches, leaving
and taking back, handed over only on purpose, and asked for by every host-only route."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.core.config import Settings
from app.play.access import hash_token
from app.play.rooms import RoomRules
from app.play.tables import Snapshot
from app.services import Services, create_app

HOOK = {"url": "http://127.0.0.1:9/hook", "shape": "json"}


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    # the webhook's address is never called here: only who may set it is asked
    with TestClient(create_app(settings.model_copy(update={"webhook_allow_private": True}))) as c:
        yield c


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and body["message"], body


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _you(client: TestClient, room: str, token: str) -> int:
    seat: int = _ok(client.get(f"/api/rooms/{room}/state", headers=_auth(token)))["you"]
    return seat


def _events(client: TestClient, room: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/rooms/{room}/events").json()["events"])


def _table(client: TestClient, bot_seat: bool = False) -> tuple[str, list[str]]:
    """Anna (the creator) in seat 0, Ben in seat 1, and Cleo or a bot in seat 2: a lobby."""
    body: dict[str, Any] = {"game": "secret", "players": 3, "name": "Anna"}
    if bot_seat:
        body["bots"] = {"2": "one"}
    created = _ok_created(client.post("/api/rooms", json=body))
    room, tokens = created["room"], [created["token"]]
    for seat, name in [(1, "Ben"), (2, "Cleo")][: 1 if bot_seat else 2]:
        tokens.append(
            _ok(client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": name}))["token"]
        )
    return room, tokens


def _ok_created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _shuffled_away_from_seat_0(client: TestClient) -> tuple[str, list[str]]:
    """A running game whose shuffled start put Ben in seat 0, the seat Anna opened the
    room from (so ``creator_seat`` now names Ben's seat) and a bot in seat 2 at first."""
    for _ in range(100):  # each shuffle does it with chance 1/3
        room, tokens = _table(client, bot_seat=True)
        _ok(
            client.post(
                f"/api/rooms/{room}/start", json={"shuffle": True}, headers=_auth(tokens[0])
            )
        )
        started = next(e for e in _events(client, room) if e["kind"] == "game_started")
        if started["order"][0] == 1:
            return room, tokens
    raise AssertionError("a hundred shuffles never put Ben in seat 0")


def _play_out(client: TestClient, room: str, tokens: list[str]) -> dict[str, Any]:
    """Every person plays 3 until the game is over (the bot plays its own turns)."""
    for _ in range(2000):
        state = client.get(f"/api/rooms/{room}/state").json()
        if state["result"] is not None:
            return dict(state)
        seat = state["to_act"][0]
        mover = next((t for t in tokens if _you(client, room, t) == seat), None)
        if mover is None:  # the bot's turn: it moves by itself
            time.sleep(0.02)
            continue
        client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": state["seq"], "move": {"n": 3}},
            headers=_auth(mover),
        )
    raise AssertionError("the game never ended")


def test_after_a_shuffled_start_host_powers_stay_with_the_creator_not_the_seat_number(
    client: TestClient,
) -> None:
    room, (anna, ben) = _shuffled_away_from_seat_0(client)
    assert _ok(client.get(f"/api/rooms/{room}"))["creator_seat"] == 0
    assert _you(client, room, ben) == 0
    mine = _you(client, room, anna)

    # Ben, in the creator's old seat number, is refused every host power
    for path in (f"seats/{mine}/free", f"seats/{mine}/hand-over"):
        _error(client.post(f"/api/rooms/{room}/{path}", headers=_auth(ben)), 403, "not_creator")
    _error(
        client.post(f"/api/rooms/{room}/host", json={"seat": 0}, headers=_auth(ben)),
        403,
        "not_creator",
    )
    _error(
        client.put(f"/api/rooms/{room}/alerts/webhook", json=HOOK, headers=_auth(ben)),
        403,
        "not_creator",
    )
    _error(
        client.request("DELETE", f"/api/rooms/{room}/alerts/webhook", headers=_auth(ben)),
        403,
        "not_creator",
    )
    assert _ok(client.get(f"/api/rooms/{room}/alerts", headers=_auth(ben)))["host"] is False
    assert all(e["kind"] not in {"seat_released", "seat_stand_in"} for e in _events(client, room))
    # the room says where the host sits now
    assert _ok(client.get(f"/api/rooms/{room}"))["host_seat"] == mine != 0
    state = _ok(client.get(f"/api/rooms/{room}/state", headers=_auth(ben)))
    assert state["room"]["host_seat"] == mine

    # Anna keeps them, wherever she sits now
    settings = _ok(client.put(f"/api/rooms/{room}/alerts/webhook", json=HOOK, headers=_auth(anna)))
    assert settings["host"] is True and settings["webhook"]["set"] is True
    handed = _ok(client.post(f"/api/rooms/{room}/seats/0/hand-over", headers=_auth(anna)))
    assert handed["seats"][0]["stand_in"] == "one"
    _ok(client.post(f"/api/rooms/{room}/seats/0/take-back", headers=_auth(ben)))

    # the rematch and the seats between games are hers too
    _play_out(client, room, [anna, ben])
    bot = next(s["seat"] for s in _ok(client.get(f"/api/rooms/{room}"))["seats"] if s["bot"])
    _error(
        client.post(f"/api/rooms/{room}/seats/{bot}/bot", json={"bot": None}, headers=_auth(ben)),
        403,
        "not_creator",
    )
    _error(client.post(f"/api/rooms/{room}/start", headers=_auth(ben)), 403, "not_creator")
    _ok(client.post(f"/api/rooms/{room}/seats/{bot}/bot", json={"bot": "one"}, headers=_auth(anna)))
    rematch = _ok(client.post(f"/api/rooms/{room}/start", headers=_auth(anna)))
    assert rematch["room"]["game_no"] == 2

    # and so is freeing Ben's seat: his token is worth nothing after it
    _ok(client.post(f"/api/rooms/{room}/seats/{_you(client, room, ben)}/free", headers=_auth(anna)))
    _error(client.get(f"/api/rooms/{room}/state", headers=_auth(ben)), 401, "bad_token")
    _ok(client.get(f"/api/rooms/{room}/state", headers=_auth(anna)))


def test_the_host_hands_the_role_to_the_person_in_another_seat(client: TestClient) -> None:
    room, (anna, ben, cleo) = _table(client)
    _ok(client.post(f"/api/rooms/{room}/start", headers=_auth(anna)))
    url = f"/api/rooms/{room}/host"
    _error(client.post(url, json={"seat": 1}), 401, "no_token")
    _error(client.post(url, json={"seat": 1}, headers=_auth("forged")), 401, "bad_token")
    _error(client.post(url, json={"seat": 2}, headers=_auth(ben)), 403, "not_creator")
    _error(client.post(url, json={"seat": 0}, headers=_auth(anna)), 409, "already_host")
    _error(client.post(url, json={"seat": 7}, headers=_auth(anna)), 404, "no_such_seat")
    for body in ({}, {"seat": -1}, {"seat": "one"}, {"seat": 1.5}, {"seat": 1, "token": "x"}):
        _error(client.post(url, json=body, headers=_auth(anna)), 400, "malformed")
    _error(client.post("/api/rooms/nope/host", json={"seat": 1}), 404, "room_not_found")

    info = _ok(client.post(url, json={"seat": 1}, headers=_auth(anna)))
    assert info["host_seat"] == 1 and info["creator_seat"] == 0
    event = _events(client, room)[-1]
    assert event == {
        **event,
        "kind": "host_changed",
        "seat": 1,
        "name": "Ben",
        "from": 0,
        "from_name": "Anna",
    }
    assert "token_hash" not in event and info["seq"] == event["seq"]
    for token in (anna, ben, cleo):
        assert hash_token(token) not in client.get(f"/api/rooms/{room}/events").text
        state = _ok(client.get(f"/api/rooms/{room}/state", headers=_auth(token)))
        assert state["room"]["host_seat"] == 1
    alerts = {
        token: _ok(client.get(f"/api/rooms/{room}/alerts", headers=_auth(token)))["host"]
        for token in (anna, ben)
    }
    assert alerts == {anna: False, ben: True}

    # Anna is a player like the others now; Ben is the host, and can't free his own seat
    _error(
        client.post(f"/api/rooms/{room}/seats/2/hand-over", headers=_auth(anna)), 403, "not_creator"
    )
    _error(client.post(url, json={"seat": 0}, headers=_auth(anna)), 403, "not_creator")
    _error(client.post(f"/api/rooms/{room}/seats/1/free", headers=_auth(ben)), 409, "own_seat")
    _ok(client.post(f"/api/rooms/{room}/seats/0/free", headers=_auth(ben)))
    _error(client.get(f"/api/rooms/{room}/state", headers=_auth(anna)), 401, "bad_token")
    # a freed seat has nobody to be host; a bot's seat neither
    _error(client.post(url, json={"seat": 0}, headers=_auth(ben)), 409, "not_a_person")


def test_the_role_goes_to_a_person_who_is_away_but_never_to_a_bot(client: TestClient) -> None:
    room, (anna, ben) = _table(client, bot_seat=True)
    _error(
        client.post(f"/api/rooms/{room}/host", json={"seat": 2}, headers=_auth(anna)),
        409,
        "not_a_person",
    )
    # before a game, too
    assert (
        _ok(client.post(f"/api/rooms/{room}/host", json={"seat": 1}, headers=_auth(anna)))[
            "host_seat"
        ]
        == 1
    )
    _ok(client.post(f"/api/rooms/{room}/host", json={"seat": 0}, headers=_auth(ben)))
    _ok(client.post(f"/api/rooms/{room}/start", headers=_auth(anna)))
    _ok(client.post(f"/api/rooms/{room}/leave", headers=_auth(ben)))
    info = _ok(client.post(f"/api/rooms/{room}/host", json={"seat": 1}, headers=_auth(anna)))
    assert info["host_seat"] == 1 and info["seats"][1]["stand_in"] == "one"
    # the host away still holds the seat and the role
    _ok(client.post(f"/api/rooms/{room}/seats/0/hand-over", headers=_auth(ben)))


def test_the_host_stays_host_through_leaving_taking_back_and_shuffled_rematches(
    client: TestClient,
) -> None:
    room, tokens = _table(client)
    anna, ben, _ = tokens
    _ok(client.post(f"/api/rooms/{room}/start", headers=_auth(anna)))
    left = _ok(client.post(f"/api/rooms/{room}/leave", headers=_auth(anna)))
    # away, she is still the host: she hands seats over, and nobody frees hers
    _ok(client.post(f"/api/rooms/{room}/seats/1/hand-over", headers=_auth(anna)))
    _error(client.post(f"/api/rooms/{room}/seats/0/free", headers=_auth(anna)), 409, "own_seat")
    _error(client.post(f"/api/rooms/{room}/seats/0/free", headers=_auth(ben)), 403, "not_creator")
    back = _ok(client.post(f"/api/rooms/{room}/seats/0/take-back", headers=_auth(anna)))
    _ok(client.post(f"/api/rooms/{room}/seats/1/take-back", headers=_auth(ben)))
    moved = False
    for game in range(2, 30):
        _play_out(client, room, tokens)
        rematch = _ok(
            client.post(f"/api/rooms/{room}/start", json={"shuffle": True}, headers=_auth(anna))
        )
        seat = rematch["you"]
        for token in tokens:
            powers = _ok(client.get(f"/api/rooms/{room}/alerts", headers=_auth(token)))["host"]
            assert powers is (token == anna), f"game {game}: the host flag went to another seat"
        assert rematch["room"]["game_no"] == game and rematch["room"]["host_seat"] == seat
        if seat != 0:
            moved = True
            break
    assert moved, "no shuffle ever moved Anna"
    # once moved, she still starts, frees and hands over; the seat-0 token can't
    other = next(t for t in tokens if _you(client, room, t) == 0)
    _error(
        client.post(f"/api/rooms/{room}/seats/{seat}/free", headers=_auth(other)),
        403,
        "not_creator",
    )
    _ok(client.post(f"/api/rooms/{room}/seats/0/hand-over", headers=_auth(anna)))
    # and every answer on the way said where she sat
    assert left["room"]["host_seat"] == 0 and back["room"]["host_seat"] == 0


async def test_a_snapshot_written_before_it_kept_the_host_still_knows_the_creator(
    services: Services,
) -> None:
    """Snapshots from before the host was folded carry no ``host``: the room's first
    event tells it, and a shuffle that moved the creator doesn't change who it is."""
    for _ in range(100):
        state, anna = await services.rooms.create("secret", 2, {}, "Anna", 0, {}, RoomRules())
        room = state.room.id
        _, ben = await services.rooms.claim(room, 1, "Ben", None)
        state = await services.rooms.start(room, anna, shuffle=True)
        if state.seat_with(hash_token(anna)) == 1:
            break
    else:
        raise AssertionError("a hundred shuffles never moved Anna")
    # moves until a snapshot is written (every 5 in the tests' settings)
    for _ in range(4):
        for token in (anna, ben):
            state = await services.rooms.load(room)
            if state.engine.to_act(state.game) == [state.seat_with(hash_token(token))]:
                state = await services.rooms.move(room, token, state.seq, {"n": 1})
    async with services.rooms.db.transaction() as session:
        rows = (await session.execute(Snapshot.__table__.select())).mappings().all()
        mine = [r for r in rows if r["room_id"] == room]
        assert mine, "no snapshot was written"
        for row in mine:
            old = {k: v for k, v in row["state"].items() if k != "host"}
            await session.execute(
                update(Snapshot)
                .where(Snapshot.room_id == room, Snapshot.seq == row["seq"])
                .values(state=old)
            )
    services.rooms.cache.clear()
    loaded = await services.rooms.load(room)
    assert loaded.host == hash_token(anna)
    assert loaded.seat_with(hash_token(anna)) == 1
