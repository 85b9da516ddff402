"""Web Push: encrypt a payload for one browser subscription and hand it to its push service.

The payload is encrypted with the subscription's keys (RFC 8291, ``aes128gcm``,
through ``pywebpush``) and the request is signed with the server's VAPID key
(RFC 8292). A push service answering 404 or 410 says the subscription is gone. Endpoints pass
the same address guard as webhooks (``WEBHOOK_ALLOW_PRIVATE``) and the request goes
through the same pinned client (``app.alerts.guard``): a subscription can't make the server
call into its own network, however its name answers.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlsplit

from pywebpush import WebPusher

from app.alerts import guard
from app.alerts.delivery import Failed, Gone, Sending, chat_news, others
from app.alerts.keys import AlertKeys
from app.alerts.kinds import BOT_TOOK_SEAT, CHAT, GAME_OVER
from app.alerts.store import Due
from app.alerts.texts import text, title
from app.play.state import RoomState

TTL_SECONDS = 24 * 3600


class SubscriptionGone(Gone):
    """The push service no longer knows the subscription: drop it."""


class DeliveryFailed(Failed):
    """Sending failed in a way that may pass: try again later."""


def valid_subscription(endpoint: str, keys: dict[str, Any]) -> bool:
    """An https (or, for tests and local services, http) endpoint and both keys."""
    parts = urlsplit(endpoint)
    return (
        parts.scheme in ("https", "http")
        and bool(parts.netloc)
        and isinstance(keys.get("p256dh"), str)
        and isinstance(keys.get("auth"), str)
    )


def encrypt(endpoint: str, keys: dict[str, str], payload: dict[str, Any]) -> bytes:
    pusher = WebPusher({"endpoint": endpoint, "keys": keys})
    body: bytes = pusher.encode(json.dumps(payload).encode(), "aes128gcm")["body"]
    return body


async def deliver(out: Sending, state: RoomState, due: Due) -> None:
    """Push ``due`` to one browser, titled in its person's language."""
    settings = await out.seat_settings(state, due)
    lang = settings.lang if settings is not None else "en"
    if due.kind == CHAT:
        body = await chat_news(out, state, due, lang)
    elif due.kind in (GAME_OVER, BOT_TOOK_SEAT):
        body = text(lang, f"push_{due.kind}")
    else:
        body = text(lang, "push_body")
    payload: dict[str, Any] = {
        "title": title(lang, due.kind, state.engine.title, others(state, due.seat)),
        "body": body,
        "url": f"/r/{state.room.id}",
        "tag": f"spieltisch-{state.room.id}",
        "kind": due.kind,
    }
    await send(
        out.client,
        out.keys,
        out.settings.vapid_subject,
        due.channel.target,
        dict(due.channel.data.get("keys", {})),
        payload,
        out.settings.webhook_timeout_seconds,
    )


async def send(
    client: guard.Outbound,
    keys: AlertKeys,
    subject: str,
    endpoint: str,
    sub_keys: dict[str, str],
    payload: dict[str, Any],
    seconds: float,
) -> None:
    """Deliver ``payload`` to one subscription; ``SubscriptionGone`` or ``DeliveryFailed``."""
    try:
        body = encrypt(endpoint, sub_keys, payload)
    except Exception as exc:  # malformed keys: this subscription can never work
        raise SubscriptionGone(f"cannot encrypt for this subscription: {exc}") from exc
    parts = urlsplit(endpoint)
    claims = {
        "sub": subject,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
    }
    headers = {
        **keys.vapid.sign(claims),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
    }
    try:
        answer = await client.post(endpoint, body, headers, seconds)
    except guard.Refused as exc:
        raise SubscriptionGone(f"push endpoint refused: {exc}") from exc
    except guard.Unreachable as exc:
        raise DeliveryFailed(f"push service unreachable: {exc}") from exc
    if answer.status in (404, 410):
        raise SubscriptionGone(f"push service answered {answer.status}")
    if answer.status >= 300:
        raise DeliveryFailed(f"push service answered {answer.status}")
