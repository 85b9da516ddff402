"""Receiving on Starlette's in-process test websocket, with a deadline.

``WebSocketTestSession.receive_text`` waits forever: a server that never sends
the message a test waits for (because a broken view changed what it sends, say)
would hang the suite instead of failing it. ``receive_text`` waits at most
``RECEIVE_TIMEOUT`` seconds in the session's own event loop and then fails the
test, saying who waited. The deadline only turns a hang into a failure; a test
never passes or fails on how fast a message comes.
"""

from __future__ import annotations

import anyio
from starlette.testclient import WebSocketTestSession
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

RECEIVE_TIMEOUT = 30.0


def receive_text(ws: WebSocketTestSession, who: str, timeout: float = RECEIVE_TIMEOUT) -> str:
    """The next text frame for ``who``; a failed test if none comes within ``timeout``."""

    # The session's message stream lives in its portal's loop: waiting there lets
    # the deadline cancel the wait cleanly, leaving no thread behind.
    async def next_message() -> Message:
        with anyio.fail_after(timeout):
            message: Message = await ws._send_rx.receive()
            return message

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        raise AssertionError(f"{who} received no message within {timeout:.0f} s") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000), reason=message.get("reason", ""))
    return str(message["text"])
