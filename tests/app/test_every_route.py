"""Every route at once, as every kind of caller: none hangs, none fails, nobody else waits.

The routes come from the app's own route table (HTTP routes, websockets, mounts), so
a route added later is called too; a route whose path, query, body or mount this
file can't fill fails the test by name instead of being skipped. Each is called
with real values (a card-game room with a finished game and a running one after a
freed seat and a shuffled rematch) and with hostile ones (NUL, a broken character,
a foreign room, numbers past any database integer), as a spectator (no token), an
outsider (a random token), a seated player, the old token of a freed seat, the
newcomer who took that seat, another room's player and the host, several copies at
once, against a real server on SQLite and on PostgreSQL. Meanwhile and afterwards a
bystander creates a room and plays a move.

What is asserted holds for every route whatever it answers: no 5xx, no websocket
closed for an internal error, every call answered within a hang guard, and the
bystander served. A self-deadlock (a store session opened inside another of the same
request) freezes a SQLite server for good; here it fails within ``GUARD`` seconds.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from pydantic import BaseModel
from starlette.routing import Mount, Route
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.core.migrate import upgrade
from engines import ENGINES
from tests.app.routes import PATH_PARAM, declared, fill, route_table
from tests.pushkeys import PushKeys
from tests.server import ServerProcess

# a hang guard, never a speed limit: the slowest call of a loaded machine takes a
# fraction of it, and a deadlocked server makes every call wait for ever
GUARD = 20.0
COPIES = 2  # each call is made this many times at once
AT_ONCE = 48  # calls in flight at any moment
# the server's answer to an internal error on a websocket
CLOSE_INTERNAL = 1011

FORMATS = sorted(fmt.name for engine in ENGINES.values() for fmt in engine.record_formats())
CALLERS = ("spectator", "outsider", "seated", "freed", "newcomer", "other_room", "host")
# hostile values go to fewer callers: the value, not the caller, is what they try
HOSTILE_CALLERS = ("spectator", "seated")


@dataclass
class Table:
    """What the setup made: the room, its games, the callers' tokens."""

    room: str
    other: str
    players: int
    tokens: dict[str, str | None]
    running: int  # the game number of the running game (the ones before are finished)
    steps: dict[int, int]
    seq: int
    move: dict[str, Any]
    record: dict[str, Any]


@dataclass
class Call:
    label: str
    method: str  # "WS" for a websocket
    path: str
    token: str | None
    body: Any = None
    raw: str | None = None


@dataclass
class Outcome:
    failures: list[str] = field(default_factory=list)
    answered: int = 0


# -- the route table ---------------------------------------------------------------


def _dependant(route: Any) -> Any:
    return getattr(route, "dependant", None)


def _params(dependant: Any, kind: str) -> list[Any]:
    """The ``kind`` parameters (``query_params``, ``header_params``) of a route and its
    dependencies."""
    if dependant is None:
        return []
    found = list(getattr(dependant, kind))
    for sub in dependant.dependencies:
        found.extend(_params(sub, kind))
    return found


def _query_names(dependant: Any) -> list[str]:
    """The query parameters a route reads, by the name sent: a model's fields one by one."""
    names = []
    for query in _params(dependant, "query_params"):
        model = query.field_info.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            names.extend(f.alias or n for n, f in model.model_fields.items())
        else:
            names.append(query.alias)
    return names


def _path_values(table: Table) -> dict[str, tuple[list[str], list[str]]]:
    """Per path parameter: real values, and hostile ones (each tried alone)."""
    return {
        "room": (
            [table.room],
            [table.other, "%00", "ab%00cd", "%ED%A0%80", "x" * 65, "no-such-room-at-all"],
        ),
        "game_no": (["1", str(table.running)], ["0", "99", "-1", str(2**63), "1.5"]),
        "step": (
            ["0", "3", str(table.steps[1])],
            ["-1", str(table.steps[table.running] + 1), str(10**6), str(2**63)],
        ),
        "seat": (
            [str(s) for s in range(table.players)],
            ["-1", str(table.players), str(2**63)],
        ),
        # every engine's own record formats, and names no engine has
        "format": (
            FORMATS,
            ["bogus", "json", "verify", "BLKSGF", "%00", "%ED%A0%80", "x" * 65, "a.b"],
        ),
    }


