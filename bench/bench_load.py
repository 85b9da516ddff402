"""Moves under load, as the browser plays them: the figure issue 11 compares with the peer.

Measures what ``../shared/bench/s1/load.py`` measures (two-seat Blokus Duo rooms, both
seats connected by websocket, every seat playing its first legal move, ``CONCURRENCY``
rooms at once; a move's round trip runs from the mover's send until the *other* seat
holds a state with the new seq), but speaks the protocol as the browser does: its hello
asks for the compact form of the legal moves (``LEGAL_FORM=compact``, the default).
``LEGAL_FORM=list`` asks for the plain list, as the shared script does, so one run of
each shows what the compact form alone changes. Both play the very same games: the
compact form keeps the legal moves' order.

The client is built not to be the bottleneck it measures: each seat keeps what its next
move needs (seq, who is to act, the result, its first legal move) rather than the whole
message, and the objects of the set-up are frozen out of the garbage collector's full
passes before play, as the server freezes its own after start. Without both, on two
cores the Python client spent more CPU per move than the server did.

    MATCHES=60 MOVES=30 CONCURRENCY=30 .venv/bin/python bench/bench_load.py

DATABASE_URL, REDIS_URL and WORKERS go to the server as they are. Prints one JSON line
with the shared script's keys (``bench/compare_peer.sh`` puts it beside boardgame.io).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import figures, say  # noqa: E402
from engines import ENGINES  # noqa: E402
from tests.server import ServerProcess  # noqa: E402

MATCHES = int(os.environ.get("MATCHES", "60"))
MOVES = int(os.environ.get("MOVES", "30"))
CONCURRENCY = int(os.environ.get("CONCURRENCY", "30"))
LEGAL_FORM = os.environ.get("LEGAL_FORM", "compact")
SETUP_AT_ONCE = 10
WAIT_S = 10.0
BLOKUS = ENGINES["blokus"]


def cpu_ms(pids: list[int]) -> float:
    """User plus system CPU of these processes so far, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total * 1000 / ticks


def server_pids(root: int) -> list[int]:
    """The server and its worker processes (``--workers N`` forks them)."""
    pids, queue = [root], [root]
    while queue:
        pid = queue.pop()
        children = Path(f"/proc/{pid}/task/{pid}/children")
        if children.exists():
            found = [int(p) for p in children.read_text().split()]
            pids += found
            queue += found
    return pids


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


