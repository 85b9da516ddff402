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
from starlette.websockets import WebSocketDisconnect

from app.core.config import Settings
from app.play.access import hash_token
from app.services import create_app
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


def _hello(client: TestClient, room: str, token: str | None, who: str) -> tuple[str, int | None]:
    """What a socket saying hello with ``token`` is sent first, and its close code if the
    server closes it then (``None``: it stays open)."""
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        first = receive_text(ws, who)
        if json.loads(first)["type"] == "state":
            return first, None
        try:
            receive_text(ws, who)
        except WebSocketDisconnect as closed:
            return first, closed.code
        raise AssertionError(f"{who}: the socket stayed open after {first}")


def _replay_routes(client: TestClient, room: str, token: str | None) -> dict[str, Any]:
    """Every replay and record answer of game 1 for ``token``, by route."""
    headers = _auth(token)
    steps = client.get(f"/api/rooms/{room}/games/1").json()["steps"]
    out: dict[str, Any] = {
        "games": client.get(f"/api/rooms/{room}/games", headers=headers),
        "game": client.get(f"/api/rooms/{room}/games/1", headers=headers),
        "record": client.get(f"/api/rooms/{room}/games/1/record", headers=headers),
        "blksgf": client.get(f"/api/rooms/{room}/games/1/record.blksgf", headers=headers),
    }
    for step in range(steps + 1):
        out[f"step {step}"] = client.get(f"/api/rooms/{room}/games/1/steps/{step}", headers=headers)
        for seat in range(3):
            out[f"step {step} as {seat}"] = client.get(
                f"/api/rooms/{room}/games/1/steps/{step}?as={seat}", headers=headers
            )
    return out


def test_a_freed_seats_old_token_reads_nothing_hidden_on_any_route(settings: Settings) -> None:
    """The host frees seat 2 and a newcomer claims it: from then on the old token is a
    stranger on every route, live and replay alike, and the newcomer sees seat 2."""
    with TestClient(create_app(settings)) as client:
        services: Any = client.app.state.services  # type: ignore[attr-defined]
        room, tokens = _three_seat_room(client)
        anna, ben, old = tokens
        client.post(f"/api/rooms/{room}/start", headers=_auth(anna)).raise_for_status()
        for token in tokens:  # one move each: seat 0, 1, 2 in turn
            seq = client.get(f"/api/rooms/{room}/state", headers=_auth(token)).json()["seq"]
            moved = client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": seq, "move": {"n": 1}},
                headers=_auth(token),
            )
            assert moved.status_code == 200, moved.text
        # the host frees seat 2; Dora takes it by the link
        freed = client.post(f"/api/rooms/{room}/seats/2/free", headers=_auth(anna))
        assert freed.status_code == 200, freed.text
        dora = client.post(f"/api/rooms/{room}/seats/2", json={"name": "Dora"}).json()["token"]
        seq = client.get(f"/api/rooms/{room}/state", headers=_auth(anna)).json()["seq"]
        client.post(
            f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 1}}, headers=_auth(anna)
        ).raise_for_status()
        state = client.portal.call(services.rooms.load, room)  # type: ignore[union-attr]
        words, seed, everyone = state.game.words, state.seed, [*tokens, dora]

        # the old token: 401 live, a spectator in replay, nothing hidden anywhere
        for path in ("state", "state?legal_form=compact", "alerts"):
            refused = client.get(f"/api/rooms/{room}/{path}", headers=_auth(old))
            assert refused.status_code == 401, (path, refused.text)
        hello, code = _hello(client, room, old, "the old token")
        assert code == 4401 and json.loads(hello)["code"] == "bad_token"
        answers = _replay_routes(client, room, old)
        assert answers["game"].json()["you"] is None
        for name, answer in answers.items():
            if name.startswith("step") and " as " not in name:
                assert answer.json()["seen_as"] is None and answer.json()["view"]["mine"] is None
            elif " as " in name:
                assert answer.status_code == 403, (name, answer.text)
                assert answer.json()["code"] == "hidden_until_over"
        blob = "\n".join(
            [
                hello,
                client.get(f"/api/rooms/{room}/events", headers=_auth(old)).text,
                client.get(f"/api/rooms/{room}", headers=_auth(old)).text,
                *(f"{name}: {a.text}" for name, a in answers.items()),
            ]
        )
        for seat, word in enumerate(words):
            assert word not in blob, f"the freed seat's old token received seat {seat}'s word"
        _assert_nothing_hidden(None, blob, words, seed, everyone)

        # Dora, the newcomer, sees seat 2 as its holder, live and in replay
        mine = client.get(f"/api/rooms/{room}/state", headers=_auth(dora)).json()
        assert mine["you"] == 2 and mine["view"]["mine"] == words[2]
        hello, code = _hello(client, room, dora, "the newcomer")
        assert code is None and json.loads(hello)["you"] == 2
        answers = _replay_routes(client, room, dora)
        assert answers["game"].json()["you"] == 2
        for name, answer in answers.items():
            if name.startswith("step") and (" as " not in name or name.endswith(" as 2")):
                assert answer.status_code == 200, (name, answer.text)
                assert answer.json()["seen_as"] == 2 and answer.json()["view"]["mine"] == words[2]
            elif " as " in name:
                assert answer.status_code == 403, (name, answer.text)
        blob = "\n".join([hello, *(a.text for a in answers.values())])
        _assert_nothing_hidden(2, blob, words, seed, everyone)

        # once the game is over, every seat's view of it is open to anyone, as always
        while (now := client.get(f"/api/rooms/{room}/state").json())["result"] is None:
            seat = now["to_act"][0]
            client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": now["seq"], "move": {"n": 3}},
                headers=_auth([anna, ben, dora][seat]),
            ).raise_for_status()
        over = client.get(f"/api/rooms/{room}/games/1", headers=_auth(old)).json()
        assert over["you"] is None and over["status"] == "finished"
        assert client.get(f"/api/rooms/{room}/games/1", headers=_auth(dora)).json()["you"] == 2
        for token in (old, None):
            seen = client.get(f"/api/rooms/{room}/games/1/steps/1?as=2", headers=_auth(token))
            assert seen.status_code == 200 and seen.json()["view"]["mine"] == words[2]


