"""Every pair of room operations run at the same moment, against a real server.

Each round sets a room up in the phase where the pair means the most (a lobby with
a free seat, a full lobby with a bot, a running game, a finished game), opens a
socket per seated token and one for a spectator, fires both operations together,
waits for every socket to catch up, and then checks the room against its own log:

- every state message any socket got is the view of the seat its token held in the
  state at that message's seq (spectators: the spectator view);
- every move and chat line in the log was sent by the token holding that seat just
  before it, or is a bot's move in a bot's seat; no seat changed during a game;
- every start and every hand-over of the host's role was asked for by the host (a
  token, wherever the shuffles put it) just before it, the role went to a person, and
  every message names the seat the host holds in its state;
- no socket missed an event between its hello and the room's last seq, and no
  message carried an event past its own seq;
- every running game has someone in each seat and can be played to its end (the
  rematch rounds play theirs to the end on the server);
- a waiting table's seats and settings changed only while no game ran: a seat stood
  up from by the token holding it (never the host's), a seat freed and the settings
  changed by the host, no person left in a seat the settings took away;
- a resignation came from the token holding the seat, each vote to abort too, and a
  game was aborted only once every person seated then had agreed; a seat taken back
  by its own token;
- a move taken back (``undo``) by the token holding its seat, or with the agreement of
  every other person seated, only across moves that may be taken back, back to exactly
  the position the log held before them; a request and its answers from their seats.
- a seat was declared away, or back, by the token holding it (or back when its away
  time ran out); no deadline handed an away person's seat to a bot, and at the end
  the deadline of every seat to act is paused exactly when its person is away.

The away operations race a deadline firing too (``deadline``: the servers' clock is
moved past the time per move of a timed table), and every other operation.

The operations added for the waiting table, for ending a game and for being away
(``LATER``) race
every other operation once per test, however many rounds the older pairs run.

Sockets ask for the plain or the compact legal moves at random. The same rounds run
once more against two processes on one PostgreSQL database and Redis, each socket and
each request going to either: pushes then cross through the doorbell, whose bells
carry moves and chat for the other process to fold in.

``-m slow`` runs many more rounds of the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.core.clock import clock
from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker
from app.core.errors import ApiError
from app.live.hub import CLOSE_BAD_TOKEN
from app.play import store
from app.play.access import hash_token
from app.play.rooms import RoomRules
from app.play.state import RoomState, fold
from app.play.store import EventRecord, Store
from app.services import Services
from engines import get_engine
from tests.pushkeys import PushKeys
from tests.server import BrowserTransport, ServerProcess

OPERATIONS = [
    "hello",
    "claim",
    "set_bot",
    "start",
    "start_shuffled",
    "move",
    "chat",
    "rematch",
    "host",
    "stand_up",
    "free_seat",
    "settings",
    "resign",
    "abort_vote",
    "take_back",
    "undo",
    "away",
    "back",
    "deadline",
    "alerts_all",  # one alert set-up for every seat (POST /api/alerts; the first appends alerts_on)
]
PAIRS = list(itertools.combinations_with_replacement(OPERATIONS, 2))
# the operations of a waiting table and of ending a game early: their pairs run once a test
LATER = frozenset(
    {
        "stand_up",
        "free_seat",
        "settings",
        "resign",
        "abort_vote",
        "take_back",
        "away",
        "back",
        "deadline",
        "alerts_all",
        "undo",
    }
)
WAITING = frozenset({"stand_up", "free_seat", "settings"})
RUNNING = frozenset(
    {"move", "resign", "abort_vote", "take_back", "away", "back", "deadline", "undo"}
)
# rounds with these run at a timed table (an hour a move), so a deadline can fire
TIMED = frozenset({"away", "back", "deadline"})
# the races that once went wrong (a hello answered for the seat its token held before a
# shuffled start, a bot seat freed while the game started) run more often
AGAIN = {
    ("hello", "start_shuffled"): 4,
    ("hello", "rematch"): 2,
    ("hello", "claim"): 3,
    ("hello", "move"): 2,
    ("hello", "chat"): 2,
    ("set_bot", "start"): 3,
    ("set_bot", "start_shuffled"): 3,
}
GAME = "m"  # hands are secret, so a view for the wrong seat shows at once; games are short
WAIT = 20.0


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


RACE_ENV = {
    "BOT_DELAY_MS": "0",
    "SEAT_BUDGET_MESSAGES": "100000",
    "ROOMS_PER_MINUTE": "100000",
    # a deadline the clock was moved past fires within moments
    "DEADLINE_POLL_SECONDS": "0.1",
    "WEBHOOK_ALLOW_PRIVATE": "true",  # push endpoints on a closed local port (alerts_all)
}


@pytest.fixture
def race_server(tmp_path: Path, database_url: str) -> Iterator[list[ServerProcess]]:
    env = {"DATABASE_URL": database_url, "CLOCK_OFFSET_FILE": str(tmp_path / "clock"), **RACE_ENV}
    proc = ServerProcess(tmp_path / "data", env=env)
    proc.start()
    try:
        yield [proc]
    finally:
        proc.stop()


@pytest.fixture
def race_pair(tmp_path: Path, fresh_pg: str, redis_url: str) -> Iterator[list[ServerProcess]]:
    """Two processes on one PostgreSQL database of their own and one Redis."""
    clock = str(tmp_path / "clock")
    env = {"DATABASE_URL": fresh_pg, "REDIS_URL": redis_url, "CLOCK_OFFSET_FILE": clock, **RACE_ENV}
    servers = [ServerProcess(tmp_path / name, env=env) for name in ("a", "b")]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


class Socket:
    """A live socket: hello, then every message kept in order by a reader task."""

    def __init__(self, ws: ClientConnection, token: str | None, since: int | None) -> None:
        self.ws = ws
        self.token = token
        self.since = since
        self.messages: list[dict[str, Any]] = []
        self.acks: dict[str, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, server: ServerProcess, room: str, token: str | None, since: int | None, form: str
    ) -> Socket:
        ws = await connect(f"{server.ws_url}/api/rooms/{room}/ws", open_timeout=WAIT)
        hello = {"type": "hello", "token": token, "since": since, "legal_form": form}
        await ws.send(json.dumps(hello))
        return cls(ws, token, since)

    async def _read(self) -> None:
        try:
            with contextlib.suppress(Exception):
                async for raw in self.ws:
                    message = json.loads(raw)
                    self.messages.append(message)
                    if message["type"] in {"ack", "error"} and message.get("id") is not None:
                        self.acks[str(message["id"])] = message
                    self.changed.set()
        finally:
            self.changed.set()  # a closed socket ends every wait at once

    @property
    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]

    @property
    def latest(self) -> dict[str, Any] | None:
        states = self.states
        return states[-1] if states else None

    async def until(self, done: Any, what: str) -> None:
        async def wait() -> None:
            while True:
                self.changed.clear()
                if done():
                    return
                if self.reader.done():
                    raise AssertionError(
                        f"socket closed while waiting for {what}: {self.messages[-3:]}"
                    )
                await self.changed.wait()

        try:
            await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            raise AssertionError(f"no {what} within {WAIT}s; last: {self.messages[-3:]}") from None

    async def hello_answer(self) -> dict[str, Any]:
        await self.until(lambda: self.messages, "hello answer")
        return self.messages[0]

    async def at(self, seq: int) -> dict[str, Any]:
        await self.until(lambda: (self.latest or {}).get("seq", -1) >= seq, f"state at seq {seq}")
        latest = self.latest
        assert latest is not None
        return latest

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``message``; ``{"type": "closed"}`` when the server closed the
        socket first because its token lost its seat (stood up, freed) as the message
        went out: the server answers whatever it handles, so that one was never handled
        (``check`` finds any chat or move stored with no one's answer)."""
        key = f"r{random.getrandbits(48)}"
        closed = {"type": "closed", "code": CLOSE_BAD_TOKEN}
        try:
            await self.ws.send(json.dumps({**message, "id": key}))
        except ConnectionClosed:
            if self.ws.close_code != CLOSE_BAD_TOKEN:
                raise
            return closed

        def answered() -> bool:
            revoked = self.reader.done() and self.ws.close_code == CLOSE_BAD_TOKEN
            return key in self.acks or revoked

        await self.until(answered, f"answer to {message['type']}")
        return self.acks.get(key) or closed

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self.reader


