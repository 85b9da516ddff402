"""A two-seat Blokus Duo table as the bench scripts play it: set up over REST, both
seats on websockets, every move timed until the other seat holds it.

Each seat keeps what its next move needs (seq, who is to act, the result, its first
legal move), not every whole message: a load client that holds thousands of parsed
messages spends its time in its own garbage collector, not in waiting on the server.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

TABLE = {"game": "blokus", "players": 2, "options": {"variant": "duo"}}


class MoveFailed(Exception):
    """The server refused a move (its error code), or an answer did not come in time."""


def first_move(message: dict[str, Any]) -> dict[str, Any] | None:
    """The seat's first legal move, from whichever form the message carries."""
    compact = message.get("legal_compact")
    if compact is not None:
        for group in compact["shapes"]:
            if group["at"]:
                top, left = divmod(group["at"][0], compact["size"])
                cells = [[top + r, left + c] for r, c in group["cells"]]
                return {"piece": group["piece"], "cells": cells}
        return None
    moves = message.get("legal_moves") or []
    return moves[0] if moves else None


class Seat:
    """One seat's socket: the newest state it holds, and who waits for what."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.ready = asyncio.Event()
        self._seq_waits: list[tuple[int, asyncio.Future[float]]] = []
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                self.state = {
                    "seq": message["seq"],
                    "to_act": message["to_act"],
                    "result": message["result"],
                    "move": first_move(message),
                }
                self.ready.set()
                now = time.perf_counter()
                waiting = []
                for seq, future in self._seq_waits:
                    if message["seq"] >= seq:
                        if not future.done():
                            future.set_result(now)
                    else:
                        waiting.append((seq, future))
                self._seq_waits = waiting
            elif kind in ("ack", "error"):
                reply = self._replies.pop(message.get("id", -1), None)
                if reply is not None and not reply.done():
                    reply.set_result(message)

    def reaching(self, seq: int) -> asyncio.Future[float]:
        """Done (with the time) once this seat holds a state at ``seq`` or later."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.state is not None and self.state["seq"] >= seq:
            future.set_result(time.perf_counter())
        else:
            self._seq_waits.append((seq, future))
        return future

    def reply(self, message_id: int) -> asyncio.Future[dict[str, Any]]:
        """Done with the ack or error that answers the message ``message_id``."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[message_id] = future
        return future

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


def mover(seats: list[Seat]) -> int | None:
    """The seat to move next at a two-seat table, or None once the game is over or
    nobody is to act."""
    state = seats[0].state
    assert state is not None
    if state["result"] is not None or not state["to_act"]:
        return None
    seat: int = state["to_act"][0]
    return seat


async def start_table(http: httpx.AsyncClient, n: int = 0) -> tuple[str, list[str]]:
    """A started two-seat room (``http`` is bound to the server): its id and both tokens."""
    made = await http.post("/api/rooms", json={**TABLE, "name": f"a{n}"})
    room, first = made.raise_for_status().json()["room"], made.json()["token"]
    claimed = await http.post(f"/api/rooms/{room}/seats/1", json={"name": f"b{n}"})
    second = claimed.raise_for_status().json()["token"]
    started = await http.post(
        f"/api/rooms/{room}/start", json={}, headers={"Authorization": f"Bearer {first}"}
    )
    started.raise_for_status()
    return room, [first, second]


async def open_seat(
    ws_url: str, room: str, token: str, legal_form: str = "list", wait: float = 10.0
) -> Seat:
    """A seat's socket, once the answer to its hello is there."""
    ws = await connect(f"{ws_url}/api/rooms/{room}/ws", max_size=2**24)
    hello = {"type": "hello", "token": token, "since": None, "legal_form": legal_form}
    await ws.send(json.dumps(hello))
    seat = Seat(ws)
    await asyncio.wait_for(seat.ready.wait(), wait)
    return seat


async def timed_move(
    me: Seat, other: Seat, message_id: int, wait: float = 10.0
) -> tuple[float, float]:
    """``me`` plays its first legal move: ms until the other seat holds the new state,
    and until ``me`` does. ``MoveFailed`` for a refusal or an answer that never came."""
    mine = me.state
    assert mine is not None and mine["move"] is not None, "the seat to act has no legal move"
    target = mine["seq"] + 1
    reply = me.reply(message_id)
    theirs, own = other.reaching(target), me.reaching(target)
    sent = time.perf_counter()
    message = {"type": "move", "seq": mine["seq"], "move": mine["move"], "id": message_id}
    await me.ws.send(json.dumps(message))
    try:
        answer = await asyncio.wait_for(reply, wait)
        if answer["type"] == "error":
            raise MoveFailed(answer.get("code"))
        arrived = await asyncio.wait_for(theirs, wait)
        confirmed = await asyncio.wait_for(own, wait)
    except TimeoutError as exc:
        raise MoveFailed("timeout") from exc
    return (arrived - sent) * 1000, (confirmed - sent) * 1000
