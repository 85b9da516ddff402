"""What every channel's sender gets, and how it tells the outbox how a try went.

Each channel module (``push``, ``mail``, ``webhooks``) has one ``deliver(out, state,
due)``; the outbox looks it up by the channel's kind in its ``CHANNELS`` table and
knows nothing else of the channel. ``deliver`` returns when the alert went out, or
raises one of the three exceptions below; the outbox retries, waits or drops the
channel accordingly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from app.alerts import store as alert_store
from app.alerts.guard import Outbound
from app.alerts.keys import AlertKeys
from app.alerts.store import Due, SeatSettings
from app.alerts.texts import text
from app.core.config import Settings
from app.play import kinds as events
from app.play import store
from app.play.state import RoomState
from app.play.store import Store

QUOTE_CHARS = 80  # how much of a chat message an alert quotes
CHAT_READ = 500  # most events read to tell a chat alert's news


class Failed(Exception):
    """The try failed in a way that may pass: try again later (counts as a try)."""


class Gone(Exception):
    """The channel can never work again (a push subscription its service forgot): drop it."""


class Later(Exception):
    """Not now, and no fault: try again at ``at`` (a cap of the channel's own is reached)."""

    def __init__(self, at: datetime, note: str) -> None:
        super().__init__(note)
        self.at = at
        self.note = note


@dataclass(frozen=True)
class Sending:
    """What a sender may use: the settings, the database, the guarded client, the keys."""

    settings: Settings
    db: Store
    client: Outbound
    keys: AlertKeys
    # another room's state, for a mail that tells of several tables (app/alerts/digest.py)
    load: Callable[[str], Awaitable[RoomState]] | None = field(default=None, compare=False)
    # when an alert waits for its person to close (or to have closed for a while) the room
    held: Callable[[RoomState, Due], Awaitable[object | None]] | None = field(
        default=None, compare=False
    )

    def room_url(self, state: RoomState) -> str:
        """The room's link, built from ``PUBLIC_URL`` alone; empty without it."""
        base = self.settings.link_base
        return f"{base}/r/{state.room.id}" if base else ""

    async def seat_settings(self, state: RoomState, due: Due) -> SeatSettings | None:
        """The alert settings (language, stop key) of the person the channel belongs to."""
        async with self.db.transaction() as session:
            return await alert_store.seat_settings(
                session, state.room.id, due.channel.token_hash or ""
            )


async def chat_news(out: Sending, state: RoomState, due: Due, lang: str) -> str:
    """What a chat alert says: the last message from someone else, cut short, and how
    many came since the alert was queued (never the seat's own)."""
    async with out.db.reading() as session:
        written = await store.events_after(session, state.room.id, due.turn_seq - 1, CHAT_READ)
    lines = [e.data for e in written if e.kind == events.CHAT and e.data.get("seat") != due.seat]
    if not lines:
        return ""
    last = lines[-1]
    said = " ".join(str(last.get("text", "")).split())
    if len(said) > QUOTE_CHARS:
        said = said[: QUOTE_CHARS - 1].rstrip() + "…"
    name = str(last.get("name") or "")
    if len(lines) == 1:
        return text(lang, "chat_one", name=name, text=said)
    return text(lang, "chat_more", count=str(len(lines)), name=name, text=said)


def others(state: RoomState, seat: int) -> list[str]:
    """The names of the other seats, for a title such as "… with Anna and Ben"."""
    return [s.name for i, s in enumerate(state.seats) if i != seat and s.name]


Deliver = Callable[[Sending, RoomState, Due], Awaitable[None]]
