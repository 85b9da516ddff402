"""Room webhooks (httpx): Discord, Slack or a plain JSON shape, to one URL the host set.

A URL must be http(s) and resolve only to public addresses: private, loopback,
link-local and other special ranges are refused unless ``WEBHOOK_ALLOW_PRIVATE``
is set, so a room cannot make the server call into its own network. The check
runs when the URL is set and again, on the resolved addresses, before each call.
Redirects are not followed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from app.alert_texts import text

Shape = Literal["discord", "slack", "json"]
SHAPES: tuple[Shape, ...] = ("discord", "slack", "json")
MAX_URL = 2000


class BadWebhook(Exception):
    """The URL can't be used; the message says why (for the person setting it)."""


class WebhookFailed(Exception):
    """The call failed in a way that may pass: try again later."""


def _private(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


async def check_url(url: str, allow_private: bool) -> None:
    """Raise ``BadWebhook`` unless ``url`` is http(s) and resolves to public addresses only."""
    if len(url) > MAX_URL:
        raise BadWebhook(f"A webhook URL has at most {MAX_URL} characters.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadWebhook("A webhook URL starts with https:// (or http://) and names a host.")
    if parts.username or parts.password:
        raise BadWebhook("A webhook URL can't carry a user name or password before the host.")
    if allow_private:
        return
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            parts.hostname, port, type=socket.SOCK_STREAM
        )
    except (OSError, UnicodeError) as exc:
        raise BadWebhook(f"The host {parts.hostname!r} can't be found.") from exc
    addresses = {str(info[4][0]) for info in infos}
    if not addresses or any(_private(a) for a in addresses):
        raise BadWebhook(
            "Webhooks can't go to private, loopback or link-local addresses on this server."
        )


def body(
    shape: str, lang: str, kind: str, game: str, player: str, room: str, url: str, seat: int
) -> dict[str, Any]:
    """The call's JSON; ``url`` is empty when the site has no ``PUBLIC_URL`` (then no link)."""
    line = text(
        lang, "hook_reminder" if kind == "reminder" else "hook_turn", name=player, game=game
    )
    if shape == "discord":
        return {"username": "Spieltisch", "content": f"{line} {url}" if url else line}
    if shape == "slack":
        return {"text": f"{line} <{url}|{text(lang, 'open')}>" if url else line}
    return {
        "event": kind,
        "room": room,
        "game": game,
        "seat": seat,
        "player": player,
        "url": url or None,
        "text": line,
    }


async def send(
    client: httpx.AsyncClient,
    url: str,
    payload: dict[str, Any],
    seconds: float,
    allow_private: bool,
) -> None:
    try:
        await check_url(url, allow_private)
    except BadWebhook as exc:
        raise WebhookFailed(str(exc)) from exc
    try:
        response = await client.post(url, json=payload, timeout=seconds, follow_redirects=False)
    except httpx.HTTPError as exc:
        raise WebhookFailed(f"webhook unreachable: {type(exc).__name__}") from exc
    if response.status_code >= 300:
        raise WebhookFailed(f"webhook answered {response.status_code}")
