"""Mail only to addresses their owners confirmed, and never too much to one address.

Anyone seated can type any address, so an address left for a seat first gets one
mail that asks to confirm it, and nothing else until someone opens its link and
presses the button (mail scanners that follow links only look). Confirming is per
subscription: an address confirmed for one seat is asked again when it is left for
another seat or room, since each is a different person's request, unless the device
leaving it proves it holds a seat whose channel for that address is confirmed
(``POST /api/alerts``, app/web/all_tables.py); a set-up for many tables at once gets
one mail whose link confirms them all (their channels share a ``group``). The key in the
link is made when that mail goes out, kept only as its SHA-256, used once, and
valid for ``CONFIRM_VALID`` (``app.alerts.mail`` makes it and sends the mail).

Every mail to an address, over every room and confirmation mails included, counts
against ``ALERT_ADDRESS_HOURLY_CAP``, and confirmation mails also against
``ALERT_CONFIRM_DAILY_CAP``; a mail over a cap waits for a free slot. Addresses are
counted in their usual form (lower case, without a ``+tag``), so spelling one
differently does not open new slots.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from app.alerts import store as alert_store
from app.alerts.kinds import DIGEST
from app.alerts.store import CONFIRM, DAY, Channel, Due
from app.core.config import Settings
from app.play.state import RoomState
from app.play.store import Store

CONFIRM_VALID = timedelta(days=7)
HOUR = timedelta(hours=1)
ASK_AGAIN_AFTER = HOUR  # the same address left again sooner keeps the mail already sent


def address_hash(address: str) -> str:
    """The address as counted for the caps: lower case, the ``+tag`` of its local part dropped."""
    local, _, domain = address.strip().lower().rpartition("@")
    local = local.split("+", 1)[0]
    return hashlib.sha256(f"{local}@{domain}".encode()).hexdigest()


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def keeps(kept: Channel | None, queued: bool, address: str, now: datetime) -> bool:
    """Whether leaving ``address`` again keeps the person's address as it is: it is the
    same one, and confirmed, or its confirmation mail is ``queued`` or went out lately
    (a fresh one would void that mail's link, and use up the address's slots)."""
    if kept is None or kept.target.lower() != address.lower():
        return False
    lately = kept.asked_at is not None and now - kept.asked_at < ASK_AGAIN_AFTER
    return kept.confirmed or queued or lately


def not_due(state: RoomState, due: Due) -> str | None:
    """Why a confirmation mail should no longer go out, or None if it should."""
    if due.channel.confirmed:
        return "the address is confirmed already"
    if not any(seat.token_hash == due.channel.token_hash for seat in state.seats):
        return "the person who left the address no longer sits at the table"
    return None


async def take_slot(
    db: Store, settings: Settings, due: Due, now: datetime, kind: str | None = None
) -> tuple[str | None, datetime | None]:
    """Count this mail against its address's caps: (slot, None), or (None, when one frees).

    A digest (``kind=DIGEST``) also fits only if none went to the address in a day."""
    caps: dict[str | None, tuple[int, timedelta]] = {
        None: (settings.alert_address_hourly_cap, HOUR),
        CONFIRM: (settings.alert_confirm_daily_cap, DAY),
        DIGEST: (1, DAY),
    }
    kind = kind or (CONFIRM if due.kind == CONFIRM else "alert")
    async with db.transaction() as session:
        return await alert_store.take_mail_slot(
            session, address_hash(due.channel.target), kind, now, caps
        )


async def give_back(db: Store, due: Due, slot: str) -> None:
    async with db.transaction() as session:
        await alert_store.give_back_mail_slot(session, address_hash(due.channel.target), slot)