@dataclass
class Sent:
    """A move, chat line, start or host hand-over a token sent (``kind`` is its event's),
    and the seq the server answered it with."""

    token: str
    kind: str
    seq: int


@dataclass
class Room:
    id: str
    tokens: list[str]  # Anna (the creator) first
    sockets: list[Socket] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    host: str = ""  # the host's token: Anna's, until she hands the role on
    voter: str | None = None  # the last person to agree to abort, once the others have
    undoer: str | None = None  # who passed last, to take it back in the race
    answerer: str | None = None  # the last person to answer a take-back asked for

    def __post_init__(self) -> None:
        self.host = self.host or self.tokens[0]

    def seated(self) -> list[Socket]:
        return [s for s in self.sockets if s.token is not None]

    def socket_of(self, token: str) -> Socket | None:
        return next((s for s in self.sockets if s.token == token), None)


class Race:
    """The servers (one, or two sharing the database), one database reader, and the
    rounds played against them; every socket and request goes to any of the servers."""

    def __init__(
        self, servers: list[ServerProcess], https: list[httpx.AsyncClient], db: Store
    ) -> None:
        self.servers = servers
        self.https = https
        self.db = db
        self.rng = random.Random()
        self.finished: Room | None = None
        self.rounds = 0
        self.timed = False  # the round's new rooms give an hour a move
        self.clock_file = Path(servers[0].env["CLOCK_OFFSET_FILE"])
        self.offset = 0.0  # how far the servers' clock was moved on, in seconds

    # -- REST ---------------------------------------------------------------

    @property
    def http(self) -> httpx.AsyncClient:
        return self.rng.choice(self.https)

    async def socket(self, room: Room, token: str | None, since: int | None = None) -> Socket:
        server = self.rng.choice(self.servers)
        form = self.rng.choice(["list", "compact"])
        return await Socket.open(server, room.id, token, since, form)

    async def call(
        self, method: str, path: str, token: str | None = None, **kw: Any
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return await self.http.request(method, f"/api/rooms/{path}", headers=headers, **kw)

    async def head(self, room: Room) -> int:
        return int((await self.call("GET", room.id)).json()["seq"])

    # -- set-up ---------------------------------------------------------------

    async def new_room(self, third: str, started: bool = False) -> Room:
        """Anna in seat 0, Ben in seat 1, and in seat 2 a "bot", "Cleo", or nobody ("free")."""
        rules = {
            "shuffle_seats": self.rng.random() < 0.5,
            "start_when_full": third == "free" and self.rng.random() < 0.5,
        }
        body: dict[str, Any] = {"game": GAME, "players": 3, "name": "Anna", **rules}
        if self.timed:
            body["turn_seconds"] = 3600
        if third == "bot":
            body["bots"] = {"2": "random"}
        created = (await self.http.post("/api/rooms", json=body)).json()
        room = Room(created["room"], [created["token"]])
        for seat, name in [(1, "Ben"), (2, "Cleo")][: 2 if third == "Cleo" else 1]:
            claimed = await self.call("POST", f"{room.id}/seats/{seat}", json={"name": name})
            room.tokens.append(claimed.json()["token"])
        if started:
            response = await self.call("POST", f"{room.id}/start", room.tokens[0])
            assert response.status_code == 200, response.text
        return room

    async def finished_room(self) -> Room:
        if self.finished is None:
            room = await self.new_room("bot", started=True)
            await self.watch(room)
            await self.play_to_end(room)
            await self.close(room)
            self.finished = room
        room, self.finished = self.finished, None
        return room

    async def watch(self, room: Room) -> None:
        """One socket per seated token and one for a spectator, all caught up."""
        room.sockets = [await self.socket(room, token) for token in [*room.tokens, None]]
        for sock in room.sockets:
            await sock.hello_answer()

    async def close(self, room: Room) -> None:
        for sock in room.sockets:
            await sock.close()
        room.sockets = []

    # -- the operations -------------------------------------------------------

    async def op(self, name: str, room: Room) -> None:
        await asyncio.sleep(self.rng.random() * 0.004)  # vary who goes first
        host = room.host
        if name == "hello":
            await self.op_hello(room)
        elif name == "claim":
            response = await self.call("POST", f"{room.id}/seats/2", json={"name": "Cleo"})
            if response.status_code == 200:
                room.tokens.append(response.json()["token"])
        elif name == "set_bot":
            info = (await self.call("GET", room.id)).json()
            bot = None if info["seats"][2]["kind"] == "bot" else "random"
            await self.call("POST", f"{room.id}/seats/2/bot", host, json={"bot": bot})
        elif name in {"start", "start_shuffled", "rematch"}:
            shuffle = name == "start_shuffled" or (name == "rematch" and self.rng.random() < 0.7)
            response = await self.call("POST", f"{room.id}/start", host, json={"shuffle": shuffle})
            if response.status_code == 200:
                room.sent.append(Sent(host, "game_started", response.json()["seq"]))
        elif name == "move":
            await self.op_move(room)
        elif name == "chat":
            await self.op_chat(room)
        elif name == "host":
            await self.op_host(room)
        elif name == "stand_up":
            others = [t for t in room.tokens if t != host]
            token = self.rng.choice(others)
            response = await self.call("POST", f"{room.id}/stand-up", token)
            if response.status_code == 200:
                room.sent.append(Sent(token, "seat_vacated", response.json()["seq"]))
        elif name == "free_seat":
            seat = self.rng.choice([1, 2])
            response = await self.call("POST", f"{room.id}/seats/{seat}/free", host)
            if response.status_code == 200:
                room.sent.append(Sent(host, "seat_released", response.json()["seq"]))
        elif name == "settings":
            body = self.rng.choice(
                [{"players": 2}, {"players": 4}, {"players": 3}, {"turn_seconds": 3600}]
            )
            response = await self.call("POST", f"{room.id}/settings", host, json=body)
            if response.status_code == 200:
                room.sent.append(Sent(host, "room_settings", response.json()["seq"]))
        elif name == "resign":
            token = self.rng.choice(room.tokens)
            response = await self.call("POST", f"{room.id}/resign", token)
            if response.status_code == 200:
                room.sent.append(Sent(token, "move", response.json()["seq"]))
        elif name == "abort_vote":
            await self.op_abort(room, room.voter)
        elif name == "undo":
            await self.op_undo(room)
        elif name == "take_back":
            if len(room.tokens) < 2:  # Ben stood up, or was freed, in an earlier round
                return
            sock = room.socket_of(room.tokens[1])
            seat = (sock.latest or {}).get("you") if sock is not None else None
            if seat is not None:
                await self.call("POST", f"{room.id}/seats/{seat}/take-back", room.tokens[1])
        elif name == "away":
            token = self.rng.choice(room.tokens)
            until = self.server_now() + timedelta(days=self.rng.choice([1, 2]))
            body = {"until": until.isoformat()}
            response = await self.call("POST", f"{room.id}/away", token, json=body)
            if response.status_code == 200:
                room.sent.append(Sent(token, "seat_away", response.json()["seq"]))
        elif name == "back":
            token = room.tokens[1] if len(room.tokens) > 1 else room.tokens[0]
            response = await self.call("DELETE", f"{room.id}/away", token)
            if response.status_code == 200:
                room.sent.append(Sent(token, "seat_back", response.json()["seq"]))
        elif name == "deadline":
            await self.op_deadline(room)
        elif name == "alerts_all":
            sub = PushKeys.make().subscription(f"http://127.0.0.1:9/push/{room.id}")
            seats = [{"room": room.id, "token": t} for t in room.tokens]
            response = await self.http.post(
                "/api/alerts",
                json={"seats": seats, "channel": {"kind": "push", "subscription": sub}},
            )
            assert response.status_code == 200, response.text

    def server_now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset)

    async def op_deadline(self, room: Room) -> None:
        """The servers' clock moves past the hour of every running deadline; wait until
        the deadline loop acted on those of this room (a paused one waits on)."""
        self.offset += 3601
        self.clock_file.write_text(str(self.offset))
        for _ in range(int(WAIT / 0.05)):
            shown = (await self.call("GET", f"{room.id}/deadlines")).json()["deadlines"]
            if all(d["paused"] or d["left"] > 0 for d in shown):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"room {room.id}: a passed deadline never fired")

    async def op_undo(self, room: Room) -> None:
        """The last to answer a take-back asked for agrees (or declines); else whoever
        passed last takes it back, asking if someone has moved since."""
        if room.answerer is not None:
            verb = "accept" if self.rng.random() < 0.7 else "decline"
            response = await self.call("POST", f"{room.id}/undo/{verb}", room.answerer)
            if response.status_code == 200:
                room.sent.append(Sent(room.answerer, "undo_answer", response.json()["seq"]))
        elif room.undoer is not None:
            body = {"ask": self.rng.random() < 0.5}
            response = await self.call("POST", f"{room.id}/undo", room.undoer, json=body)
            if response.status_code == 200:
                asked = response.json()["room"]["undo_request"] is not None
                kind = "undo_request" if asked else "undo"
                room.sent.append(Sent(room.undoer, kind, response.json()["seq"]))

    async def prepare_undo(self, room: Room) -> None:
        """A pass to take back (M: it draws nothing); half the time the next person passes
        too and the first asks, every other person but one agreeing before the race."""
        room.undoer = room.answerer = None
        passers: list[str] = []
        for _ in range(2):
            for token in room.tokens:
                response = await self.call("GET", f"{room.id}/state", token)
                state = response.json()
                if {"type": "pass"} in state.get("legal_moves", []):
                    body = {"seq": state["seq"], "move": {"type": "pass"}}
                    moved = await self.call("POST", f"{room.id}/moves", token, json=body)
                    if moved.status_code == 200:
                        room.sent.append(Sent(token, "move", moved.json()["seq"]))
                        passers.append(token)
                    break
            if not passers or self.rng.random() < 0.5:
                break
        if not passers:
            return
        room.undoer = passers[0]
        if len(passers) < 2:
            return
        asked = await self.call("POST", f"{room.id}/undo", room.undoer, json={"ask": True})
        if asked.status_code != 200 or asked.json()["room"]["undo_request"] is None:
            return
        room.sent.append(Sent(room.undoer, "undo_request", asked.json()["seq"]))
        others = [t for t in room.tokens if t != room.undoer]
        self.rng.shuffle(others)
        room.answerer = others[0]
        for token in others[1:]:
            agreed = await self.call("POST", f"{room.id}/undo/accept", token)
            assert agreed.status_code == 200, agreed.text
            room.sent.append(Sent(token, "undo_answer", agreed.json()["seq"]))

    async def op_abort(self, room: Room, token: str | None) -> None:
        """``token`` (any seated one if None) agrees to abort the running game."""
        token = token or self.rng.choice(room.tokens)
        response = await self.call("POST", f"{room.id}/abort", token)
        if response.status_code == 200:
            room.sent.append(Sent(token, "abort_vote", response.json()["seq"]))

    async def op_hello(self, room: Room) -> None:
        """New sockets for every token and a spectator; a seat shown a turn plays at once."""
        known = room.sockets[0].latest
        choices = [None, known["seq"], max(0, known["seq"] - 1)] if known else [None]
        fresh = await asyncio.gather(
            *(self.socket(room, token, self.rng.choice(choices)) for token in [*room.tokens, None])
        )
        room.sockets.extend(fresh)
        for sock in fresh:
            answer = await sock.hello_answer()
            if sock.token is not None and answer["type"] == "state" and answer["legal_moves"]:
                move = self.rng.choice(answer["legal_moves"])
                reply = await sock.request({"type": "move", "seq": answer["seq"], "move": move})
                if reply["type"] == "ack":
                    room.sent.append(Sent(sock.token, "move", reply["seq"]))

    async def op_move(self, room: Room) -> None:
        for sock in room.seated():
            state = sock.latest
            if state is None or not state["legal_moves"]:
                continue
            assert sock.token is not None
            move = self.rng.choice(state["legal_moves"])
            if self.rng.random() < 0.5:
                reply = await sock.request({"type": "move", "seq": state["seq"], "move": move})
                if reply["type"] == "ack":
                    room.sent.append(Sent(sock.token, "move", reply["seq"]))
            else:
                body = {"seq": state["seq"], "move": move}
                response = await self.call("POST", f"{room.id}/moves", sock.token, json=body)
                if response.status_code == 200:
                    room.sent.append(Sent(sock.token, "move", response.json()["seq"]))
            return

    async def op_chat(self, room: Room) -> None:
        token = self.rng.choice(room.tokens)
        sock = room.socket_of(token)
        if sock is not None and self.rng.random() < 0.5:
            reply = await sock.request({"type": "chat", "text": "hallo"})
            if reply["type"] == "ack":
                room.sent.append(Sent(token, "chat", reply["seq"]))
        else:
            response = await self.call("POST", f"{room.id}/chat", token, json={"text": "hallo"})
            if response.status_code == 200:
                room.sent.append(Sent(token, "chat", response.json()["seq"]))

    async def op_host(self, room: Room) -> None:
        """The host hands the role to the seat another token held in its last message."""
        others = [s for s in room.seated() if s.token != room.host and s.latest]
        if not others:
            return
        seat = self.rng.choice(others).latest["you"]  # type: ignore[index]
        if seat is None:
            return
        response = await self.call("POST", f"{room.id}/host", room.host, json={"seat": seat})
        if response.status_code == 200:
            room.sent.append(Sent(room.host, "host_changed", response.json()["seq"]))

    # -- one round -----------------------------------------------------------

    async def round(self, pair: tuple[str, str]) -> None:
        self.rounds += 1
        self.timed = bool(TIMED & set(pair))
        starts = {"start", "start_shuffled"} & set(pair)
        third = self.rng.choice(["bot", "Cleo"])
        waiting = WAITING & set(pair)
        if "rematch" in pair:
            room = await self.finished_room()
        elif waiting and (RUNNING & set(pair)):
            room = await self.new_room("Cleo", started=self.rng.random() < 0.5)
        elif waiting:
            room = await self.new_room(self.rng.choice(["Cleo", "bot"]))
        elif RUNNING & set(pair) - {"move"}:
            room = await self.new_room(third, started=True)
        elif "claim" in pair or ("set_bot" in pair and not starts):
            room = await self.new_room("free")
        elif starts:
            room = await self.new_room("bot")
        elif "move" in pair:
            room = await self.new_room(third, started=True)
        else:
            room = await self.new_room(third, started=self.rng.random() < 0.5)
        self.timed = False
        await self.watch(room)
        await self.prepare(room, pair)
        await asyncio.gather(*(self.op(name, room) for name in pair))
        # a claim may have seated Cleo after the sockets opened: she watches too
        seated = await self.seated_tokens(room)
        for token in room.tokens:
            if room.socket_of(token) is None and token in seated:
                room.sockets.append(await self.socket(room, token))
        await self.check(room, pair)
        if "rematch" in pair:
            await self.play_to_end(room)
            await self.close(room)
            self.finished = room
        else:
            await self.close(room)

    async def prepare(self, room: Room, pair: tuple[str, str]) -> None:
        """What a pair needs before it races: Ben away for a take-back; for an abort,
        every person's vote but one, whose vote the race then casts."""
        room.voter = room.undoer = room.answerer = None
        info = (await self.call("GET", room.id)).json()
        if info["status"] != "playing":
            return
        if "undo" in pair:
            await self.prepare_undo(room)
        if "take_back" in pair and len(room.tokens) > 1:
            response = await self.call("POST", f"{room.id}/leave", room.tokens[1])
            assert response.status_code == 200, response.text
        if "back" in pair and len(room.tokens) > 1:
            until = (self.server_now() + timedelta(days=1)).isoformat()
            response = await self.call(
                "POST", f"{room.id}/away", room.tokens[1], json={"until": until}
            )
            assert response.status_code == 200, response.text
            room.sent.append(Sent(room.tokens[1], "seat_away", response.json()["seq"]))
        if "abort_vote" in pair:
            people = list(room.tokens)
            self.rng.shuffle(people)
            room.voter = people[0]
            for token in people[1:]:
                await self.op_abort(room, token)

    async def seated_tokens(self, room: Room) -> set[str]:
        """The tokens that hold a seat now (a stood-up or freed one holds none)."""
        _, states = await self.log(room)
        return {t for t in room.tokens if states[-1].seat_with(hash_token(t)) is not None}

    # -- checks ----------------------------------------------------------------

    async def log(self, room: Room) -> tuple[list[EventRecord], list[RoomState]]:
        """The log and the room's state after every one of its events (index = seq)."""
        async with self.db.transaction() as session:
            record = await store.get_room(session, room.id)
            events = await store.events_after(session, room.id, 0)
        assert record is not None
        states = [RoomState(room=record)]
        for event in events:
            states.append(fold(states[-1], [event]))
        return events, states

    async def check(self, room: Room, pair: tuple[str, str]) -> None:
        where = f"round {self.rounds} {pair} in room {room.id}"
        while True:  # a bot may still be moving: wait until no bot is to act
            head = await self.head(room)
            seated = await self.seated_tokens(room)
            for sock in room.sockets:
                if sock.token is None or sock.token in seated:
                    await sock.at(head)
            events, states = await self.log(room)
            if not states[-1].bots_to_act():
                if len(events) == head:
                    break
            else:
                await room.sockets[0].at(len(events) + 1)
        assert [e.seq for e in events] == list(range(1, head + 1)), where
        engine = get_engine(GAME)
        hashes = {hash_token(t): t for t in room.tokens}

        seated = await self.seated_tokens(room)
        for sock in room.sockets:
            mine = hash_token(sock.token) if sock.token else None
            gone = sock.token is not None and sock.token not in seated
            seen: set[int] = set()
            states_got = [m for m in sock.states if m["seq"] <= head]
            if gone and sock.messages and sock.messages[0]["type"] == "error":
                # its hello came after the seat was given up: refused, as a stranger's
                assert sock.messages[0]["code"] == "bad_token", (where, sock.messages[:1])
                continue
            assert states_got and sock.messages[0]["type"] == "state", (where, sock.messages[:1])
            for message in states_got:
                seq = message["seq"]
                state = states[seq]
                seat = state.seat_with(mine) if mine else None
                assert message["you"] == seat, (
                    f"{where}: seq {seq} sent for seat {message['you']}, token holds {seat}"
                )
                host = state.seat_with(state.host) if state.host else None
                assert message["room"]["host_seat"] == host, (
                    f"{where}: seq {seq} names seat {message['room']['host_seat']} as the "
                    f"host's, the host holds {host}"
                )
                if state.game is not None:
                    assert message["view"] == _json(engine.view(state.game, seat)), (where, seq)
                    acting = engine.to_act(state.game) if state.status == "playing" else []
                    legal = engine.legal_moves(state.game, seat) if seat in acting else []
                    if "legal_compact" in message:
                        assert engine.expand_compact(message["legal_compact"]) == legal, where
                    else:
                        assert message["legal_moves"] == _json(legal), (where, seq)
                else:
                    assert message["view"] is None, where
                assert all(e["seq"] <= seq for e in message["events"]), (
                    f"{where}: event past seq {seq}"
                )
                assert not message.get("events_truncated"), where
                seen.update(e["seq"] for e in message["events"])
            if gone:  # the seat was given up: the socket was closed, nothing more is owed
                continue
            hello = states_got[0]
            since = sock.since if sock.since is not None else max(0, hello["seq"] - 300)
            missing = set(range(since + 1, head + 1)) - seen
            assert not missing, (
                f"{where}: socket (since {sock.since}) never got events {sorted(missing)}"
            )

        # a move's answer carries its own seq, or the seq of the game_over right after it
        kinds = {e.seq: e.kind for e in events}
        moves = {
            s.seq - (kinds.get(s.seq) == "game_over"): s for s in room.sent if s.kind == "move"
        }
        chats = {s.seq: s for s in room.sent if s.kind == "chat"}
        by_host = {
            s.seq: s
            for s in room.sent
            if s.kind in {"game_started", "host_changed", "seat_released", "room_settings"}
        }
        by_seat = {
            s.seq - (kinds.get(s.seq) == "game_over"): s
            for s in room.sent
            if s.kind
            in {"seat_vacated", "abort_vote", "undo", "undo_request", "seat_away", "seat_back"}
        }
        # an answer's reply carries its own seq, or the seq of the take-back right after it
        answers = {
            s.seq - (kinds.get(s.seq) == "undo"): s for s in room.sent if s.kind == "undo_answer"
        }
        for event in events:
            before = states[event.seq - 1]
            if event.kind == "move":
                seat = event.data["seat"]
                sent = moves.get(event.seq)
                if before.seats[seat].player_bot is not None and sent is None:
                    continue
                assert sent is not None, f"{where}: move {event.seq} for seat {seat} sent by nobody"
                holder = before.seat_with(hash_token(sent.token))
                assert holder == seat, (
                    f"{where}: move {event.seq} stored for seat {seat} by the token of seat {holder}"
                )
            elif event.kind == "chat":
                sent = chats.get(event.seq)
                assert sent is not None, f"{where}: chat {event.seq} sent by nobody"
                seat = before.seat_with(hash_token(sent.token))
                assert (event.data["seat"], event.data["name"]) == (
                    seat,
                    before.seats[seat].name,
                ), where
            elif event.kind in {"seat_bot", "seat_claimed"}:
                freed = before.seats[event.data["seat"]].stand_in is not None
                assert before.status != "playing" or (event.kind == "seat_claimed" and freed), (
                    f"{where}: {event.kind} at {event.seq} during a game"
                )
            elif event.kind == "seat_back" and event.data["reason"] == "expired":
                until = before.seats[event.data["seat"]].away_until
                assert until is not None and until <= event.data["at"], (
                    f"{where}: away time of seat {event.data['seat']} ended early at {event.seq}"
                )
            elif event.kind == "seat_stand_in" and event.data["reason"] == "timeout":
                assert before.seats[event.data["seat"]].away_until is None, (
                    f"{where}: a deadline handed seat {event.data['seat']} to a bot at "
                    f"{event.seq} while its person was away"
                )
            elif event.kind in {"seat_vacated", "abort_vote", "seat_away", "seat_back"}:
                sent = by_seat.get(event.seq)
                assert sent is not None, f"{where}: {event.kind} {event.seq} sent by nobody"
                holder = before.seat_with(hash_token(sent.token))
                assert holder == event.data["seat"], (
                    f"{where}: {event.kind} {event.seq} for seat {event.data['seat']} by the "
                    f"token of seat {holder}"
                )
                if event.kind == "seat_vacated":
                    assert before.status != "playing", f"{where}: stood up during a game"
                    assert hash_token(sent.token) != before.host, f"{where}: the host stood up"
                elif event.kind == "seat_back":
                    assert before.seats[holder].away_until is not None, f"{where}: back unaway"
                elif event.kind == "abort_vote":
                    assert before.status == "playing", f"{where}: a vote with no game"
            elif event.kind in {"undo_request", "undo_answer"}:
                sent = (by_seat if event.kind == "undo_request" else answers).get(event.seq)
                assert sent is not None, f"{where}: {event.kind} {event.seq} sent by nobody"
                holder = before.seat_with(hash_token(sent.token))
                assert holder == event.data["seat"] and before.status == "playing", where
                if event.kind == "undo_answer":
                    assert before.undo_request is not None, f"{where}: an answer to nothing"
            elif event.kind == "undo":
                self.check_undo(where, event, events, states, by_seat.get(event.seq))
            elif event.kind in {"seat_released", "room_settings"}:
                sent = by_host.get(event.seq)
                assert sent is not None, f"{where}: {event.kind} {event.seq} sent by nobody"
                assert hash_token(sent.token) == before.host, (
                    f"{where}: {event.kind} at {event.seq} by a token that is not the host"
                )
                if event.kind == "room_settings":
                    assert before.status != "playing", f"{where}: settings changed in a game"
                    dropped = before.seats[event.data["players"] :]
                    assert all(s.token_hash is None for s in dropped), (
                        f"{where}: the settings at {event.seq} took a person's seat away"
                    )
            elif event.kind == "game_over" and event.data.get("aborted"):
                people = {s.token_hash for s in before.seats if s.token_hash is not None}
                assert people <= before.abort_votes, (
                    f"{where}: game aborted at {event.seq} without everyone's agreement"
                )
            elif event.kind == "game_started":
                assert before.status != "playing", where
                assert all(s.taken for s in before.seats), f"{where}: started with a free seat"
                if event.seq in by_host:
                    assert hash_token(by_host[event.seq].token) == before.host, (
                        f"{where}: game {event.seq} started by a token that is not the host"
                    )
            elif event.kind == "host_changed":
                sent = by_host.get(event.seq)
                assert sent is not None, f"{where}: host hand-over {event.seq} sent by nobody"
                assert hash_token(sent.token) == before.host, (
                    f"{where}: the role handed on at {event.seq} by a token that is not the host"
                )
                target = before.seats[event.data["seat"]].token_hash
                assert target is not None and target != before.host, where
                assert states[event.seq].host == target, where
        for sent in room.sent:  # every acknowledged line is in the log
            assert any(e.seq in {sent.seq, sent.seq - 1} and e.kind == sent.kind for e in events), (
                where
            )

        final = states[-1]
        async with self.db.transaction() as session:
            deadlines = await store.deadlines_of(session, room.id)
        for deadline in deadlines:
            away = final.seats[deadline.seat].away_until is not None
            assert (deadline.paused_left is not None) == away, (
                f"{where}: the deadline of seat {deadline.seat} is "
                f"{'paused' if deadline.paused_left is not None else 'running'}, away: {away}"
            )
        assert all(s.token_hash is None or s.token_hash in hashes for s in final.seats), where
        assert final.host in hashes and final.seat_with(final.host) is not None, (
            f"{where}: the host holds no seat"
        )
        room.host = hashes[final.host]
        # a token whose seat was given up holds nothing any more: it takes part no longer
        room.tokens = [t for t in room.tokens if final.seat_with(hash_token(t)) is not None]
        if final.status == "playing":
            assert all(s.taken or s.stand_in for s in final.seats), (
                f"{where}: a running game with an empty seat"
            )
            game = final.game
            rng = random.Random(head)
            while engine.to_act(game):  # the game as stored can be played to its end
                seat = engine.to_act(game)[0]
                game = engine.play(game, seat, rng.choice(engine.legal_moves(game, seat)))

    @staticmethod
    def check_undo(
        where: str,
        event: EventRecord,
        events: list[EventRecord],
        states: list[RoomState],
        sent: Sent | None,
    ) -> None:
        """A take-back went back to the very position of the log before the moves it took
        back, each of which could be; by the seat's token alone only if nobody else had
        moved, else with every other person's agreement."""
        before, after = states[event.seq - 1], states[event.seq]
        seat, undone = event.data["seat"], event.data["undone"]
        assert before.status == "playing" and undone, where
        assert after.game == states[event.data["to"]].game, (
            f"{where}: undo {event.seq} did not go back to the position at {event.data['to']}"
        )
        assert undone[0] == event.data["to"] + 1, where
        engine = get_engine(GAME)
        for seq in undone:
            move = events[seq - 1]
            assert move.kind == "move", where
            played = (states[seq - 1].game, move.data["seat"], move.data["move"], states[seq].game)
            assert engine.undoable(*played), (
                f"{where}: undo {event.seq} took back move {seq}, which drew or showed a card"
            )
        assert states[undone[0]].mover == seat, where
        requester = before.seats[seat].token_hash
        others = {s.token_hash for s in before.seats if s.token_hash is not None} - {requester}
        if before.undo_request is None:
            assert sent is not None, f"{where}: undo {event.seq} sent by nobody"
            assert before.seat_with(hash_token(sent.token)) == seat, where
            alone = all(states[seq].mover == seat for seq in undone)
            assert alone or not others, f"{where}: undo {event.seq} without asking"
        else:
            assert before.undo_request.seat == seat, where
            assert others <= before.undo_request.agreed, (
                f"{where}: undo {event.seq} without everyone's agreement"
            )

    async def play_to_end(self, room: Room) -> None:
        """Seated tokens play random legal moves over their sockets; bots play themselves."""
        seated = await self.seated_tokens(room)
        players = [s for s in room.seated() if s.token in seated]
        while True:
            head = await self.head(room)
            for sock in room.sockets:
                if sock.token is None or sock.token in seated:
                    await sock.at(head)
            latest = players[0].latest
            assert latest is not None
            if latest["room"]["status"] != "playing":
                return
            mover = next((s for s in players if (s.latest or {}).get("legal_moves")), None)
            if mover is None:  # a bot's turn: wait for its move
                await players[0].at(head + 1)
                continue
            state = mover.latest
            assert state is not None and mover.token is not None
            reply = await mover.request(
                {"type": "move", "seq": state["seq"], "move": self.rng.choice(state["legal_moves"])}
            )
            assert reply["type"] == "ack", reply
            room.sent.append(Sent(mover.token, "move", reply["seq"]))


