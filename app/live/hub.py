"""Live rooms over websockets: hello, then a fresh state after every event.

Each process keeps its own sockets. When the doorbell rings for a room, one task
per room catches up from the database (or the cache) and sends every socket the
state for its own seat, with the public events it has not seen yet. Bells that
arrive while a push is running fold into one more push, never a lost one.

A socket holds its seat token's hash, never a seat: a shuffled start moves tokens
between seats, so every message is built for the seat the token holds in the very
state that message is built from, and every move is played for the seat the token
holds in the state it is played on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnected

from app.core.config import Settings
from app.core.errors import ApiError, bad_token
from app.core.text import chat_text
from app.live.budget import Budget
from app.live.doorbell import EVERY_ROOM, Doorbell
from app.live.presence import Presence
from app.play.access import hash_token
from app.play.actor import Actor
from app.play.rooms import Rooms
from app.play.schemas import ClientMessage, Hello, Ping, WsChat, WsMove
from app.play.state import RoomState
from app.play.store import EventRecord
from app.play.views import StateMessages, encode, seat_state

log = logging.getLogger(__name__)

CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
HELLO_TIMEOUT = 15.0
HEARTBEAT_SECONDS = 20.0

# close codes: 4xxx are ours, 1008/1009 the standard ones for policy and size
CLOSE_PROTOCOL = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_NO_ROOM = 4404
CLOSE_ABUSE = 1008
CLOSE_TOO_BIG = 1009
CLOSE_NOT_TEXT = 1003
# frames the socket can't go on after: (error code, message, close code)
UNREADABLE = {
    "too_large": ("too_large", "That message is too large.", CLOSE_TOO_BIG),
    "binary": (
        "binary",
        "Send JSON text messages; binary frames are not understood.",
        CLOSE_NOT_TEXT,
    ),
}


# a peer that went away: the socket is done, and nobody needs a traceback for it
GONE = (WebSocketDisconnect, WebSocketDisconnected)


@dataclass(eq=False)
class Connection:
    """One socket. ``seat`` only says which seat the last state message was built for
    (presence is kept by seat); what a message shows is decided from ``token_hash``."""

    ws: WebSocket
    room_id: str
    token_hash: str | None
    last_seq: int
    seat: int | None = None
    compact: bool = False  # the hello asked for the legal moves' compact form
    # a message of this socket is being answered (a move or a chat line under way)
    answering: bool = False
    # the token holds no seat any more: the socket closes, once its answer is sent
    revoked: bool = False
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_encoded(_encode(message))

    async def send_encoded(self, text: str) -> None:
        async with self.send_lock:
            try:
                await self.ws.send_text(text)
            except WebSocketDisconnected as exc:  # an earlier send found the peer gone
                raise WebSocketDisconnect(1006) from exc


def _encode(message: dict[str, Any]) -> str:
    return encode(message)


@dataclass(frozen=True)
class Push:
    """What a push to a room must do: bring its sockets to ``seq`` at least (``None``:
    to whatever the log holds now), and with ``presence`` tell who is online."""

    seq: int | None = None
    presence: bool = False

    def join(self, other: Push) -> Push:
        """One push doing what both ask."""
        seq = None if self.seq is None or other.seq is None else max(self.seq, other.seq)
        return Push(seq=seq, presence=self.presence or other.presence)


class Hub:
    def __init__(
        self, rooms: Rooms, presence: Presence, doorbell: Doorbell, settings: Settings
    ) -> None:
        self.rooms = rooms
        self.presence = presence
        self.doorbell = doorbell
        self.settings = settings
        # one budget per seat token, shared with the REST moves and chat of that token
        self.budget = Budget(settings.seat_budget_messages, settings.seat_budget_seconds)
        self._conns: dict[str, set[Connection]] = {}
        self._dirty: dict[str, Push] = {}
        self._wants: dict[str, Push] = {}
        self._pushers: dict[str, asyncio.Task[None]] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        doorbell.listen(self.on_bell)

    async def start(self) -> None:
        self._heartbeat = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        tasks = [t for t in [self._heartbeat, *self._pushers.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conns in list(self._conns.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1012)  # service restart: clients come back

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            members = [
                (c.room_id, c.seat, c.id)
                for conns in self._conns.values()
                for c in conns
                if c.seat is not None
            ]
            with contextlib.suppress(Exception):
                await self.presence.refresh(members)

    def held_rooms(self) -> dict[str, int]:
        """Rooms this process holds sockets for, with the oldest seq one was sent.

        Rooms with a push under way are left out: that push brings them up to date.
        """
        return {
            room_id: min(c.last_seq for c in conns)
            for room_id, conns in self._conns.items()
            if conns and room_id not in self._pushers
        }

    # -- fan-out -----------------------------------------------------------------

    async def on_bell(self, room_id: str, message: dict[str, Any]) -> None:
        if room_id == EVERY_ROOM:
            for known in list(self._conns):
                self._mark(known)
        elif room_id in self._conns:
            seq = message.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool):
                # another process's events come with its bell: the push needs no read
                self.rooms.offer(room_id, message.get("events"))
                self._mark(room_id, Push(seq=seq))
            elif message.get("presence"):
                self._mark(room_id, Push(seq=0, presence=True))
            else:
                self._mark(room_id)

    def _mark(self, room_id: str, push: Push | None = None) -> None:
        """Push to ``room_id``'s sockets what ``push`` asks (default: catch up from the
        log); marks that come while a push runs fold into one more push."""
        push = push or Push()
        wanted = self._dirty.get(room_id)
        self._dirty[room_id] = push if wanted is None else wanted.join(push)
        if room_id not in self._pushers:
            self._pushers[room_id] = asyncio.create_task(self._push_loop(room_id))

    async def _push_loop(self, room_id: str) -> None:
        try:
            while room_id in self._dirty:
                self._wants[room_id] = self._dirty.pop(room_id)
                try:
                    await self._push_room(room_id)
                except Exception:
                    log.exception("push to room %s failed", room_id)
        finally:
            self._wants.pop(room_id, None)
            self._pushers.pop(room_id, None)

    async def _push_room(self, room_id: str) -> None:
        conns = list(self._conns.get(room_id, ()))
        if not conns:
            return
        wanted = self._wants.get(room_id) or Push()
        if wanted.seq is None:
            state = await self.rooms.load(room_id)
        else:  # the cache answers when it has what the bell rang for
            state = await self.rooms.at_least(room_id, wanted.seq)
        behind = [c for c in conns if c.last_seq < state.seq]
        if not behind and not wanted.presence:
            return  # a bell for what these sockets have (this process rang it itself)
        seats = state.seat_records()
        online = await self.presence.online(room_id, state.room.players)
        if wanted.presence:
            presence = _encode(
                {
                    "type": "presence",
                    "seq": state.seq,
                    "online": [
                        online.get(s, False) or bool(seats[s].bot) for s in range(len(seats))
                    ],
                }
            )
            for conn in conns:
                if conn.last_seq >= state.seq:
                    with contextlib.suppress(Exception):
                        await conn.send_encoded(presence)
        if not behind:
            return
        events, first = await self._backlog(room_id, min(c.last_seq for c in behind), state)
        messages = StateMessages(state, seats, online)
        # sockets of one seat that saw the same seq get the very same bytes
        encoded: dict[tuple[int | None, int, bool], str] = {}
        # whoever is to act now waits for this state the most: they get it first
        acting = messages.to_act
        placed = [(state.seat_with(conn.token_hash), conn) for conn in behind]
        placed.sort(key=lambda pair: pair[0] not in acting)
        for seat, conn in placed:
            if seat is None and conn.token_hash is not None:
                # the host freed this token's seat: the token is worth nothing any more
                await self._revoke(conn)
                continue
            key = (seat, conn.last_seq, conn.compact)
            text = encoded.get(key)
            if text is None:
                fresh = [e for e in events if e.seq > conn.last_seq]
                cut = first if conn.last_seq < first - 1 else None
                text = encoded[key] = messages.text_for_seat(seat, fresh, cut, conn.compact)
            conn.last_seq = state.seq
            if seat != conn.seat:
                await self._moved(conn, seat)
            with contextlib.suppress(Exception):
                await conn.send_encoded(text)

    async def _backlog(
        self, room_id: str, since: int, state: RoomState
    ) -> tuple[list[EventRecord], int]:
        """The events after ``since`` up to exactly ``state.seq``, at most
        ``catch_up_events`` of them: the newest. Returns them and the first seq they
        could start at; a receiver that saw less than the seq before that one is told
        to fetch the gap from ``/events``."""
        start = max(since, state.seq - self.settings.catch_up_events, 0)
        if start >= state.seq:
            return [], state.seq + 1
        return await self.rooms.events_upto(room_id, start, state.seq), start + 1

    async def _revoke(self, conn: Connection) -> None:
        """Close the socket of a token that holds no seat any more (4401). A socket in the
        middle of answering a message (a chat line stored, or refused, while the seat
        went) closes once that answer is sent (``_loop``): a close sent first would leave
        the client never knowing what became of it."""
        conn.revoked = True
        if conn.answering:
            return
        with contextlib.suppress(Exception):
            await conn.ws.close(code=CLOSE_BAD_TOKEN)

    async def _moved(self, conn: Connection, seat: int | None) -> None:
        """A new game shuffled the seats: the socket's presence follows its token."""
        before, conn.seat = conn.seat, seat
        with contextlib.suppress(Exception):
            if before is not None:
                await self.presence.leave(conn.room_id, before, conn.id)
            if seat is not None:
                await self.presence.join(conn.room_id, seat, conn.id)
            await self.doorbell.publish(conn.room_id, {"presence": True})

    # -- one socket --------------------------------------------------------------

    async def serve(self, ws: WebSocket, room_id: str) -> None:
        await ws.accept()
        try:
            conn = await self._hello(ws, room_id)
        except (*GONE, asyncio.CancelledError):
            return
        if conn is None:
            return
        self._conns.setdefault(room_id, set()).add(conn)
        try:
            if conn.seat is not None:
                await self.presence.join(room_id, conn.seat, conn.id)
                await self.doorbell.publish(room_id, {"presence": True})
            # a bell that rang after the hello's load found no socket here to push to
            if (await self.rooms.load(room_id)).seq > conn.last_seq:
                self._mark(room_id)
            await self._loop(conn)
        except GONE:
            pass
        finally:
            conns = self._conns.get(room_id)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self._conns[room_id]
            if conn.seat is not None:
                with contextlib.suppress(Exception):
                    await self.presence.leave(room_id, conn.seat, conn.id)
                    await self.doorbell.publish(room_id, {"presence": True})

    async def _receive(self, ws: WebSocket) -> tuple[dict[str, Any] | None, str | None]:
        """One message as a dict, or ``(None, error code)`` for one we can't read."""
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
        text = frame.get("text")
        if text is None:
            return None, "binary"
        if len(text.encode()) > self.settings.max_ws_message_bytes:
            return None, "too_large"
        try:
            data = json.loads(text)
        except ValueError:
            return None, "bad_json"
        if not isinstance(data, dict):
            return None, "bad_message"
        return data, None

    async def _error(self, ws: WebSocket, code: str, message: str, **extra: Any) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(
                json.dumps({"type": "error", "code": code, "message": message, **extra})
            )

    async def _hello(self, ws: WebSocket, room_id: str) -> Connection | None:
        try:
            data, problem = await asyncio.wait_for(self._receive(ws), HELLO_TIMEOUT)
        except TimeoutError:
            await self._error(ws, "hello_timeout", "Say hello first: no hello arrived in time.")
            await ws.close(code=CLOSE_PROTOCOL)
            return None
        if data is None:
            await self._error(
                ws, problem or "bad_message", "The first message must be a JSON hello."
            )
            await ws.close(code=CLOSE_TOO_BIG if problem == "too_large" else CLOSE_PROTOCOL)
            return None
        try:
            hello = Hello.model_validate(data)
        except ValidationError as exc:
            wrong = exc.errors()[0]
            where = ".".join(str(part) for part in wrong["loc"]) or "the message"
            await self._error(
                ws,
                "hello_first",
                'The first message must be {"type": "hello", "token": ..., "since": ...}'
                f" ({where}: {wrong['msg']}).",
            )
            await ws.close(code=CLOSE_PROTOCOL)
            return None
        token_hash = hash_token(hello.token) if hello.token is not None else None
        try:
            # one state: the seat, the view and the events all come from it
            state = await self.rooms.load(room_id)
            seat = state.seat_with(token_hash)
            if token_hash is not None and seat is None:
                raise bad_token()
        except ApiError as exc:
            await self._error(ws, exc.code, exc.message)
            await ws.close(code=CLOSE_NO_ROOM if exc.status == 404 else CLOSE_BAD_TOKEN)
            return None
        since = hello.since if hello.since is not None and hello.since <= state.seq else None
        if since is None:  # a client with nothing: the recent history
            events, _ = await self._backlog(room_id, 0, state)
            cut = None
        else:
            events, first = await self._backlog(room_id, since, state)
            cut = first if since < first - 1 else None
        conn = Connection(
            ws=ws,
            room_id=room_id,
            token_hash=token_hash,
            last_seq=state.seq,
            seat=seat,
            compact=hello.legal_form == "compact",
        )
        online = await self.presence.online(room_id, state.room.players)
        if seat is not None:
            online[seat] = True
        seats = state.seat_records()
        await conn.send(seat_state(state, seats, online, seat, events, cut, conn.compact))
        return conn

    async def _loop(self, conn: Connection) -> None:
        strikes = 0
        try:
            while True:
                data, problem = await self._receive(conn.ws)
                ref = data.get("id") if data is not None else None
                ref = ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None
                key = (conn.room_id, conn.token_hash) if conn.token_hash else conn.id
                if not self.budget.take(key):
                    strikes += 1
                    await self._error(
                        conn.ws, "rate_limited", "Too many messages; slow down.", id=ref
                    )
                    if strikes >= self.settings.ws_budget_strikes:
                        await conn.ws.close(code=CLOSE_ABUSE)
                        return
                    continue
                if data is None:
                    if problem in UNREADABLE:
                        code, sentence, close = UNREADABLE[problem]
                        await self._error(conn.ws, code, sentence)
                        await conn.ws.close(code=close)
                        return
                    await self._error(
                        conn.ws, problem or "bad_message", "That message is not a JSON object."
                    )
                    continue
                try:
                    message = CLIENT_MESSAGE.validate_python(data)
                    if isinstance(message, WsChat):
                        message.text = chat_text(message.text)
                except ValidationError as exc:
                    await self._error(
                        conn.ws,
                        "bad_message",
                        f"Unknown or malformed message: {exc.errors()[0]['msg']}.",
                        id=ref,
                    )
                    continue
                except ApiError as exc:
                    await self._error(conn.ws, id=ref, **exc.body())
                    continue
                conn.answering = True
                try:
                    await self._handle(conn, message)
                finally:
                    conn.answering = False
                if conn.revoked:  # its seat went while this message was answered
                    with contextlib.suppress(Exception):
                        await conn.ws.close(code=CLOSE_BAD_TOKEN)
                    return
        finally:
            self.budget.forget(conn.id)

    async def _handle(self, conn: Connection, message: Any) -> None:
        if isinstance(message, Ping):
            await conn.send({"type": "pong", "id": message.id})
            return
        if isinstance(message, Hello):
            await self._error(conn.ws, "already_hello", "This socket has said hello already.")
            return
        try:
            if isinstance(message, WsMove):
                if conn.token_hash is None:
                    raise ApiError(401, "no_token", "Spectators can't move; sit down first.")
                actor = Actor(token_hash=conn.token_hash)
                state = await self.rooms.move_by(conn.room_id, actor, message.seq, message.move)
            elif isinstance(message, WsChat):
                if conn.token_hash is None:
                    raise ApiError(401, "no_token", "Only seated players can chat.")
                state = await self.rooms.chat_by(
                    conn.room_id,
                    Actor(token_hash=conn.token_hash),
                    message.text,
                    self.settings.chat_max_chars,
                )
            else:  # pragma: no cover - the union is closed
                return
        except ApiError as exc:
            await conn.send({"type": "error", "id": message.id, **exc.body()})
            if exc.code == "stale":
                self._mark(conn.room_id)
            return
        await conn.send({"type": "ack", "id": message.id, "seq": state.seq})
