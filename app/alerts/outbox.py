"""The alert worker: claim due alerts, check they are still due, send, retry, give up.

Every app process runs one. Rows are claimed for a lease (``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, the single writer on SQLite), so two processes never
send one row; a row stays in the table until it is sent, given up or no longer
due, so alerts survive restarts. A process killed between sending and marking a
row sends that one row again once its lease has run out: delivery is at least
once, and exactly once whenever the process lives to mark it.

A process sends up to ``ALERT_CONCURRENCY`` alerts at the same time, each in its own
task, and claims rows only as slots free up, so a claimed row is being sent, not
queued behind others. A slow receiver holds one slot for at most its call's deadline
and delays nobody else's alerts; only the alerts of the same room on the same channel
kind wait for it, one after the other, so the room's hourly cap is counted right.

Before sending, the worker checks again that the alert is still due (the game still
waits for the seat, the same person still sits there: ``due.still_due``); one no
longer due is dropped. While a
tab of that seat is open the alert waits (looked at again every ``WATCH``), and it
goes only once the seat's last tab has been closed for ``ALERT_DELAY_MINUTES``: a
page left open on one device never swallows the alert meant for another. It also
waits for a slot while the room's hourly cap on this channel is reached.
Mail goes only to confirmed addresses, within each address's own caps, and the
first mail to an address asks to confirm it (``app.alerts.confirm``). Links in
mails and webhooks start with ``PUBLIC_URL``, never with anything a request said.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from app.alerts import confirm as mail_confirm
from app.alerts import digest, guard, push, webhooks
from app.alerts import store as alert_store
from app.alerts.delivery import Deliver, Failed, Gone, Later, Sending
from app.alerts.due import Alerts, held_by_tab, still_due
from app.alerts.keys import AlertKeys, load_keys
from app.alerts.store import CONFIRM, Due
from app.core.clock import clock
from app.core.config import Settings
from app.core.errors import ApiError
from app.play.rooms import Rooms
from app.play.state import RoomState

log = logging.getLogger("spieltisch.alerts")

# the channels, by the kind their rows name: a new channel is one module and one line here
CHANNELS: dict[str, Deliver] = {
    "push": push.deliver,
    "email": digest.deliver,  # turn mails wait for the daily digest; the rest go as mail
    "webhook": webhooks.deliver,
}

LEASE = timedelta(minutes=2)
BATCH = 20  # most rows claimed in one query
STOP_GRACE_SECONDS = 10.0  # how long a stopping worker lets its sends finish and be marked
HOUR = timedelta(hours=1)
KEEP = timedelta(days=7)  # closed rows are kept this long (the hourly cap needs one hour)
WATCH = timedelta(seconds=30)  # how often an alert held by an open tab looks again


@dataclass
class _Line:
    """This process's alerts of one room on one channel kind: sent one after the other."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    tasks: int = 0  # holding or waiting for the lock


# which seats of a room have it open somewhere (room id, players) -> {seat: open}
Online = Callable[[str, int], Awaitable[Mapping[int, bool]]]
# when a tab of each seat last closed, where known (room id, players) -> {seat: when}
Closed = Callable[[str, int], Awaitable[Mapping[int, datetime]]]


