"""Limits at the edge: request body size and room creation per client address."""

from __future__ import annotations

import json
import time
from collections import deque
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _too_large(limit: int) -> bytes:
    return json.dumps(
        {"code": "too_large", "message": f"Request bodies are at most {limit} bytes."}
    ).encode()


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes with 413 ``too_large``.

    A body that declares its length is judged by the header (the server holds it to
    that length). One sent in chunks is read here first, up to the limit, and handed
    on whole, so the answer is 413 before any route starts on it.
    """

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        # path prefixes that take bigger bodies (imported game records)
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = next(
            (size for prefix, size in self.larger.items() if scope["path"].startswith(prefix)),
            self.limit,
        )
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            if declared.isdigit() and int(declared) > limit:
                await self._refuse(send, limit)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            chunks.append(message)
            if message["type"] != "http.request":
                break  # the client went away; the app will see that
            seen += len(message.get("body", b""))
            if seen > limit:
                await self._refuse(send, limit)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return chunks.pop(0) if chunks else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = _too_large(limit)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class RateLimit:
    """At most ``count`` events per ``window`` seconds per key (a sliding window)."""

    def __init__(self, count: int, window: float = 60.0) -> None:
        self.count = count
        self.window = window
        self._hits: dict[Any, deque[float]] = {}

    def allow(self, key: Any) -> bool:
        now = time.monotonic()
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) >= self.count:
            return False
        hits.append(now)
        if len(self._hits) > 10_000:
            self._forget(now)
        return True

    def _forget(self, now: float) -> None:
        for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window]:
            del self._hits[key]


# Pages load only their own scripts, styles and sockets; nothing may frame them.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)
