"""Bad input on every path gets a 4xx ``{code, message}`` and leaves the room intact.

Text that no database can keep back (lone surrogates, NUL), control characters,
numbers past the database's integers, ids outside the room-id alphabet, frames a
socket can't read: each is refused at the edge, REST and websocket alike, and the
room's log stays readable for everyone.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.core.config import Settings
from app.core.text import check_json
from app.services import create_app
from tests.app.routes import fill, route_table
from tests.calls import auth
from tests.pushkeys import PushKeys
from tests.server import ServerProcess

TIMEOUT = 10.0
SURROGATE_CHAT = b'{"text": "broken \\ud800 half"}'


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return dict(body)


JSON = {"content-type": "application/json"}


def _seated_room(client: TestClient, name: str = "Anna") -> tuple[str, list[str]]:
    created = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": name})
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"})
    assert ben.status_code == 200, ben.text
    return room, [created.json()["token"], ben.json()["token"]]


def _log_is_readable(client: TestClient, room: str) -> list[dict[str, Any]]:
    log = client.get(f"/api/rooms/{room}/events", params={"after": 0})
    assert log.status_code == 200, log.text
    return list(log.json()["events"])


# -- chat text (item 6) ------------------------------------------------------------


def test_rest_chat_with_a_lone_surrogate_is_refused_and_the_log_stays_readable(
    client: TestClient,
) -> None:
    room, tokens = _seated_room(client)
    response = client.post(
        f"/api/rooms/{room}/chat", content=SURROGATE_CHAT, headers=auth(tokens[0]) | JSON
    )
    _error(response, 400, "bad_text")
    assert [e["kind"] for e in _log_is_readable(client, room)] == ["room_created", "seat_claimed"]


def test_chat_refuses_nul_and_control_characters_but_keeps_lines_and_tabs(
    client: TestClient,
) -> None:
    room, tokens = _seated_room(client)
    for text in ["nul \x00 inside", "bell \x07", "escape \x1b[31m red", "del \x7f"]:
        response = client.post(
            f"/api/rooms/{room}/chat", json={"text": text}, headers=auth(tokens[0])
        )
        _error(response, 400, "bad_text")
    said = client.post(
        f"/api/rooms/{room}/chat",
        json={"text": "first line\r\nsecond\tline Zoe\u0301"},
        headers=auth(tokens[0]),
    )
    assert said.status_code == 200, said.text
    chat = _log_is_readable(client, room)[-1]
    assert chat["text"] == "first line\nsecond\tline Zoé"


# -- numbers and ids at the edge (item 7) --------------------------------------------


def test_events_after_past_the_database_integer_is_malformed_not_a_crash(
    client: TestClient,
) -> None:
    room, _ = _seated_room(client)
    for after in [2**31, 2**63, 2**64 + 1]:
        _error(client.get(f"/api/rooms/{room}/events", params={"after": after}), 400, "malformed")
    top = client.get(f"/api/rooms/{room}/events", params={"after": 2**31 - 1})
    assert top.status_code == 200 and top.json()["events"] == []


def test_seq_and_seat_numbers_past_the_database_integer_are_malformed(
    client: TestClient,
) -> None:
    room, tokens = _seated_room(client)
    client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    _error(
        client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": 2**63, "move": {"n": 1}},
            headers=auth(tokens[0]),
        ),
        400,
        "malformed",
    )
    _error(client.post(f"/api/rooms/{room}/seats/{2**63}", json={"name": "Cleo"}), 400, "malformed")


@pytest.mark.parametrize(
    "bad", ["ab%00cd", "%00", "x" * 65, "a.b", "%C3%A9t%C3%A9", "a%20b", "%ED%A0%80"]
)
def test_a_room_id_outside_the_id_alphabet_is_no_room_on_every_room_route(
    client: TestClient, bad: str
) -> None:
    """Every API route with a room in its path, read from the route table (so routes
    added later too), answers such an id as no room; on PostgreSQL a NUL used to reach
    the query of the replay and seat routes and answer 500."""
    checked = []
    for route in route_table():
        if "{room}" not in route.path or not route.path.startswith("/api/"):
            continue
        for method in sorted(set(getattr(route, "methods", None) or ()) - {"HEAD"}):
            path = fill(route.path, lambda name: bad if name == "room" else "1")
            body = {} if method in ("POST", "PUT", "DELETE") else None
            _error(client.request(method, path, json=body), 404, "room_not_found")
            checked.append(f"{method} {route.path}")
    assert "GET /api/rooms/{room}/games/{game_no}/steps/{step}" in checked
    assert "POST /api/rooms/{room}/seats/{seat}/free" in checked
    # the websocket answers in its own shape: an error message, then the close
    with client.websocket_connect(f"/api/rooms/{bad}/ws") as ws:
        assert ws.receive_json()["code"] == "room_not_found"


def test_a_mail_stop_key_no_database_can_hold_is_an_unknown_key(client: TestClient) -> None:
    room, _ = _seated_room(client)
    for key in ["%00", "ab%00cd"]:
        stopped = client.get(f"/api/rooms/{room}/alerts/stop?key={key}")
        assert stopped.status_code == 404, stopped.text
        assert 'id="stop-message"' in stopped.text


# -- addresses: e-mail, push endpoints, webhooks --------------------------------------

# each is refused with 400 and the channel's code, and nothing is stored: NUL used to
# answer 500 on PostgreSQL, and controls and escape sequences were kept (a lone
# surrogate is refused as ``malformed`` already, when the body is read)
BAD_ADDRESS_PARTS = ["\x00", "\x1b[2J", "\x07", "\u202e", "\u200b", "\u2028", "\ud800"]


def _code(part: str, code: str) -> str:
    return "malformed" if part == "\ud800" else code


@pytest.fixture
def mail_client(settings: Settings) -> Iterator[TestClient]:
    # mail "enabled": nothing is sent in these tests, the address is only checked
    update = {
        "smtp_host": "127.0.0.1",
        "smtp_port": 9,
        "public_url": "https://games.example.org",
        "webhook_allow_private": False,
    }
    with TestClient(create_app(settings.model_copy(update=update))) as client:
        yield client


def _send(client: TestClient, method: str, path: str, body: Any, token: str) -> Any:
    """``body`` as JSON with ``\\u`` escapes, so a lone surrogate travels as JSON can carry it."""
    headers = {**JSON, **auth(token)}
    return client.request(method, path, content=json.dumps(body), headers=headers)


def _alerts(client: TestClient, room: str, token: str) -> dict[str, Any]:
    got = client.get(f"/api/rooms/{room}/alerts", headers=auth(token))
    assert got.status_code == 200, got.text
    return dict(got.json())


@pytest.mark.parametrize("part", BAD_ADDRESS_PARTS)
def test_an_email_address_with_nul_controls_or_escapes_is_refused_and_not_stored(
    mail_client: TestClient, part: str
) -> None:
    room, (anna, _) = _seated_room(mail_client)
    for address in [
        f"an{part}na@example.org",
        f"anna@exa{part}mple.org",
        f"anna@example.org{part}",
    ]:
        sent = _send(
            mail_client, "PUT", f"/api/rooms/{room}/alerts/email", {"address": address}, anna
        )
        _error(sent, 400, _code(part, "bad_email"))
    assert _alerts(mail_client, room, anna)["email"] is False
    fine = mail_client.put(
        f"/api/rooms/{room}/alerts/email", json={"address": "anna@example.org"}, headers=auth(anna)
    )
    assert fine.status_code == 200, fine.text


@pytest.mark.parametrize("part", BAD_ADDRESS_PARTS)
def test_a_push_endpoint_or_webhook_url_with_nul_controls_or_escapes_is_refused(
    mail_client: TestClient, part: str
) -> None:
    room, (anna, _) = _seated_room(mail_client)
    keys = PushKeys.make()
    for url in [f"https://push.example.org/{part}x", f"https://push{part}.example.org/x"]:
        path = f"/api/rooms/{room}/alerts"
        added = _send(mail_client, "POST", f"{path}/push", keys.subscription(url), anna)
        _error(added, 400, _code(part, "bad_subscription"))
        removed = _send(mail_client, "DELETE", f"{path}/push", {"endpoint": url}, anna)
        _error(removed, 400, _code(part, "bad_subscription"))
        hook = _send(mail_client, "PUT", f"{path}/webhook", {"url": url}, anna)
        _error(hook, 400, _code(part, "bad_webhook"))
    settings = _alerts(mail_client, room, anna)
    assert settings["push"] == 0 and settings["webhook"]["set"] is False


def test_a_url_with_a_broken_port_or_bracket_is_refused_not_a_crash(
    mail_client: TestClient,
) -> None:
    room, (anna, _) = _seated_room(mail_client)
    keys = PushKeys.make()
    for url in [
        "https://push.example.org:99999/x",
        "https://push.example.org:x/",
        "https://[::1/x",
    ]:
        added = mail_client.post(
            f"/api/rooms/{room}/alerts/push", json=keys.subscription(url), headers=auth(anna)
        )
        _error(added, 400, "bad_subscription")
        hook = mail_client.put(
            f"/api/rooms/{room}/alerts/webhook", json={"url": url}, headers=auth(anna)
        )
        _error(hook, 400, "bad_webhook")


# -- names (items 7 and 8) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Anna\x00", "readable"),
        ("An\x07na", "control"),
        ("\u202eanna", "direction"),
        ("Anna\u2066x\u2069", "direction"),
        ("\u200b", "visible"),
        ("\u200b\u200d\ufeff", "visible"),
        ("\u3164", "visible"),
        (" \u00a0\u2003 ", "visible"),
        ("a" * 41, "at most 40"),
    ],
)
def test_names_with_controls_overrides_or_nothing_visible_are_bad_names(
    client: TestClient, name: str, says: str
) -> None:
    created = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": name})
    assert says in _error(created, 400, "bad_name")["message"]
    room = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "Anna"})
    claimed = client.post(f"/api/rooms/{room.json()['room']}/seats/1", json={"name": name})
    assert says in _error(claimed, 400, "bad_name")["message"]


def test_a_name_with_a_lone_surrogate_is_a_bad_name(client: TestClient) -> None:
    body = b'{"game": "secret", "players": 2, "name": "An\\udc00na"}'
    _error(client.post("/api/rooms", content=body, headers=JSON), 400, "bad_name")


def test_names_are_stored_normalised_nfc_with_single_spaces(client: TestClient) -> None:
    decomposed = "Zoe\u0301  \t Mu\u0308ller"
    room, _ = _seated_room(client, name=decomposed)
    seats = client.get(f"/api/rooms/{room}").json()["seats"]
    assert seats[0]["name"] == "Zoé Müller"
    assert unicodedata.is_normalized("NFC", seats[0]["name"])
    # a joiner inside an emoji sequence is part of a visible name
    family = client.post(
        "/api/rooms", json={"game": "secret", "players": 2, "name": "\U0001f468\u200d\U0001f469"}
    )
    assert family.status_code == 201, family.text


# -- bodies (item 7) ---------------------------------------------------------------------


def test_a_chunked_body_over_the_limit_is_too_large(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "secret", "players": 2, "name": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    response = client.post("/api/rooms", content=chunks(), headers=JSON)
    _error(response, 413, "too_large")
    small = client.post(
        "/api/rooms",
        content=iter([b'{"game": "secret", ', b'"players": 2, "name": "Anna"}']),
        headers=JSON,
    )
    assert small.status_code == 201, small.text


# -- one budget per seat (items 9 and 10) -----------------------------------------------


@pytest.fixture
def tight(settings: Settings) -> Iterator[TestClient]:
    """A budget of three messages an hour: nothing refills while a test runs."""
    narrow = settings.model_copy(update={"seat_budget_messages": 3, "seat_budget_seconds": 3600})
    with TestClient(create_app(narrow)) as client:
        yield client


def test_rest_chat_and_moves_are_limited_per_seat(tight: TestClient) -> None:
    room, tokens = _seated_room(tight)
    tight.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    for n in range(3):
        said = tight.post(
            f"/api/rooms/{room}/chat", json={"text": f"hi {n}"}, headers=auth(tokens[1])
        )
        assert said.status_code == 200, said.text
    _error(
        tight.post(f"/api/rooms/{room}/chat", json={"text": "more"}, headers=auth(tokens[1])),
        429,
        "rate_limited",
    )
    seq = tight.get(f"/api/rooms/{room}/state").json()["seq"]
    _error(
        tight.post(
            f"/api/rooms/{room}/moves",
            json={"seq": seq, "move": {"n": 1}},
            headers=auth(tokens[1]),
        ),
        429,
        "rate_limited",
    )
    # the other seat has its own budget
    moved = tight.post(
        f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 1}}, headers=auth(tokens[0])
    )
    assert moved.status_code == 200, moved.text


def test_websocket_and_rest_draw_from_one_seat_budget_and_refusals_carry_the_id(
    tight: TestClient,
) -> None:
    room, tokens = _seated_room(tight)
    with tight.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[1]})
        assert ws.receive_json()["type"] == "state"
        for n in range(2):
            said = tight.post(
                f"/api/rooms/{room}/chat", json={"text": f"rest {n}"}, headers=auth(tokens[1])
            )
            assert said.status_code == 200, said.text
        ws.send_json({"type": "chat", "text": "socket", "id": "c1"})
        assert _answer(ws, "c1")["type"] == "ack"
        ws.send_json({"type": "chat", "text": "one too many", "id": "c2"})
        refused = _answer(ws, "c2")
        assert (refused["type"], refused["code"]) == ("error", "rate_limited")
        ws.send_json({"type": "ping", "id": 7})
        assert _answer(ws, 7)["code"] == "rate_limited"
    _error(
        tight.post(f"/api/rooms/{room}/chat", json={"text": "rest"}, headers=auth(tokens[1])),
        429,
        "rate_limited",
    )


def _answer(ws: Any, ref: Any) -> dict[str, Any]:
    """The ack, pong or error answering the message with id ``ref``."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("ack", "pong", "error") and message.get("id") == ref:
            return message


