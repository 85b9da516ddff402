"""Fuzzing a real server: random and half-right requests and socket messages, all games.

Whatever arrives, REST answers below 500 with ``{code, message}``, a socket answers
with messages of the documented types or closes with a close code (never dropped
without a close frame), and afterwards the room is still playable: its log reads
back, every seat's state loads, and a legal move is accepted. ``make test-long`` runs
many more examples (HYPOTHESIS_PROFILE=long).
"""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.app.conftest import BACKENDS
from tests.server import ServerProcess

GAMES = ["blokus", "m", "maedn"]
EXAMPLES = 300 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 25
TIMEOUT = 20.0
SERVER_TYPES = {"state", "presence", "ack", "error", "pong"}
# the close codes docs/protocol.md promises; anything else (1006, 1011) is a fault
CLOSE_CODES = {1003, 1008, 1009, 4400, 4401, 4404}
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# -- values ------------------------------------------------------------------------

# every code point, lone surrogates and NUL included
chars = st.characters(exclude_categories=())
any_text = st.text(chars, max_size=20) | st.sampled_from(
    ["", "\x00", "\ud800", "\udfff x", "\u202e", "\u200b", "A" * 300, "blokus", "strong"]
)
numbers = (
    st.integers(min_value=-3, max_value=40)
    | st.integers()
    | st.sampled_from([2**31 - 1, 2**31, 2**63, -(2**63), 2**64])
    | st.floats(allow_nan=False)
)
scalars = st.none() | st.booleans() | numbers | any_text
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)
ids = st.none() | st.integers() | any_text | st.booleans() | st.lists(st.integers(), max_size=2)


def _encode(value: Any) -> bytes:
    # ensure_ascii keeps lone surrogates as \ud800 escapes, as a browser's JSON.stringify does
    return json.dumps(value).encode()


def _mutated(data: st.DataObject, move: dict[str, Any]) -> dict[str, Any]:
    """A legal move with one part changed: a value replaced, a key added or dropped.

    The draws are the same whatever the move looks like, so hypothesis can replay them
    while the game moves on.
    """
    how = data.draw(st.sampled_from(["replace", "add", "drop", "same"]))
    pick = data.draw(st.integers(0, 15))
    key = data.draw(any_text)
    value = data.draw(json_values)
    move = dict(move)
    keys = sorted(move)
    if how == "replace" and keys:
        move[keys[pick % len(keys)]] = value
    elif how == "add":
        move[key] = value
    elif how == "drop" and keys:
        move.pop(keys[pick % len(keys)])
    return move


# -- a table to fuzz ------------------------------------------------------------------


class Table:
    """A started room of one game with every seat taken, driven over REST."""

    def __init__(self, server: ServerProcess, game: str) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=TIMEOUT)
        created = self._ok(
            self.http.post("/api/rooms", json={"game": game, "players": 2, "name": "Anna"}), 201
        )
        self.room: str = created["room"]
        self.tokens: list[str] = [created["token"]]
        claimed = self._ok(self.http.post(f"/api/rooms/{self.room}/seats/1", json={"name": "Ben"}))
        self.tokens.append(claimed["token"])
        self._ok(self.http.post(f"/api/rooms/{self.room}/start", headers=self.auth(0)))

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def _ok(self, response: httpx.Response, status: int = 200) -> dict[str, Any]:
        assert response.status_code == status, (response.request.url, response.text)
        return dict(response.json())

    def state(self, seat: int | None) -> dict[str, Any]:
        headers = self.auth(seat) if seat is not None else {}
        return self._ok(self.http.get(f"/api/rooms/{self.room}/state", headers=headers))

    def acting(self) -> tuple[int, dict[str, Any]]:
        """A seat that may act now and its state; starts a rematch once a game is over."""
        state = self.state(None)
        if state["result"] is not None:
            self._ok(self.http.post(f"/api/rooms/{self.room}/start", headers=self.auth(0)))
            state = self.state(None)
        seat = int(state["to_act"][0])
        return seat, self.state(seat)

    def still_playable(self) -> None:
        """The log reads back, every seat's state loads, and a legal move is accepted."""
        log = self._ok(self.http.get(f"/api/rooms/{self.room}/events", params={"after": 0}))
        json.dumps(log, ensure_ascii=False).encode()  # every stored string is real text
        for seat in range(len(self.tokens)):
            self.state(seat)
        seat, mine = self.acting()
        played = self.http.post(
            f"/api/rooms/{self.room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
            headers=self.auth(seat),
        )
        self._ok(played)


