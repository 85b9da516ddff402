"""The replay's questions to the log: where each game lies, the events between two seqs,
the snapshots nearest a step. Like ``app/play/store.py`` these take an open session;
unlike it they only read, and nothing on the move path asks them."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.kinds import GAME_OVER, GAME_STARTED, MOVE, UNDO
from app.play.store import EVENT_COLUMNS, EVENTS, EventRecord, SnapshotRecord, event_record
from app.play.tables import Event, Snapshot


async def game_index(session: AsyncSession, room_id: str) -> list[tuple[int, str]]:
    """``(seq, kind)`` of every game event of a room, oldest first: no payloads, so it is light."""
    rows = await session.execute(
        select(Event.seq, Event.kind)
        .where(
            Event.room_id == room_id,
            Event.kind.in_((GAME_STARTED, MOVE, GAME_OVER, UNDO)),
        )
        .order_by(Event.seq)
    )
    return [(int(seq), str(kind)) for seq, kind in rows]


async def events_between(
    session: AsyncSession,
    room_id: str,
    after: int,
    upto: int,
    kinds: Sequence[str] | None = None,
    skip: Sequence[str] = (),
) -> list[EventRecord]:
    """The events with ``after < seq <= upto`` (of ``kinds``, if given, not of ``skip``)."""
    query = select(*EVENT_COLUMNS).where(
        EVENTS.c.room_id == room_id, EVENTS.c.seq > after, EVENTS.c.seq <= upto
    )
    if kinds is not None:
        query = query.where(EVENTS.c.kind.in_(tuple(kinds)))
    if skip:
        query = query.where(EVENTS.c.kind.not_in(tuple(skip)))
    connection = await session.connection()
    return [event_record(row) for row in await connection.execute(query.order_by(EVENTS.c.seq))]


async def latest_snapshot_before(
    session: AsyncSession, room_id: str, seq: int
) -> SnapshotRecord | None:
    """The newest snapshot of any game taken before ``seq``."""
    row = await session.scalar(
        select(Snapshot)
        .where(Snapshot.room_id == room_id, Snapshot.seq < seq)
        .order_by(Snapshot.seq.desc())
        .limit(1)
    )
    if row is None:
        return None
    return SnapshotRecord(seq=row.seq, game_no=row.game_no, state=dict(row.state))


async def snapshot_at_or_before(
    session: AsyncSession, room_id: str, seq: int, game_no: int
) -> SnapshotRecord | None:
    """The newest snapshot of game ``game_no`` taken at or before ``seq``."""
    row = await session.scalar(
        select(Snapshot)
        .where(Snapshot.room_id == room_id, Snapshot.seq <= seq, Snapshot.game_no == game_no)
        .order_by(Snapshot.seq.desc())
        .limit(1)
    )
    if row is None:
        return None
    return SnapshotRecord(seq=row.seq, game_no=row.game_no, state=dict(row.state))
