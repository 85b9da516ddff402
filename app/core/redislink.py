"""One Redis connection pool for the doorbell and presence, and whether Redis answers.

Redis is never the truth here (the database is), so a Redis that is down must not
fail a request: every call goes through ``RedisLink.run``, which bounds it in time,
retries a broken pooled connection once on a fresh one, and raises ``RedisDown``
the callers turn into a degraded answer. While Redis is down, calls are not even
tried more than once per ``retry_after`` seconds, so requests stay fast; the
doorbell's healing loop notices when it is back.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

# generous: a busy machine must not look like a Redis that is down
CALL_TIMEOUT = 10.0


class RedisDown(Exception):
    """Redis did not answer; the caller degrades instead of failing."""


class RedisLink:
    def __init__(self, url: str, retry_after: float = 1.0) -> None:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError, TimeoutError

        # a pooled connection that died with a Redis restart fails once, is dropped
        # and the command is sent again on a new one: no error reaches the caller
        self.redis: Any = redis.from_url(
            url,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
            retry_on_error=[ConnectionError, TimeoutError],
            socket_connect_timeout=5.0,
            health_check_interval=15,
        )
        self.retry_after = retry_after
        self.error: str | None = None  # for the log: it may name the host and port
        self.error_class = ""  # for anyone: just the kind of error
        self._failed_at: float | None = None
        self.on_up: list[Callable[[], None]] = []

    @property
    def up(self) -> bool:
        return self.error is None

    def usable(self) -> bool:
        """Worth trying now: up, or down long enough ago to look again."""
        return self._failed_at is None or time.monotonic() - self._failed_at >= self.retry_after

    async def run(self, call: Callable[[Any], Awaitable[T]]) -> T:
        """``call(redis)``, bounded in time; ``RedisDown`` if Redis does not answer."""
        if not self.usable():
            raise RedisDown(self.error or "Redis is down")
        try:
            result = await asyncio.wait_for(call(self.redis), CALL_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.failed(exc)
            raise RedisDown(self.error or "Redis is down") from exc
        self.succeeded()
        return result

    async def check(self) -> bool:
        """Ping Redis now (ignoring the back-off); True if it answers."""
        try:
            await asyncio.wait_for(self.redis.ping(), CALL_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.failed(exc)
            return False
        self.succeeded()
        return True

    def failed(self, exc: BaseException) -> None:
        if self.up:
            log.warning("Redis is unreachable (%s); running degraded", exc or type(exc).__name__)
        self.error = f"{type(exc).__name__}: {exc}".rstrip(": ")
        self.error_class = type(exc).__name__
        self._failed_at = time.monotonic()

    def succeeded(self) -> None:
        was_down = not self.up
        self.error = None
        self._failed_at = None
        if was_down:
            log.warning("Redis answers again")
            for hook in self.on_up:
                hook()

    async def close(self) -> None:
        await self.redis.aclose()