def _answered_well(response: httpx.Response) -> None:
    assert response.status_code < 500, (
        response.request.method,
        response.request.url,
        response.text,
    )
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("code"), str) and body["code"], body
        assert isinstance(body.get("message"), str) and body["message"], body


@pytest.fixture(scope="module", params=BACKENDS)
def fuzz_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    data = tmp_path_factory.mktemp("fuzz")
    env = {
        "SEAT_BUDGET_MESSAGES": "1000000",
        "ROOMS_PER_MINUTE": "1000000",
        "BOT_DELAY_MS": "0",
    }
    if request.param == "postgresql":
        pg: str | None = request.getfixturevalue("postgres_url")
        if pg is None:
            pytest.skip("TEST_DATABASE_URL not set")
        env["DATABASE_URL"] = pg
    proc = ServerProcess(data, env=env)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


# -- REST -------------------------------------------------------------------------------


def _rest_request(data: st.DataObject, table: Table) -> tuple[str, str, dict[str, Any]]:
    """One request: a path of the API with a fuzzed room id, seat, body, query or token."""
    room = table.room if data.draw(st.integers(0, 3)) else data.draw(any_text, label="room")
    room = room or "x"
    quoted = urllib.parse.quote(room, safe="", errors="surrogatepass")
    seat = data.draw(numbers | any_text, label="seat")
    seat_part = urllib.parse.quote(str(seat), safe="", errors="surrogatepass")
    kind = data.draw(
        st.sampled_from(
            ["create", "claim", "bot", "start", "state", "info", "move", "chat", "events"]
        )
    )
    base = f"/api/rooms/{quoted}"
    body: Any = None
    if kind == "create":
        method, path = "POST", "/api/rooms"
        body = data.draw(
            json_values
            | st.fixed_dictionaries(
                {"game": st.sampled_from(GAMES) | any_text, "players": numbers, "name": any_text},
                optional={
                    "options": json_values,
                    "seat": numbers,
                    "bots": st.dictionaries(any_text | numbers.map(str), any_text, max_size=3),
                    "start_when_full": scalars,
                    "shuffle_seats": scalars,
                },
            )
        )
    elif kind == "claim":
        method, path = "POST", f"{base}/seats/{seat_part}"
        body = data.draw(json_values | st.fixed_dictionaries({"name": any_text}))
    elif kind == "bot":
        method, path = "POST", f"{base}/seats/{seat_part}/bot"
        body = data.draw(json_values | st.fixed_dictionaries({"bot": scalars}))
    elif kind == "start":
        method, path = "POST", f"{base}/start"
        body = data.draw(st.none() | json_values | st.fixed_dictionaries({"shuffle": scalars}))
    elif kind == "state":
        method, path = "GET", f"{base}/state"
    elif kind == "info":
        method, path = "GET", base
    elif kind == "move":
        method, path = "POST", f"{base}/moves"
        _, mine = table.acting()
        legal = mine["legal_moves"][0] if mine["legal_moves"] else {}
        body = {
            "seq": mine["seq"] if data.draw(st.booleans()) else data.draw(numbers),
            "move": _mutated(data, legal) if data.draw(st.booleans()) else data.draw(json_values),
        }
        if not data.draw(st.integers(0, 4)):
            body = data.draw(json_values)
    elif kind == "chat":
        method, path = "POST", f"{base}/chat"
        body = data.draw(json_values | st.fixed_dictionaries({"text": any_text}))
    else:
        method, path = "GET", f"{base}/events"
        query = "&".join(
            f"{key}={urllib.parse.quote(str(data.draw(numbers | any_text)), errors='surrogatepass')}"
            for key in data.draw(st.lists(st.sampled_from(["after", "limit"]), unique=True))
        )
        path = f"{path}?{query}" if query else path
    token = data.draw(
        st.sampled_from([None, *table.tokens])
        | st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40)
    )
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request: dict[str, Any] = {"headers": headers}
    if body is not None:
        request["content"] = _encode(body)
        request["headers"] = headers | {"content-type": "application/json"}
    return method, path, request


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_rest_requests_leave_the_room_playable(
    fuzz_server: ServerProcess, game: str
) -> None:
    table = Table(fuzz_server, game)

    @FUZZ
    @given(st.data())
    def run(data: st.DataObject) -> None:
        for _ in range(data.draw(st.integers(1, 6), label="requests")):
            method, path, request = _rest_request(data, table)
            _answered_well(table.http.request(method, path, **request))
        table.still_playable()

    run()


# -- websockets ----------------------------------------------------------------------------