# the query parameters (by the name sent): the first value goes with every call (None:
# left out); each other one is tried as well
QUERY_VALUES: dict[str, list[str | None]] = {
    "legal_form": [None, "compact", "bogus"],
    "after": [None, "0", "-1", str(2**63)],
    "limit": [None, "1", "0"],
    "as": [None, "0", "2", "9"],
    "key": ["not-a-stop-key", "%00", "%ED%A0%80"],
    "turn_seconds": [None, "3600", "0", str(2**63), "%00"],
    "on_timeout": [None, "bot_seat", "nap"],
    "stand_in": [None, "random", "%ED%A0%80", "x" * 5000],
}
# the headers a route may read: the callers' tokens are sent as Authorization
HEADERS = {"authorization"}
# what a mount serves, by its path
MOUNTS: dict[str, list[str]] = {
    "/static": ["/css/base.css", "/js/no-such-file.js", "/%00", "/..%2f..%2fpyproject.toml"],
}
# alerts are stored for real (the server may send to private addresses here): the
# receivers are a closed port, so nothing would be sent anywhere
CLOSED = "http://127.0.0.1:9"


def _bodies(table: Table) -> dict[tuple[str, str], list[Any]]:
    """The bodies sent to each route that reads one: JSON values, or ``("raw", text)``.
    A route that declares a body and has none here fails the test; one that reads its
    body itself (the record imports) can't be told apart, so it must be listed here."""
    blokus = {
        "format": "spieltisch-record",
        "format_version": 1,
        "engine": "blokus",
        "players": 2,
        "options": {},
        "names": ["Ida", "Jan"],
        "moves": [],
    }
    room = "/api/rooms/{room}"
    held = [token for token in table.tokens.values() if token is not None]
    soon = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    nested: Any = ["t"]
    for _ in range(200):
        nested = [nested]
    return {
        ("POST", "/api/rooms"): [{"game": "blokus", "players": 2, "name": "Eve"}],
        ("POST", f"{room}/seats/{{seat}}"): [{"name": "Eve"}],
        ("POST", f"{room}/seats/{{seat}}/bot"): [{"bot": "random"}],
        ("POST", f"{room}/start"): [{"shuffle": True}],
        ("POST", f"{room}/moves"): [{"seq": table.seq, "move": table.move}],
        ("POST", f"{room}/chat"): [{"text": "hello"}],
        ("PUT", f"{room}/alerts/lang"): [{"lang": "de"}],
        ("POST", f"{room}/alerts/push"): [PushKeys.make().subscription(f"{CLOSED}/push/abc")],
        ("DELETE", f"{room}/alerts/push"): [{"endpoint": f"{CLOSED}/push/abc"}],
        ("PUT", f"{room}/alerts/email"): [{"address": "anna@example.org"}],
        ("PUT", f"{room}/alerts/webhook"): [{"url": f"{CLOSED}/hook", "shape": "json"}],
        ("PUT", f"{room}/alerts/kinds"): [{"channel": "push", "kinds": {"chat": True}}],
        # one set-up for many seats: the tokens are in the body, every caller's kind there
        ("POST", "/api/alerts"): [
            {
                "seats": [
                    {"room": table.room if who != "other_room" else table.other, "token": t}
                    for who, t in table.tokens.items()
                    if t is not None
                ],
                "proof": [{"room": table.other, "token": "x" * 200}],
                "channel": {
                    "kind": "push",
                    "subscription": PushKeys.make().subscription(f"{CLOSED}/push/all"),
                },
            },
            {
                "seats": [{"room": table.room, "token": t} for t in table.tokens.values() if t]
                * 10,
                "channel": {"kind": "email", "address": "anna@example.org", "each_turn": True},
            },
            (  # a NUL and a broken character (sent as JSON escapes)
                "raw",
                '{"seats": [{"room": "\\u0000", "token": "\\ud800"}],'
                ' "channel": {"kind": "email", "address": "a@b.org"}}',
            ),
            {
                "seats": [{"room": table.room, "token": "t"}],
                "channel": {"kind": "push", "subscription": {"endpoint": "x" * 2**16}},
            },
            {"seats": [[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]], "channel": {"kind": 2**70}},
        ],
        ("POST", f"{room}/seats/{{seat}}/hand-over"): [{"bot": None}],
        ("POST", f"{room}/leave"): [{"bot": None}],
        # the stale one first: a resignation that lands ends the table's running game
        ("POST", f"{room}/resign"): [{"seq": 0}, {"seq": 2**40}, {"seq": "x"}],
        ("POST", f"{room}/host"): [{"seat": 1}],
        # a take-back: asked for, refused, with a seq too old and one ahead
        ("POST", f"{room}/undo"): [
            {"ask": True, "seq": table.seq},
            {"ask": "x"},
            {"seq": 2**40},
            {"ask": False, "seq": 0},
        ],
        # a waiting table's settings: real, and refused ones (the room is running a game,
        # so the real one is refused too; the lobby's answers are in test_waiting_table.py)
        ("POST", f"{room}/settings"): [
            {"players": 2, "turn_seconds": 3600},
            {"players": 2**40},
            {"options": {"variant": "\u0000"}},
            {"on_timeout": "never"},
        ],
        # away: at one table (the seat token in the header), or at every table of the
        # tokens in the body (each caller's, and hostile ones); times far off, out of the
        # calendar, and not times at all
        ("POST", f"{room}/away"): [
            {"until": soon},
            {"until": "9999-12-31T23:59:59-14:00"},
            {"until": "0001-01-01T00:00:00+14:00"},
            {"until": "2026-02-30T00:00:00Z"},
            {"until": 2**63},
            {"until": "\u0000"},
        ],
        ("POST", "/api/away"): [
            {"tokens": held, "until": soon},
            ("raw", json.dumps({"tokens": ["\u0000", "\ud800"], "until": soon})),
            {"tokens": held[:1] * 50, "until": soon},
            {"tokens": nested, "until": soon},
            {"tokens": held, "until": "9999-12-31T23:59:59+00:00"},
        ],
        ("DELETE", "/api/away"): [{"tokens": held}, {"tokens": ["x" * 5000]}, {"tokens": []}],
        ("POST", "/api/records"): [("raw", json.dumps(blokus))],
        ("POST", "/api/records/{format}"): [
            ("raw", "(;GM[Blokus]SZ[14]PB[Ida]PW[Jan])"),
            ("raw", "\x00" * 64),
            ("raw", "(" * 20_000),
        ],
        ("POST", "/api/records/verify"): [("raw", json.dumps(table.record))],
    }