class Outbox:
    """Sends the outbox of one database; ``start`` runs the loop, ``run_once`` one pass."""

    def __init__(
        self, rooms: Rooms, online: Online, closed: Closed, alerts: Alerts, settings: Settings
    ) -> None:
        self.rooms = rooms
        self.online = online
        self.closed = closed
        self.alerts = alerts
        self.settings = settings
        self._keys: AlertKeys | None = None
        self._client: guard.Outbound | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._sending: set[asyncio.Task[None]] = set()
        self._claiming = 0  # slots held by a claim under way
        self._starved = False  # the loop found every slot taken
        self._lines: dict[tuple[str, str], _Line] = {}  # by (room, channel kind)
        # told (channel kind, outcome) after each try: sent, failed, given_up, dropped
        self.outcomes: list[Callable[[str, str], None]] = []

    @property
    def keys(self) -> AlertKeys:
        assert self._keys is not None, "Outbox.start() loads the keys"
        return self._keys

    async def start(self, loop: bool = True) -> None:
        self._keys = await load_keys(self.rooms.db, self.settings)
        self._client = guard.Outbound(self.settings.webhook_allow_private)
        if loop:
            self._task = asyncio.create_task(self._run(), name="alert-outbox")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._sending:
            _, late = await asyncio.wait(set(self._sending), timeout=STOP_GRACE_SECONDS)
            for task in late:  # its lease runs out and a process sends it again
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def poke(self, state: RoomState) -> None:
        """After a commit: wake the loop if that room just queued alerts that are due now."""
        if state.room.id in self.alerts.due_now:
            self.alerts.due_now.discard(state.room.id)
            self._wake.set()

    async def _run(self) -> None:
        pruned_at = None
        while True:
            self._wake.clear()
            try:
                free = self._free()
                batch = await self._claim(free)
                for due in batch:
                    self._start(due)
                # the slots, not the rows, were the limit: look again as soon as one frees
                self._starved = len(batch) == free
                if self._starved and self._free():
                    self._wake.set()
                now = clock.now()
                if pruned_at is None or now - pruned_at > HOUR:
                    pruned_at = now
                    async with self.rooms.db.transaction() as session:
                        await alert_store.prune(session, now - KEEP)
            except Exception:
                log.exception("alert worker pass failed; trying again shortly")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.alert_poll_seconds)

    async def run_once(self) -> int:
        """Claim due alerts (as many as there are free slots) and send them all at once;
        returns how many were claimed."""
        batch = await self._claim(self._free())
        await asyncio.gather(*(self._start(due) for due in batch))
        return len(batch)

    def _free(self) -> int:
        taken = len(self._sending) + self._claiming
        return max(0, min(BATCH, self.settings.alert_concurrency - taken))

    async def _claim(self, most: int) -> list[Due]:
        if most <= 0:
            return []
        self._claiming += most  # held while the query runs, so two claims never overfill
        try:
            async with self.rooms.db.transaction() as session:
                return await alert_store.claim(session, clock.now(), LEASE, most)
        finally:
            self._claiming -= most

    def _start(self, due: Due) -> asyncio.Task[None]:
        task = asyncio.create_task(self._take(due), name=f"alert-{due.id}")
        self._sending.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        if self._starved:  # the loop waits for a free slot
            self._starved = False
            self._wake.set()

    async def _take(self, due: Due) -> None:
        """Handle one alert, after those of its room and channel kind already in hand."""
        key = (due.room_id, due.channel.kind)
        line = self._lines.setdefault(key, _Line())
        line.tasks += 1
        try:
            async with line.lock:
                await self._handle(due)
        except Exception:
            log.exception("alert %s: unexpected error; it is tried again later", due.id)
        finally:
            line.tasks -= 1
            if not line.tasks:
                del self._lines[key]

    async def _handle(self, due: Due) -> None:
        try:
            state = await self.rooms.load(due.room_id)
        except ApiError:
            await self._finish(due, "skipped", "room gone")
            return
        reason = await self._not_due(state, due)
        if reason is not None:
            await self._finish(due, "skipped", reason)
            return
        held = await self._held(state, due)
        if held is not None:
            at, why = held
            async with self.rooms.db.transaction() as session:
                await alert_store.retry(session, due.id, at, due.attempts, why)
            return
        now = clock.now()
        async with self.rooms.db.transaction() as session:
            sent = await alert_store.sent_since(session, due.room_id, due.channel.kind, now - HOUR)
        cap = self.settings.alert_room_hourly_cap
        if len(sent) >= cap:
            free_at = sent[len(sent) - cap] + HOUR
            async with self.rooms.db.transaction() as session:
                await alert_store.retry(session, due.id, free_at, due.attempts, "hourly cap")
            return
        try:
            await self._send(state, due)
        except Later as exc:
            async with self.rooms.db.transaction() as session:
                await alert_store.retry(session, due.id, exc.at, due.attempts, exc.note)
            return
        except Gone as exc:
            log.info("alert %s: %s %s dropped (%s)", due.id, due.channel.kind, due.channel.id, exc)
            self._tell(due, "dropped")
            async with self.rooms.db.transaction() as session:
                await alert_store.delete_channel(session, due.channel.id)
            return
        except Failed as exc:
            await self._failed(due, str(exc))
            return
        self._tell(due, "sent")
        await self._finish(due, "sent", None)

    def _tell(self, due: Due, outcome: str) -> None:
        for listener in self.outcomes:
            listener(due.channel.kind, outcome)

    async def _not_due(self, state: RoomState, due: Due) -> str | None:
        """Why the alert is no longer wanted, or None if it still is."""
        if due.kind == CONFIRM:
            return mail_confirm.not_due(state, due)
        return still_due(state, due)

    async def _held(self, state: RoomState, due: Due) -> tuple[datetime, str] | None:
        """When to look again while the seat's person is (or just was) at the table."""
        if due.kind == CONFIRM or not held_by_tab(due):
            return None
        now = clock.now()
        online = await self.online(state.room.id, state.room.players)
        if online.get(due.seat):
            return now + WATCH, "the player has the room open"
        closed = (await self.closed(state.room.id, state.room.players)).get(due.seat)
        ready = (
            None
            if closed is None
            else closed + timedelta(minutes=self.settings.alert_delay_minutes)
        )
        if ready is not None and ready > now:
            return ready, "the player closed the room only lately"
        return None

    async def _failed(self, due: Due, error: str) -> None:
        attempts = due.attempts + 1
        given_up = attempts >= self.settings.alert_attempts
        self._tell(due, "given_up" if given_up else "failed")
        async with self.rooms.db.transaction() as session:
            if given_up:
                log.warning(
                    "alert %s (%s, room %s) given up after %d tries: %s",
                    due.id,
                    due.channel.kind,
                    due.room_id,
                    attempts,
                    error,
                )
                await alert_store.finish(session, due.id, "failed", clock.now(), error)
                return
            wait = timedelta(seconds=self.settings.alert_retry_seconds * 2 ** (attempts - 1))
            log.info("alert %s: try %d failed (%s); again in %s", due.id, attempts, error, wait)
            await alert_store.retry(session, due.id, clock.now() + wait, attempts, error)

    async def _finish(self, due: Due, status: str, note: str | None) -> None:
        async with self.rooms.db.transaction() as session:
            await alert_store.finish(session, due.id, status, clock.now(), note)

    async def _send(self, state: RoomState, due: Due) -> None:
        deliver = CHANNELS.get(due.channel.kind)
        if deliver is None:
            raise Failed(f"unknown channel kind {due.channel.kind!r}")
        assert self._client is not None
        out = Sending(
            self.settings, self.rooms.db, self._client, self.keys, self.rooms.load, self._held
        )
        await deliver(out, state, due)