def _frame(data: st.DataObject, table: Table, seq: int, legal: dict[str, Any]) -> str | bytes:
    """One frame from a client: a message of each type with fuzzed fields, or junk."""
    kind = data.draw(
        st.sampled_from(["move", "chat", "ping", "hello", "other", "json", "text", "binary"])
    )
    if kind == "move":
        message: Any = {
            "type": "move",
            "seq": seq if data.draw(st.booleans()) else data.draw(numbers),
            "move": _mutated(data, legal) if data.draw(st.booleans()) else data.draw(json_values),
            "id": data.draw(ids),
        }
    elif kind == "chat":
        message = {"type": "chat", "text": data.draw(any_text | json_values), "id": data.draw(ids)}
    elif kind == "ping":
        message = {"type": "ping", "id": data.draw(ids)}
    elif kind == "hello":
        message = {"type": "hello", "token": data.draw(any_text), "since": data.draw(numbers)}
    elif kind == "other":
        message = data.draw(st.dictionaries(any_text, json_values, max_size=4))
        message["type"] = data.draw(any_text)
    elif kind == "json":
        message = data.draw(json_values)
    elif kind == "text":
        return data.draw(st.text(st.characters(codec="utf-8"), max_size=50))
    else:
        return data.draw(st.binary(max_size=50))
    return json.dumps(message)


class Socket:
    """Seat 0's socket; after each frame a ping fences off the answers to that frame."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.fence = 0
        self.ws: ClientConnection | None = None

    def open(self) -> ClientConnection:
        ws = connect(
            f"{self.table.server.ws_url}/api/rooms/{self.table.room}/ws", open_timeout=TIMEOUT
        )
        ws.send(json.dumps({"type": "hello", "token": self.table.tokens[0]}))
        first = json.loads(ws.recv(timeout=TIMEOUT))
        assert first["type"] == "state", first
        self.ws = ws
        return ws

    def send(self, frame: str | bytes) -> None:
        """Send ``frame``, read what answers it; a close must come with a documented code."""
        ws = self.ws or self.open()
        self.fence += 1
        fence = f"fence-{self.fence}"
        try:
            ws.send(frame)
            ws.send(json.dumps({"type": "ping", "id": fence}))
            while True:
                message = json.loads(ws.recv(timeout=TIMEOUT))
                _well_formed(message)
                if message["type"] == "pong" and message["id"] == fence:
                    return
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, f"dropped without a close frame after {frame!r}"
            assert closed.rcvd.code in CLOSE_CODES, (closed.rcvd, frame)
            self.ws = None


def _well_formed(message: dict[str, Any]) -> None:
    assert message.get("type") in SERVER_TYPES, message
    if message["type"] == "error":
        assert isinstance(message.get("code"), str) and message["code"], message
        assert isinstance(message.get("message"), str) and message["message"], message


def _first_frame(server: ServerProcess, room: str, frame: str | bytes) -> None:
    """A fresh socket whose first frame is ``frame``: a state, or an error and a close code."""
    ws = connect(f"{server.ws_url}/api/rooms/{room}/ws", open_timeout=TIMEOUT)
    try:
        ws.send(frame)
        message = json.loads(ws.recv(timeout=TIMEOUT))
        _well_formed(message)
        if message["type"] == "state":
            return
        assert message["type"] == "error", message
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                _well_formed(json.loads(ws.recv(timeout=TIMEOUT)))
        assert closed.value.rcvd is not None, f"hello {frame!r} dropped without a close frame"
        assert closed.value.rcvd.code in CLOSE_CODES, (closed.value.rcvd, frame)
    finally:
        ws.close()


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_socket_messages_leave_the_room_playable(
    fuzz_server: ServerProcess, game: str
) -> None:
    table = Table(fuzz_server, game)
    sock = Socket(table)

    @FUZZ
    @given(st.data())
    def run(data: st.DataObject) -> None:
        if data.draw(st.booleans()):
            hello = {
                "type": "hello",
                "token": data.draw(st.sampled_from([None, *table.tokens]) | any_text),
                "since": data.draw(st.none() | numbers),
            }
            first: str | bytes = json.dumps(hello)
        else:
            first = _frame(data, table, 0, {})
        _first_frame(fuzz_server, table.room, first)
        _, mine = table.acting()
        legal = mine["legal_moves"][0] if mine["legal_moves"] else {}
        for _ in range(data.draw(st.integers(1, 5), label="frames")):
            sock.send(_frame(data, table, mine["seq"], legal))
        table.still_playable()

    try:
        run()
    finally:
        if sock.ws is not None:
            sock.ws.close()
