"""Server memory per idle connected two-seat room: the RSS delta over many rooms.

For each game (Blokus Duo, then M for two players) a fresh ``python -m app``
process is started (SQLite in a temporary DATA_DIR, or DATABASE_URL when set). A
few warm-up rooms are set up first, so tables and caches built on first use are in
before the baseline is read. Then N rooms are set up the way two people would:
create over REST, claim seat 1, start, and both seats connect by websocket (hello
with their token) and wait for their first state. After SETTLE_S seconds of quiet
the process's resident set is read again; delta / N is reported in KB.

Settings (environment): ROOMS (1000 Blokus Duo rooms), M_ROOMS (200 rooms of M;
0 leaves M out), WARMUP_ROOMS (20), SETTLE_S (5), PARALLEL (16 rooms set up at a
time). One JSON line on stdout, progress on stderr; timings are reported, never
judged.

    .venv/bin/python bench/bench_memory.py
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import say
from tests.server import ServerProcess

WARMUP_ROOMS = int(os.environ.get("WARMUP_ROOMS", "20"))
# rooms per game; M is measured on fewer rooms by default to stay within two minutes
COUNTS = {
    "blokus": int(os.environ.get("ROOMS", "1000")),
    "m": int(os.environ.get("M_ROOMS", "200")),
}
SETTLE_S = float(os.environ.get("SETTLE_S", "5"))
PARALLEL = int(os.environ.get("PARALLEL", "16"))
TIMEOUT_S = 30.0

# what a room of each game is created with
TABLES: dict[str, dict[str, Any]] = {
    "blokus": {"game": "blokus", "players": 2, "options": {"variant": "duo"}},
    "m": {"game": "m", "players": 2, "options": {}},
}


def raise_fd_limit() -> int:
    """Two sockets per room on each side: lift the soft limit to the hard one.

    The server is started by this process and inherits the raised limit.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


async def steady_rss_kb(pid: int, samples: int = 5) -> int:
    """The median of a few readings a fifth of a second apart."""
    readings = []
    for _ in range(samples):
        readings.append(rss_kb(pid))
        await asyncio.sleep(0.2)
    return int(statistics.median(readings))


class Seat:
    """One seat's socket; a reader drains it (pings get answered) and notes the first state."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.first_state = asyncio.get_running_loop().create_future()
        self.messages = 0
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            self.messages += 1
            message = json.loads(raw)
            if message.get("type") == "state" and not self.first_state.done():
                self.first_state.set_result(message["seq"])

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def set_up_room(client: httpx.AsyncClient, ws_url: str, table: dict[str, Any]) -> list[Seat]:
    created = (await client.post("/api/rooms", json={**table, "name": "Anna"})).raise_for_status()
    room, first = created.json()["room"], created.json()["token"]
    claimed = await client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"})
    second = claimed.raise_for_status().json()["token"]
    started = await client.post(
        f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {first}"}
    )
    started.raise_for_status()
    seats = []
    for token in (first, second):
        ws = await connect(f"{ws_url}/api/rooms/{room}/ws", max_size=2**24)
        await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        seats.append(Seat(ws))
    for seat in seats:
        await asyncio.wait_for(seat.first_state, TIMEOUT_S)
    return seats


async def set_up_rooms(
    client: httpx.AsyncClient, ws_url: str, table: dict[str, Any], count: int
) -> list[Seat]:
    seats: list[Seat] = []
    gate = asyncio.Semaphore(PARALLEL)

    async def one() -> None:
        async with gate:
            seats.extend(await set_up_room(client, ws_url, table))

    await asyncio.gather(*(one() for _ in range(count)))
    return seats


async def measure(game: str, rooms: int, tmp: Path) -> dict[str, Any]:
    table = TABLES[game]
    server = ServerProcess(
        tmp / game,
        env={
            "ROOMS_PER_MINUTE": "1000000",
            "SEAT_BUDGET_MESSAGES": "1000000",
            "BOT_WORKERS": "0",
        },
    )
    server.start()
    assert server.proc is not None
    pid = server.proc.pid
    seats: list[Seat] = []
    try:
        limits = httpx.Limits(max_connections=PARALLEL, max_keepalive_connections=PARALLEL)
        async with httpx.AsyncClient(
            base_url=server.url, timeout=TIMEOUT_S, limits=limits
        ) as client:
            seats += await set_up_rooms(client, server.ws_url, table, WARMUP_ROOMS)
            await asyncio.sleep(SETTLE_S)
            before = await steady_rss_kb(pid)
            say(f"{game}: {WARMUP_ROOMS} warm-up rooms, RSS {before} KB; setting up {rooms}")
            started = time.perf_counter()
            seats += await set_up_rooms(client, server.ws_url, table, rooms)
            setup_s = time.perf_counter() - started
            await asyncio.sleep(SETTLE_S)
            after = await steady_rss_kb(pid)
        open_sockets = sum(1 for seat in seats if seat.ws.close_code is None)
        say(
            f"{game}: {rooms} rooms in {setup_s:.1f} s, RSS {after} KB, {open_sockets} sockets open"
        )
        return {
            "game": game,
            "players": table["players"],
            "options": table["options"],
            "rooms": rooms,
            "rss_before_kb": before,
            "rss_after_kb": after,
            "kb_per_room": round((after - before) / rooms, 1),
            "sockets_open": open_sockets,
            "setup_s": round(setup_s, 1),
        }
    finally:
        await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
        server.stop()


async def main() -> None:
    fds = raise_fd_limit()
    needed = 2 * (max(COUNTS.values()) + WARMUP_ROOMS) + 200
    if fds < needed:
        raise SystemExit(f"need about {needed} open files, the limit is {fds}")
    database = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        for game, rooms in COUNTS.items():
            if rooms > 0:
                results.append(await measure(game, rooms, Path(tmp)))
    print(
        json.dumps(
            {
                "bench": "server.memory_per_idle_room",
                "unit": "KB",
                "database": database,
                "warmup_rooms": WARMUP_ROOMS,
                "settle_s": SETTLE_S,
                "results": results,
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "load_avg": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
