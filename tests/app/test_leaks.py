"""No message to any seat ever carries what that seat may not see.

Plays whole games of a hidden-information test engine over websockets (in
process), records every message each socket receives, and checks it against the
hidden facts: other seats' secrets, the seed, and seat tokens.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.rooms import hash_token


def _collect(ws: Any, into: list[str]) -> dict[str, Any]:
    text = ws.receive_text()
    into.append(text)
    message: dict[str, Any] = json.loads(text)
    return message


def test_whole_games_never_leak_a_secret_to_another_seat(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        for game in range(2):
            created = client.post(
                "/api/rooms", json={"game": "secret", "players": 3, "name": "Anna"}
            ).json()
            room = created["room"]
            tokens = [created["token"]] + [
                client.post(f"/api/rooms/{room}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
                for s in (1, 2)
            ]
            seen: dict[int | None, list[str]] = {0: [], 1: [], 2: [], None: []}
            sockets = {}
            for seat in (0, 1, 2, None):
                ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
                ws.send_json({"type": "hello", "token": tokens[seat] if seat is not None else None})
                _collect(ws, seen[seat])
                sockets[seat] = ws
            client.post(
                f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
            )
            services = client.app.state.services  # type: ignore[attr-defined]
            finished = False
            while not finished:
                state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
                if state.status == "finished":
                    break
                seat = state.engine.to_act(state.game)[0]
                sockets[seat].send_json(
                    {"type": "move", "seq": state.seq, "move": {"n": 1 + game}, "id": 1}
                )
                for other, ws in sockets.items():
                    while True:
                        message = _collect(ws, seen[other])
                        if message["type"] == "state" and message["seq"] >= state.seq + 1:
                            finished = message["result"] is not None
                            break
            state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
            words = state.game.words
            for seat, texts in seen.items():
                blob = "\n".join(texts)
                assert str(state.seed) not in blob
                for token in tokens:
                    assert token not in blob
                    assert hash_token(token) not in blob
                for other in range(3):
                    if other != seat:
                        assert words[other] not in blob, f"seat {seat} saw seat {other}'s secret"
                if seat is not None:
                    assert words[seat] in blob
            for ws in sockets.values():
                ws.__exit__(None, None, None)
