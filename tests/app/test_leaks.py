"""No message to any seat ever carries what that seat may not see.

Plays whole games of a hidden-information test engine over websockets (in
process), records every message each socket receives, and checks it against the
hidden facts: other seats' secrets, the seed, and seat tokens. The same checks
run on each seat's REST state and event log. A failure names who received what.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.rooms import hash_token
from tests.app.inprocess_socket import receive_text

SEATS: tuple[int | None, ...] = (0, 1, 2, None)


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _assert_nothing_hidden(
    seat: int | None, blob: str, words: tuple[str, ...], seed: int, tokens: list[str]
) -> None:
    who = _who(seat)
    for other, word in enumerate(words):
        if other != seat:
            assert word not in blob, f"{who} received seat {other}'s secret word"
    assert str(seed) not in blob, f"{who} received the game's seed"
    for owner, token in enumerate(tokens):
        assert token not in blob, f"{who} received seat {owner}'s token"
        assert hash_token(token) not in blob, f"{who} received seat {owner}'s token hash"
    if seat is not None:
        assert words[seat] in blob, f"seat {seat} never received its own secret word"


def _three_seat_room(client: TestClient) -> tuple[str, list[str]]:
    created = client.post("/api/rooms", json={"game": "secret", "players": 3, "name": "Anna"})
    room: str = created.json()["room"]
    tokens = [created.json()["token"]] + [
        client.post(f"/api/rooms/{room}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
        for s in (1, 2)
    ]
    return room, tokens


def test_whole_games_never_leak_a_secret_to_another_seat(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        services: Any = client.app.state.services  # type: ignore[attr-defined]
        for game in range(2):
            room, tokens = _three_seat_room(client)
            seen: dict[int | None, list[str]] = {seat: [] for seat in SEATS}
            # the sockets close however the game ends, so a failure is reported, never hung on
            with contextlib.ExitStack() as open_sockets:
                sockets = {}
                for seat in SEATS:
                    ws = open_sockets.enter_context(
                        client.websocket_connect(f"/api/rooms/{room}/ws")
                    )
                    # the second game's sockets ask for the compact form of the legal moves
                    form = "compact" if game else "list"
                    token = tokens[seat] if seat is not None else None
                    ws.send_json({"type": "hello", "token": token, "legal_form": form})
                    seen[seat].append(receive_text(ws, _who(seat)))
                    sockets[seat] = ws
                client.post(f"/api/rooms/{room}/start", headers=_auth(tokens[0]))
                finished = False
                while not finished:
                    state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
                    seat = state.engine.to_act(state.game)[0]
                    sockets[seat].send_json(
                        {"type": "move", "seq": state.seq, "move": {"n": 1 + game}, "id": 1}
                    )
                    for other, ws in sockets.items():
                        while True:
                            text = receive_text(ws, _who(other))
                            seen[other].append(text)
                            message = json.loads(text)
                            if message["type"] == "state" and message["seq"] >= state.seq + 1:
                                finished = message["result"] is not None
                                break
            state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
            if game:
                assert all('"legal_compact"' in "".join(seen[seat]) for seat in (0, 1, 2))
            for seat in SEATS:
                _assert_nothing_hidden(
                    seat, "\n".join(seen[seat]), state.game.words, state.seed, tokens
                )
                token = tokens[seat] if seat is not None else None
                rest = [
                    client.get(f"/api/rooms/{room}/state", headers=_auth(token)).text,
                    client.get(
                        f"/api/rooms/{room}/state?legal_form=compact", headers=_auth(token)
                    ).text,
                    client.get(f"/api/rooms/{room}/events?after=0", headers=_auth(token)).text,
                ]
                _assert_nothing_hidden(seat, "\n".join(rest), state.game.words, state.seed, tokens)
