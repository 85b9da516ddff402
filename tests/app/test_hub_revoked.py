"""A socket whose token loses its seat while one of its messages is answered: the answer
goes out first, then the socket closes (4401). Closed first, the client would never
learn whether its chat line was stored (the race suite's "no answer to chat" when a
seat was stood up from, or freed, as its holder chatted)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnected

from app.core.errors import ApiError
from app.live.hub import CLOSE_BAD_TOKEN
from app.play.actor import Actor
from app.play.rooms import RoomRules
from app.play.state import RoomState
from app.services import Services

GUARD = 10.0  # a hang guard: every step here is immediate
Chat = Callable[[], Awaitable[RoomState]]  # Ben's chat line, as the hub asked for it
Free = Callable[[], Awaitable[None]]  # Anna frees Ben's seat, and the hub pushes that


class _Peer:
    """The far end of a socket: what the hub sends it, and a close answered at once."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.closed_with: int | None = None
        self.arrived = asyncio.Event()

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    def say(self, message: dict[str, Any]) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    async def send_text(self, text: str) -> None:
        if self.closed_with is not None:  # as Starlette's socket does after a close
            raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')
        self.sent.append(json.loads(text))
        self.arrived.set()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        if self.closed_with is not None:
            raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')
        self.closed_with = code
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": code})


async def _pushed(svc: Services, room: str) -> None:
    """Until the hub's push to ``room`` (started by the commit before) has run."""
    pushing = svc.hub._pushers.get(room)
    if pushing is not None:
        async with asyncio.timeout(GUARD):
            await asyncio.shield(pushing)


async def _chat_while_seat_goes(
    svc: Services,
    monkeypatch: pytest.MonkeyPatch,
    around: Callable[[Chat, Free], Awaitable[RoomState]],
) -> _Peer:
    """Ben chats over his socket; ``around`` runs the chat and Anna's freeing of his seat
    (with the push that follows) in the order it likes. Returns Ben's peer once the
    socket is done."""
    state, anna = await svc.rooms.create("m", 3, None, "Anna", 0, {2: "random"}, RoomRules())
    room = state.room.id
    _, ben = await svc.seats.claim(room, 1, "Ben", None)
    chat_by = svc.rooms.chat_by

    async def chat(room_id: str, actor: Actor, text: str, max_chars: int) -> RoomState:
        async def free() -> None:
            await svc.seats.release(room, anna, 1)
            await _pushed(svc, room)

        return await around(lambda: chat_by(room_id, actor, text, max_chars), free)

    monkeypatch.setattr(svc.rooms, "chat_by", chat)
    peer = _Peer()
    serving = asyncio.create_task(svc.hub.serve(peer, room))  # type: ignore[arg-type]
    peer.say({"type": "hello", "token": ben, "since": None})
    peer.say({"type": "chat", "text": "hallo", "id": "c1"})
    async with asyncio.timeout(GUARD):
        await serving
    return peer


async def test_a_chat_stored_as_the_seat_goes_is_answered_before_the_close(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def stored_then_freed(chat: Chat, free: Free) -> RoomState:
        state = await chat()
        await free()
        return state

    peer = await _chat_while_seat_goes(services, monkeypatch, stored_then_freed)
    answers = [m for m in peer.sent if m.get("id") == "c1"]
    assert [m["type"] for m in answers] == ["ack"], peer.sent
    assert peer.closed_with == CLOSE_BAD_TOKEN


async def test_a_chat_refused_as_the_seat_went_is_answered_before_the_close(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def freed_then_refused(chat: Chat, free: Free) -> RoomState:
        await free()
        return await chat()

    peer = await _chat_while_seat_goes(services, monkeypatch, freed_then_refused)
    answers = [m for m in peer.sent if m.get("id") == "c1"]
    assert [(m["type"], m.get("code")) for m in answers] == [("error", "bad_token")], peer.sent
    assert peer.closed_with == CLOSE_BAD_TOKEN


async def test_an_idle_socket_of_a_freed_seat_closes_at_once(services: Services) -> None:
    state, anna = await services.rooms.create("m", 3, None, "Anna", 0, {2: "random"}, RoomRules())
    room = state.room.id
    _, ben = await services.seats.claim(room, 1, "Ben", None)
    peer = _Peer()
    serving = asyncio.create_task(services.hub.serve(peer, room))  # type: ignore[arg-type]
    peer.say({"type": "hello", "token": ben, "since": None})
    async with asyncio.timeout(GUARD):
        await peer.arrived.wait()  # the hello's answer
    await services.seats.release(room, anna, 1)
    async with asyncio.timeout(GUARD):
        await serving
    assert peer.closed_with == CLOSE_BAD_TOKEN
    with pytest.raises(ApiError):
        await services.rooms.chat(room, ben, "hallo", 200)
