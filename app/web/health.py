"""What ``/healthz`` answers: each part the service needs, and whether it is well.

The database is the truth: without it nothing works, so the answer is 503. Redis
and the bot workers only make the service degraded: play goes on (bells heal
through the periodic catch-up, a broken bot pool is rebuilt), so the answer
stays 200 with ``"status": "degraded"`` and names what is degraded, for a
monitor to alert on without a load balancer taking the process out.

Anyone may ask, so a part that is down is named with its error's class and a
plain sentence only: where the database or Redis lives (host, port, user) stays
in the server's log.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.web.deps import Backend

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 5.0


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
    if checks["database"]["status"] != "ok":
        return 503, {"status": "down", "down": ["database"], "checks": checks}
    degraded = sorted(name for name, part in checks.items() if part["status"] != "ok")
    if degraded:
        return 200, {"status": "degraded", "degraded": degraded, "checks": checks}
    return 200, {"status": "ok", "checks": checks}
