"""Room webhooks: Discord, Slack or a plain JSON shape, to one URL the host set.

A URL must be http(s) and resolve only to public addresses: private, loopback,
link-local and other special ranges are refused unless ``WEBHOOK_ALLOW_PRIVATE``
is set, so a room cannot make the server call into its own network. The guard
(``app.alerts.guard``) judges the URL when it is set, and each call goes through its
pinned client, which looks the name up once, checks every address and connects to
exactly those. Redirects are not followed; a call has one deadline as a whole and
reads at most a few KB of the answer.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from app.alerts import guard
from app.alerts.delivery import Failed, Sending
from app.alerts.store import Due
from app.alerts.texts import text
from app.play.state import RoomState

Shape = Literal["discord", "slack", "json"]
SHAPES: tuple[Shape, ...] = ("discord", "slack", "json")
HOOK_LINES = ("reminder", "game_over", "bot_took_seat")  # kinds with a line of their own


class WebhookFailed(Failed):
    """The call failed in a way that may pass: try again later."""


def body(
    shape: str, lang: str, kind: str, game: str, player: str, room: str, url: str, seat: int
) -> dict[str, Any]:
    """The call's JSON; ``url`` is empty when the site has no ``PUBLIC_URL`` (then no link)."""
    line = text(lang, f"hook_{kind}" if kind in HOOK_LINES else "hook_turn", name=player, game=game)
    if shape == "discord":
        return {"username": "Spieltisch", "content": f"{line} {url}" if url else line}
    if shape == "slack":
        return {"text": f"{line} <{url}|{text(lang, 'open')}>" if url else line}
    whole = kind == "game_over"  # the table's, no one seat's
    return {
        "event": kind,
        "room": room,
        "game": game,
        "seat": None if whole else seat,
        "player": None if whole else player,
        "url": url or None,
        "text": line,
    }


async def deliver(out: Sending, state: RoomState, due: Due) -> None:
    """Call the room's webhook about ``due``, in the shape and language the host chose."""
    channel = due.channel
    hook = body(
        str(channel.data.get("shape", "json")),
        str(channel.data.get("lang", "en")),
        due.kind,
        state.engine.title,
        state.seats[due.seat].name or "",
        state.room.id,
        out.room_url(state),
        due.seat,
    )
    await send(out.client, channel.target, hook, out.settings.webhook_timeout_seconds)


async def send(client: guard.Outbound, url: str, payload: dict[str, Any], seconds: float) -> None:
    """POST ``payload`` as JSON; ``WebhookFailed`` unless the answer is a 2xx within ``seconds``."""
    try:
        guard.url_parts(url)
    except guard.BadUrl as exc:
        raise WebhookFailed(str(exc)) from exc
    content = json.dumps(payload, ensure_ascii=False).encode()
    try:
        answer = await client.post(url, content, {"Content-Type": "application/json"}, seconds)
    except guard.Refused as exc:
        raise WebhookFailed(guard.PRIVATE) from exc
    except guard.Unreachable as exc:
        raise WebhookFailed(f"webhook unreachable: {exc}") from exc
    if answer.status >= 300:
        raise WebhookFailed(f"webhook answered {answer.status}")
