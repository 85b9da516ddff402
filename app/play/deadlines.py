"""Time per move: a deadline for every person the game waits for, and what happens after.

A room may give each move a time limit (``rules.turn_seconds``). The deadline of a
seat is written in the very transaction of the event that makes the seat wait
(``Rooms.on_append``), and cleared in the transaction of the event that ends the
wait, so the table never disagrees with the log. A scheduler loop in every process
wakes up when a deadline (or its reminder, a quarter of the time before) is due.

When time is up the host's policy applies (``rules.on_timeout``): ``bot_move`` lets
a bot play that one move for the seat, ``bot_seat`` hands the seat to a bot until
its person takes it back. Either way a ``seat_stand_in`` event says so in the log,
and the bot then moves through ``Rooms.move_as`` like any player. The event's
transaction also deletes the deadline row it acts on, and only if that row is
still there, unchanged and due: of two processes firing one deadline, the second
finds the row gone and appends nothing. A deadline that passed while no server ran
is simply due when the loop first looks, on start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.core.clock import clock
from app.core.errors import ApiError
from app.play import store
from app.play.kinds import SEAT_STAND_IN
from app.play.rooms import Append, Rooms
from app.play.state import RoomState
from app.play.store import DeadlineRecord

log = logging.getLogger(__name__)

# the choices a room may be created with: 1 hour, 12 hours, 1, 3 and 7 days
TURN_SECONDS = (3600, 43200, 86400, 259200, 604800)
ON_TIMEOUT = ("bot_move", "bot_seat")
STOP_SECONDS = 10.0

# called in the transaction that marks a reminder as sent: enqueue the alert there
Reminder = Callable[[Any, RoomState, DeadlineRecord], Awaitable[None]]


@dataclass
class _Firing:
    """The deadline the next append in this task acts on; used up by that append (tasks
    started from it, like the bot's, copy the context but must not claim it again)."""

    deadline: DeadlineRecord
    used: bool = False


_firing: ContextVar[_Firing | None] = ContextVar("firing_deadline", default=None)


class DeadlineGone(Exception):
    """The deadline was fired by someone else, or moved, before this append got to it."""


class _NotDue(Exception):
    """The seat of a passed deadline is not to act in the room's state."""


def _aways(state: RoomState) -> tuple[str | None, ...]:
    return tuple(s.away_until for s in state.seats)


def _deadline(
    state: RoomState, seat: int, old: DeadlineRecord | None, seconds: int, now: datetime
) -> DeadlineRecord:
    """The deadline of a seat the game waits for: ``old`` if it still runs (or waits) as
    it should, a new one of the full time, or ``old`` paused or resumed with the time it
    had left. While the seat's person is away (``away_until``) it is paused: it keeps
    the seconds left and its ``due_at`` is the end of the away time; on their return it
    runs again from those seconds."""
    until = state.seats[seat].away_until
    if old is None:
        left, seq = float(seconds), state.seq
    else:
        left = (
            old.paused_left if old.paused_left is not None else (old.due_at - now).total_seconds()
        )
        seq = old.seq
    left = max(0.0, left)
    room_id = state.room.id
    if until is not None:
        paused = DeadlineRecord(room_id, seat, seq, datetime.fromisoformat(until), None, left)
        return old if old == paused else paused
    if old is not None and old.paused_left is None:
        return old
    due = now + timedelta(seconds=left)
    remind = due - timedelta(seconds=seconds / 4)
    resumed_late = old is not None and remind <= now  # under a quarter left: no reminder
    return DeadlineRecord(room_id, seat, seq, due, None if resumed_late else remind)


def turn_seconds(state: RoomState) -> int | None:
    value = state.room.rules.get("turn_seconds")
    return int(value) if value else None


def stand_in_bot(state: RoomState) -> str:
    """The bot that plays for an absent person: the level the host chose for the room (a
    room that chose an old name gets the level it stands for), else the engine's
    strongest (engines list their bots strongest first)."""
    engine = state.engine
    return engine.bot_name(state.room.rules.get("stand_in")) or next(iter(engine.bots()))


@dataclass(frozen=True)
class Clock:
    """One seat's deadline as shown to people: when, and seconds left now. A paused one
    (its person is away) has no ``due`` and keeps its seconds left."""

    seat: int
    due: datetime | None
    left: float

    @property
    def paused(self) -> bool:
        return self.due is None

    def to_json(self) -> dict[str, Any]:
        due = self.due.isoformat() if self.due is not None else None
        return {"seat": self.seat, "due": due, "left": round(self.left), "paused": self.paused}


def with_clocks(info: dict[str, Any], clocks: list[Clock]) -> dict[str, Any]:
    """Add each seat's deadline and seconds left to a room's info (both null: none;
    a paused clock has seconds left, no deadline, and ``paused`` true)."""
    by_seat = {c.seat: c for c in clocks}
    for seat in info["seats"]:
        running = by_seat.get(seat["seat"])
        seat["deadline"] = running.due.isoformat() if running and running.due else None
        seat["time_left"] = round(running.left) if running else None
        seat["paused"] = bool(running and running.paused)
    return info


class Deadlines:
    """Writes deadlines with the log, fires them once, and tells views the time left."""

    def __init__(self, rooms: Rooms, poll_seconds: float = 30.0) -> None:
        self.rooms = rooms
        self.poll = poll_seconds
        self.reminders: list[Reminder] = []
        # other timed work the loop does on each pass (the end of away times): called with
        # the time now, each returns how many things it acted on
        self.sweeps: list[Callable[[datetime], Awaitable[int]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._known: dict[str, tuple[int, list[DeadlineRecord]]] = {}

    # -- inside every append ------------------------------------------------------

    async def within(self, session: Any, before: RoomState, after: RoomState) -> None:
        firing = _firing.get()
        if firing is not None and not firing.used and firing.deadline.room_id == after.room.id:
            firing.used = True
            d = firing.deadline
            if not await store.take_deadline(session, d.room_id, d.seat, d.seq, clock.now()):
                raise DeadlineGone()
        await self._sync_stand_ins(session, before, after)
        seconds = turn_seconds(after)
        if seconds is None:
            return
        waited = set(before.people_to_act())
        waiting = after.people_to_act()
        if (
            after.game_seq == before.game_seq
            and set(waiting) == waited
            and _aways(before) == _aways(after)
        ):
            return
        existing = {d.seat: d for d in await store.deadlines_of(session, after.room.id)}
        now = clock.now()
        rows: list[DeadlineRecord] = []
        for seat in waiting:
            old = existing.get(seat)
            # a move taken back (no mover) starts a fresh clock for whoever is to act again
            moved = after.game_seq != before.game_seq and after.mover in (seat, None)
            kept = (
                old is not None and seat in waited and after.game_no == before.game_no and not moved
            )
            rows.append(_deadline(after, seat, old if kept else None, seconds, now))
        rows.sort(key=lambda d: d.seat)
        if rows != [existing[s] for s in sorted(existing)]:
            await store.replace_deadlines(session, after.room.id, rows)

    async def _sync_stand_ins(self, session: Any, before: RoomState, after: RoomState) -> None:
        """Mirror stand-ins in the seats table, so bots pick up after a restart."""
        if before.seats is after.seats or len(before.seats) != len(after.seats):
            return  # a move or a chat line leaves the seats as they were
        for index, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
            if old.stand_in != new.stand_in:
                await store.set_stand_in(session, after.room.id, index, new.stand_in)

    def notice(self, state: RoomState) -> None:
        """A commit happened: an earlier deadline (or end of an away time) may now exist,
        look again."""
        if turn_seconds(state) is not None or any(s.away_until for s in state.seats):
            self._wake.set()

    # -- what views show ----------------------------------------------------------

    async def clocks(self, state: RoomState) -> list[Clock]:
        """The room's running deadlines with the time left now (no query without a limit)."""
        if turn_seconds(state) is None or state.status != "playing":
            return []
        known = self._known.get(state.room.id)
        if known is not None and known[0] == state.seq:
            rows = known[1]
        else:
            async with self.rooms.db.transaction() as session:
                rows = await store.deadlines_of(session, state.room.id)
            self._known[state.room.id] = (state.seq, rows)
            if len(self._known) > 2000:
                self._known.pop(next(iter(self._known)))
        now = clock.now()
        return [
            Clock(seat=d.seat, due=None, left=d.paused_left)
            if d.paused_left is not None
            else Clock(seat=d.seat, due=d.due_at, left=max(0.0, (d.due_at - now).total_seconds()))
            for d in rows
        ]

    # -- firing -------------------------------------------------------------------

    async def tick(self) -> int:
        """Send due reminders and act on passed deadlines; the number of deadlines acted on."""
        now = clock.now()
        async with self.rooms.db.transaction() as session:
            due = await store.due_deadlines(session, now)
        fired = 0
        for deadline in due:
            try:
                if deadline.due_at <= now:
                    fired += await self._expire(deadline)
                elif deadline.remind_at is not None and deadline.remind_at <= now:
                    await self._remind(deadline, now)
            except Exception:
                log.exception("deadline of room %s seat %s failed", deadline.room_id, deadline.seat)
        for sweep in self.sweeps:
            try:
                fired += await sweep(now)
            except Exception:
                log.exception("a sweep of the deadline loop failed")
        return fired

    async def _remind(self, deadline: DeadlineRecord, now: datetime) -> None:
        state = await self.rooms.load(deadline.room_id)
        async with self.rooms.db.transaction() as session:
            if not await store.take_reminder(
                session, deadline.room_id, deadline.seat, deadline.seq, now
            ):
                return
            for hook in self.reminders:
                await hook(session, state, deadline)

    async def _expire(self, deadline: DeadlineRecord) -> int:
        firing = _Firing(deadline)

        def plan(state: RoomState) -> Append:
            if deadline.seat not in state.people_to_act():
                raise _NotDue
            firing.used = False  # each try claims the deadline afresh
            once = state.room.rules.get("on_timeout", "bot_move") != "bot_seat"
            public = {
                "seat": deadline.seat,
                "name": state.seats[deadline.seat].name,
                "bot": stand_in_bot(state),
                "reason": "timeout",
                "once": once,
            }
            return Append([(SEAT_STAND_IN, public, public)])

        token = _firing.set(firing)
        try:
            await self.rooms.change(deadline.room_id, plan)
            return 1
        except _NotDue:
            # the log moved on without clearing this row (it can't, but never act on it)
            async with self.rooms.db.transaction() as session:
                await store.take_deadline(
                    session, deadline.room_id, deadline.seat, deadline.seq, clock.now()
                )
            return 0
        except DeadlineGone:
            return 0
        except ApiError:
            return 0  # busy: the next pass tries again
        finally:
            _firing.reset(token)

    # -- the loop -----------------------------------------------------------------

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Let a running tick finish (never leave a transaction half-way), then end the loop."""
        self._closed = True
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), STOP_SECONDS)
            except (TimeoutError, Exception):
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._closed:
            self._wake.clear()
            wait = self.poll
            try:
                await self.tick()
                async with self.rooms.db.transaction() as session:
                    upcoming = await store.next_deadline_time(session)
                if upcoming is not None:
                    wait = min(wait, max(0.05, (upcoming - clock.now()).total_seconds()))
            except Exception:
                log.exception("deadline loop failed; trying again")
            if self._closed:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
