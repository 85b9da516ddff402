"""How much one seat may send: a token bucket per (room, seat), shared by every path.

A seat's websocket messages, REST moves and REST chat all draw from the same bucket,
so opening a second tab or switching to REST does not buy more. Spectator sockets
have no seat and get a bucket of their own per socket.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

# a full bucket is the same as no bucket: past this many, full ones are forgotten
KEEP = 10_000


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class Budget:
    """Bursts of ``size`` messages per key, refilled evenly over ``window`` seconds."""

    def __init__(self, size: int, window: float, now: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.rate = size / window
        self._now = now
        self._buckets: dict[Hashable, _Bucket] = {}

    def take(self, key: Hashable) -> bool:
        """Spend one message of ``key``'s budget; ``False`` (nothing spent) when it is empty."""
        now = self._now()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= KEEP:
                self._forget_full(now)
            bucket = self._buckets[key] = _Bucket(float(self.size), now)
        bucket.tokens = min(self.size, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return True
        return False

    def forget(self, key: Hashable) -> None:
        self._buckets.pop(key, None)

    def _forget_full(self, now: float) -> None:
        full = [
            key
            for key, b in self._buckets.items()
            if b.tokens + (now - b.stamp) * self.rate >= self.size
        ]
        for key in full:
            del self._buckets[key]
