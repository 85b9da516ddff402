"""How many moves a second the database itself takes: appends through the store.

Every move is one transaction that inserts its event rows (``store.append_events``);
this measures that alone, without engines, sockets or views, so it says where the
database's own limit lies next to the app processes' (docs/scaling.md). ``TASKS``
appends run at once, each in its own room, for ``DURATION_S`` seconds per database; on
PostgreSQL the pool's connections take them side by side, on SQLite they take turns
(one writer). Prints one JSON line.

    .venv/bin/python bench/bench_commits.py
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_commits.py
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker
from app.core.migrate import upgrade
from app.play import store
from app.play.store import RoomRecord, Store

TASKS = int(os.environ.get("TASKS", "16"))
DURATION_S = float(os.environ.get("DURATION_S", "5"))


async def _room(db: Store) -> str:
    room = RoomRecord(
        id="bench-" + secrets.token_hex(8),
        game="blokus",
        players=2,
        options={"variant": "duo"},
        rules={},
        creator_seat=0,
        status="playing",
        created_at=None,
    )
    async with db.transaction() as session:
        await store.create_room(session, room)
    return room.id


async def measure(url: str) -> dict[str, Any]:
    settings = Settings(database_url=url, data_dir=Path(tempfile.mkdtemp()))
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(settings)
    db = Store(make_sessionmaker(engine), one_at_a_time=engine.dialect.name == "sqlite")
    rooms = [await _room(db) for _ in range(TASKS)]
    move = {"piece": "F", "cells": [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]]}
    public = {"seat": 0, "log": {"piece": "F"}}
    done = 0
    latencies: list[float] = []
    stop = time.perf_counter() + DURATION_S

    async def run(room: str) -> None:
        nonlocal done
        seq = 0
        while time.perf_counter() < stop:
            seq += 1
            started = time.perf_counter()
            async with db.transaction() as session:
                await store.append_events(
                    session, room, seq, [("move", {"seat": 0, "move": move}, public)]
                )
            latencies.append((time.perf_counter() - started) * 1000)
            done += 1

    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(run(room) for room in rooms))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    async with db.transaction() as session:
        await store.delete_rooms(session, rooms)
    await engine.dispose()
    latencies.sort()
    return {
        "database": engine.dialect.name,
        "tasks": TASKS,
        "commits": done,
        "commits_per_s": round(done / wall, 1),
        "commit_ms": {
            "p50": round(latencies[len(latencies) // 2], 3),
            "p99": round(latencies[int(len(latencies) * 0.99)], 3),
        },
        "app_cpu_ms_per_commit": round(cpu * 1000 / max(1, done), 3),
    }


async def main() -> None:
    urls = [f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/commits.db"]
    if os.environ.get("DATABASE_URL"):
        urls.append(os.environ["DATABASE_URL"])
    results = [await measure(url) for url in urls]
    print(
        json.dumps(
            {
                "bench": "server.commits",
                "unit": "commits/s",
                "seconds": DURATION_S,
                "results": results,
                "load_avg": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