@contextlib.asynccontextmanager
async def racing(servers: list[ServerProcess]) -> AsyncIterator[Race]:
    first = servers[0]
    settings = Settings(data_dir=first.data_dir, database_url=first.env["DATABASE_URL"])
    engine = make_engine(settings)
    transports = [BrowserTransport() for _ in servers]
    try:
        async with contextlib.AsyncExitStack() as stack:
            https = [
                await stack.enter_async_context(
                    httpx.AsyncClient(base_url=s.url, timeout=WAIT, transport=transport)
                )
                for s, transport in zip(servers, transports, strict=True)
            ]
            yield Race(servers, https, Store(make_sessionmaker(engine)))
    except BaseException as exc:
        # what a failure on a loaded machine needs to be understood: did a server die,
        # what did it log, which reads were sent twice, and (PostgreSQL) what each
        # session of the database was doing or waiting for
        for server in servers:
            exc.add_note(server.tail())
        for transport in transports:
            for retried in transport.retried:
                exc.add_note(f"sent again: {retried}")
        if engine.dialect.name == "postgresql":
            exc.add_note(await _sessions_of(engine))
        raise
    finally:
        await engine.dispose()
    dead = [server.tail() for server in servers if not server.alive()]
    assert not dead, "\n".join(dead)


_SESSIONS = text(
    "SELECT pid, state, wait_event_type, wait_event, now() - xact_start AS open_for, "
    "left(query, 160) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY xact_start"
)


