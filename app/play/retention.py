"""Retention: rooms nobody has touched for ``RETENTION_DAYS`` days are deleted.

A room's last activity is its newest event (a move, a chat line, a seat taken), or
its creation if it has none; finished games and abandoned lobbies alike go once they
have been quiet that long, with their seats, events and snapshots. ``0`` keeps
everything. A task in every app process looks at start and then every hour, and
sweeps if its process has the duty (``app.core.duty``): of several processes one does
the heavy query. Two sweeping at once (Redis down) would only find less to delete.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from app.core.clock import Clock, clock
from app.core.duty import Duty
from app.play import store
from app.play.store import Store

log = logging.getLogger(__name__)

SWEEP_EVERY_SECONDS = 3600.0
BATCH = 500


class Retention:
    def __init__(
        self,
        db: Store,
        days: int,
        every: float = SWEEP_EVERY_SECONDS,
        wall: Clock = clock,
        duty: Duty | None = None,
    ) -> None:
        self.db = db
        self.days = days
        self.every = every
        self.wall = wall
        self.duty = duty or Duty(None, "")
        self.swept = asyncio.Event()  # set after each sweep, for whoever waits on one
        self._task: asyncio.Task[None] | None = None

    async def sweep(self) -> int:
        """Delete every room quiet for longer than the retention; returns how many."""
        if self.days <= 0:
            return 0
        cutoff = self.wall.now() - timedelta(days=self.days)
        deleted = 0
        while True:
            async with self.db.transaction() as session:
                room_ids = await store.rooms_quiet_since(session, cutoff, BATCH)
                deleted += await store.delete_rooms(session, room_ids)
            if len(room_ids) < BATCH:
                break
        if deleted:
            log.info("retention: deleted %d rooms quiet for %d days", deleted, self.days)
        return deleted

    def start(self) -> None:
        if self.days > 0 and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                if self.duty.mine:
                    await self.sweep()
            except Exception:
                log.exception("retention sweep failed; trying again in %.0f s", self.every)
            self.swept.set()
            await asyncio.sleep(self.every)