# -- sockets on a real server (items 6 and 7) ---------------------------------------------


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", env={"DATABASE_URL": database_url})
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def _server_room(server: ServerProcess) -> tuple[str, list[str]]:
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}
    ).json()
    ben = httpx.post(
        f"{server.url}/api/rooms/{created['room']}/seats/1", json={"name": "Ben"}
    ).json()
    return created["room"], [created["token"], ben["token"]]


def _closed_with(ws: ClientConnection) -> tuple[list[dict[str, Any]], int]:
    """Every message until the server closes, and its close code (a close frame must come)."""
    seen = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            seen.append(json.loads(ws.recv(timeout=TIMEOUT)))
    assert closed.value.rcvd is not None, "the socket was dropped without a close frame"
    return seen, closed.value.rcvd.code


def _reply(ws: ClientConnection) -> dict[str, Any]:
    """The next answer to something we sent: pushes (state, presence) may come between."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] not in ("state", "presence"):
            return message


def _hello(server: ServerProcess, room: str, token: str | None) -> ClientConnection:
    ws = connect(f"{server.ws_url}/api/rooms/{room}/ws", open_timeout=TIMEOUT)
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "state"
    return ws


def test_sockets_refuse_bad_text_and_frames_with_an_error_and_a_close_code(
    server: ServerProcess,
) -> None:
    room, tokens = _server_room(server)
    # a chat with a lone surrogate is refused, with its id, and the socket goes on
    anna = _hello(server, room, tokens[0])
    anna.send('{"type": "chat", "text": "broken \\ud800", "id": 3}')
    refused = _reply(anna)
    assert (refused["type"], refused["code"], refused["id"]) == ("error", "bad_text", 3)
    anna.send(json.dumps({"type": "chat", "text": "nul \x00", "id": 4}))
    assert _reply(anna)["code"] == "bad_text"
    anna.send('{"type": "move", "seq": 0, "move": {"piece": "\\udfff"}, "id": 5}')
    assert _reply(anna)["code"] == "bad_message"
    anna.send(json.dumps({"type": "ping", "id": 6}))
    assert _reply(anna) == {"type": "pong", "id": 6}
    # an id with a lone surrogate comes back as it was sent (escaped), the socket goes on
    anna.send('{"type": "ping", "id": "x\\udc80"}')
    assert _reply(anna) == {"type": "pong", "id": "x\udc80"}
    events = httpx.get(f"{server.url}/api/rooms/{room}/events")
    assert events.status_code == 200 and [e["kind"] for e in events.json()["events"]] == [
        "room_created",
        "seat_claimed",
    ]
    anna.send('{"type": "chat", "text": "hi", "id": "\\ud800"}')
    acked = _reply(anna)
    assert (acked["type"], acked["id"]) == ("ack", "\ud800")

    # a binary frame after hello: an error, then 1003 (text only)
    anna.send(b"\x00\x01binary")
    seen, code = _closed_with(anna)
    assert [m["code"] for m in seen if m["type"] == "error"] == ["binary"]
    assert code == 1003

    # a binary hello, and a hello whose token holds a lone surrogate: error and 4400
    for first in [b"\x81binary", '{"type": "hello", "token": "tok\\ud800en"}']:
        ws = connect(f"{server.ws_url}/api/rooms/{room}/ws", open_timeout=TIMEOUT)
        ws.send(first)
        seen, code = _closed_with(ws)
        assert seen and seen[0]["type"] == "error"
        assert code == 4400

    # an id no room can have: the same answer as an unknown room, without waiting for hello
    for bad in ["ab%00cd", "x" * 80]:
        ws = connect(f"{server.ws_url}/api/rooms/{bad}/ws", open_timeout=TIMEOUT)
        seen, code = _closed_with(ws)
        assert [m["code"] for m in seen] == ["room_not_found"]
        assert code == 4404
    assert httpx.get(f"{server.url}/api/rooms/ab%00cd").status_code == 404


# -- client addresses behind a proxy (item 11) ------------------------------------------------


def test_behind_a_trusted_proxy_a_spoofed_forwarded_address_dodges_no_limit(
    tmp_path: Path,
) -> None:
    proc = ServerProcess(
        tmp_path / "data",
        env={
            "TRUST_PROXY_HEADERS": "true",
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
            "ROOMS_PER_MINUTE": "3",
        },
    )
    proc.start()
    try:

        def create(forwarded: str) -> int:
            return httpx.post(
                f"{proc.url}/api/rooms",
                json={"game": "blokus", "players": 2, "name": "Anna"},
                headers={"X-Forwarded-For": forwarded},
            ).status_code

        # the proxy on 127.0.0.1 appends the address it saw; what comes before is the client's say
        spoofed = [create(f"10.0.0.{n}, 203.0.113.7") for n in range(5)]
        assert spoofed == [201, 201, 201, 429, 429]
        # another client behind the same proxy has its own allowance
        assert create("203.0.113.8") == 201
    finally:
        proc.stop()


def test_forwarded_addresses_from_an_untrusted_peer_are_ignored(tmp_path: Path) -> None:
    proc = ServerProcess(
        tmp_path / "data",
        env={
            "TRUST_PROXY_HEADERS": "true",
            "FORWARDED_ALLOW_IPS": "192.0.2.1",
            "ROOMS_PER_MINUTE": "2",
        },
    )
    proc.start()
    try:
        codes = [
            httpx.post(
                f"{proc.url}/api/rooms",
                json={"game": "blokus", "players": 2, "name": "Anna"},
                headers={"X-Forwarded-For": f"203.0.113.{n}"},
            ).status_code
            for n in range(3)
        ]
        assert codes == [201, 201, 429]
    finally:
        proc.stop()


@pytest.mark.parametrize(
    "value",
    [
        "a\x00b",
        "\ud800",
        {"piece\x00": "F"},
        {"cells": [[1, 2]], "note": ["deep", {"er": "\udfff"}]},
        {"big": 2**70, "text": "x\x00"},  # orjson can't write the number: judged slowly
    ],
)
def test_check_json_refuses_every_string_no_database_keeps(value: Any) -> None:
    with pytest.raises(ValueError, match="without NUL"):
        check_json(value)


@pytest.mark.parametrize(
    "value",
    [
        {"piece": "F", "cells": [[3, 4], [4, 3]]},
        "a backslash and u0000 written out: \\u0000",  # looks like the escape, is not NUL
        {"big": 2**70, "name": "Zoë"},
        {"deep": [[[["ok"]]]]},
    ],
)
def test_check_json_keeps_what_every_database_keeps(value: Any) -> None:
    assert check_json(value) is value
