"""The exact shape of what app/play/views.py sends: room info, seat list, events, state.

The leak tests check what a message must not carry; these check every field it
must carry, with its value, in the lobby, while playing and once the game is
over (the mutation run of `make mutate` found these fields unchecked).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.play.rooms import RoomRules
from app.play.views import StateMessages, encode, seat_list, seat_state
from app.services import Services, create_app
from tests.app.inprocess_socket import receive_text

RULES = {
    "start_when_full": False,
    "anyone_can_start": False,
    "shuffle_seats": False,
    "turn_seconds": None,
    "on_timeout": "bot_move",
    "stand_in": None,
    "confirm_moves": None,
}


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _seat(seat: int, name: str | None, kind: str, **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "name": name, "kind": kind, "bot": None, "online": False} | {
        "stand_in": None,
        "to_act": False,
        "away_until": None,
        "deadline": None,
        "time_left": None,
        "paused": False,
        **extra,
    }


def _lobby_with_a_bot(client: TestClient) -> tuple[str, str]:
    created = client.post(
        "/api/rooms", json={"game": "secret", "players": 3, "name": "Anna", "bots": {"2": "one"}}
    )
    assert created.status_code == 201, created.text
    return created.json()["room"], created.json()["token"]


def _two_seat_game(client: TestClient) -> tuple[str, list[str]]:
    created = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "Anna"})
    room = created.json()["room"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    tokens = [created.json()["token"], ben]
    started = client.post(f"/api/rooms/{room}/start", headers=_auth(tokens[0]))
    assert started.status_code == 200, started.text
    return room, tokens


def test_room_info_carries_every_field_of_the_room_and_its_seats(client: TestClient) -> None:
    room, _ = _lobby_with_a_bot(client)
    assert client.get(f"/api/rooms/{room}").json() == {
        "id": room,
        "game": "secret",
        "title": "Secret count",
        "players": 3,
        "options": {},
        "rules": RULES,
        "creator_seat": 0,
        "host_seat": 0,
        "status": "lobby",
        "seq": 1,
        "game_no": 0,
        "imported": False,
        "game_imported": False,
        "aborted": False,
        "abort_votes": [],
        "take_back": [],
        "undo_request": None,
        "seats": [
            _seat(0, "Anna", "human"),
            _seat(1, None, "empty"),
            _seat(2, None, "bot", bot="one", online=True),
        ],
    }


def test_the_lobby_state_has_no_view_moves_or_result_yet(client: TestClient) -> None:
    room, anna = _lobby_with_a_bot(client)
    state = client.get(f"/api/rooms/{room}/state", headers=_auth(anna)).json()
    assert state == {
        "type": "state",
        "seq": 1,
        "game_seq": 0,
        "you": 0,
        "room": client.get(f"/api/rooms/{room}").json(),
        "view": None,
        "to_act": [],
        "legal_moves": [],
        "result": None,
        "events": [],
    }


def test_only_the_seat_to_act_is_marked_and_gets_legal_moves(client: TestClient) -> None:
    room, tokens = _two_seat_game(client)
    states = {
        seat: client.get(f"/api/rooms/{room}/state", headers=_auth(token)).json()
        for seat, token in [(0, tokens[0]), (1, tokens[1]), (None, None)]
    }
    for seat, state in states.items():
        assert state["you"] == seat
        assert state["room"]["status"] == "playing"
        assert state["to_act"] == [0]
        assert [s["to_act"] for s in state["room"]["seats"]] == [True, False]
        assert state["view"] == {"total": 0, "turn": 0, "mine": state["view"]["mine"]}
        assert state["result"] is None
    assert states[0]["legal_moves"] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert states[1]["legal_moves"] == [], "a seat not to act was offered moves"
    assert states[None]["legal_moves"] == [], "the spectator was offered moves"


def test_once_over_nobody_is_to_act_and_the_result_is_told(client: TestClient) -> None:
    room, tokens = _two_seat_game(client)
    state = client.get(f"/api/rooms/{room}/state", headers=_auth(tokens[0])).json()
    while state["result"] is None:
        seat = state["to_act"][0]
        state = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": state["seq"], "move": {"n": 3}},
            headers=_auth(tokens[seat]),
        ).json()
    # 3 per move to 12: seat 1 says the fourth 3
    assert state["result"] == {"scores": [0, 1], "ranks": [2, 1]}
    assert state["room"]["status"] == "finished"
    assert state["to_act"] == []
    assert state["legal_moves"] == []
    assert [s["to_act"] for s in state["room"]["seats"]] == [False, False]


def test_public_events_carry_seq_kind_time_and_their_public_fields(client: TestClient) -> None:
    room, _ = _lobby_with_a_bot(client)
    (created,) = client.get(f"/api/rooms/{room}/events", params={"after": 0}).json()["events"]
    assert isinstance(datetime.fromisoformat(created.pop("at")), datetime)
    assert created == {
        "seq": 1,
        "kind": "room_created",
        "game": "secret",
        "players": 3,
        "options": {},
        "creator_seat": 0,
        "name": "Anna",
        "bots": {"2": "one"},
    }


def test_a_socket_hello_gets_the_missed_events_and_marks_its_seat_online(
    client: TestClient,
) -> None:
    room, tokens = _two_seat_game(client)
    log = client.get(f"/api/rooms/{room}/events", params={"after": 0}).json()["events"]
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[1], "since": 1})
        state = json.loads(receive_text(ws, "seat 1"))
        assert state["you"] == 1
        assert state["events"] == [e for e in log if e["seq"] > 1]
        assert [s["online"] for s in state["room"]["seats"]] == [False, True]
        seats = client.get(f"/api/rooms/{room}").json()["seats"]
        assert [s["online"] for s in seats] == [False, True]


def test_sockets_of_one_seat_each_get_the_legal_form_their_hello_asked_for(
    client: TestClient,
) -> None:
    room, tokens = _two_seat_game(client)
    with (
        client.websocket_connect(f"/api/rooms/{room}/ws") as listed,
        client.websocket_connect(f"/api/rooms/{room}/ws") as compact,
        client.websocket_connect(f"/api/rooms/{room}/ws") as other,
    ):
        listed.send_json({"type": "hello", "token": tokens[0]})
        compact.send_json({"type": "hello", "token": tokens[0], "legal_form": "compact"})
        other.send_json({"type": "hello", "token": tokens[1], "legal_form": "compact"})
        hellos = [json.loads(receive_text(ws, "a hello")) for ws in (listed, compact, other)]
        assert hellos[0]["to_act"] == [0] and hellos[0]["legal_moves"] == [
            {"n": n} for n in (1, 2, 3)
        ]
        assert hellos[1]["legal_compact"] == {"form": "up_to", "most": 3, "for": ANY_WORD}
        assert hellos[2]["legal_moves"] == [] and "legal_compact" not in hellos[2]
        # seat 0 then seat 1 move: seat 0 is to act again, and its two sockets hear of it
        seq = hellos[0]["seq"]
        for seat in (0, 1):
            moved = client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": seq, "move": {"n": 1}},
                headers=_auth(tokens[seat]),
            )
            assert moved.status_code == 200, moved.text
            seq = moved.json()["seq"]

        def newest(ws: Any, who: str) -> dict[str, Any]:
            while True:
                message = json.loads(receive_text(ws, who))
                if message["type"] == "state" and message["seq"] == seq:
                    return dict(message)

        as_list, as_compact = newest(listed, "the listing socket"), newest(compact, "compact")
        assert as_list["to_act"] == [0]
        assert as_list["legal_moves"] == [{"n": 1}, {"n": 2}, {"n": 3}]
        assert "legal_compact" not in as_list
        assert as_compact.pop("legal_compact") == {"form": "up_to", "most": 3, "for": ANY_WORD}
        assert {k: v for k, v in as_list.items() if k != "legal_moves"} == as_compact
        # the REST state answers in the form asked for too
        asked = client.get(
            f"/api/rooms/{room}/state", params={"legal_form": "compact"}, headers=_auth(tokens[0])
        ).json()
        assert asked["legal_compact"]["most"] == 3 and "legal_moves" not in asked
        refused = client.get(f"/api/rooms/{room}/state", params={"legal_form": "tiny"})
        assert refused.status_code == 400, refused.text
        assert "legal_form" in refused.json()["message"]
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[0], "legal_form": "tiny"})
        refusal = json.loads(receive_text(ws, "a bad hello"))
        assert refusal["code"] == "hello_first"
        assert "legal_form" in refusal["message"] and "'list' or 'compact'" in refusal["message"]


class _AnyWord(str):
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and other.startswith("secret")

    __hash__ = str.__hash__


ANY_WORD = _AnyWord()


def test_a_seat_missing_from_the_presence_map_is_offline_and_a_bot_always_online(
    client: TestClient,
) -> None:
    room, _ = _lobby_with_a_bot(client)
    services: Any = client.app.state.services  # type: ignore[attr-defined]
    state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
    seats = seat_list(state, state.seat_records(), {})
    assert [s["online"] for s in seats] == [False, False, True]


async def test_the_text_a_socket_gets_is_the_message_for_its_seat(settings: Settings) -> None:
    """``StateMessages.text_for_seat`` (what pushes send) says exactly what ``for_seat``
    says, for every seat and a spectator, in the lobby, while playing, with events and
    a cut-short catch-up, and once over; Blokus' legal moves come as joined text."""
    svc = Services.build(settings)
    await svc.start()
    try:
        for game, options in [("blokus", {"variant": "duo"}), ("secret", {})]:
            state, anna = await svc.rooms.create(game, 2, options, "Anna", 0, {}, RoomRules())
            room = state.room.id
            _, ben = await svc.rooms.claim(room, 1, "Ben", None)
            tokens = [anna, ben]
            states = [await svc.rooms.load(room)]
            state = await svc.rooms.start(room, anna, None)
            while state.status == "playing" and len(states) < 6:
                states.append(state)
                seat = state.engine.to_act(state.game)[0]
                move = state.engine.legal_moves(state.game, seat)[0]
                state = await svc.rooms.move(room, tokens[seat], state.seq, move)
            states.append(state)
            events = await svc.rooms.events(room, 0)
            for at in states:
                online = {0: True}
                messages = StateMessages(at, at.seat_records(), online)
                seen = [e for e in events if e.seq <= at.seq]
                for seat in (None, 0, 1):
                    for cut in (None, 2):
                        for compact in (False, True):
                            text = messages.text_for_seat(seat, seen, cut, compact)
                            assert json.loads(text) == json.loads(
                                encode(messages.for_seat(seat, seen, cut, compact))
                            ), (game, at.seq, seat, cut, compact)
                            assert text == messages.text_for_seat(seat, seen, cut, compact)
    finally:
        await svc.stop()


