"""SQL for turn alerts: keys, per-seat settings, channels and the outbox.

Like ``store``, every function runs inside a transaction its caller opened. The
outbox is claimed with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so several
processes share the work without sending one row twice; SQLite has one writer at
a time (every transaction begins IMMEDIATE), which serialises the claim by itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.tables import AlertAddress, AlertChannel, AlertKey, AlertSeat, OutboxRow

PENDING = "pending"
CONFIRM = "confirm"  # the outbox kind of a confirmation mail (not a turn alert)
DAY = timedelta(days=1)


@dataclass(frozen=True)
class SeatSettings:
    token_hash: str
    lang: str
    stop_key: str


@dataclass(frozen=True)
class Channel:
    id: int
    room_id: str
    token_hash: str | None
    kind: str
    target: str
    data: dict[str, Any]
    # an address gets turn mails only once confirmed; push and webhooks need no confirming
    confirmed: bool = True
    asked_at: datetime | None = None  # when the last confirmation mail went out


@dataclass(frozen=True)
class Confirmation:
    """The address a confirmation key was mailed to, and how far it got."""

    channel_id: int
    token_hash: str | None
    confirmed: bool
    sent_at: datetime | None


@dataclass(frozen=True)
class Due:
    """An alert to send now, with the channel it goes out on."""

    id: int
    room_id: str
    seat: int
    game_no: int
    turn_seq: int
    kind: str
    attempts: int
    channel: Channel


@dataclass(frozen=True)
class NewAlert:
    room_id: str
    channel_id: int
    seat: int
    game_no: int
    turn_seq: int
    kind: str
    next_at: datetime


def utc(value: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; they were written in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _insert(session: AsyncSession, table: Any) -> Any:
    dialect = session.get_bind().dialect.name
    return (postgresql if dialect == "postgresql" else sqlite).insert(table)


def _channel(row: AlertChannel) -> Channel:
    return Channel(
        id=row.id,
        room_id=row.room_id,
        token_hash=row.token_hash,
        kind=row.kind,
        target=row.target,
        data=dict(row.data),
        confirmed=row.kind != "email" or row.confirmed_at is not None,
        asked_at=utc(row.confirm_sent_at) if row.confirm_sent_at is not None else None,
    )


# -- keys ----------------------------------------------------------------------


async def key(session: AsyncSession, name: str, make: str) -> str:
    """The key called ``name``; ``make`` is stored first if there is none (first writer wins)."""
    await session.execute(
        _insert(session, AlertKey).values(name=name, value=make).on_conflict_do_nothing()
    )
    value = await session.scalar(select(AlertKey.value).where(AlertKey.name == name))
    assert value is not None
    return value


# -- seat settings -------------------------------------------------------------


async def seat_settings(
    session: AsyncSession, room_id: str, token_hash: str
) -> SeatSettings | None:
    row = await session.get(AlertSeat, (room_id, token_hash))
    return SeatSettings(row.token_hash, row.lang, row.stop_key) if row is not None else None


async def save_seat_settings(
    session: AsyncSession, room_id: str, token_hash: str, lang: str | None
) -> SeatSettings:
    """Create the seat's settings (with a fresh stop key) or change its language.

    Two first settings at once both land on the one row: the insert that comes second
    does nothing, and the row is read locked before its language changes."""
    await session.execute(
        _insert(session, AlertSeat)
        .values(
            room_id=room_id,
            token_hash=token_hash,
            lang=lang or "en",
            stop_key=secrets.token_urlsafe(32),
        )
        .on_conflict_do_nothing()
    )
    row = await session.scalar(
        select(AlertSeat)
        .where(AlertSeat.room_id == room_id, AlertSeat.token_hash == token_hash)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    assert row is not None  # inserted above or by the transaction that came first
    if lang is not None:
        row.lang = lang
    await session.flush()
    return SeatSettings(row.token_hash, row.lang, row.stop_key)


async def seat_by_stop_key(
    session: AsyncSession, room_id: str, stop_key: str
) -> SeatSettings | None:
    row = await session.scalar(
        select(AlertSeat).where(AlertSeat.room_id == room_id, AlertSeat.stop_key == stop_key)
    )
    return SeatSettings(row.token_hash, row.lang, row.stop_key) if row is not None else None


# -- channels ------------------------------------------------------------------


async def add_channel(
    session: AsyncSession,
    room_id: str,
    token_hash: str | None,
    kind: str,
    target: str,
    data: dict[str, Any],
    replace_all: bool,
) -> int:
    """Add a channel; the same target (or, with ``replace_all``, any of this kind) is replaced.

    Returns the new channel's id. An e-mail channel starts unconfirmed."""
    await remove_channels(session, room_id, token_hash, kind, None if replace_all else target)
    row = AlertChannel(room_id=room_id, token_hash=token_hash, kind=kind, target=target, data=data)
    session.add(row)
    await session.flush()
    return row.id


