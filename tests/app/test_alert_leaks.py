"""No e-mail address, push endpoint or webhook URL ever reaches another seat or a spectator.

A whole game over websockets and REST, with every seat's alert channels set:
everything each seat and a spectator receives is searched for them.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import auth, drop_addresses
from tests.pushkeys import PushKeys


def test_no_address_endpoint_or_webhook_url_reaches_anyone(settings: Settings) -> None:
    configured = settings.model_copy(
        update={
            "smtp_host": "127.0.0.1",
            "smtp_port": 9,
            "alert_delay_minutes": 600,
            "webhook_allow_private": True,
            "public_url": "https://play.example.org",
        }
    )
    with TestClient(create_app(configured)) as client:
        created = client.post(
            "/api/rooms", json={"game": "secret", "players": 3, "name": "Anna"}
        ).json()
        room = created["room"]
        tokens = [created["token"]] + [
            client.post(f"/api/rooms/{room}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
            for s in (1, 2)
        ]
        secrets: dict[int, list[str]] = {}
        for seat, token in enumerate(tokens):
            address = f"seat{seat}.private@example.org"
            endpoint = f"https://push.example.org/send/endpoint-of-seat-{seat}"
            assert (
                client.put(
                    f"/api/rooms/{room}/alerts/email",
                    json={"address": address},
                    headers=auth(token),
                ).status_code
                == 200
            )
            assert (
                client.post(
                    f"/api/rooms/{room}/alerts/push",
                    json=PushKeys.make().subscription(endpoint),
                    headers=auth(token),
                ).status_code
                == 200
            )
            secrets[seat] = [address, endpoint]
        hook = "http://127.0.0.1:9/webhook-secret-path"
        assert (
            client.put(
                f"/api/rooms/{room}/alerts/webhook", json={"url": hook}, headers=auth(tokens[0])
            ).status_code
            == 200
        )
        everything = [s for values in secrets.values() for s in values] + [hook]

        seen: dict[int | None, list[str]] = {0: [], 1: [], 2: [], None: []}
        sockets: dict[int | None, Any] = {}
        for seat in (0, 1, 2, None):
            ws = client.websocket_connect(f"/api/rooms/{room}/ws").__enter__()
            ws.send_json({"type": "hello", "token": tokens[seat] if seat is not None else None})
            seen[seat].append(ws.receive_text())
            sockets[seat] = ws
        client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
        services = client.app.state.services  # type: ignore[attr-defined]
        while True:
            state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
            if state.status == "finished":
                break
            seat = state.engine.to_act(state.game)[0]
            sockets[seat].send_json({"type": "move", "seq": state.seq, "move": {"n": 1}, "id": 1})
            for other, ws in sockets.items():
                while True:
                    text = ws.receive_text()
                    seen[other].append(text)
                    message = json.loads(text)
                    if message["type"] == "state" and message["seq"] >= state.seq + 1:
                        break
        for seat in (0, 1, 2, None):
            headers = auth(tokens[seat]) if seat is not None else {}
            for path in ("", "/state", "/events", "/alerts", "/alerts/vapid-key"):
                seen[seat].append(client.get(f"/api/rooms/{room}{path}", headers=headers).text)
        for ws in sockets.values():
            ws.__exit__(None, None, None)
        drop_addresses(client, room, tokens)

    for seat, texts in seen.items():
        blob = "\n".join(texts)
        for secret in everything:
            assert secret not in blob, f"seat {seat} saw {secret}"
    assert any('"email":true' in t.replace(" ", "") for t in seen[1]), "the owner sees it is set"
