"""The rooms' SQL: rooms, seats, the append-only log, snapshots, deadlines.

The other SQL of the server lives beside what it serves: the alerts' tables in
``app/alerts/store.py``, the replay's read-only questions to the log in
``app/history/queries.py``, backups in ``app/core/backup.py``.

Every function takes a session inside an open transaction; callers decide the
unit of work. Appends state the ``seq`` they expect to write; the unique
constraint on (room, seq) turns a race into ``Conflict``, never a duplicate.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

import asyncpg
from sqlalchemy import Table, delete, func, insert, or_, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from app.core.errors import busy
from app.play.tables import Away, Deadline, Event, Room, Seat, Snapshot

log = logging.getLogger(__name__)


class Conflict(Exception):
    """Another writer took the sequence number (or the row) first."""


# PostgreSQL ends one of two transactions that wait on each other (40P01: say, one holds
# a room's next seq and wants a seat row the other holds, which waits for that seq), or
# one it can't serialise (40001): a race lost like a taken seq, and tried again the same way
LOST_RACE = frozenset({"40P01", "40001"})


def lost_race(exc: BaseException) -> bool:
    return isinstance(exc, DBAPIError) and getattr(exc.orig, "sqlstate", None) in LOST_RACE


@dataclass(frozen=True)
class RoomRecord:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    rules: dict[str, Any]
    creator_seat: int
    status: str
    created_at: datetime | None


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str | None
    bot: str | None
    claimed: bool
    stand_in: str | None = None
    away_until: str | None = None


@dataclass(frozen=True)
class EventRecord:
    seq: int
    kind: str
    data: dict[str, Any]
    public: dict[str, Any]
    created_at: datetime | None


@dataclass(frozen=True)
class SnapshotRecord:
    seq: int
    game_no: int
    state: dict[str, Any]


T = TypeVar("T")
# the session's list of event rows a grouped write stages for its one INSERT
_STAGED = "staged_events"


class NestedTransaction(RuntimeError):
    """A store session was asked for while this task already holds one.

    On SQLite the second one waits for the lock the first holds, forever, and so does
    every later caller of the process; on PostgreSQL each such request holds two pool
    connections and a burst of them empties the pool. Pass the open session down, or
    read before or after it, instead.
    """


class NeedsSession(Exception):
    """A write's work asked its staging session for more than to take event rows."""


class _Staging:
    """The session a grouped write's work is tried on first, on SQLite: it takes the
    event rows ``append_events`` stages in ``info`` and nothing else. Any other use
    raises ``NeedsSession``, and the work runs again in a real transaction (the work
    of a grouped write is safe to run again, ``Store.write``)."""

    def __init__(self) -> None:
        self.info: dict[str, Any] = {_STAGED: []}

    def __getattr__(self, name: str) -> Any:
        raise NeedsSession(name)


@dataclass
class _Open:
    """The store session the current task is inside (context variables reach the tasks
    it starts, and the group writer's work runs in its caller's context): ``open`` is
    cleared when that session ends, so a task started inside it may still open one
    of its own later."""

    what: str
    open: bool = True


_inside: contextvars.ContextVar[_Open | None] = contextvars.ContextVar(
    "store_session", default=None
)


def _not_inside(what: str) -> None:
    held = _inside.get()
    if held is not None and held.open:
        raise NestedTransaction(
            f"Store.{what}() inside an open Store.{held.what}() of the same task: "
            "pass that session down (or read before or after it) instead of opening another"
        )


def in_session() -> bool:
    """Whether the current task is inside a store session (for assertions and tests)."""
    held = _inside.get()
    return held is not None and held.open


@dataclass
class _Write:
    """A write waiting for its group: its room, its work and its caller's context."""

    room_id: str
    work: Callable[[AsyncSession], Coroutine[Any, Any, Any]]
    context: contextvars.Context
    done: asyncio.Future[Any]

    async def run(self, session: AsyncSession) -> Any:
        """``work`` in its caller's context, marked as inside the writer's transaction."""
        held = _inside.get()

        async def inside() -> Any:
            token = _inside.set(held)
            try:
                return await self.work(session)
            finally:
                _inside.reset(token)

        return await asyncio.get_running_loop().create_task(inside(), context=self.context)


