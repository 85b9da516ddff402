"""The kinds of alert, and which of them each channel carries.

Turn alerts (``turn``, ``reminder``) go to every channel. The others are chosen per
channel in the person's settings (the webhook's by the host): ``game_over`` (the
game ended), ``bot_took_seat`` (a stand-in bot took the person's seat on a timeout
or by the host's hand; not when they left it themself), ``chat`` (someone else wrote
in the room's chat; one alert per burst). A channel that never chose keeps the
defaults below: a person hears about the end of a game and a bot in their seat, not
about chat; the room's webhook, set up for turns, carries nothing more unless the
host chooses it. Chat never goes to the webhook: what the table writes stays among
the people at it.
"""

from __future__ import annotations

from typing import Any

TURN = "turn"
REMINDER = "reminder"
GAME_OVER = "game_over"
BOT_TOOK_SEAT = "bot_took_seat"
CHAT = "chat"

KINDS = (TURN, REMINDER, GAME_OVER, BOT_TOOK_SEAT, CHAT)
TURN_KINDS = (TURN, REMINDER)
CHOSEN = (GAME_OVER, BOT_TOOK_SEAT, CHAT)  # what a channel's settings switch on or off
DIGEST = "digest"  # how the address caps count the one mail a day that lists many tables

DEFAULTS: dict[str, dict[str, bool]] = {
    "push": {GAME_OVER: True, BOT_TOOK_SEAT: True, CHAT: False},
    "email": {GAME_OVER: True, BOT_TOOK_SEAT: True, CHAT: False},
    "webhook": {GAME_OVER: False, BOT_TOOK_SEAT: False},
}


def choices(channel_kind: str, data: dict[str, Any]) -> dict[str, bool]:
    """What a channel carries besides turn alerts: its own choices over the defaults."""
    chosen = data.get("kinds") or {}
    return {
        kind: bool(chosen.get(kind, default))
        for kind, default in DEFAULTS.get(channel_kind, {}).items()
    }


def digested(channel_kind: str, data: dict[str, Any], kind: str) -> bool:
    """Whether an alert of ``kind`` on this channel waits for the address's daily digest
    (``app.alerts.digest``): turn alerts by mail do, unless the person chose
    ``each_turn`` (one mail per turn) for that address."""
    return channel_kind == "email" and kind in TURN_KINDS and not data.get("each_turn")


def carries(channel_kind: str, data: dict[str, Any], kind: str) -> bool:
    """Whether a channel of ``channel_kind`` with ``data`` sends alerts of ``kind``."""
    if kind not in CHOSEN:
        return True  # turn alerts, and the mail that asks to confirm an address
    return choices(channel_kind, data).get(kind, False)
