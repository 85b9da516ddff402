"""The doorbell: "room R is at seq N", rung after every commit.

In one process a direct call suffices; with ``REDIS_URL`` every process hears
every bell through Redis pub/sub. The bell carries no game data: listeners read
the database (or their cache) and build each seat's own view.

A bell is a hint, never the truth, so ringing one never fails the caller: a bell
Redis does not take is kept and rung again once Redis answers, and every room
this process serves catches up then (bells from other processes may have been
lost meanwhile). The periodic catch-up (``app/live/catchup.py``) covers what is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from app.core.redislink import RedisDown, RedisLink

log = logging.getLogger(__name__)

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]
CHANNEL = "spieltisch:doorbell"
EVERY_ROOM = "*"
HEAL_SECONDS = 1.0
START_WAIT_SECONDS = 5.0


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

    def health(self) -> dict[str, Any] | None:
        """What health reports about the doorbell; ``None``: nothing outside this process."""
        return None

    async def _deliver(self, room_id: str, message: dict[str, Any]) -> None:
        for listener in self._listeners:
            try:
                await listener(room_id, message)
            except Exception:
                log.exception("doorbell listener failed for room %s", room_id)


class RedisDoorbell(Doorbell):
    """Every process subscribes to one channel; a bell reaches them all, this one too."""

    def __init__(self, link: RedisLink) -> None:
        super().__init__()
        self.link = link
        self._pending: dict[str, dict[str, Any]] = {}
        self._subscribed = False
        self._tasks: list[asyncio.Task[None]] = []
        self._catching_up: set[asyncio.Task[None]] = set()
        self._ready = asyncio.Event()
        # which process rang a bell: its own come back through Redis, and are skipped
        self.origin = secrets.token_hex(8)
        link.on_up.append(self._on_redis_back)

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._run()), asyncio.create_task(self._heal())]
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=START_WAIT_SECONDS)
        except TimeoutError:
            log.warning("Redis is not answering; starting without the cross-process doorbell")

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def publish(self, room_id: str, message: dict[str, Any]) -> None:
        """Ring here at once, then for every other process through Redis; if Redis is
        away, keep the bell and ring it later."""
        # this process's own sockets need no round trip through Redis to hear it
        await self._deliver(room_id, message)
        try:
            await self._ring(room_id, message)
        except RedisDown as exc:
            log.info("bell for room %s kept for later: %s", room_id, exc)
            self._pending[room_id] = message

    def health(self) -> dict[str, Any]:
        if self.link.up and self._subscribed:
            return {"status": "ok"}
        # the link's error names Redis's host and port: it stays in the log
        return {
            "status": "down",
            "message": f"{self.link.error_class}: Redis does not answer"
            if not self.link.up
            else "not subscribed to the doorbell channel",
            "bells_waiting": len(self._pending),
        }

    def _on_redis_back(self) -> None:
        # bells other processes rang while we could not hear them are lost: catch up
        task = asyncio.get_running_loop().create_task(self._deliver(EVERY_ROOM, {}))
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _heal(self) -> None:
        """Ring kept bells again, and look whether Redis is back, once a second."""
        while True:
            await asyncio.sleep(HEAL_SECONDS)
            if self.link.up and not self._pending:
                continue
            if not self.link.up and not await self.link.check():
                continue
            for room_id, message in list(self._pending.items()):
                try:
                    await self._ring(room_id, message)
                except RedisDown:
                    break
                if self._pending.get(room_id) is message:
                    del self._pending[room_id]

    async def _ring(self, room_id: str, message: dict[str, Any]) -> None:
        payload = json.dumps({"room": room_id, "from": self.origin, **message})
        await self.link.run(lambda redis: redis.publish(CHANNEL, payload))

    async def _run(self) -> None:
        while True:
            try:
                async with self.link.redis.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    self._subscribed = True
                    self._ready.set()
                    if self.link.up:
                        # a lost subscription (Redis itself answered all along):
                        # bells may have rung while we were away, every room catches up
                        await self._deliver(EVERY_ROOM, {})
                    else:
                        self.link.succeeded()  # ... and its hook does the same
                    while True:
                        raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
                        if raw is None or raw.get("type") != "message":
                            continue
                        try:
                            message = json.loads(raw["data"])
                            room_id = str(message.pop("room"))
                            if message.pop("from", None) == self.origin:
                                continue  # rung here, and heard here already
                        except (ValueError, KeyError, AttributeError, TypeError):
                            log.warning("ignoring a malformed bell: %r", raw["data"][:200])
                            continue
                        await self._deliver(room_id, message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._subscribed:
                    log.warning("doorbell subscription lost (%s); reconnecting", exc)
                self._subscribed = False
                self.link.failed(exc)
                self._ready.set()  # start-up goes on without Redis
                await asyncio.sleep(HEAL_SECONDS)


def make_doorbell(link: RedisLink | None) -> Doorbell:
    return RedisDoorbell(link) if link is not None else Doorbell()