async def test_the_compact_form_carries_the_same_moves_and_only_to_the_seat_to_act(
    settings: Settings,
) -> None:
    """A socket that asks for the compact form gets ``legal_compact`` instead of
    ``legal_moves`` when it may act, standing for the very same moves in the same order,
    and the rest of the message unchanged; seats not to act, spectators and games
    without a compact form get the usual ``legal_moves``."""
    svc = Services.build(settings)
    await svc.start()
    try:
        games = [("blokus", {"variant": "duo"}), ("blokus", {}), ("secret", {}), ("maedn", {})]
        for game, options in games:
            state, anna = await svc.rooms.create(game, 2, options, "Anna", 0, {}, RoomRules())
            room = state.room.id
            _, ben = await svc.rooms.claim(room, 1, "Ben", None)
            tokens = [anna, ben]
            state = await svc.rooms.start(room, anna, None)
            for _ in range(4):
                engine, acting = state.engine, state.engine.to_act(state.game)
                messages = StateMessages(state, state.seat_records(), {})
                for seat in (None, 0, 1):
                    listed = messages.for_seat(seat, compact=False)
                    compact = json.loads(messages.text_for_seat(seat, compact=True))
                    assert compact == messages.for_seat(seat, compact=True)
                    if seat in acting and game != "maedn":  # MÄDN has no compact form
                        form = compact.pop("legal_compact")
                        assert "legal_moves" not in compact
                        assert engine.expand_compact(form) == listed.pop("legal_moves")
                        assert compact == listed
                    else:
                        assert "legal_compact" not in compact
                        assert compact == listed
                        if seat not in acting:
                            assert compact["legal_moves"] == []
                seat = acting[0]
                move = engine.legal_moves(state.game, seat)[0]
                state = await svc.rooms.move(room, tokens[seat], state.seq, move)
    finally:
        await svc.stop()


def test_a_string_utf8_cannot_hold_is_sent_escaped() -> None:
    assert encode({"id": "x\udc80", "n": 1}) == '{"id":"x\\udc80","n":1}'
    assert encode({"id": "ok", 2: [1, 2]}) == '{"id":"ok","2":[1,2]}'


async def test_a_catch_up_cut_short_says_where_its_events_start(settings: Settings) -> None:
    svc = Services.build(settings)
    await svc.start()
    try:
        state, _ = await svc.rooms.create("secret", 2, {}, "Anna", 0, {}, RoomRules())
        events = await svc.rooms.events(state.room.id, 0)
        messages = StateMessages(state, state.seat_records(), {})
        for message in (
            seat_state(state, state.seat_records(), {}, 0, events, 7),
            messages.for_seat(0, events, 7),
            json.loads(messages.text_for_seat(0, events, 7)),
        ):
            assert message["events_truncated"] is True
            assert message["events_from"] == 7
            assert [e["seq"] for e in message["events"]] == [e.seq for e in events]
        whole = json.loads(messages.text_for_seat(None, events))
        assert "events_truncated" not in whole and "events_from" not in whole
        assert whole["you"] is None and whole["legal_moves"] == []
    finally:
        await svc.stop()