async def _sessions_of(engine: Any) -> str:
    """The database's other sessions as PostgreSQL sees them: which are in a
    transaction, for how long, and what each waits for (a lock names a hang's cause)."""
    try:
        async with asyncio.timeout(5):
            async with engine.connect() as connection:
                rows = (await connection.execute(_SESSIONS)).all()
    except Exception as exc:  # the note must not hide the failure it explains
        return f"pg_stat_activity unreadable: {exc!r}"
    return "pg_stat_activity:\n" + "\n".join(" | ".join(map(str, row)) for row in rows)


async def _run(servers: list[ServerProcess], rounds: int) -> None:
    older = [pair for pair in PAIRS if not LATER & set(pair)]
    later = [pair for pair in PAIRS if LATER & set(pair)]
    async with racing(servers) as race:
        for _ in range(rounds):
            for pair in older:
                for _ in range(AGAIN.get(pair, 1)):
                    await race.round(pair)
        for pair in later:
            await race.round(pair)
        assert race.rounds == rounds * sum(AGAIN.get(p, 1) for p in older) + len(later)


# a hang guard above the 300 s default (every wait inside has its own 20 s guard): with
# the later operations' pairs a run on a loaded two-core machine took 470 s
# (docs/testing.md: budgets are never speed limits)
@pytest.mark.timeout(1800)
async def test_every_pair_of_room_operations_keeps_seats_views_and_logs_right(
    race_server: list[ServerProcess],
) -> None:
    await _run(race_server, rounds=2)


