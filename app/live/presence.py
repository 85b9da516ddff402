"""Who is online, per room and seat, across every process serving the room.

In one process a counter is enough. With Redis each connection is a member of a
sorted set scored by its expiry; live connections refresh it, so a crashed
process's sockets drop out by themselves. While Redis is down, presence shows
what this process knows (its own sockets) rather than failing the request.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import Any

from app.core.redislink import RedisDown, RedisLink

log = logging.getLogger(__name__)

TTL_SECONDS = 60.0


class Presence:
    """In-process presence."""

    def __init__(self) -> None:
        self._count: Counter[tuple[str, int]] = Counter()

    async def join(self, room_id: str, seat: int, conn_id: str) -> None:
        self._count[(room_id, seat)] += 1

    async def leave(self, room_id: str, seat: int, conn_id: str) -> None:
        self._count[(room_id, seat)] -= 1
        if self._count[(room_id, seat)] <= 0:
            del self._count[(room_id, seat)]

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

    async def leave(self, room_id: str, seat: int, conn_id: str) -> None:
        await super().leave(room_id, seat, conn_id)
        key = self._key(room_id, seat)
        try:
            await self.link.run(lambda redis: redis.zrem(key, conn_id))
        except RedisDown as exc:
            log.info("presence leave kept local: %s", exc)

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