class Unfillable(AssertionError):
    """A route this file does not know how to call: tell it here, don't skip it."""


def calls_for(route: Any, table: Table) -> list[Call]:
    """Every call made to one route: real values for every caller, hostile ones for some."""
    original = declared(route)
    path: str = route.path
    params: list[str] = PATH_PARAM.findall(path)
    known = _path_values(table)
    unknown = [n for n in params if n not in known]
    if unknown:
        raise Unfillable(f"{path}: no values for the path parameter(s) {unknown}")

    real = [
        dict(zip(params, combo, strict=True))
        for combo in itertools.product(*(known[p][0] for p in params))
    ]
    hostile = [{**real[0], name: value} for name in params for value in known[name][1]]

    if isinstance(original, Mount):
        subpaths = MOUNTS.get(path)
        if subpaths is None:
            raise Unfillable(f"the mount {path} is new: say in MOUNTS what to ask it for")
        return [
            Call(f"GET {path}{sub} as {who}", "GET", f"{path}{sub}", table.tokens[who])
            for sub in subpaths
            for who in HOSTILE_CALLERS
        ]
    if isinstance(original, APIWebSocketRoute):
        return [
            Call(f"WS {fill(path, v)} as {who}", "WS", fill(path, v), table.tokens[who])
            for v, callers in [
                *((v, CALLERS) for v in real),
                *((v, HOSTILE_CALLERS) for v in hostile),
            ]
            for who in callers
        ]
    if not isinstance(original, Route | APIRoute):
        raise Unfillable(f"{path}: a {type(original).__name__}, which this test can't call yet")

    dependant = _dependant(route)
    for header in _params(dependant, "header_params"):
        if header.alias.lower() not in HEADERS:
            raise Unfillable(f"{path}: no value for the header {header.alias!r}")
    queries: list[list[tuple[str, str | None]]] = []
    for name in _query_names(dependant):
        values = QUERY_VALUES.get(name)
        if values is None:
            raise Unfillable(f"{path}: no values for the query parameter {name!r}")
        queries.append([(name, v) for v in values])
    base_query = [q[0] for q in queries]
    query_variants = [
        [*base_query[:i], variant, *base_query[i + 1 :]]
        for i, q in enumerate(queries)
        for variant in q[1:]
    ]

    methods = sorted(set(route.methods or ()) - {"HEAD"}) or ["HEAD"]
    bodies_table = _bodies(table)
    reads_body = getattr(route, "body_field", None) is not None
    calls: list[Call] = []
    for method in methods:
        bodies: list[Any] | None = bodies_table.get((method, path))
        if bodies is None:
            if reads_body:
                raise Unfillable(f"{method} {path} takes a body: add one to _bodies")
            bodies = [None]

        def add(
            values: dict[str, str],
            query: list[tuple[str, str | None]],
            who: str,
            method: str = method,
            bodies: list[Any] = bodies,
        ) -> None:
            url = fill(path, values)
            sent = [f"{k}={v}" for k, v in query if v is not None]
            if sent:
                url += "?" + "&".join(sent)
            for body in bodies:
                raw = body[1] if isinstance(body, tuple) else None
                calls.append(
                    Call(
                        f"{method} {url} as {who}",
                        method,
                        url,
                        table.tokens[who],
                        body=None if raw is not None else body,
                        raw=raw,
                    )
                )

        for values in real:
            for who in CALLERS:
                add(values, base_query, who)
        for values in hostile:
            for who in HOSTILE_CALLERS:
                add(values, base_query, who)
        for query in query_variants:
            for who in CALLERS:
                add(real[0], query, who)
    return calls


