"""The doorbell: "room R is at seq N", rung after every commit.

In one process a direct call suffices; with ``REDIS_URL`` every process hears
every bell through Redis pub/sub. The bell carries no game data: listeners read
the database (or their cache) and build each seat's own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]
CHANNEL = "spieltisch:doorbell"
EVERY_ROOM = "*"


class Doorbell:
    """In-process doorbell: ``publish`` calls every listener of this process."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, room_id: str, message: dict[str, Any]) -> None:
        await self._deliver(room_id, message)

    async def _deliver(self, room_id: str, message: dict[str, Any]) -> None:
        for listener in self._listeners:
            try:
                await listener(room_id, message)
            except Exception:
                log.exception("doorbell listener failed for room %s", room_id)


class RedisDoorbell(Doorbell):
    """Every process subscribes to one channel; a bell reaches them all, this one too."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis = redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        await self._redis.ping()
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._redis.aclose()

    async def publish(self, room_id: str, message: dict[str, Any]) -> None:
        await self._redis.publish(CHANNEL, json.dumps({"room": room_id, **message}))

    async def _run(self) -> None:
        while True:
            try:
                async with self._redis.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    if self._ready.is_set():
                        # bells may have rung while we were away: every room catches up
                        await self._deliver(EVERY_ROOM, {})
                    self._ready.set()
                    async for raw in pubsub.listen():
                        if raw.get("type") != "message":
                            continue
                        message = json.loads(raw["data"])
                        room_id = message.pop("room")
                        await self._deliver(room_id, message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("doorbell connection lost; reconnecting")
                await asyncio.sleep(1)


def make_doorbell(redis_url: str | None) -> Doorbell:
    return RedisDoorbell(redis_url) if redis_url else Doorbell()