@pytest.mark.timeout(1800)
async def test_every_pair_of_room_operations_across_two_processes(
    race_pair: list[ServerProcess],
) -> None:
    await _run(race_pair, rounds=1)


@pytest.mark.slow
async def test_many_rounds_of_racing_room_operations(race_server: list[ServerProcess]) -> None:
    await _run(race_server, rounds=10)


@pytest.mark.slow
async def test_many_rounds_of_racing_room_operations_across_two_processes(
    race_pair: list[ServerProcess],
) -> None:
    await _run(race_pair, rounds=5)


async def test_a_take_back_the_host_freed_meanwhile_is_refused(services: Services) -> None:
    """Ben takes his seat back from its bot while Anna, the host, frees it: read on the
    state before the release, the take-back is planned again on the state after it,
    where Ben's token holds nothing (401 ``bad_token``), and the freed seat keeps its
    bot (found by the race suite across two processes: the seat ended empty)."""
    state, anna = await services.rooms.create("blokus", 2, {}, "Anna", 0, {}, RoomRules())
    room = state.room.id
    _, ben = await services.rooms.claim(room, 1, "Ben", None)
    await services.rooms.start(room, anna, False)
    await services.seats.leave(room, ben)
    rooms = services.rooms
    plain = rooms.load
    loads = 0

    async def load_then_free(room_id: str) -> RoomState:
        nonlocal loads
        loaded = await plain(room_id)
        loads += 1
        if loads == 1:  # the take-back's first read: the host frees the seat just after
            await services.seats.release(room_id, anna, 1)
        return loaded

    rooms.load = load_then_free  # type: ignore[method-assign]
    try:
        with pytest.raises(ApiError) as refused:
            await services.seats.take_back(room, ben, 1)
    finally:
        del rooms.load
    assert refused.value.code == "bad_token" and loads >= 2
    state = await rooms.load(room)
    assert state.status == "playing"
    assert state.seats[1].token_hash is None and state.seats[1].stand_in is not None
    kinds = [e.kind for e in await rooms.events(room, 0)]
    assert kinds[-1] == "seat_released" and "seat_taken_back" not in kinds