class Store:
    """Opens transactions; the functions below do the work inside them.

    SQLite has one writer at a time, and every transaction here begins IMMEDIATE
    (app/core/db.py). With ``one_at_a_time`` this process's transactions queue on an
    asyncio lock, first come first served, instead of meeting at SQLite's lock,
    whose busy handler waits by sleeping (up to 100 ms a try) however soon the
    other writer is done. Other processes on the same file still meet there.

    A task holds at most one session of the store at a time (``NestedTransaction``):
    code inside a session takes that session as an argument.
    """

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        one_at_a_time: bool = False,
        group_writes: bool = False,
        inline_writes: bool = False,
    ) -> None:
        self._sessions = sessions
        self._engine: AsyncEngine | None = sessions.kw.get("bind")
        inline = one_at_a_time and inline_writes
        self._inline: _Inline = _InlineWriter(self._engine) if inline else _NoInline()
        postgres = self._engine is not None and self._engine.dialect.name == "postgresql"
        self._held = _HeldConnection(self._engine) if postgres and group_writes else None
        self._turn = asyncio.Lock() if one_at_a_time else None
        self._group = one_at_a_time or group_writes
        self._queued: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None

    async def write(
        self, room_id: str, work: Callable[[AsyncSession], Coroutine[Any, Any, T]]
    ) -> T:
        """``work`` in a transaction it shares with the writes queued beside it (group
        commit), or, unless the store groups writes, in one of its own.

        A write for ``room_id`` queues, and one writer at a time runs all queued
        writes (one a room) in one transaction: their event rows go in one statement,
        and one commit makes them all durable. SQLite commits one transaction at a
        time anyway; on PostgreSQL the writes that queue while a commit is flushed
        share the next one, instead of each paying its own round trips and flush.
        The rooms go in the order of their ids, so two processes' groups take their
        locks in the same order. If any write fails, none of that transaction is
        kept, and each runs again alone: a lost race is then told to the write that
        lost it (``Conflict``), and the others are kept. ``work`` runs in its caller's
        context (context variables), and must be safe to run again.
        """
        _not_inside("write")
        if not self._group:
            async with self.transaction() as session:
                return await work(session)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append(_Write(room_id, work, contextvars.copy_context(), done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        result: T = await done
        return result

    async def _write_queued(self) -> None:
        while self._queued:
            batch: list[_Write] = []
            later: list[_Write] = []
            rooms: set[str] = set()
            for item in self._queued:
                (later if item.room_id in rooms else batch).append(item)
                rooms.add(item.room_id)
            self._queued = later
            batch.sort(key=lambda item: item.room_id)
            await self._write_batch(batch)

    async def _write_batch(self, batch: list[_Write]) -> None:
        if (self._turn is not None or self._held is not None) and await self._write_staged(batch):
            return
        if len(batch) > 1:
            results: list[Any] = []
            try:
                async with self.transaction() as session:
                    staged: list[dict[str, Any]] = []
                    session.info[_STAGED] = staged
                    for item in batch:
                        results.append(await item.run(session))
                    del session.info[_STAGED]
                    await _insert_rows(await session.connection(), staged)
            except Exception:
                log.info("a group of %d writes failed together; each goes alone", len(batch))
            else:
                for item, result in zip(batch, results, strict=True):
                    if not item.done.done():
                        item.done.set_result(result)
                return
        for item in batch:
            try:
                async with self.transaction() as session:
                    result = await item.run(session)
            except Exception as exc:
                if not item.done.done():
                    item.done.set_exception(exc)
            else:
                if not item.done.done():
                    item.done.set_result(result)

    async def _write_staged(self, batch: list[_Write]) -> bool:
        """The short way for writes that only append events (a move or a chat line
        where no alert, deadline, status or snapshot needs writing): each work runs on
        a staging session, and all their rows go in with one statement and one commit,
        with no ORM session around them (which costs more than the statement and the
        commit together, docs/benchmarks.md). On SQLite on this thread
        (``_InlineWriter``) or, when the database is busy, on the driver's connection;
        on PostgreSQL on the store's own connection (``_HeldConnection``). False, with
        nothing written, when a work needs more, fails, or the rows don't go in (a
        seq taken by another process, a connection lost): the usual way then runs
        every work again and tells each its outcome."""
        results: list[Any] = []
        rows: list[dict[str, Any]] = []
        mark = _Open("write")
        token = _inside.set(mark)
        try:
            for item in batch:
                staging = _Staging()
                results.append(await item.run(staging))  # type: ignore[arg-type]
                rows.extend(staging.info[_STAGED])
        except Exception:  # NeedsSession, or an error the usual way will tell
            return False
        finally:
            mark.open = False
            _inside.reset(token)
        try:
            if self._held is not None:
                await self._held.write(rows)
            else:
                assert self._turn is not None
                async with self._turn:
                    if not self._inline.write(rows):
                        await _commit_on_sqlite(self._engine, rows)
        except Exception as exc:
            log.debug("the staged write of %d rows went the usual way: %s", len(rows), exc)
            return False
        for item, result in zip(batch, results, strict=True):
            if not item.done.done():
                item.done.set_result(result)
        return True

    def close(self) -> None:
        """Close the connection of the inline writes, or the held one (the pool's are
        the engine's)."""
        self._inline.close()
        if self._held is not None:
            self._held.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncSession]:
        """A session for reads that need no snapshot across statements: the log only
        grows and snapshots never change, so each query stands alone. On PostgreSQL it
        runs in autocommit, one round trip a query instead of BEGIN, query, COMMIT.

        Like ``transaction``, never inside another session of the same task
        (``NestedTransaction``)."""
        _not_inside("reading")
        bind = self._sessions.kw.get("bind")
        if self._turn is not None or not isinstance(bind, AsyncEngine):
            async with self.transaction() as session:
                yield session
            return
        mark = _Open("reading")
        token = _inside.set(mark)
        try:
            async with bind.connect() as connection:
                autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
                async with AsyncSession(bind=autocommit, expire_on_commit=False) as session:
                    yield session
        finally:
            mark.open = False
            _inside.reset(token)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction of its own, committed when the block ends.

        Raises ``NestedTransaction`` at once when the task is inside another session
        of the store already (on SQLite it would wait on its own lock for ever), and
        ``Conflict`` when PostgreSQL ends it as one of two that wait on each other."""
        _not_inside("transaction")
        mark = _Open("transaction")
        token = _inside.set(mark)
        try:
            if self._turn is None:
                async with self._sessions() as session, session.begin():
                    yield session
            else:
                async with self._turn, self._sessions() as session, session.begin():
                    yield session
        except DBAPIError as exc:
            if lost_race(exc):
                raise Conflict(f"the database ended this transaction: {exc.orig}") from exc
            raise
        finally:
            mark.open = False
            _inside.reset(token)

    async def retried(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """``work`` in a transaction of its own, tried again from the start when PostgreSQL
        ends the transaction as one of two that wait on each other: one of two writers
        that took the same rows in another order goes on, the other waits its turn. Past
        ``TRANSACTION_TRIES`` lost races, 409 ``busy``. ``work`` must be safe to run
        again: nothing it did in a transaction that ended was kept."""
        for _ in range(TRANSACTION_TRIES):
            try:
                async with self.transaction() as session:
                    return await work(session)
            except Conflict:
                continue
        raise busy()


# how often ``Store.retried`` tries a transaction PostgreSQL ended as a deadlock's victim
TRANSACTION_TRIES = 8
# seconds before the held PostgreSQL connection is opened again after it could not be
HELD_RETRY_AFTER = 5.0


def _room(row: Room) -> RoomRecord:
    return RoomRecord(
        id=row.id,
        game=row.game,
        players=row.players,
        options=dict(row.options),
        rules=dict(row.rules),
        creator_seat=row.creator_seat,
        status=row.status,
        created_at=row.created_at,
    )


async def create_room(session: AsyncSession, room: RoomRecord) -> None:
    session.add(
        Room(
            id=room.id,
            game=room.game,
            players=room.players,
            options=room.options,
            rules=room.rules,
            creator_seat=room.creator_seat,
            status=room.status,
        )
    )
    for seat in range(room.players):
        session.add(Seat(room_id=room.id, seat=seat))
    await session.flush()


async def get_room(session: AsyncSession, room_id: str) -> RoomRecord | None:
    row = await session.get(Room, room_id)
    return _room(row) if row is not None else None


async def set_status(session: AsyncSession, room_id: str, status: str) -> None:
    await session.execute(update(Room).where(Room.id == room_id).values(status=status))


async def claim_seat(
    session: AsyncSession, room_id: str, seat: int, name: str, token_hash: str
) -> bool:
    """Take a free seat; False if someone (or a bot) sits there already."""
    result = await session.execute(
        update(Seat)
        .where(
            Seat.room_id == room_id,
            Seat.seat == seat,
            Seat.token_hash.is_(None),
            Seat.bot.is_(None),
        )
        .values(name=name, token_hash=token_hash, stand_in=None)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


async def set_bot(session: AsyncSession, room_id: str, seat: int, bot: str | None) -> bool:
    """Make a free seat a bot, or free a bot seat again; False if a person sits there."""
    result = await session.execute(
        update(Seat)
        .where(Seat.room_id == room_id, Seat.seat == seat, Seat.token_hash.is_(None))
        .values(bot=bot, name=None)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


async def permute_seats(session: AsyncSession, room_id: str, order: Sequence[int]) -> None:
    """Seat ``i`` takes who sat at ``order[i]``: names, tokens and bots move together."""
    rows = list(await session.scalars(select(Seat).where(Seat.room_id == room_id)))
    by_seat = {row.seat: (row.name, row.token_hash, row.bot) for row in rows}
    # tokens are unique: clear them all before writing them back in their new places
    await session.execute(update(Seat).where(Seat.room_id == room_id).values(token_hash=None))
    await session.flush()
    for seat, source in enumerate(order):
        name, token_hash, bot = by_seat[source]
        await session.execute(
            update(Seat)
            .where(Seat.room_id == room_id, Seat.seat == seat)
            .values(name=name, token_hash=token_hash, bot=bot)
        )


async def heads(session: AsyncSession, room_ids: Sequence[str]) -> dict[str, int]:
    """The newest seq of each of ``room_ids`` that has events, in one query."""
    if not room_ids:
        return {}
    rows = await session.execute(
        select(EVENTS.c.room_id, func.max(EVENTS.c.seq))
        .where(EVENTS.c.room_id.in_(list(room_ids)))
        .group_by(EVENTS.c.room_id)
    )
    return {str(room_id): int(seq) for room_id, seq in rows}


async def append_events(
    session: AsyncSession,
    room_id: str,
    first_seq: int,
    events: Sequence[tuple[str, dict[str, Any], dict[str, Any]]],
    at: datetime | None = None,
) -> list[EventRecord]:
    """Append ``(kind, data, public)`` rows at ``first_seq``, ``first_seq + 1`` …

    Returns the rows as written (with ``at`` as their time, now by default), so the
    caller can hand them on without reading them back. Raises ``Conflict`` when any
    of those numbers is taken; the caller's transaction is then spoiled and must be
    rolled back (leaving the ``transaction`` block does it).
    """
    at = at or datetime.now(UTC)
    rows = [
        {
            "room_id": room_id,
            "seq": first_seq + offset,
            "kind": kind,
            "data": data,
            "public": public,
            "created_at": at,
        }
        for offset, (kind, data, public) in enumerate(events)
    ]
    staged = session.info.get(_STAGED)
    if staged is not None:  # a grouped write: the group inserts every row at once
        staged.extend(rows)
        return _records(first_seq, events, at)
    try:
        await _insert_rows(await session.connection(), rows)
    except (IntegrityError, sqlite3.IntegrityError) as exc:
        raise Conflict(f"seq {first_seq} of room {room_id} is taken") from exc
    return _records(first_seq, events, at)


async def _insert_rows(connection: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """Event rows in one statement: SQLite's through its driver, PostgreSQL's as Core."""
    if connection.dialect.name == "sqlite":
        await _insert_on_sqlite(connection, rows)
    elif rows:
        await connection.execute(insert(EVENTS), rows)


def _records(
    first_seq: int, events: Sequence[tuple[str, dict[str, Any], dict[str, Any]]], at: datetime
) -> list[EventRecord]:
    return [
        EventRecord(seq=first_seq + offset, kind=kind, data=data, public=public, created_at=at)
        for offset, (kind, data, public) in enumerate(events)
    ]


EVENTS: Table = Event.__table__  # type: ignore[assignment]  # a Table, declared as FromClause
_SQLITE_INSERT = (
    "INSERT INTO events (room_id, seq, kind, data, public, created_at) VALUES (?, ?, ?, ?, ?, ?)"
)


async def _insert_on_sqlite(connection: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """The hot path's one write on SQLite, in one call on the driver's thread.

    Through SQLAlchemy a statement costs three hand-overs to aiosqlite's thread
    (cursor, execute, close), each a wait for the event loop; the driver's own
    ``executemany`` is one, inside the same transaction. Values are stored exactly
    as SQLAlchemy stores them (JSON text, naive UTC ``DATETIME`` text), and read
    back through it as usual.
    """
    if not rows:
        return
    raw = await connection.get_raw_connection()
    driver = raw.driver_connection
    assert driver is not None  # a connection in use has its driver's connection
    await driver.executemany(_SQLITE_INSERT, [_sqlite_row(r) for r in rows])


def _sqlite_row(r: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        r["room_id"],
        r["seq"],
        r["kind"],
        json.dumps(r["data"]),
        json.dumps(r["public"]),
        r["created_at"].astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"),
    )


class _Inline(Protocol):
    def write(self, rows: list[dict[str, Any]]) -> bool: ...

    def close(self) -> None: ...


class _NoInline:
    def write(self, rows: list[dict[str, Any]]) -> bool:
        return False

    def close(self) -> None:
        return None


class _InlineWriter:
    """Event rows written on the event loop's own thread, on a connection of its own:
    one WAL commit (``synchronous=NORMAL``: no sync of the disk) costs less than the
    hand-over to a driver thread and back. Only with ``SQLITE_SYNCHRONOUS=normal``: a
    commit that syncs the disk (``full``) would hold the event loop for the sync, and
    goes through the driver's thread instead. It never waits: a database another process
    holds (``busy_timeout`` 0) returns False at once, and the driver's way, which may
    wait, takes the rows. It never checkpoints either (``wal_autocheckpoint`` 0): the
    pool's connections do, on their threads."""

    def __init__(self, engine: AsyncEngine | None) -> None:
        self._path = engine.url.database if engine is not None else None
        self._conn: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection | None:
        if self._conn is None and self._path not in (None, "", ":memory:"):
            conn = sqlite3.connect(str(self._path), isolation_level=None, timeout=0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=0")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._conn = conn
        return self._conn

    def write(self, rows: list[dict[str, Any]]) -> bool:
        conn = self._connection()
        if conn is None:
            return False
        if not rows:
            return True
        if conn.in_transaction:  # never left open: it would hold the write lock
            self.close()
            return False
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:  # busy: another process writes
            return False
        try:
            conn.executemany(_SQLITE_INSERT, [_sqlite_row(r) for r in rows])
            conn.execute("COMMIT")
        except BaseException:
            # a transaction left open would hold the write lock from every other
            # connection: rolled back, or the connection closed, which ends it
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                self.close()
            raise
        return True

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


_PG_INSERT = (
    "INSERT INTO events (room_id, seq, kind, data, public, created_at) "
    "VALUES ($1, $2, $3, $4::json, $5::json, $6)"
)


class _HeldConnection:
    """PostgreSQL's short way: the group writer's event rows go in on a connection the
    store holds for them alone, through the driver (asyncpg) with no pool and no
    SQLAlchemy between: no checkout, no ping before each use, no hand-over to an
    ORM session, one prepared statement. One group is written at a time
    (``Store.write``), so one connection is enough. Any error closes it: the rows then
    go the usual way (whose pool pings before use), and the next group opens another.
    A connection that could not be opened is not tried again for ``HELD_RETRY_AFTER``
    seconds (a database that refuses it would otherwise cost every group a failed
    connect before the usual way). Values are stored as SQLAlchemy stores them (JSON
    text), and read back through it."""

    def __init__(self, engine: AsyncEngine | None) -> None:
        assert engine is not None
        self._dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: asyncpg.Connection | None = None
        self._failed_at: float | None = None

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is not None and not self._conn.is_closed():
            return self._conn
        failed = self._failed_at
        if failed is not None and time.monotonic() - failed < HELD_RETRY_AFTER:
            raise ConnectionError("the held connection could not be opened lately")
        try:
            self._conn = await asyncpg.connect(self._dsn)
        except BaseException:
            self._failed_at = time.monotonic()
            raise
        self._failed_at = None
        return self._conn

    async def write(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        args = [
            (
                r["room_id"],
                r["seq"],
                r["kind"],
                json.dumps(r["data"]),
                json.dumps(r["public"]),
                r["created_at"],
            )
            for r in rows
        ]
        try:
            conn = await self._connection()
            async with conn.transaction():
                if len(args) == 1:
                    await conn.execute(_PG_INSERT, *args[0])
                else:
                    await conn.executemany(_PG_INSERT, args)
        except asyncpg.UniqueViolationError:
            raise  # a seq taken: the transaction is rolled back, the connection good
        except BaseException:
            # whatever else went wrong (a lost server, a cancelled write) may have left
            # the connection in doubt: the next group opens another
            self.close()
            raise

    def close(self) -> None:
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None


async def _commit_on_sqlite(engine: AsyncEngine | None, rows: list[dict[str, Any]]) -> None:
    """Event rows in one transaction of their own on a pooled connection, through the
    driver alone: its ``executemany`` (which begins the transaction, IMMEDIATE, in the
    same call) and its commit, two hand-overs to its thread; rolled back on any error."""
    if not rows:
        return
    assert engine is not None
    async with engine.connect() as connection:
        raw = await connection.get_raw_connection()
        driver = raw.driver_connection
        assert driver is not None
        try:
            await driver.executemany(_SQLITE_INSERT, [_sqlite_row(r) for r in rows])
            await driver.commit()
        except BaseException:
            await driver.rollback()
            raise


EVENT_COLUMNS = (
    EVENTS.c.seq,
    EVENTS.c.kind,
    EVENTS.c.data,
    EVENTS.c.public,
    EVENTS.c.created_at,
)


def event_record(row: Any) -> EventRecord:
    seq, kind, data, public, created_at = row
    return EventRecord(
        seq=seq,
        kind=kind,
        data=data,
        public=public,
        created_at=_utc(created_at) if created_at is not None else None,
    )


def event_to_bell(event: EventRecord) -> dict[str, Any]:
    """An event as the doorbell carries it to the other processes: all the log holds
    of it (``data`` too, which no browser ever sees; the bell stays between servers)."""
    at = event.created_at
    return {
        "seq": event.seq,
        "kind": event.kind,
        "data": event.data,
        "public": event.public,
        "at": at.isoformat() if at is not None else None,
    }


def event_from_bell(item: Mapping[str, Any]) -> EventRecord:
    """The event a doorbell carried; ``ValueError`` (or ``KeyError``, ``TypeError``) for
    anything not written by ``event_to_bell``."""
    seq, kind, data, public, at = (item[k] for k in ("seq", "kind", "data", "public", "at"))
    if not isinstance(seq, int) or not isinstance(kind, str):
        raise ValueError(f"not an event: {item!r:.200}")
    if not isinstance(data, dict) or not isinstance(public, dict):
        raise ValueError(f"not an event: {item!r:.200}")
    created_at = _utc(datetime.fromisoformat(at)) if at is not None else None
    return EventRecord(seq=seq, kind=kind, data=data, public=public, created_at=created_at)


async def events_after(
    session: AsyncSession, room_id: str, after: int, limit: int | None = None
) -> list[EventRecord]:
    query = (
        select(*EVENT_COLUMNS)
        .where(EVENTS.c.room_id == room_id, EVENTS.c.seq > after)
        .order_by(EVENTS.c.seq)
    )
    if limit is not None:
        query = query.limit(limit)
    connection = await session.connection()
    return [event_record(row) for row in await connection.execute(query)]


async def game_events(
    session: AsyncSession, room_id: str, start: int, upto: int, kinds: Sequence[str]
) -> list[EventRecord]:
    """The events of ``kinds`` with ``start <= seq <= upto``, oldest first."""
    query = (
        select(*EVENT_COLUMNS)
        .where(
            EVENTS.c.room_id == room_id,
            EVENTS.c.seq >= start,
            EVENTS.c.seq <= upto,
            EVENTS.c.kind.in_(tuple(kinds)),
        )
        .order_by(EVENTS.c.seq)
    )
    connection = await session.connection()
    return [event_record(row) for row in await connection.execute(query)]


async def last_of_kind(session: AsyncSession, room_id: str, kind: str, upto: int) -> int | None:
    """The seq of the room's latest event of ``kind`` at or before ``upto``."""
    found = await session.scalar(
        select(func.max(Event.seq)).where(
            Event.room_id == room_id, Event.kind == kind, Event.seq <= upto
        )
    )
    return int(found) if found is not None else None


async def latest_snapshot(session: AsyncSession, room_id: str) -> SnapshotRecord | None:
    row = await session.scalar(
        select(Snapshot).where(Snapshot.room_id == room_id).order_by(Snapshot.seq.desc()).limit(1)
    )
    if row is None:
        return None
    return SnapshotRecord(seq=row.seq, game_no=row.game_no, state=dict(row.state))


async def save_snapshot(
    session: AsyncSession, room_id: str, seq: int, game_no: int, state: dict[str, Any]
) -> None:
    session.add(Snapshot(room_id=room_id, seq=seq, game_no=game_no, state=state))
    await session.flush()


async def set_stand_in(session: AsyncSession, room_id: str, seat: int, bot: str | None) -> None:
    await session.execute(
        update(Seat).where(Seat.room_id == room_id, Seat.seat == seat).values(stand_in=bot)
    )


async def release_seat(session: AsyncSession, room_id: str, seat: int, token_hash: str) -> bool:
    """The person holding ``token_hash`` leaves ``seat`` for good; False if they don't sit there."""
    result = await session.execute(
        update(Seat)
        .where(Seat.room_id == room_id, Seat.seat == seat, Seat.token_hash == token_hash)
        .values(name=None, token_hash=None)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


async def vacate_seat(
    session: AsyncSession, room_id: str, seat: int, token_hash: str | None, bot: str | None
) -> bool:
    """Empty ``seat`` of a waiting table; False unless it still holds ``token_hash`` and ``bot``."""
    token = Seat.token_hash.is_(None) if token_hash is None else Seat.token_hash == token_hash
    held = Seat.bot.is_(None) if bot is None else Seat.bot == bot
    result = await session.execute(
        update(Seat)
        .where(Seat.room_id == room_id, Seat.seat == seat, token, held)
        .values(name=None, token_hash=None, bot=None, stand_in=None)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


async def change_settings(
    session: AsyncSession,
    room_id: str,
    players: int,
    options: Mapping[str, Any],
    rules: Mapping[str, Any],
) -> bool:
    """A waiting table's new player count, options and rules: seats past the count go
    (False, and nothing changes, if a person sits in one), missing seats are added."""
    rows = list(await session.scalars(select(Seat).where(Seat.room_id == room_id)))
    if any(row.seat >= players and row.token_hash is not None for row in rows):
        return False
    await session.execute(delete(Seat).where(Seat.room_id == room_id, Seat.seat >= players))
    for seat in range(len(rows), players):
        session.add(Seat(room_id=room_id, seat=seat))
    await session.execute(
        update(Room)
        .where(Room.id == room_id)
        .values(players=players, options=dict(options), rules=dict(rules))
    )
    await session.flush()
    return True


@dataclass(frozen=True)
class BotRoom:
    id: str
    seq: int


async def rooms_in_play_with_bots(
    session: AsyncSession, after: str = "", limit: int = 500, idle_before: datetime | None = None
) -> list[BotRoom]:
    """Running games with a bot seat, by room id after ``after``: one page of ``limit``.

    With ``idle_before``, only rooms whose last event is older than that: a bot turn
    nobody took (its process died) shows up here.
    """
    has_bot = (
        select(Seat.room_id)
        .where(Seat.room_id == Room.id, or_(Seat.bot.is_not(None), Seat.stand_in.is_not(None)))
        .exists()
    )
    query = (
        select(Room.id, func.max(Event.seq))
        .join(Event, Event.room_id == Room.id)
        .where(Room.status == "playing", Room.id > after, has_bot)
        .group_by(Room.id)
        .order_by(Room.id)
        .limit(limit)
    )
    if idle_before is not None:
        query = query.having(func.max(Event.created_at) < idle_before)
    rows = await session.execute(query)
    return [BotRoom(id=room_id, seq=int(seq)) for room_id, seq in rows]


async def count_rooms_by_status(session: AsyncSession) -> dict[str, int]:
    rows = await session.execute(select(Room.status, func.count()).group_by(Room.status))
    return {status: int(count) for status, count in rows.all()}


async def rooms_quiet_since(session: AsyncSession, cutoff: datetime, limit: int) -> list[str]:
    """Rooms whose last event (or creation, without events) is older than ``cutoff``."""
    if session.get_bind().dialect.name == "sqlite":
        # SQLite keeps the server's timestamps as naive UTC text
        cutoff = cutoff.astimezone(UTC).replace(tzinfo=None)
    last = func.coalesce(func.max(Event.created_at), Room.created_at)
    rows = await session.scalars(
        select(Room.id)
        .outerjoin(Event, Event.room_id == Room.id)
        .group_by(Room.id, Room.created_at)
        .having(last < cutoff)
        .limit(limit)
    )
    return list(rows)


async def delete_rooms(session: AsyncSession, room_ids: Sequence[str]) -> int:
    """Delete rooms with their seats, events and snapshots (the foreign keys cascade)."""
    if not room_ids:
        return 0
    result = await session.execute(delete(Room).where(Room.id.in_(room_ids)))
    return int(getattr(result, "rowcount", 0) or 0)


# -- deadlines -------------------------------------------------------------------


@dataclass(frozen=True)
class DeadlineRecord:
    room_id: str
    seat: int
    seq: int
    due_at: datetime
    remind_at: datetime | None
    # the seat's person is away: the deadline waits with these seconds left, and
    # ``due_at`` is when the away time ends (no deadline fires while paused)
    paused_left: float | None = None


def _utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _deadline(row: Deadline) -> DeadlineRecord:
    return DeadlineRecord(
        room_id=row.room_id,
        seat=row.seat,
        seq=row.seq,
        due_at=_utc(row.due_at),
        remind_at=_utc(row.remind_at) if row.remind_at is not None else None,
        paused_left=row.paused_left,
    )


async def deadlines_of(session: AsyncSession, room_id: str) -> list[DeadlineRecord]:
    rows = await session.scalars(
        select(Deadline).where(Deadline.room_id == room_id).order_by(Deadline.seat)
    )
    return [_deadline(r) for r in rows]


async def replace_deadlines(
    session: AsyncSession, room_id: str, deadlines: Sequence[DeadlineRecord]
) -> None:
    """The room's deadlines are exactly ``deadlines`` from now on."""
    await session.execute(delete(Deadline).where(Deadline.room_id == room_id))
    for d in deadlines:
        session.add(
            Deadline(
                room_id=room_id,
                seat=d.seat,
                seq=d.seq,
                due_at=d.due_at,
                remind_at=d.remind_at,
                paused_left=d.paused_left,
            )
        )
    await session.flush()


async def take_deadline(
    session: AsyncSession, room_id: str, seat: int, seq: int, now: datetime
) -> bool:
    """Remove a deadline that has passed; False if it is gone, was moved, is paused or
    isn't due."""
    result = await session.execute(
        delete(Deadline).where(
            Deadline.room_id == room_id,
            Deadline.seat == seat,
            Deadline.seq == seq,
            Deadline.due_at <= now,
            Deadline.paused_left.is_(None),
        )
    )
    return bool(getattr(result, "rowcount", 0) == 1)


async def take_reminder(
    session: AsyncSession, room_id: str, seat: int, seq: int, now: datetime
) -> bool:
    """Mark a due reminder as sent; False if another process did, or it isn't due."""
    result = await session.execute(
        update(Deadline)
        .where(
            Deadline.room_id == room_id,
            Deadline.seat == seat,
            Deadline.seq == seq,
            Deadline.remind_at <= now,
            Deadline.paused_left.is_(None),
        )
        .values(remind_at=None)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


async def due_deadlines(
    session: AsyncSession, now: datetime, limit: int = 100
) -> list[DeadlineRecord]:
    """Deadlines that have passed or whose reminder is due, the oldest first (paused
    ones never are: their away time ends first, see ``aways_ended``)."""
    rows = await session.scalars(
        select(Deadline)
        .where(
            or_(Deadline.due_at <= now, Deadline.remind_at <= now),
            Deadline.paused_left.is_(None),
        )
        .order_by(Deadline.due_at)
        .limit(limit)
    )
    return [_deadline(r) for r in rows]


async def next_deadline_time(session: AsyncSession) -> datetime | None:
    """The earliest moment a deadline or a reminder falls due, or an away time ends."""
    due = await session.scalar(
        select(func.min(Deadline.due_at)).where(Deadline.paused_left.is_(None))
    )
    remind = await session.scalar(select(func.min(Deadline.remind_at)))
    away = await session.scalar(select(func.min(Away.until)))
    times = [_utc(t) for t in (due, remind, away) if t is not None]
    return min(times) if times else None


# -- away ------------------------------------------------------------------------


@dataclass(frozen=True)
class AwayRecord:
    room_id: str
    seat: int
    token_hash: str
    until: datetime
    started_at: datetime


async def replace_aways(session: AsyncSession, room_id: str, aways: Sequence[AwayRecord]) -> None:
    """The room's away seats are exactly ``aways`` from now on."""
    await session.execute(delete(Away).where(Away.room_id == room_id))
    for a in aways:
        session.add(
            Away(
                room_id=room_id,
                seat=a.seat,
                token_hash=a.token_hash,
                until=a.until,
                started_at=a.started_at,
            )
        )
    await session.flush()


async def aways_ended(
    session: AsyncSession, now: datetime, limit: int = 100
) -> list[tuple[str, int]]:
    """(room, seat) of away times that have run out, the oldest first."""
    rows = await session.execute(
        select(Away.room_id, Away.seat).where(Away.until <= now).order_by(Away.until).limit(limit)
    )
    return [(room_id, int(seat)) for room_id, seat in rows]


async def seats_of_tokens(
    session: AsyncSession, token_hashes: Sequence[str]
) -> dict[str, tuple[str, int]]:
    """The room and seat each of ``token_hashes`` holds (those holding none are left out)."""
    if not token_hashes:
        return {}
    rows = await session.execute(
        select(Seat.token_hash, Seat.room_id, Seat.seat).where(Seat.token_hash.in_(token_hashes))
    )
    return {str(h): (room_id, int(seat)) for h, room_id, seat in rows}
