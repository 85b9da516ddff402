"""Benchmark replay steps; prints one JSON line per measure.

A 4-player MÄDN game of 400+ moves (both bots random, seeded) is imported as a
room on a fresh SQLite file (or on ``--database-url``), with the server's default
snapshot interval. Then every step of it is asked for through ``Replays.step``
(what ``GET /api/rooms/{room}/games/{n}/steps/{k}`` runs), each from a cold
cache: a new ``Replays`` per step, so the game index, the start, the nearest
snapshot and the later moves all come from the database. The CPU time of each cold step is
reported beside its wall time. A second pass steps
forward through a warm cache, as a person pressing "next" does.

Usage: ``python bench/bench_replay.py [--database-url URL] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.config import Settings
from app.core.migrate import upgrade
from app.history.records import import_record
from app.history.replay import Replays
from app.services import Services
from engines import get_engine


def long_game(minimum: int = 400) -> dict[str, Any]:
    engine = get_engine("maedn")
    bot = engine.random_bot()
    for seed in range(1000, 2000):
        state = engine.new_game(4, seed)
        moves = []
        while acting := engine.to_act(state):
            move = bot.choose(state, acting[0], seed + len(moves))
            state = engine.play(state, acting[0], move)
            moves.append({"seat": acting[0], "move": move})
        if len(moves) >= minimum:
            return {
                "format": "spieltisch-record",
                "engine": "maedn",
                "players": 4,
                "options": {},
                "names": ["Anna", "Ben", "Cara", "Dora"],
                "moves": moves,
                "seed": seed,
                "result": engine.result(state),
            }
    raise RuntimeError("no game long enough")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def figures(name: str, times: list[float], extra: dict[str, Any]) -> dict[str, Any]:
    ms = [t * 1000 for t in times]
    return {
        "bench": name,
        "unit": "ms",
        "steps": len(ms),
        "p50": round(percentile(ms, 0.5), 2),
        "p99": round(percentile(ms, 0.99), 2),
        "max": round(max(ms), 2),
        "mean": round(statistics.fmean(ms), 2),
        **extra,
    }


async def run(url: str, rounds: int) -> list[dict[str, Any]]:
    settings = Settings(database_url=url, auto_migrate=False, bot_workers=0)
    services = Services.build(settings)
    await services.start()
    try:
        record = long_game()
        state, _ = await import_record(services.rooms, record)
        room = state.room.id
        steps = len(record["moves"])
        extra = {
            "moves": steps,
            "snapshot_every": settings.snapshot_every,
            "database": url.split(":", 1)[0],
            "python": platform.python_version(),
        }
        cold: list[float] = []
        cold_cpu: list[float] = []
        for _ in range(rounds):
            for step in range(steps + 1):
                replays = Replays(services.rooms)
                began, cpu = time.perf_counter(), time.process_time()
                await replays.step(room, 1, step, None, step % 4)
                cold.append(time.perf_counter() - began)
                cold_cpu.append(time.process_time() - cpu)
        warm: list[float] = []
        replays = Replays(services.rooms)
        for step in range(steps + 1):
            began = time.perf_counter()
            await replays.step(room, 1, step, None, 0)
            warm.append(time.perf_counter() - began)
        return [
            figures("replay_step_cold_cache", cold, extra),
            # CPU seconds of this process (all its threads): what the step costs,
            # without the waits for a core on a loaded machine
            figures("replay_step_cold_cache_cpu", cold_cpu, extra),
            figures("replay_step_forward_warm_cache", warm, extra),
        ]
    finally:
        await services.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bench.db"
        upgrade(url)
        for line in asyncio.run(run(url, args.rounds)):
            print(json.dumps(line))


if __name__ == "__main__":
    main()