async def test_a_take_back_races_a_deadline_firing(services: Services, settings: Settings) -> None:
    """Anna takes her Blokus placement back just as Ben's time runs out, in either order:
    the take-back wins and Ben's deadline goes (the clock runs for Anna again, afresh),
    or the deadline wins and the bot's one move for Ben is either played (Anna's move
    then stays) or, not yet played, has no turn left to play. Nobody sleeps: the test
    clock moves."""
    clock.reset()
    try:
        for first in ("undo", "deadline", "undo", "deadline"):
            await _undo_against_deadline(services, first)
        # one after the other, the bot thinking long enough for the take-back to come
        # before its move: the deadline row read before the take-back fires nothing, and
        # the bot's one move for Ben lapses with his turn
        slow = Services.build(settings.model_copy(update={"bot_delay_ms": 2000}))
        await slow.start()
        try:
            for first in ("undo, then the deadline", "the deadline, then undo"):
                await _undo_against_deadline(slow, first)
        finally:
            await slow.stop()
    finally:
        clock.reset()


async def _undo_against_deadline(svc: Services, first: str) -> None:
    rules = RoomRules(turn_seconds=3600)
    state, anna = await svc.rooms.create("blokus", 2, {}, "Anna", 0, {}, rules)
    room = state.room.id
    await svc.rooms.claim(room, 1, "Ben", None)
    state = await svc.rooms.start(room, anna, False)
    move = state.engine.legal_moves(state.game, 0)[0]
    state = await svc.rooms.move(room, anna, state.seq, move)
    async with svc.rooms.db.transaction() as session:
        [deadline] = await store.deadlines_of(session, room)
    assert deadline.seat == 1
    clock.advance(3601)

    async def undo() -> Any:
        try:
            return await svc.undo.take_back(room, anna)
        except ApiError as exc:
            return exc.code

    def expire() -> Any:
        return svc.deadlines._expire(deadline)

    if first == "undo, then the deadline":
        outcomes = [await undo(), await expire()]
        assert outcomes[1] == 0 and not isinstance(outcomes[0], str), outcomes
    elif first == "the deadline, then undo":
        outcomes = [await expire(), await undo()]
        assert outcomes[0] == 1 and not isinstance(outcomes[1], str), outcomes
    else:
        await asyncio.gather(*([undo(), expire()] if first == "undo" else [expire(), undo()]))
    # the bot runner plays in the background: wait until nobody's bot is to act
    for _ in range(400):
        state = await svc.rooms.load(room)
        if not state.bots_to_act():
            break
        await asyncio.sleep(0.025)
    events = await svc.rooms.events(room, 0)
    kinds = [e.kind for e in events]
    where = f"{first} first: {kinds}"
    async with svc.rooms.db.transaction() as session:
        deadlines = await store.deadlines_of(session, room)
    if "undo" in kinds:
        at = kinds.index("undo")
        assert kinds[at + 1 :] == [], where
        assert state.engine.to_act(state.game) == [0] and state.seats[1].stand_in is None, where
        assert [d.seat for d in deadlines] == [0] and deadlines[0].seq == events[at].seq, where
        assert deadlines[0].due_at > clock.now(), where
    else:
        assert "seat_stand_in" in kinds and kinds.count("move") == 2, where
        assert state.engine.to_act(state.game) == [0] and [d.seat for d in deadlines] == [0]
    assert state.status == "playing"