@dataclass
class Seat:
    """One seat's socket: the newest state it holds, and who waits for what."""

    ws: Any
    state: dict[str, Any] | None = None
    seq_waits: list[tuple[int, asyncio.Future[float]]] = field(default_factory=list)
    replies: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                # keep what the next move needs, not the whole message: the client's
                # garbage collector then has little to walk (as a browser's would)
                self.state = {
                    "seq": message["seq"],
                    "to_act": message["to_act"],
                    "result": message["result"],
                    "move": first_move(message),
                }
                self.ready.set()
                now = time.perf_counter()
                waiting = []
                for seq, future in self.seq_waits:
                    if message["seq"] >= seq:
                        if not future.done():
                            future.set_result(now)
                    else:
                        waiting.append((seq, future))
                self.seq_waits = waiting
            elif kind in ("ack", "error"):
                reply = self.replies.pop(message.get("id"), None)
                if reply is not None and not reply.done():
                    reply.set_result(message)

    def reaching(self, seq: int) -> asyncio.Future[float]:
        """Done (with the time) once this seat holds a state at ``seq`` or later."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.state is not None and self.state["seq"] >= seq:
            future.set_result(time.perf_counter())
        else:
            self.seq_waits.append((seq, future))
        return future


async def open_room(http: httpx.AsyncClient, ws_base: str, n: int) -> list[Seat]:
    made = await http.post(
        "/api/rooms",
        json={"game": "blokus", "players": 2, "options": {"variant": "duo"}, "name": f"a{n}"},
    )
    room, first = made.json()["room"], made.json()["token"]
    second = (await http.post(f"/api/rooms/{room}/seats/1", json={"name": f"b{n}"})).json()
    await http.post(
        f"/api/rooms/{room}/start", json={}, headers={"Authorization": f"Bearer {first}"}
    )
    seats = []
    for token in (first, second["token"]):
        ws = await websockets.connect(f"{ws_base}/api/rooms/{room}/ws", max_size=2**24)
        hello = {"type": "hello", "token": token, "since": None, "legal_form": LEGAL_FORM}
        await ws.send(json.dumps(hello))
        seat = Seat(ws)
        seat.reader = asyncio.create_task(seat.read())
        seats.append(seat)
    for seat in seats:
        await asyncio.wait_for(seat.ready.wait(), WAIT_S)
    return seats


async def play(seats: list[Seat], out: dict[str, list[Any]]) -> None:
    ref = 0
    for _ in range(MOVES):
        state = seats[0].state
        assert state is not None
        if state["result"] is not None or not state["to_act"]:
            return
        mover = state["to_act"][0]
        me, other = seats[mover], seats[1 - mover]
        mine = me.state
        assert mine is not None
        move = mine["move"]
        if move is None:  # this seat's own state is not there yet
            await asyncio.sleep(0.01)
            continue
        ref += 1
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        me.replies[ref] = reply
        target = mine["seq"] + 1
        theirs, own = other.reaching(target), me.reaching(target)
        sent = time.perf_counter()
        await me.ws.send(json.dumps({"type": "move", "seq": mine["seq"], "move": move, "id": ref}))
        try:
            answer = await asyncio.wait_for(reply, WAIT_S)
            if answer["type"] == "error":
                out["failures"].append(answer.get("code"))
                return
            arrived = await asyncio.wait_for(theirs, WAIT_S)
            confirmed = await asyncio.wait_for(own, WAIT_S)
        except TimeoutError:
            out["failures"].append("timeout")
            return
        out["rtt"].append((arrived - sent) * 1000)
        out["self"].append((confirmed - sent) * 1000)


async def measure(server: ServerProcess) -> dict[str, Any]:
    assert server.proc is not None
    pids = server_pids(server.proc.pid)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        began = time.perf_counter()
        rooms: list[list[Seat]] = []
        for start in range(0, MATCHES, SETUP_AT_ONCE):
            batch = range(start, min(MATCHES, start + SETUP_AT_ONCE))
            rooms += await asyncio.gather(*(open_room(http, server.ws_url, n) for n in batch))
        setup_s = time.perf_counter() - began
    say(f"{MATCHES} rooms ready in {setup_s:.1f} s; playing {CONCURRENCY} at once")
    # as the server does after its start (app/main.py): what lives for the whole run is
    # kept out of the collector's full passes, so the client's own garbage collection
    # does not stand in for the server's latency
    gc.freeze()
    out: dict[str, list[Any]] = {"rtt": [], "self": [], "failures": []}
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(seats: list[Seat]) -> None:
        async with gate:
            await play(seats, out)

    usage = resource.getrusage(resource.RUSAGE_SELF)
    client0 = usage.ru_utime + usage.ru_stime
    cpu0, t0 = cpu_ms(pids), time.perf_counter()
    await asyncio.gather(*(one(seats) for seats in rooms))
    wall = time.perf_counter() - t0
    cpu1 = cpu_ms(pids)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    client1 = usage.ru_utime + usage.ru_stime
    for seats in rooms:
        for seat in seats:
            await seat.ws.close()
    moves = len(out["rtt"])
    database = os.environ.get("DATABASE_URL", "")
    return {
        "system": "spieltisch",
        "client": "bench/bench_load.py",
        "legal_form": LEGAL_FORM,
        "db": "postgresql" if database.startswith("postgres") else "sqlite",
        "workers": int(os.environ.get("WORKERS", "1")),
        "matches": MATCHES,
        "moves_per_match": MOVES,
        "concurrency": CONCURRENCY,
        "moves": moves,
        "failures": len(out["failures"]),
        "failure_codes": sorted({str(code) for code in out["failures"]})[:5],
        "play_s": round(wall, 3),
        "setup_s": round(setup_s, 3),
        "moves_per_s": round(moves / wall, 1) if wall else None,
        "rtt_ms": figures(out["rtt"]),
        "self_confirm_ms": figures(out["self"]),
        "server_cpu_ms_per_move": round((cpu1 - cpu0) / max(1, moves), 3),
        "server_cpu_util_during_play": round((cpu1 - cpu0) / 1000 / wall, 3),
        "client_cpu_util_during_play": round((client1 - client0) / wall, 3),
        "client_cpu_ms_per_move": round((client1 - client0) * 1000 / max(1, moves), 3),
    }


def main() -> int:
    if LEGAL_FORM not in ("list", "compact"):
        raise SystemExit(f"LEGAL_FORM is list or compact, not {LEGAL_FORM!r}")
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        server = ServerProcess(Path(tmp), env={"BOT_DELAY_MS": "0"})
        server.start(timeout=60)
        try:
            result = asyncio.run(measure(server))
        finally:
            server.stop()
    print(json.dumps(result))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