async def email_channel(session: AsyncSession, room_id: str, token_hash: str) -> Channel | None:
    """The person's address in this room, if they left one."""
    row = await session.scalar(
        select(AlertChannel).where(
            AlertChannel.room_id == room_id,
            AlertChannel.token_hash == token_hash,
            AlertChannel.kind == "email",
        )
    )
    return _channel(row) if row is not None else None


async def confirmation_queued(session: AsyncSession, channel_id: int) -> bool:
    """Whether a confirmation mail for this address still waits to go out."""
    found = await session.scalar(
        select(OutboxRow.id).where(
            OutboxRow.channel_id == channel_id,
            OutboxRow.kind == CONFIRM,
            OutboxRow.status == PENDING,
        )
    )
    return found is not None


async def confirmation_mailed(
    session: AsyncSession, channel_id: int, key_hash: str, at: datetime
) -> bool:
    """Note the key of the confirmation mail about to go out (any earlier key is void).

    False if the address was removed or confirmed meanwhile: then no mail goes."""
    result = await session.execute(
        update(AlertChannel)
        .where(AlertChannel.id == channel_id, AlertChannel.confirmed_at.is_(None))
        .values(confirm_hash=key_hash, confirm_sent_at=at)
    )
    return bool(getattr(result, "rowcount", 0))


async def confirmation(session: AsyncSession, room_id: str, key_hash: str) -> Confirmation | None:
    row = await session.scalar(
        select(AlertChannel).where(
            AlertChannel.room_id == room_id,
            AlertChannel.confirm_hash == key_hash,
            AlertChannel.kind == "email",
        )
    )
    if row is None:
        return None
    sent = utc(row.confirm_sent_at) if row.confirm_sent_at is not None else None
    return Confirmation(row.id, row.token_hash, row.confirmed_at is not None, sent)


async def confirm(session: AsyncSession, channel_id: int, at: datetime) -> None:
    await session.execute(
        update(AlertChannel)
        .where(AlertChannel.id == channel_id, AlertChannel.confirmed_at.is_(None))
        .values(confirmed_at=at)
    )


async def keep_newest(
    session: AsyncSession, room_id: str, token_hash: str, kind: str, count: int
) -> None:
    """Drop all but the ``count`` newest channels of this kind of one person."""
    mine = await _locked_ids(
        session,
        AlertChannel.room_id == room_id,
        AlertChannel.token_hash == token_hash,
        AlertChannel.kind == kind,
    )
    ids = mine[: max(0, len(mine) - count)]
    if ids:
        await session.execute(delete(OutboxRow).where(OutboxRow.channel_id.in_(ids)))
        await session.execute(delete(AlertChannel).where(AlertChannel.id.in_(ids)))


