"""The periodic catch-up: sockets get every event even when a doorbell was lost.

The doorbell is only a hint. If Redis was down, or a bell got lost between two
processes, a socket on this process would wait for the next bell. So every
``HEAL_SECONDS`` each process compares the rooms it holds sockets for with the
log, and pushes to every room whose sockets are behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app.live.hub import Hub
from app.play import store
from app.play.rooms import Rooms

log = logging.getLogger(__name__)

# rooms whose heads one query reads
CHUNK = 500


class CatchUp:
    def __init__(self, hub: Hub, rooms: Rooms, every_seconds: float) -> None:
        self.hub = hub
        self.rooms = rooms
        self.every = every_seconds
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.once()
            except Exception:
                log.exception("catch-up round failed")

    async def once(self) -> list[str]:
        """Push to every held room whose sockets are behind the log; returns those rooms.

        The log's heads are read for many rooms in one query: a process holding a
        thousand rooms asks the database a few times, not a thousand."""
        behind = []
        held = list(self.hub.held_rooms().items())
        for start in range(0, len(held), CHUNK):
            chunk = dict(held[start : start + CHUNK])
            async with self.rooms.db.reading() as session:
                heads = await store.heads(session, list(chunk))
            for room_id, seq in chunk.items():
                if heads.get(room_id, 0) > seq:
                    behind.append(room_id)
                    await self.hub.on_bell(room_id, {})
        if behind:
            log.info("caught up %d room(s) a doorbell missed", len(behind))
        return behind