def _strings(value: Any) -> set[str]:
    """Every string in a JSON value, keys too."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | set().union(*(_strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value))
    return set()


def test_a_take_back_shows_no_seat_anything_it_had_not_seen(settings: Settings) -> None:
    """M's hands are secret: after a pass and the next seat's pass are taken back by
    agreement, no seat's state, log, replay or the answers to the take-back name a card
    that seat had not been shown before (app/play/undo.py, docs/rules.md ALL-7)."""
    from engines.m.cards import DECK

    cards = {card.id for card in DECK}
    with TestClient(create_app(settings)) as client:
        created = client.post("/api/rooms", json={"game": "m", "players": 3, "name": "Anna"})
        room: str = created.json()["room"]
        tokens = [created.json()["token"]] + [
            client.post(f"/api/rooms/{room}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
            for s in (1, 2)
        ]
        client.post(f"/api/rooms/{room}/start", json={"shuffle": False}, headers=_auth(tokens[0]))

        def seen(token: str | None) -> set[str]:
            headers = _auth(token)
            answers = [
                client.get(f"/api/rooms/{room}/state", headers=headers).json(),
                client.get(f"/api/rooms/{room}/events", headers=headers).json(),
                *(r.json() for r in _replay_routes(client, room, token).values() if r.is_success),
            ]
            return set().union(*(_strings(a) for a in answers)) & cards

        known: dict[int | None, set[str]] = {s: set() for s in SEATS}
        passers = []
        for _ in range(2):
            for seat in SEATS:
                known[seat] |= seen(tokens[seat] if seat is not None else None)
            state = next(
                s
                for s in (
                    client.get(f"/api/rooms/{room}/state", headers=_auth(t)).json() for t in tokens
                )
                if s["legal_moves"]
            )
            mover = state["you"]
            moved = client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": state["seq"], "move": {"type": "pass"}},
                headers=_auth(tokens[mover]),
            )
            assert moved.status_code == 200, moved.text
            passers.append(mover)
        for seat in SEATS:
            known[seat] |= seen(tokens[seat] if seat is not None else None)
        first = passers[0]
        answers: dict[int, Any] = {}
        asked = client.post(
            f"/api/rooms/{room}/undo", json={"ask": True}, headers=_auth(tokens[first])
        )
        assert asked.status_code == 200, asked.text
        answers[first] = asked.json()
        for seat in (s for s in (0, 1, 2) if s != first):
            agreed = client.post(f"/api/rooms/{room}/undo/accept", headers=_auth(tokens[seat]))
            assert agreed.status_code == 200, agreed.text
            answers[seat] = agreed.json()
        assert client.get(f"/api/rooms/{room}/events").json()["events"][-1]["kind"] == "undo"
        for seat in SEATS:
            token = tokens[seat] if seat is not None else None
            now = seen(token) | (_strings(answers[seat]) & cards if seat is not None else set())
            assert now <= known[seat], f"{_who(seat)} was shown {sorted(now - known[seat])}"
            for other in tokens:
                blob = json.dumps(
                    client.get(f"/api/rooms/{room}/events", headers=_auth(token)).json()
                )
                assert hash_token(other) not in blob, f"{_who(seat)} received a token hash"
