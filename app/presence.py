"""Who is online, per room and seat, across every process serving the room.

In one process a counter is enough. With Redis each connection is a member of a
sorted set scored by its expiry; live connections refresh it, so a crashed
process's sockets drop out by themselves.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

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
    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis: Any = redis.from_url(url)

    @staticmethod
    def _key(room_id: str, seat: int) -> str:
        return f"spieltisch:presence:{room_id}:{seat}"

    async def join(self, room_id: str, seat: int, conn_id: str) -> None:
        await self._redis.zadd(self._key(room_id, seat), {conn_id: time.time() + TTL_SECONDS})

    async def leave(self, room_id: str, seat: int, conn_id: str) -> None:
        await self._redis.zrem(self._key(room_id, seat), conn_id)

    async def refresh(self, members: list[tuple[str, int, str]]) -> None:
        expiry = time.time() + TTL_SECONDS
        async with self._redis.pipeline(transaction=False) as pipe:
            for room_id, seat, conn_id in members:
                pipe.zadd(self._key(room_id, seat), {conn_id: expiry})
            await pipe.execute()

    async def online(self, room_id: str, players: int) -> dict[int, bool]:
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            for seat in range(players):
                pipe.zcount(self._key(room_id, seat), now, "+inf")
            counts = await pipe.execute()
        return {seat: int(n) > 0 for seat, n in enumerate(counts)}

    async def close(self) -> None:
        await self._redis.aclose()


def make_presence(redis_url: str | None) -> Presence:
    return RedisPresence(redis_url) if redis_url else Presence()
