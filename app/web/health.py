"""What ``/healthz`` answers: each part the service needs, and whether it is well.

The database is the truth: without it nothing works, so the answer is 503. Redis
and the bot workers only make the service degraded: play goes on (bells heal
through the periodic catch-up, a broken bot pool is rebuilt), so the answer
stays 200 with ``"status": "degraded"`` and names what is degraded, for a
monitor to alert on without a load balancer taking the process out.

With several workers (``python -m app --workers N``) any of them may answer, so the
answer covers them all in a ``workers`` part: each worker touches a heartbeat file in
the directory the parent made for this run (the one the metrics count in), and the
part says how many beat lately against how many the parent runs; fewer is degraded.
With one process there is no such part.

Anyone may ask, so a part that is down is named with its error's class and a
plain sentence only: where the database or Redis lives (host, port, user) stays
in the server's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.web.deps import Backend
from app.web.metrics import multiprocess_dir

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 5.0
BEAT_SECONDS = 2.0  # how often a worker touches its heartbeat file
# a heartbeat older than this is a worker that does not answer (its loop is stuck)
STALE_SECONDS = 15.0
BEAT_SUFFIX = ".beat"  # not ".db": the metrics collector reads only those
EXPECTED_FILE = "workers"  # the parent writes how many workers it runs


def beat_file(directory: str | Path, pid: int) -> Path:
    return Path(directory) / f"worker_{pid}{BEAT_SUFFIX}"


def beat(directory: str | Path) -> None:
    """Say this worker is alive: its heartbeat file, made or touched."""
    beat_file(directory, os.getpid()).touch(mode=0o600)


async def heartbeat(directory: str | Path) -> None:
    """A worker's heartbeat for as long as its event loop turns; gone when it stops."""
    try:
        while True:
            await asyncio.to_thread(beat, directory)
            await asyncio.sleep(BEAT_SECONDS)
    finally:
        with contextlib.suppress(OSError):
            beat_file(directory, os.getpid()).unlink(missing_ok=True)


def forget(directory: str | Path, pid: int) -> None:
    """A worker is gone (the parent says so): its heartbeat goes at once."""
    beat_file(directory, pid).unlink(missing_ok=True)


def expect(directory: str | Path, workers: int) -> None:
    """The parent: how many workers it runs now (written whole, never half)."""
    target = Path(directory) / EXPECTED_FILE
    scratch = target.with_suffix(".new")
    scratch.write_text(f"{workers}\n")
    os.replace(scratch, target)


def beating_pids(directory: str | Path, now: float | None = None) -> list[int]:
    """The workers whose heartbeat is fresh."""
    now = time.time() if now is None else now
    pids = []
    for path in Path(directory).glob(f"worker_*{BEAT_SUFFIX}"):
        try:
            fresh = now - path.stat().st_mtime <= STALE_SECONDS
            pid = int(path.name.removeprefix("worker_").removesuffix(BEAT_SUFFIX))
        except (OSError, ValueError):
            continue  # gone meanwhile, or not one of ours
        if fresh:
            pids.append(pid)
    return sorted(pids)


def workers(directory: str | Path, configured: int) -> dict[str, Any]:
    """How many workers beat against how many should: degraded when fewer do."""
    # until the parent has written it, the settings say
    with contextlib.suppress(OSError, ValueError):
        configured = int((Path(directory) / EXPECTED_FILE).read_text())
    alive = len(beating_pids(directory))
    part: dict[str, Any] = {
        "status": "ok" if alive >= configured else "degraded",
        "alive": alive,
        "configured": configured,
    }
    if alive < configured:
        part["message"] = f"{alive} of {configured} workers answer"
    return part


async def database(engine: AsyncEngine) -> dict[str, Any]:
    async def ping() -> None:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    try:
        await asyncio.wait_for(ping(), DATABASE_TIMEOUT)
    except Exception as exc:
        log.warning("health: the database does not answer: %s: %s", type(exc).__name__, exc)
        return {"status": "down", "message": f"{type(exc).__name__}: the database does not answer"}
    return {"status": "ok"}


async def redis(services: Backend) -> dict[str, Any] | None:
    """``None`` when no Redis is configured (one process, in-process doorbell)."""
    if services.redis is None:
        return None
    if not services.redis.up:
        await services.redis.check()
    return services.doorbell.health()


async def check(services: Backend) -> tuple[int, dict[str, Any]]:
    """The HTTP status and the body: ``ok``, ``degraded`` (200) or ``down`` (503)."""
    checks: dict[str, Any] = {"database": await database(services.engine)}
    redis_check = await redis(services)
    if redis_check is not None:
        checks["redis"] = redis_check
    services.bots.pool.check()
    checks["bots"] = services.bots.health()
    shared = multiprocess_dir()
    if shared is not None:
        checks["workers"] = await asyncio.to_thread(workers, shared, services.settings.workers)
    if checks["database"]["status"] != "ok":
        return 503, {"status": "down", "down": ["database"], "checks": checks}
    degraded = sorted(name for name, part in checks.items() if part["status"] != "ok")
    if degraded:
        return 200, {"status": "degraded", "degraded": degraded, "checks": checks}
    return 200, {"status": "ok", "checks": checks}
