"""A live table beside many bot games: do bots starve people?

One server process (bot workers as configured, ``BOT_WORKERS=1`` by default, and the
production think time ``BOT_THINK_SECONDS=1.0`` and bot pause ``BOT_DELAY_MS=400``)
on a scratch PostgreSQL database. A two-person Blokus Duo table is played over
websockets one move at a time (a new table when a game ends), a short pause between
moves as people take; a move's round trip runs from the mover's send until the *other*
seat holds the state with the new seq (``bench/table.py``).

First on an idle server, then with ``BOT_GAMES`` (100) bot-only games running beside it:
four-player Blokus rooms whose three free seats are hard bots and whose creator leaves
at once, so the hard bot stands in for the fourth (every seat a hard bot). Prints one
JSON line per phase and one with the ratio busy/idle of the p50 and p99 (target ≤ 2).

Settings (environment): DATABASE_URL (postgresql+asyncpg://postgres@127.0.0.1:5432/test;
a scratch database is made beside it and dropped), BOT_GAMES (100), MOVES (150 timed
moves per phase), PAUSE_S (0.2 between moves), WARMUP_S (5: bots play before timing),
BOT_WORKERS, BOT_THINK_SECONDS, BOT_DELAY_MS.

    nice -n 10 .venv/bin/python bench/bench_bot_load.py
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_crossproc import scratch_database  # noqa: E402
from bench.common import figures, say  # noqa: E402
from bench.table import MoveFailed, Seat, mover, open_seat, start_table, timed_move  # noqa: E402
from tests.pg import run_sql  # noqa: E402
from tests.server import ServerProcess  # noqa: E402

DATABASE_URL = os.environ.get("DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
BOT_GAMES = int(os.environ.get("BOT_GAMES", "100"))
MOVES = int(os.environ.get("MOVES", "150"))
PAUSE_S = float(os.environ.get("PAUSE_S", "0.2"))
WARMUP_S = float(os.environ.get("WARMUP_S", "5"))
BOT_WORKERS = os.environ.get("BOT_WORKERS", "1")
BOT_THINK_SECONDS = os.environ.get("BOT_THINK_SECONDS", "1.0")
BOT_DELAY_MS = os.environ.get("BOT_DELAY_MS", "400")
WAIT_S = 30.0


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def live_table(http: httpx.AsyncClient, ws_url: str, n: int) -> list[Seat]:
    room, tokens = await start_table(http, n)
    return [await open_seat(ws_url, room, token, "compact", WAIT_S) for token in tokens]


async def play_live(http: httpx.AsyncClient, ws_url: str, moves: int) -> dict[str, Any]:
    """``moves`` timed moves of two people, one at a time, new tables as games end."""
    rtts: list[float] = []
    failures: list[str] = []
    tables = 0
    seats: list[Seat] | None = None
    ref = 0
    while len(rtts) < moves:
        if seats is None:
            seats = await live_table(http, ws_url, tables)
            tables += 1
        to_move = mover(seats)
        if to_move is None:
            for seat in seats:
                await seat.close()
            seats = None
            continue
        ref += 1
        try:
            rtt, _ = await timed_move(seats[to_move], seats[1 - to_move], ref, WAIT_S)
        except MoveFailed as exc:
            failures.append(str(exc.args[0]))
            for seat in seats:
                await seat.close()
            seats = None
            continue
        rtts.append(rtt)
        await asyncio.sleep(PAUSE_S)
    if seats is not None:
        for seat in seats:
            await seat.close()
    return {"rtt_ms": figures(rtts), "tables": tables, "failures": len(failures)}


async def bot_game(http: httpx.AsyncClient, n: int) -> str:
    """A four-player Blokus room of hard bots only: three bot seats, the creator leaves."""
    made = await http.post(
        "/api/rooms",
        json={
            "game": "blokus",
            "players": 4,
            "name": f"gone{n}",
            "bots": {"1": "hard", "2": "hard", "3": "hard"},
            "stand_in": "hard",
        },
    )
    room, token = made.raise_for_status().json()["room"], made.json()["token"]
    (await http.post(f"/api/rooms/{room}/start", json={}, headers=_auth(token))).raise_for_status()
    left = await http.post(f"/api/rooms/{room}/leave", json={"bot": "hard"}, headers=_auth(token))
    left.raise_for_status()
    return str(room)


async def seqs(http: httpx.AsyncClient, rooms: list[str]) -> tuple[int, int]:
    """The rooms' events so far, summed, and how many still play."""
    total, playing = 0, 0
    for room in rooms:
        info = (await http.get(f"/api/rooms/{room}")).raise_for_status().json()
        total += int(info["seq"])
        playing += info["status"] == "playing"
    return total, playing


async def measure(server: ServerProcess) -> list[dict[str, Any]]:
    header = {"bench": "server.bot_load", "unit": "ms", "k": 1, "pause_s": PAUSE_S}
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        say(f"idle: {MOVES} live moves")
        idle = await play_live(http, server.ws_url, MOVES)
        say(f"idle: {idle['rtt_ms']}; starting {BOT_GAMES} bot games")
        rooms: list[str] = []
        for start in range(0, BOT_GAMES, 10):
            batch = range(start, min(BOT_GAMES, start + 10))
            rooms += await asyncio.gather(*(bot_game(http, n) for n in batch))
        await asyncio.sleep(WARMUP_S)
        before, _ = await seqs(http, rooms)
        began = time.perf_counter()
        busy = await play_live(http, server.ws_url, MOVES)
        wall = time.perf_counter() - began
        after, playing = await seqs(http, rooms)
        say(f"busy: {busy['rtt_ms']}; {playing} bot games still playing")
    settings = {
        "bot_workers": int(BOT_WORKERS),
        "bot_think_seconds": float(BOT_THINK_SECONDS),
        "bot_delay_ms": int(BOT_DELAY_MS),
    }
    common = {"python": platform.python_version(), "cores": os.cpu_count()}
    p50 = busy["rtt_ms"]["p50"] / idle["rtt_ms"]["p50"]
    p99 = busy["rtt_ms"]["p99"] / idle["rtt_ms"]["p99"]
    return [
        {**header, "phase": "idle", **idle, **settings, **common},
        {
            **header,
            "phase": "beside_bot_games",
            "bot_games": BOT_GAMES,
            "bot_games_playing_at_end": playing,
            # events in the bot rooms while the live table was timed: nearly all bot moves
            "bot_events_per_s": round((after - before) / wall, 1),
            **busy,
            **settings,
            **common,
        },
        {
            "bench": "server.bot_load_ratio",
            "p50_ratio": round(p50, 2),
            "p99_ratio": round(p99, 2),
            "target": {"ratio_max": 2.0},
            "met": p50 <= 2.0 and p99 <= 2.0,
            "load_avg": [round(x, 2) for x in os.getloadavg()],
            **common,
        },
    ]


async def main() -> None:
    url, scratch = await scratch_database(DATABASE_URL)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-bot-load-") as tmp:
            server = ServerProcess(
                Path(tmp),
                env={
                    "DATABASE_URL": url,
                    "BOT_WORKERS": BOT_WORKERS,
                    "BOT_THINK_SECONDS": BOT_THINK_SECONDS,
                    "BOT_DELAY_MS": BOT_DELAY_MS,
                },
            )
            server.start(timeout=60)
            try:
                lines = await measure(server)
            finally:
                server.stop()
    finally:
        if scratch is not None:
            await run_sql(DATABASE_URL, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    for line in lines:
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
