"""Cross-process push latency: what the Redis doorbell adds to a move's round trip.

Two ``python -m app`` processes, A and B, serve one PostgreSQL database and one
Redis. Two kinds of two-seat Blokus Duo rooms are played side by side:

- same: both seats' sockets on A;
- cross: seat 0's socket on A, seat 1's on B, so every move is pushed to the
  other seat by the process that did not store it (A to B and B to A in turn).

Round trip = from the mover's ``move`` until the other seat's socket has the state
with the new seq. Moves are strictly one at a time (K=1), alternating between a
same room and a cross room (which kind goes first alternates too), so the
difference is not drowned in queueing and both kinds see the same machine. Each
room's first move is a warm-up and not counted.

Settings (environment): DATABASE_URL (postgresql+asyncpg://postgres@127.0.0.1:5432/test),
REDIS_URL (redis://127.0.0.1:6379/0), ROOMS (10 of each kind), MOVES (30 per room).
A fresh database is made beside the one in DATABASE_URL and dropped afterwards
(when the user may not create one, fresh rooms in DATABASE_URL itself are used).
One JSON line on stdout, progress on stderr; timings are reported, never judged.

    .venv/bin/python bench/bench_crossproc.py
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.config import async_url
from bench.common import figures, say
from bench.table import MoveFailed, Seat, mover, open_seat, start_table, timed_move
from tests.pg import run_sql
from tests.server import ServerProcess

DATABASE_URL = os.environ.get("DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
ROOMS = int(os.environ.get("ROOMS", "10"))
MOVES = int(os.environ.get("MOVES", "30"))
TIMEOUT_S = 10.0


# -- a scratch database --------------------------------------------------------


async def scratch_database(url: str) -> tuple[str, str | None]:
    """A new database beside ``url`` (and its name), or ``url`` itself if none can be made."""
    name = f"spieltisch_bench_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        await run_sql(url, f'CREATE DATABASE "{name}"')
    except Exception as exc:
        say(f"no scratch database ({exc}); using fresh rooms in {url}")
        return async_url(url), None
    head, _, _ = async_url(url).rpartition("/")
    return f"{head}/{name}", name


# -- the clients -----------------------------------------------------------------


class Room:
    def __init__(self, kind: str, seats: list[Seat]) -> None:
        self.kind = kind
        self.seats = seats
        self.moves = 0
        self.done = False
        self.next_id = 0

    async def move(self) -> tuple[float, int] | None:
        """One move by the seat to act: (ms until the other seat has it, mover's seat)."""
        seat = mover(self.seats)
        if seat is None:
            self.done = True
            return None
        self.next_id += 1
        me, other = self.seats[seat], self.seats[1 - seat]
        try:
            arrived, _ = await timed_move(me, other, self.next_id, TIMEOUT_S)
        except MoveFailed as exc:
            raise RuntimeError(f"move refused: {exc.args[0]}") from exc
        self.moves += 1
        return arrived, seat


async def set_up(client: httpx.AsyncClient, kind: str, a: ServerProcess, b: ServerProcess) -> Room:
    room, (first, second) = await start_table(client)
    seats = [
        await open_seat(a.ws_url, room, first, wait=TIMEOUT_S),
        await open_seat((b if kind == "cross" else a).ws_url, room, second, wait=TIMEOUT_S),
    ]
    return Room(kind, seats)


# -- the run -----------------------------------------------------------------------


async def play(a: ServerProcess, b: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=a.url, timeout=TIMEOUT_S) as client:
        rooms = [
            await set_up(client, kind, a, b) for _ in range(ROOMS) for kind in ("same", "cross")
        ]
    say(f"{len(rooms)} rooms set up; playing {MOVES} moves in each, one at a time")
    times: dict[str, list[float]] = {
        "same": [],
        "cross": [],
        "cross_a_to_b": [],
        "cross_b_to_a": [],
    }
    try:
        for round_no in range(MOVES):
            pairs = [rooms[i : i + 2] for i in range(0, len(rooms), 2)]
            for pair in pairs:
                for room in pair if round_no % 2 == 0 else reversed(pair):
                    if room.done:
                        continue
                    done = await room.move()
                    if done is None or round_no == 0:
                        continue
                    ms, moved = done
                    times[room.kind].append(ms)
                    if room.kind == "cross":
                        times["cross_a_to_b" if moved == 0 else "cross_b_to_a"].append(ms)
    finally:
        await asyncio.gather(
            *(seat.close() for room in rooms for seat in room.seats), return_exceptions=True
        )
    same, cross = figures(times["same"]), figures(times["cross"])
    return {
        "rtt_same_ms": same,
        "rtt_cross_ms": cross,
        "rtt_cross_a_to_b_ms": figures(times["cross_a_to_b"]),
        "rtt_cross_b_to_a_ms": figures(times["cross_b_to_a"]),
        "added_p50_ms": round(cross["p50"] - same["p50"], 3) if same["n"] and cross["n"] else None,
        "added_p99_ms": round(cross["p99"] - same["p99"], 3) if same["n"] and cross["n"] else None,
        "games_ended": sum(room.done for room in rooms),
    }


async def reachable() -> str | None:
    """Why the run can't happen (no PostgreSQL, no Redis), or None."""
    try:
        await run_sql(DATABASE_URL, "SELECT 1")
    except Exception as exc:
        return f"PostgreSQL at DATABASE_URL is not reachable: {exc}"
    import redis.asyncio as redis

    client = redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except Exception as exc:
        return f"Redis at REDIS_URL is not reachable: {exc}"
    finally:
        await client.aclose()
    return None


async def main() -> None:
    header = {"bench": "server.crossproc_push", "unit": "ms", "k": 1}
    problem = await reachable()
    if problem is not None:
        print(json.dumps({**header, "skipped": problem}))
        return
    url, scratch = await scratch_database(DATABASE_URL)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-crossproc-") as tmp:
            env = {
                "DATABASE_URL": url,
                "REDIS_URL": REDIS_URL,
                "ROOMS_PER_MINUTE": "1000000",
                "SEAT_BUDGET_MESSAGES": "1000000",
                "BOT_WORKERS": "0",
            }
            a = ServerProcess(Path(tmp) / "a", env=env)
            b = ServerProcess(Path(tmp) / "b", env=env)
            a.start()  # A migrates the database; B starts on a migrated one
            b.start()
            say(f"A on {a.port}, B on {b.port}")
            try:
                figures_ = await play(a, b)
            finally:
                b.stop()
                a.stop()
    finally:
        if scratch is not None:
            await run_sql(DATABASE_URL, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    print(
        json.dumps(
            {
                **header,
                "database": "postgresql (scratch database)" if scratch else "postgresql (shared)",
                "rooms_per_kind": ROOMS,
                "moves_per_room": MOVES,
                **figures_,
                "target": {"added_p50_ms": 1.0},
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "load_avg": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
