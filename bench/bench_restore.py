"""Restore time of a long room that is in no cache: the log folded from the database.

The rooms: a four-player *Mensch ärgere Dich nicht: Das Kartenspiel* table of
four people, each playing a random legal move when it is their turn (random play
makes long games, ~250-580 moves), talking in the chat between moves. Each room
is built through the app's own use cases: once the game has started, the script
plays the deal through on its own (the engine is pure) to learn how long the game
will be, and takes only deals of at least MIN_MOVES moves (other tables are left
as they are). The game is then played in the room up to EVENTS events in the
log, its last move still to come, with chat lines spread evenly between the moves
to fill the log up: a long evening's table, still playing. Where the server
wrote snapshots is its own business; the JSON says how many events a cold load
folds after the newest one (counted from SNAPSHOT_EVERY moves).

Measured, in process (``Services`` on the same database, as a server holds it):
``rooms.load(room)`` right after ``rooms.cache.clear()``, REPEATS times per room,
the rooms taken in turn; wall and CPU time of each load. A warm load (the room in
the cache) is given beside it. Then, for context, the public path: a fresh
``python -m app`` process on the same database, and the time from a seat's
websocket ``hello`` (since null, as a new page sends) to its first ``state`` —
the first room of each start is a cold process, the others cold rooms in a warm
process; the server is started PUBLIC_STARTS times.

Runs on SQLite (a temporary file), then on PostgreSQL when TEST_DATABASE_URL or
DATABASE_URL is set (a scratch database made beside it and dropped afterwards).

Settings (environment): ROOMS (3), EVENTS (1000), MIN_MOVES (350), REPEATS (50),
PUBLIC_STARTS (2), SEED (1). One JSON line on stdout, progress on stderr; timings
are reported, never judged.

    .venv/bin/python bench/bench_restore.py
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.config import Settings, async_url
from app.core.migrate import upgrade
from app.play.rooms import RoomRules, Rooms
from app.play.state import RoomState
from app.services import Services
from bench.common import figures, say
from tests.pg import run_sql
from tests.server import ServerProcess

ROOMS = int(os.environ.get("ROOMS", "3"))
EVENTS = int(os.environ.get("EVENTS", "1000"))
MIN_MOVES = int(os.environ.get("MIN_MOVES", "350"))
REPEATS = int(os.environ.get("REPEATS", "50"))
PUBLIC_STARTS = int(os.environ.get("PUBLIC_STARTS", "2"))
SEED = int(os.environ.get("SEED", "1"))
PLAYERS = 4
NAMES = ["Anna", "Ben", "Cara", "Dora"]
LINES = [
    "hi all",
    "your turn",
    "oh no, not again",
    "nice one!",
    "I need a six",
    "who has the red figure?",
    "brb, tea",
    "that was mean :)",
    "gg so far",
    "hurry up please",
]
TIMEOUT_S = 30.0


def settings_for(url: str, data_dir: Path) -> Settings:
    return Settings(
        database_url=url,
        redis_url=None,
        data_dir=data_dir,
        auto_migrate=False,
        bot_workers=0,
        seat_budget_messages=1_000_000,
    )


# -- building the rooms --------------------------------------------------------------


async def seat_table(rooms: Rooms) -> tuple[RoomState, list[str]]:
    """A new room with four people seated and the game started; their tokens."""
    state, first = await rooms.create(
        game="maedn",
        players=PLAYERS,
        options=None,
        name=NAMES[0],
        seat=0,
        bots={},
        rules=RoomRules(),
    )
    tokens = [first]
    for seat in range(1, PLAYERS):
        state, token = await rooms.claim(state.room.id, seat, NAMES[seat], None)
        tokens.append(token)
    return await rooms.start(state.room.id, tokens[0], False), tokens


def plan(state: RoomState, rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """The whole game from here, each seat choosing at random: (seat, move) in order."""
    engine, game = state.engine, state.game
    moves = []
    while acting := engine.to_act(game):
        move = rng.choice(engine.legal_moves(game, acting[0]))
        game = engine.play(game, acting[0], move)
        moves.append((acting[0], move))
    return moves


async def build_room(rooms: Rooms, rng: random.Random) -> dict[str, Any]:
    """One table played to EVENTS events, its game still running; what it holds."""
    short = 0
    while True:
        state, tokens = await seat_table(rooms)
        moves = plan(state, rng)
        if len(moves) >= MIN_MOVES:
            break
        short += 1
        if short > 100:
            raise RuntimeError(f"no deal of {MIN_MOVES} moves in 100 tries: lower MIN_MOVES")
    room_id = state.room.id
    playing = min(len(moves) - 1, EVENTS - state.seq)
    lines = EVENTS - state.seq - playing
    move_seqs = []
    for index, (seat, move) in enumerate(moves[:playing]):
        state = await rooms.move(room_id, tokens[seat], state.seq, move)
        move_seqs.append(state.seq)
        # chat line k of `lines` follows move floor(k * playing / lines): evenly spread
        for _ in range((index + 1) * lines // playing - index * lines // playing):
            state = await rooms.chat(room_id, rng.choice(tokens), rng.choice(LINES), 500)
    every = rooms.snapshot_every
    snap_seq = move_seqs[every * (playing // every) - 1] if playing >= every else 0
    return {
        "room": room_id,
        "token": tokens[0],
        "events": state.seq,
        "moves": playing,
        "moves_in_game": len(moves),
        "chats": lines,
        "playing": state.status == "playing",
        "events_after_snapshot": state.seq - snap_seq,
        "short_deals_left": short,
    }


async def build(url: str, data_dir: Path) -> list[dict[str, Any]]:
    """The rooms, built side by side (the deals are the server's own, random)."""
    svc = Services.build(settings_for(url, data_dir))
    await svc.start()

    async def one(index: int) -> dict[str, Any]:
        started = time.perf_counter()
        room = await build_room(svc.rooms, random.Random(SEED * 1000 + index))
        say(
            f"  room {index + 1}/{ROOMS}: {room['moves']} moves, "
            f"{room['chats']} chat lines, {time.perf_counter() - started:.1f} s"
        )
        return room

    try:
        return list(await asyncio.gather(*(one(index) for index in range(ROOMS))))
    finally:
        await svc.stop()


# -- measuring -------------------------------------------------------------------------


async def measure_in_process(
    url: str, data_dir: Path, built: list[dict[str, Any]]
) -> dict[str, Any]:
    svc = Services.build(settings_for(url, data_dir))
    await svc.start()
    cold: list[float] = []
    cold_cpu: list[float] = []
    warm: list[float] = []
    try:
        for _ in range(REPEATS):
            for room in built:
                svc.rooms.cache.clear()
                wall0, cpu0 = time.perf_counter(), time.process_time()
                state = await svc.rooms.load(room["room"])
                cold.append((time.perf_counter() - wall0) * 1000)
                cold_cpu.append((time.process_time() - cpu0) * 1000)
                if state.seq != room["events"]:
                    raise RuntimeError(f"room loaded at seq {state.seq}, not {room['events']}")
                wall0 = time.perf_counter()
                await svc.rooms.load(room["room"])
                warm.append((time.perf_counter() - wall0) * 1000)
    finally:
        await svc.stop()
    return {
        "cold_load_ms": figures(cold),
        "cold_load_cpu_ms": figures(cold_cpu),
        "warm_load_ms": figures(warm),
    }


async def first_state_ms(ws_url: str, room: dict[str, Any]) -> float:
    async with connect(f"{ws_url}/api/rooms/{room['room']}/ws", max_size=2**24) as ws:
        started = time.perf_counter()
        await ws.send(json.dumps({"type": "hello", "token": room["token"], "since": None}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
            if message.get("type") == "state":
                elapsed = (time.perf_counter() - started) * 1000
                if message["seq"] != room["events"]:
                    raise RuntimeError(f"state at seq {message['seq']}, not {room['events']}")
                return elapsed


async def measure_public(
    url: str | None, data_dir: Path, built: list[dict[str, Any]]
) -> dict[str, Any]:
    # DATABASE_URL="" means the SQLite file in DATA_DIR, whatever the caller's environment says
    env = {"DATABASE_URL": url or "", "BOT_WORKERS": "0", "AUTO_MIGRATE": "false"}
    cold_process: list[float] = []
    cold_room: list[float] = []
    for start in range(PUBLIC_STARTS):
        server = ServerProcess(data_dir, env=env)
        server.start()
        try:
            order = built[start % len(built) :] + built[: start % len(built)]
            for index, room in enumerate(order):
                ms = await first_state_ms(server.ws_url, room)
                (cold_process if index == 0 else cold_room).append(ms)
        finally:
            server.stop()
    return {
        "hello_first_state_cold_process_ms": [round(ms, 3) for ms in cold_process],
        "hello_first_state_cold_room_ms": figures(cold_room),
    }


async def run(label: str, url: str | None, data_dir: Path) -> dict[str, Any]:
    """Build, measure in process, measure over the public path; ``url`` None: SQLite."""
    database = url or f"sqlite+aiosqlite:///{(data_dir / 'spieltisch.db').as_posix()}"
    await asyncio.to_thread(data_dir.mkdir, parents=True, exist_ok=True)
    await asyncio.to_thread(upgrade, database)
    say(f"{label}: building {ROOMS} rooms of {EVENTS} events")
    built = await build(database, data_dir)
    say(f"{label}: {REPEATS} cold loads per room")
    result: dict[str, Any] = {"database": label}
    result |= await measure_in_process(database, data_dir, built)
    say(f"{label}: public path, {PUBLIC_STARTS} server starts")
    result |= await measure_public(url, data_dir, built)
    result["rooms"] = [
        {k: v for k, v in room.items() if k not in ("room", "token")} for room in built
    ]
    return result


# -- PostgreSQL scratch database ---------------------------------------------------------


async def on_postgresql(base: str, data_dir: Path) -> dict[str, Any]:
    name = f"spieltisch_bench_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        await run_sql(base, f'CREATE DATABASE "{name}"')
    except Exception as exc:
        return {"database": "postgresql", "skipped": f"no scratch database: {exc}"}
    head, _, _ = async_url(base).rpartition("/")
    try:
        return await run("postgresql", f"{head}/{name}", data_dir)
    finally:
        await run_sql(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def main() -> None:
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-restore-") as tmp:
        results.append(await run("sqlite", None, Path(tmp) / "sqlite"))
        pg = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
        if pg and "postgres" in pg:
            results.append(await on_postgresql(pg, Path(tmp) / "postgresql"))
    print(
        json.dumps(
            {
                "bench": "server.restore_cold",
                "unit": "ms",
                "game": "maedn",
                "players": PLAYERS,
                "events": EVENTS,
                "min_moves": MIN_MOVES,
                "repeats": REPEATS,
                "snapshot_every": Settings().snapshot_every,
                "results": results,
                "target": {"cold_load_p99_ms": 20},
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "load_avg": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
