"""Room webhooks: Discord, Slack or a plain JSON shape, to one URL the host set.

A URL must be http(s) and resolve only to public addresses: private, loopback,
link-local and other special ranges are refused unless ``WEBHOOK_ALLOW_PRIVATE``
is set, so a room cannot make the server call into its own network. The check
runs when the URL is set, and each call goes through ``app.alerts.outbound``, which looks
the name up once, checks every address and connects to exactly those. Redirects are
not followed; a call has one deadline as a whole and reads at most a few KB of the answer.
"""

from __future__ import annotations

import json
from typing import Any, Literal
from urllib.parse import urlsplit

from app.alerts import outbound
from app.alerts.texts import text

Shape = Literal["discord", "slack", "json"]
SHAPES: tuple[Shape, ...] = ("discord", "slack", "json")
MAX_URL = 2000


class BadWebhook(Exception):
    """The URL can't be used; the message says why (for the person setting it)."""


class WebhookFailed(Exception):
    """The call failed in a way that may pass: try again later."""


PRIVATE = "Webhooks can't go to private, loopback or link-local addresses on this server."


def _shape(url: str) -> tuple[str, int]:
    """The host and port of a usable URL; ``BadWebhook`` says what is wrong with another."""
    if len(url) > MAX_URL:
        raise BadWebhook(f"A webhook URL has at most {MAX_URL} characters.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadWebhook("A webhook URL starts with https:// (or http://) and names a host.")
    if parts.username or parts.password:
        raise BadWebhook("A webhook URL can't carry a user name or password before the host.")
    return parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)


async def check_url(url: str, allow_private: bool) -> None:
    """Raise ``BadWebhook`` unless ``url`` is http(s) and resolves to public addresses only."""
    host, port = _shape(url)
    if allow_private:
        return
    try:
        await outbound.addresses(host, port, allow_private=False)
    except outbound.NotFound as exc:
        raise BadWebhook(f"The host {host!r} can't be found.") from exc
    except outbound.Refused as exc:
        raise BadWebhook(PRIVATE) from exc


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
    client: outbound.Outbound, url: str, payload: dict[str, Any], seconds: float
) -> None:
    """POST ``payload`` as JSON; ``WebhookFailed`` unless the answer is a 2xx within ``seconds``."""
    try:
        _shape(url)
    except BadWebhook as exc:
        raise WebhookFailed(str(exc)) from exc
    content = json.dumps(payload, ensure_ascii=False).encode()
    try:
        answer = await client.post(url, content, {"Content-Type": "application/json"}, seconds)
    except outbound.Refused as exc:
        raise WebhookFailed(PRIVATE) from exc
    except outbound.Unreachable as exc:
        raise WebhookFailed(f"webhook unreachable: {exc}") from exc
    if answer.status >= 300:
        raise WebhookFailed(f"webhook answered {answer.status}")
