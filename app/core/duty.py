"""The duty: which one of several app processes does the site's shared chores.

Some work is the site's, not a process's: resuming bot turns after a restart, the
sweep for bot turns nobody took, the retention sweep. Each is safe to do twice (the
database's unique ``(room, seq)`` and conditional deletes see to that), but every
process doing it makes the same heavy queries and thinks the same bot moves N times
over. So the processes elect one: the duty is a Redis key naming its holder, taken
with ``SET NX`` and renewed well within its lifetime; a holder that dies (even with
its host) lets it lapse, and the next process to look takes it over.

Without Redis there is one process, and it always has the duty. While Redis is
down nobody can tell who has it, so every process does the chores: slower, never
wrong. The key is named after the database, so two sites sharing one Redis each
elect their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Callable

from sqlalchemy.engine import make_url

from app.core.redislink import RedisDown, RedisLink

log = logging.getLogger(__name__)

# how long a claim lasts unless renewed; a dead holder's duty passes on within this
LEASE_SECONDS = 15.0
RENEW_EVERY = LEASE_SECONDS / 3

# take the duty if it is free or already ours, and (re)start its lifetime
_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
# give it up, if it is still ours
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def duty_key(database_url: str) -> str:
    """One key per database: host, port and database name, never the password."""
    url = make_url(database_url)
    where = f"{url.host or ''}:{url.port or ''}/{url.database or ''}"
    return "spieltisch:duty:" + hashlib.sha256(where.encode()).hexdigest()[:16]


class Duty:
    """Whether this process does the shared chores now (``mine``), kept up to date."""

    def __init__(self, link: RedisLink | None, key: str) -> None:
        self.link = link
        self.key = key
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.mine = link is None
        self._claimed = False  # Redis named this process the holder at the last look
        # called when this process takes the duty over from another (or at its start)
        self.on_gain: list[Callable[[], None]] = []
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Claim once now, so the first chores know; then keep claiming."""
        if self.link is None:
            return
        await self.claim()
        self._task = asyncio.create_task(self._renew(), name="duty")

    async def claim(self) -> bool:
        """Take or renew the duty; True if this process has it (or Redis can't tell)."""
        if self.link is None:
            return True
        key, holder, lease = self.key, self.holder, int(LEASE_SECONDS * 1000)
        try:
            got = await self.link.run(lambda redis: redis.eval(_CLAIM, 1, key, holder, lease))
        except RedisDown:
            # nobody can tell who has it: do the chores too, the database keeps them safe
            # (a takeover's extra work waits until Redis says this process really has it)
            self.mine = True
            return True
        gained = bool(got) and not self._claimed
        self.mine = self._claimed = bool(got)
        if gained:
            log.info("this process (%s) does the shared chores now", self.holder)
            for hook in self.on_gain:
                hook()
        return self.mine

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                await self.claim()
            except Exception:
                log.exception("claiming the duty failed")

    async def stop(self) -> None:
        """Hand the duty back at once, so the next process need not wait for it to lapse."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.link is None or not self.mine:
            return
        key, holder = self.key, self.holder
        with contextlib.suppress(RedisDown):
            await self.link.run(lambda redis: redis.eval(_RELEASE, 1, key, holder))
        self.mine = self._claimed = False