# -- the table the routes are called on ---------------------------------------------


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token is not None else {}


def _ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code < 300, f"{response.request.url}: {response.text}"
    return dict(response.json())


class Setup:
    """A card-game table played over REST: game 1 finished (a seat freed and taken by a
    newcomer on the way), game 2 running after a shuffled start."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http

    def state(self, room: str, token: str) -> dict[str, Any]:
        return _ok(self.http.get(f"/api/rooms/{room}/state", headers=_auth(token)))

    def play(self, room: str, tokens: list[str], moves: int | None) -> None:
        """People play their first legal move (a bot may play too); ``None``: to the end."""
        seats = {self.state(room, t)["you"]: t for t in tokens}
        seen = _ok(self.http.get(f"/api/rooms/{room}/state"))
        played = 0
        for _ in range(5000):
            if moves is not None and played >= moves:
                return
            if seen["result"] is not None or seen["room"]["status"] != "playing":
                return
            acting = [s for s in seen["to_act"] if s in seats]
            if not acting:  # a bot's turn: it moves within moments
                time.sleep(0.02)
                seen = _ok(self.http.get(f"/api/rooms/{room}/state"))
                continue
            mine = self.state(room, seats[acting[0]])
            sent = self.http.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
                headers=_auth(seats[acting[0]]),
            )
            if sent.status_code == 409:  # a bot moved first
                seen = _ok(self.http.get(f"/api/rooms/{room}/state"))
                continue
            seen = _ok(sent)
            played += 1
        raise AssertionError(f"room {room}: the game did not come to an end")

    def build(self) -> Table:
        http = self.http
        other = _ok(http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Zoe"}))
        made = _ok(http.post("/api/rooms", json={"game": "m", "players": 3, "name": "Anna"}))
        room, host = made["room"], made["token"]
        ben = _ok(http.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}))["token"]
        cara = _ok(http.post(f"/api/rooms/{room}/seats/2", json={"name": "Cara"}))["token"]
        _ok(http.post(f"/api/rooms/{room}/start", json={"shuffle": False}, headers=_auth(host)))
        self.play(room, [host, ben, cara], 4)
        # before any shuffle the creator sits in the creator's seat: the host without doubt
        _ok(http.post(f"/api/rooms/{room}/seats/2/free", headers=_auth(host)))
        dora = _ok(http.post(f"/api/rooms/{room}/seats/2", json={"name": "Dora"}))["token"]
        people = [host, ben, dora]
        self.play(room, people, None)
        record = _ok(http.get(f"/api/rooms/{room}/games/1/record"))
        # rematches start shuffled until the host sits elsewhere (each shuffle keeps the
        # host in place with a chance of one in three); the last one keeps running
        game_no = 1
        while True:
            _ok(http.post(f"/api/rooms/{room}/start", json={"shuffle": True}, headers=_auth(host)))
            game_no += 1
            if self.state(room, host)["you"] != 0 or game_no > 8:
                break
            self.play(room, people, None)
        self.play(room, people, 3)
        games = _ok(http.get(f"/api/rooms/{room}/games"))["games"]
        assert [g["status"] for g in games] == ["finished"] * (game_no - 1) + ["playing"]
        public = _ok(http.get(f"/api/rooms/{room}/state"))
        by_seat = {self.state(room, t)["you"]: t for t in people}
        acting = self.state(room, by_seat[public["to_act"][0]])
        return Table(
            room=room,
            other=other["room"],
            players=3,
            tokens={
                "spectator": None,
                "outsider": secrets.token_urlsafe(24),
                "seated": ben,
                "freed": cara,
                "newcomer": dora,
                "other_room": other["token"],
                "host": host,
            },
            running=game_no,
            steps={g["game_no"]: g["steps"] for g in games},
            seq=acting["seq"],
            move=acting["legal_moves"][0],
            record=record,
        )


# -- calling ------------------------------------------------------------------------


class Hung(Exception):
    """A call got no answer within the guard."""


async def _call(
    client: httpx.AsyncClient,
    server: ServerProcess,
    call: Call,
    out: Outcome,
    turns: asyncio.Semaphore,
) -> None:
    async with turns:  # the guard counts from the moment the call is sent
        if call.method == "WS":
            await _socket(server, call, out)
        else:
            await _request(client, call, out)


async def _request(client: httpx.AsyncClient, call: Call, out: Outcome) -> None:
    try:
        async with asyncio.timeout(GUARD):
            response = await client.request(
                call.method,
                call.path,
                headers={**_auth(call.token), "Content-Type": "application/json"},
                json=call.body,
                content=call.raw,
            )
    except TimeoutError:
        raise Hung(f"{call.label}: no answer within {GUARD:.0f} s") from None
    except httpx.HTTPError as exc:
        out.answered += 1
        out.failures.append(f"{call.label}: no answer, {type(exc).__name__} {exc}")
        return
    out.answered += 1
    if response.status_code >= 500:
        out.failures.append(f"{call.label}: {response.status_code} {response.text[:200]}")


async def _socket(server: ServerProcess, call: Call, out: Outcome) -> None:
    url = f"{server.ws_url}{call.path}"
    try:
        async with asyncio.timeout(GUARD):
            try:
                async with connect(url, open_timeout=None, close_timeout=2) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": call.token, "since": None}))
                    first = json.loads(await ws.recv())
                    if first.get("type") not in ("state", "error"):
                        out.failures.append(f"{call.label}: first message {first!r:.200}")
            except InvalidStatus as exc:
                if exc.response.status_code >= 500:
                    out.failures.append(f"{call.label}: {exc.response.status_code} on upgrade")
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == CLOSE_INTERNAL:
                    out.failures.append(f"{call.label}: closed {exc.rcvd.code} {exc.rcvd.reason}")
    except TimeoutError:
        raise Hung(f"{call.label}: no answer within {GUARD:.0f} s") from None
    out.answered += 1


async def bystander(client: httpx.AsyncClient, name: str) -> None:
    """Someone elsewhere creates a room, sits a friend down, starts and plays a move."""
    try:
        async with asyncio.timeout(GUARD * 2):
            made = await client.post(
                "/api/rooms", json={"game": "blokus", "players": 2, "name": name}
            )
            assert made.status_code == 201, made.text
            room, token = made.json()["room"], made.json()["token"]
            friend = await client.post(f"/api/rooms/{room}/seats/1", json={"name": "Friend"})
            assert friend.status_code == 200, friend.text
            started = await client.post(f"/api/rooms/{room}/start", headers=_auth(token))
            assert started.status_code == 200, started.text
            state = started.json()
            assert state["to_act"] == [0], state
            moved = await client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": state["seq"], "move": state["legal_moves"][0]},
                headers=_auth(token),
            )
            assert moved.status_code == 200, moved.text
    except TimeoutError:
        raise Hung(f"the bystander {name} got no answer within {GUARD * 2:.0f} s") from None


async def storm(server: ServerProcess, calls: list[Call]) -> Outcome:
    out = Outcome()
    turns = asyncio.Semaphore(AT_ONCE)
    # a fresh connection a call: a kept one the server closes as idle at the moment the
    # client reuses it would look like a dropped answer
    limits = httpx.Limits(max_connections=AT_ONCE + 4, max_keepalive_connections=0)
    timeout = httpx.Timeout(None)  # the guard around each call is the one limit
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=timeout) as client:
        async with asyncio.TaskGroup() as group:
            group.create_task(bystander(client, "Bea"))
            for call in calls:
                group.create_task(_call(client, server, call, out, turns))
        # once every call is answered, someone else is still served
        await bystander(client, "Bo")
    return out


def _leaves(group: BaseExceptionGroup[Any]) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc


# -- the test -----------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path, empty_database_url: str) -> Iterator[ServerProcess]:
    # a database of this test's own: the server's log then speaks of this test alone
    # (the shared one holds other tests' rooms, of an engine only their process knows)
    upgrade(empty_database_url)
    # push subscriptions and webhooks are stored (to a closed local port, and alerts wait
    # ALERT_DELAY_MINUTES, longer than the test): the routes go all the way to the log
    env = {"DATABASE_URL": empty_database_url, "WEBHOOK_ALLOW_PRIVATE": "true"}
    proc = ServerProcess(tmp_path / "data", env=env)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop(kill=True)


def test_the_route_table_is_filled_for_every_route() -> None:
    """Every route can be called (or the test says which one can't), without a server."""
    table = Table(
        room="R",
        other="O",
        players=3,
        tokens=dict.fromkeys(CALLERS, "t"),
        running=2,
        steps={1: 10, 2: 3},
        seq=1,
        move={},
        record={},
    )
    routes = route_table()
    paths = {route.path for route in routes}
    assert "/api/rooms/{room}/games/{game_no}/steps/{step}" in paths
    assert "/api/rooms/{room}/ws" in paths
    for route in routes:
        assert calls_for(route, table), route.path


def test_a_new_route_with_an_unknown_parameter_fails_loudly() -> None:
    table = Table("R", "O", 3, dict.fromkeys(CALLERS, "t"), 2, {1: 1, 2: 1}, 1, {}, {})
    from fastapi import FastAPI

    app = FastAPI()

    @app.get("/api/rooms/{room}/things/{thing}")
    async def thing(room: str, thing: int) -> None:  # pragma: no cover - never called
        return None

    @app.post("/api/rooms/{room}/widgets")
    async def widget(room: str, body: dict[str, int]) -> None:  # pragma: no cover
        return None

    @app.get("/api/rooms/{room}/gadgets")
    async def gadget(room: str, colour: str) -> None:  # pragma: no cover
        return None

    found = {r.path: r for r in route_table(app)}
    for path, says in [
        ("/api/rooms/{room}/things/{thing}", "path parameter(s) ['thing']"),
        ("/api/rooms/{room}/widgets", "takes a body"),
        ("/api/rooms/{room}/gadgets", "query parameter 'colour'"),
    ]:
        with pytest.raises(Unfillable, match=re.escape(says)):
            calls_for(found[path], table)


def test_every_route_at_once_as_every_caller_hangs_nothing_and_fails_nothing(
    server: ServerProcess,
) -> None:
    with httpx.Client(base_url=server.url, timeout=GUARD) as http:
        table = Setup(http).build()
    calls = [call for route in route_table() for call in calls_for(route, table)]
    calls = [call for call in calls for _ in range(COPIES)]
    random.Random(20).shuffle(calls)
    try:
        out = asyncio.run(storm(server, calls))
    except ExceptionGroup as group:
        server.stop(kill=True)
        found = sorted({f"{type(e).__name__}: {e}" for e in _leaves(group)})
        log = server.log.read_text(errors="replace")[-3000:]
        pytest.fail(
            f"{len(found)} call(s) hung or failed (of {len(calls)}), first: {found[:5]}\n"
            f"server log, last lines:\n{log}"
        )
    assert out.answered == len(calls)
    log = server.log.read_text(errors="replace")
    assert not out.failures, (
        f"{len(out.failures)} of {len(calls)} calls failed:\n"
        + "\n".join(sorted(out.failures)[:30])
        + f"\nserver log, last lines:\n{log[-3000:]}"
    )
    with httpx.Client(base_url=server.url, timeout=GUARD) as http:
        assert http.get("/healthz").status_code == 200
    # nothing failed out of sight either: in the bots, pushes, alerts or deadlines
    assert "Traceback" not in log, log[log.index("Traceback") - 500 :][:4000]
