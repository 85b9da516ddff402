"""Who is online, per room and seat, across every process serving the room.

In one process a counter is enough. With Redis each connection is a member of a
sorted set scored by its expiry; live connections refresh it, so a crashed
process's sockets drop out by themselves. While Redis is down, presence shows
what this process knows (its own sockets) rather than failing the request.

Presence also keeps when a tab of each seat last closed (``closed_at``, on the
server's clock), so an alert can wait until its person has been away for the alert
delay (``app/alerts/outbox.py``). With Redis that time is shared for ``CLOSED_KEEP``;
a crashed process's sockets leave no such time (they only stop being counted).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from app.core.clock import clock
from app.core.redislink import RedisDown, RedisLink

log = logging.getLogger(__name__)

TTL_SECONDS = 60.0
CLOSED_KEEP = timedelta(days=1)  # longer than any alert delay worth waiting for
PRUNE_EVERY = timedelta(hours=1)  # how often this process forgets older closing times


class Presence:
    """In-process presence."""

    def __init__(self) -> None:
        self._count: Counter[tuple[str, int]] = Counter()
        self._closed: dict[tuple[str, int], datetime] = {}
        self._pruned_at = clock.now()

    async def join(self, room_id: str, seat: int, conn_id: str) -> None:
        self._count[(room_id, seat)] += 1

    async def leave(self, room_id: str, seat: int, conn_id: str) -> None:
        self._count[(room_id, seat)] -= 1
        if self._count[(room_id, seat)] <= 0:
            del self._count[(room_id, seat)]
        self._note_closed(room_id, seat)

    def _note_closed(self, room_id: str, seat: int) -> None:
        now = clock.now()
        self._closed[(room_id, seat)] = now
        if now - self._pruned_at > PRUNE_EVERY:
            self._pruned_at = now
            self._closed = {k: v for k, v in self._closed.items() if now - v < CLOSED_KEEP}

    async def closed_at(self, room_id: str, players: int) -> dict[int, datetime]:
        """When a tab of each seat last closed, for the seats this process saw close."""
        found = ((seat, self._closed.get((room_id, seat))) for seat in range(players))
        return {seat: at for seat, at in found if at is not None}

    async def refresh(self, members: list[tuple[str, int, str]]) -> None:
        return None

    async def online(self, room_id: str, players: int) -> dict[int, bool]:
        return {seat: self._count.get((room_id, seat), 0) > 0 for seat in range(players)}

    async def close(self) -> None:
        return None


class RedisPresence(Presence):
    """Presence shared through Redis, with this process's own count as the fallback."""

    def __init__(self, link: RedisLink) -> None:
        super().__init__()
        self.link = link

    @staticmethod
    def _key(room_id: str, seat: int) -> str:
        return f"spieltisch:presence:{room_id}:{seat}"

    async def join(self, room_id: str, seat: int, conn_id: str) -> None:
        await super().join(room_id, seat, conn_id)
        key, expiry = self._key(room_id, seat), time.time() + TTL_SECONDS
        try:
            await self.link.run(lambda redis: redis.zadd(key, {conn_id: expiry}))
        except RedisDown as exc:
            log.info("presence join kept local: %s", exc)

    @staticmethod
    def _closed_key(room_id: str, seat: int) -> str:
        return f"spieltisch:presence:{room_id}:{seat}:closed"

    async def leave(self, room_id: str, seat: int, conn_id: str) -> None:
        await super().leave(room_id, seat, conn_id)
        key, closed = self._key(room_id, seat), self._closed_key(room_id, seat)
        when = str(clock.now().timestamp())
        keep = int(CLOSED_KEEP.total_seconds())

        async def gone(redis: Any) -> None:
            async with redis.pipeline(transaction=False) as pipe:
                pipe.zrem(key, conn_id)
                pipe.set(closed, when, ex=keep)
                await pipe.execute()

        try:
            await self.link.run(gone)
        except RedisDown as exc:
            log.info("presence leave kept local: %s", exc)

    async def closed_at(self, room_id: str, players: int) -> dict[int, datetime]:
        here = await super().closed_at(room_id, players)
        try:
            stored = await self.link.run(
                lambda redis: redis.mget([self._closed_key(room_id, s) for s in range(players)])
            )
        except RedisDown:
            return here
        found = dict(here)
        for seat, value in enumerate(stored):
            if value is None:
                continue
            at = datetime.fromtimestamp(float(value), UTC)
            found[seat] = max(at, found[seat]) if seat in found else at
        return found

    async def refresh(self, members: list[tuple[str, int, str]]) -> None:
        """Renew this process's members (and write them again after Redis lost them)."""
        if not members:
            return
        expiry = time.time() + TTL_SECONDS

        async def renew(redis: Any) -> None:
            async with redis.pipeline(transaction=False) as pipe:
                for room_id, seat, conn_id in members:
                    pipe.zadd(self._key(room_id, seat), {conn_id: expiry})
                await pipe.execute()

        try:
            await self.link.run(renew)
        except RedisDown as exc:
            log.info("presence refresh skipped: %s", exc)

    async def online(self, room_id: str, players: int) -> dict[int, bool]:
        here = await super().online(room_id, players)
        now = time.time()

        async def count(redis: Any) -> list[int]:
            async with redis.pipeline(transaction=False) as pipe:
                for seat in range(players):
                    pipe.zcount(self._key(room_id, seat), now, "+inf")
                return list(await pipe.execute())

        try:
            counts = await self.link.run(count)
        except RedisDown:
            return here
        return {seat: here[seat] or int(n) > 0 for seat, n in enumerate(counts)}


def make_presence(link: RedisLink | None) -> Presence:
    return RedisPresence(link) if link is not None else Presence()