async def lock_channels(session: AsyncSession, room_id: str) -> None:
    """Hold the room's channels FOR KEY SHARE, in id order, before any alert of the room
    is touched: a removal locks its channels before their alerts too, so a transaction
    that changes a room's alerts and one that removes a channel take their locks in the
    same order and never wait on each other in a circle (PostgreSQL; SQLite has one
    writer at a time, and nothing to wait for: no statement there)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    await session.execute(
        select(AlertChannel.id)
        .where(AlertChannel.room_id == room_id)
        .order_by(AlertChannel.id)
        .with_for_update(read=True, key_share=True)
    )


async def _locked_ids(session: AsyncSession, *where: Any) -> list[int]:
    """The ids of the channels ``where`` picks, locked for removal in id order, before
    their alerts are (see ``lock_channels``)."""
    query = select(AlertChannel.id).where(*where).order_by(AlertChannel.id).with_for_update()
    return list(await session.scalars(query))


async def remove_channels(
    session: AsyncSession, room_id: str, token_hash: str | None, kind: str, target: str | None
) -> int:
    """Remove channels (and with them their unsent alerts); returns how many."""
    owner = (
        AlertChannel.token_hash.is_(None)
        if token_hash is None
        else AlertChannel.token_hash == token_hash
    )
    where = [AlertChannel.room_id == room_id, owner, AlertChannel.kind == kind]
    if target is not None:
        where.append(AlertChannel.target == target)
    ids = await _locked_ids(session, *where)
    if ids:
        await session.execute(delete(OutboxRow).where(OutboxRow.channel_id.in_(ids)))
        await session.execute(delete(AlertChannel).where(AlertChannel.id.in_(ids)))
    return len(ids)


async def forget_person(session: AsyncSession, room_id: str, token_hash: str) -> int:
    """A person the host freed from their seat: their channels, unsent alerts and
    settings go (an address is kept for nothing but that seat's alerts)."""
    ids = await _locked_ids(
        session, AlertChannel.room_id == room_id, AlertChannel.token_hash == token_hash
    )
    if ids:
        await session.execute(delete(OutboxRow).where(OutboxRow.channel_id.in_(ids)))
        await session.execute(delete(AlertChannel).where(AlertChannel.id.in_(ids)))
    await session.execute(
        delete(AlertSeat).where(AlertSeat.room_id == room_id, AlertSeat.token_hash == token_hash)
    )
    return len(ids)


async def channels(
    session: AsyncSession, room_id: str, token_hashes: Iterable[str], webhook: bool = True
) -> list[Channel]:
    """The channels of these people in the room, and the room's webhook.

    Read FOR KEY SHARE (PostgreSQL; SQLite has one writer at a time), in id order as
    every removal locks them: an alert queued for one of them in this transaction
    can't lose its channel to a removal that commits meanwhile (the insert would
    break the outbox's foreign key); the removal waits, and takes the alert with it.
    """
    owners: Any = AlertChannel.token_hash.in_(list(token_hashes))
    if webhook:
        owners = or_(owners, AlertChannel.token_hash.is_(None))
    rows = await session.scalars(
        select(AlertChannel)
        .where(AlertChannel.room_id == room_id, owners)
        .order_by(AlertChannel.id)
        .with_for_update(read=True, key_share=True)
    )
    return [_channel(row) for row in rows]


async def choose_kinds(
    session: AsyncSession,
    room_id: str,
    token_hash: str | None,
    kind: str,
    chosen: dict[str, bool],
) -> int:
    """Note ``chosen`` (alert kind -> on) on the person's channels of ``kind`` (every
    device's push, the address; ``None``: the room's webhook); how many channels."""
    owner = (
        AlertChannel.token_hash.is_(None)
        if token_hash is None
        else AlertChannel.token_hash == token_hash
    )
    # Locked in id order: a channel removed meanwhile is simply not found (rather than
    # an update that matches nothing), two choices made at once both count, and two
    # such transactions never wait on each other.
    rows = list(
        await session.scalars(
            select(AlertChannel)
            .where(AlertChannel.room_id == room_id, owner, AlertChannel.kind == kind)
            .order_by(AlertChannel.id)
            .with_for_update()
        )
    )
    for row in rows:
        row.data = {**row.data, "kinds": {**(row.data.get("kinds") or {}), **chosen}}
    await session.flush()
    return len(rows)


async def chosen_kinds(
    session: AsyncSession, room_id: str, token_hash: str | None, kind: str
) -> dict[str, bool]:
    """What the person chose for their channels of ``kind`` so far (``None``: the room's
    webhook), for the device or address or URL that comes next."""
    owner = (
        AlertChannel.token_hash.is_(None)
        if token_hash is None
        else AlertChannel.token_hash == token_hash
    )
    rows = await session.scalars(
        select(AlertChannel)
        .where(AlertChannel.room_id == room_id, owner, AlertChannel.kind == kind)
        .order_by(AlertChannel.id.desc())
    )
    for row in rows:
        if row.data.get("kinds"):
            return dict(row.data["kinds"])
    return {}


async def channel(session: AsyncSession, channel_id: int) -> Channel | None:
    row = await session.get(AlertChannel, channel_id)
    return _channel(row) if row is not None else None


async def delete_channel(session: AsyncSession, channel_id: int) -> None:
    await _locked_ids(session, AlertChannel.id == channel_id)
    await session.execute(delete(OutboxRow).where(OutboxRow.channel_id == channel_id))
    await session.execute(delete(AlertChannel).where(AlertChannel.id == channel_id))


# -- outbox --------------------------------------------------------------------


async def enqueue(session: AsyncSession, alerts: Sequence[NewAlert]) -> None:
    """Add alerts; one already there for the same channel, seat, turn and kind is kept."""
    if not alerts:
        return
    values = [
        {
            "room_id": a.room_id,
            "channel_id": a.channel_id,
            "seat": a.seat,
            "game_no": a.game_no,
            "turn_seq": a.turn_seq,
            "kind": a.kind,
            "status": PENDING,
            "next_at": a.next_at,
            "attempts": 0,
        }
        for a in alerts
    ]
    await session.execute(_insert(session, OutboxRow).values(values).on_conflict_do_nothing())


async def cancel(
    session: AsyncSession,
    room_id: str,
    seats: Iterable[int] | None = None,
    *,
    kinds: Iterable[str],
) -> None:
    """Unsent alerts of these ``kinds`` for these seats (or every seat) are no longer due.

    Confirmation mails belong to no turn: name them and they still stay."""
    wanted = [k for k in kinds if k != CONFIRM]
    where = [OutboxRow.room_id == room_id, OutboxRow.status == PENDING, OutboxRow.kind.in_(wanted)]
    if seats is not None:
        where.append(OutboxRow.seat.in_(list(seats)))
    await session.execute(update(OutboxRow).where(*where).values(status="cancelled"))


async def pending(session: AsyncSession, room_id: str, kind: str) -> set[tuple[int, int]]:
    """(channel, seat) of the room's alerts of ``kind`` that wait to go out."""
    rows = await session.execute(
        select(OutboxRow.channel_id, OutboxRow.seat).where(
            OutboxRow.room_id == room_id, OutboxRow.status == PENDING, OutboxRow.kind == kind
        )
    )
    return {(channel_id, seat) for channel_id, seat in rows}


async def claim(session: AsyncSession, now: datetime, lease: timedelta, limit: int) -> list[Due]:
    """Take up to ``limit`` due alerts for ``lease``; another process skips them meanwhile."""
    free = or_(OutboxRow.claimed_until.is_(None), OutboxRow.claimed_until < now)
    query = (
        select(OutboxRow)
        .where(OutboxRow.status == PENDING, OutboxRow.next_at <= now, free)
        .order_by(OutboxRow.next_at, OutboxRow.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = list(await session.scalars(query))
    if not rows:
        return []
    await session.execute(
        update(OutboxRow)
        .where(OutboxRow.id.in_([r.id for r in rows]))
        .values(claimed_until=now + lease)
    )
    found = await session.scalars(
        select(AlertChannel).where(AlertChannel.id.in_({r.channel_id for r in rows}))
    )
    by_id = {c.id: _channel(c) for c in found}
    return [
        Due(r.id, r.room_id, r.seat, r.game_no, r.turn_seq, r.kind, r.attempts, by_id[r.channel_id])
        for r in rows
        if r.channel_id in by_id
    ]


async def finish(
    session: AsyncSession, alert_id: int, status: str, now: datetime, error: str | None = None
) -> None:
    """Close an alert: ``sent``, ``skipped`` (no longer due) or ``failed`` (given up)."""
    await session.execute(
        update(OutboxRow)
        .where(OutboxRow.id == alert_id)
        .values(
            status=status,
            sent_at=now if status == "sent" else None,
            claimed_until=None,
            error=error,
        )
    )


async def retry(
    session: AsyncSession, alert_id: int, at: datetime, attempts: int, error: str | None
) -> None:
    """Try again at ``at`` (a failure, or the room's hourly cap is reached)."""
    await session.execute(
        update(OutboxRow)
        .where(OutboxRow.id == alert_id)
        .values(next_at=at, attempts=attempts, claimed_until=None, error=error)
    )


async def sent_since(
    session: AsyncSession, room_id: str, kind: str, since: datetime
) -> list[datetime]:
    """When the room's alerts on channels of ``kind`` went out since ``since``, oldest first."""
    rows = await session.scalars(
        select(OutboxRow.sent_at)
        .join(AlertChannel, AlertChannel.id == OutboxRow.channel_id)
        .where(
            and_(
                OutboxRow.room_id == room_id,
                OutboxRow.status == "sent",
                AlertChannel.kind == kind,
                OutboxRow.sent_at >= since,
            )
        )
        .order_by(OutboxRow.sent_at)
    )
    return [utc(r) for r in rows if r is not None]


async def prune(session: AsyncSession, before: datetime) -> int:
    """Forget alerts that were closed (sent, skipped, cancelled, failed) before ``before``,
    and the mail counts of addresses that got nothing since."""
    result = await session.execute(
        delete(OutboxRow).where(OutboxRow.status != PENDING, OutboxRow.next_at < before)
    )
    await session.execute(delete(AlertAddress).where(AlertAddress.last_at < before))
    return int(getattr(result, "rowcount", 0) or 0)


# -- per-address mail counts ---------------------------------------------------------


async def take_mail_slot(
    session: AsyncSession,
    address_hash: str,
    kind: str,
    now: datetime,
    caps: dict[str | None, tuple[int, timedelta]],
) -> tuple[str | None, datetime | None]:
    """Count one mail of ``kind`` to the address in, if every cap that applies has room.

    ``caps`` maps a kind (``None``: every kind) to (most mails of it, per window): a
    mail of ``kind`` must fit under its own kind's cap and under ``None``'s. Returns
    the slot's id, or when the first slot frees if a cap is reached. The address's
    row is locked meanwhile (``FOR UPDATE`` on PostgreSQL; SQLite has one writer)."""
    await session.execute(
        _insert(session, AlertAddress)
        .values(address_hash=address_hash, sends=[], last_at=now)
        .on_conflict_do_nothing()
    )
    row = await session.scalar(
        select(AlertAddress).where(AlertAddress.address_hash == address_hash).with_for_update()
    )
    assert row is not None
    sends = [s for s in row.sends if datetime.fromisoformat(s[0]) > now - DAY]
    free_at: datetime | None = None
    for capped, (most, window) in caps.items():
        if capped is not None and capped != kind:
            continue
        times = sorted(
            datetime.fromisoformat(s[0])
            for s in sends
            if (capped is None or s[1] == capped) and datetime.fromisoformat(s[0]) > now - window
        )
        if len(times) >= most:
            frees = times[len(times) - most] + window
            free_at = frees if free_at is None else max(free_at, frees)
    if free_at is not None:
        return None, free_at
    slot = secrets.token_hex(8)
    row.sends = [*sends, [now.isoformat(), kind, slot]]
    row.last_at = now
    await session.flush()
    return slot, None


async def give_back_mail_slot(session: AsyncSession, address_hash: str, slot: str) -> None:
    """A mail that did not go out no longer counts."""
    row = await session.scalar(
        select(AlertAddress).where(AlertAddress.address_hash == address_hash).with_for_update()
    )
    if row is not None:
        row.sends = [s for s in row.sends if s[2] != slot]
        await session.flush()


# -- one set-up for many tables, and the daily digest --------------------------------


async def confirmed_address(
    session: AsyncSession, seats: Iterable[tuple[str, str]], address: str
) -> bool:
    """Whether one of these (room, token hash) seats has ``address`` confirmed already."""
    wanted = address.strip().lower()
    for room_id, token_hash in seats:
        found = await email_channel(session, room_id, token_hash)
        if found is not None and found.confirmed and found.target.strip().lower() == wanted:
            return True
    return False


async def set_channel_data(session: AsyncSession, channel_id: int, changes: dict[str, Any]) -> None:
    """Merge ``changes`` into one channel's ``data`` (read locked, so two changes both count)."""
    row = await session.scalar(
        select(AlertChannel).where(AlertChannel.id == channel_id).with_for_update()
    )
    if row is not None:
        row.data = {**row.data, **changes}
        await session.flush()


async def group_of(session: AsyncSession, channel_id: int) -> list[AlertChannel]:
    """The unconfirmed addresses asked for together with this one (itself included).

    A set-up for many tables at once marks its channels with one ``group`` in their
    data, so one confirmation mail covers them all."""
    row = await session.get(AlertChannel, channel_id)
    group = row.data.get("group") if row is not None else None
    if row is None or not group:
        return [row] if row is not None else []
    rows = await session.scalars(
        select(AlertChannel).where(
            AlertChannel.kind == "email",
            AlertChannel.target == row.target,
            AlertChannel.confirmed_at.is_(None),
        )
    )
    return [r for r in rows if r.data.get("group") == group]


async def confirm_group(session: AsyncSession, channel_id: int, at: datetime) -> int:
    """Confirm an address and every address asked for in the same set-up; how many."""
    members = await group_of(session, channel_id)
    ids = sorted({channel_id, *(r.id for r in members)})
    await session.execute(
        update(AlertChannel)
        .where(AlertChannel.id.in_(ids), AlertChannel.confirmed_at.is_(None))
        .values(confirmed_at=at)
    )
    return len(ids)


async def drop_group(session: AsyncSession, channel_id: int) -> None:
    """The owner cancelled a request for many tables: its unconfirmed addresses all go."""
    members = [r.id for r in await group_of(session, channel_id)]
    ids = await _locked_ids(session, AlertChannel.id.in_(members)) if members else []
    if ids:
        await session.execute(delete(OutboxRow).where(OutboxRow.channel_id.in_(ids)))
        await session.execute(delete(AlertChannel).where(AlertChannel.id.in_(ids)))


async def waiting_mails(
    session: AsyncSession, address: str, kinds: Iterable[str], besides: int
) -> list[Due]:
    """The unsent alerts of ``kinds`` to ``address`` (in any spelling of its case) on
    every confirmed address channel that takes a digest, but the alert ``besides``."""
    rows = await session.execute(
        select(OutboxRow, AlertChannel)
        .join(AlertChannel, AlertChannel.id == OutboxRow.channel_id)
        .where(
            OutboxRow.status == PENDING,
            OutboxRow.kind.in_(list(kinds)),
            OutboxRow.id != besides,
            AlertChannel.kind == "email",
            AlertChannel.confirmed_at.is_not(None),
            func.lower(AlertChannel.target) == address.strip().lower(),
        )
        .order_by(OutboxRow.id)
    )
    wanted = address.strip().lower()
    found: list[Due] = []
    for r, c in rows:
        if c.target.strip().lower() != wanted or c.data.get("each_turn"):
            continue
        found.append(
            Due(r.id, r.room_id, r.seat, r.game_no, r.turn_seq, r.kind, r.attempts, _channel(c))
        )
    return found


async def fold_in(
    session: AsyncSession, alert_ids: Sequence[int], now: datetime, note: str
) -> None:
    """Alerts told in a digest mail are sent with it (unless they closed meanwhile)."""
    if alert_ids:
        await session.execute(
            update(OutboxRow)
            .where(OutboxRow.id.in_(list(alert_ids)), OutboxRow.status == PENDING)
            .values(status="sent", sent_at=now, claimed_until=None, error=note)
        )
