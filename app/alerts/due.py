"""Which alerts become due, decided inside the transaction of the event that made them.

``Alerts.on_append`` runs in ``Rooms._append``'s transaction: a seat that the game
newly waits for gets one outbox row per channel of the person sitting there (and
one for the room's webhook), due after the configured delay; seats the game no
longer waits for lose their unsent turn alerts. So an alert exists exactly when its
event does, and at most one per seat and turn (the outbox's unique key). The seat
that just moved is never newly waited for, so it gets none.

The same hook queues the alerts each channel chose besides (``app.alerts.kinds``):
the end of a game (for every person at the table but the one who made the last move
themself), a stand-in bot taking a person's seat (not when they left it themself),
and chat (for every person but the writer, on their own channels only). Chat
alerts are coalesced: while a seat's chat alert waits on a channel, more messages
add nothing to it (the alert, when it goes, says how many came), and a seat's own
message drops its waiting chat alerts, since it has read the chat.

A seat whose person is away (``app/play/away.py``) gets no turn alert nor reminder,
to its person or to the room's webhook, while away: none is queued, and one queued
before is dropped by ``still_due``. When the away time ends (they are back, or it ran
out) and the game waits for the seat, its turn alert is queued afresh.

Other parts send their own alerts through ``enqueue_turn_alert`` (the deadline
reminder: ``kind="reminder"``), inside their own transaction. ``still_due`` is the
outbox's check, just before sending, that an alert is still wanted.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.alerts import kinds as alert_kinds
from app.alerts import store as alert_store
from app.alerts.kinds import BOT_TOOK_SEAT, CHAT, GAME_OVER, TURN_KINDS
from app.alerts.store import Channel, Due
from app.core.clock import clock
from app.play import kinds as events
from app.play import store
from app.play.state import RoomState

KINDS = alert_kinds.KINDS


def waiting_for(state: RoomState) -> set[int]:
    """The seats the running game waits for."""
    if state.status != "playing" or state.game is None:
        return set()
    return set(state.engine.to_act(state.game))


async def enqueue_turn_alert(
    session: Any,
    state: RoomState,
    seat: int,
    kind: str = "turn",
    *,
    delay: timedelta = timedelta(),
    turn_seq: int | None = None,
) -> int:
    """Queue ``kind`` alerts for ``seat`` on every channel of its person and the room's webhook.

    Call inside the transaction that makes the alert due. ``turn_seq`` names the
    turn (default: ``state.seq``); a second call for the same seat, turn and kind
    adds nothing. The worker sends them after ``delay``, and only if the game
    still waits for that seat; while its person has the room open they wait.
    Returns how many rows were queued (0 for a bot or an empty seat).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown alert kind {kind!r}")
    person = state.seats[seat].token_hash
    if person is None or state.seats[seat].player_bot is not None:
        return 0
    found = await alert_store.channels(session, state.room.id, [person])
    return await _queue(session, state, seat, kind, found, delay, turn_seq)


async def _queue(
    session: Any,
    state: RoomState,
    seat: int,
    kind: str,
    found: list[Channel],
    delay: timedelta,
    turn_seq: int | None = None,
) -> int:
    """Queue ``kind`` for ``seat`` on those of ``found`` that carry it; how many."""
    carrying = [c for c in found if alert_kinds.carries(c.kind, c.data, kind)]
    at = clock.now() + delay
    await alert_store.enqueue(
        session,
        [
            alert_store.NewAlert(
                room_id=state.room.id,
                channel_id=channel.id,
                seat=seat,
                game_no=state.game_no,
                turn_seq=state.seq if turn_seq is None else turn_seq,
                kind=kind,
                next_at=at,
            )
            for channel in carrying
        ],
    )
    return len(carrying)


def still_due(state: RoomState, due: Due) -> str | None:
    """Why ``due`` (not a confirmation mail) is no longer wanted, or None if it still is."""
    if not due.channel.confirmed:
        return "the address is not confirmed"
    if not alert_kinds.carries(due.channel.kind, due.channel.data, due.kind):
        return "this channel no longer carries such alerts"
    if due.seat >= len(state.seats):
        return "no such seat"
    sitting = state.seats[due.seat]
    if due.channel.token_hash is not None and sitting.token_hash != due.channel.token_hash:
        return "someone else sits there now"
    if due.kind == CHAT:
        return None if sitting.token_hash is not None else "no person in the seat"
    if state.game_no != due.game_no:
        return "another game is on"
    if due.kind == GAME_OVER:
        return None if state.status == "finished" else "the game is not over"
    if due.kind == BOT_TOOK_SEAT:
        return None if sitting.stand_in is not None else "the person plays their seat again"
    if due.seat not in waiting_for(state):
        return "no longer this seat's turn"
    if sitting.away_until is not None:
        return "the player is away"
    if sitting.token_hash is None or sitting.bot is not None:
        return "no person in the seat"
    return None


def held_by_tab(due: Due) -> bool:
    """Whether an open tab of ``due``'s seat holds it back: every alert about a person
    does; the end of a game told to the room's webhook is no one seat's."""
    return not (due.kind == GAME_OVER and due.channel.token_hash is None)


class Alerts:
    """The ``on_append`` hook; ``due_now`` names rooms whose new alerts need no delay."""

    def __init__(self, delay: timedelta) -> None:
        self.delay = delay
        self.due_now: set[str] = set()

    async def on_append(self, session: Any, before: RoomState, after: RoomState) -> None:
        if not after.alerts:
            return  # nobody ever set up an alert here: nothing is queued, nothing to queue
        # the channels before their alerts, as a removal takes them (alert_store.lock_channels)
        await alert_store.lock_channels(session, after.room.id)
        queued = 0
        turned = before.game is not after.game or before.status != after.status
        if turned:
            queued += await self._turns(session, before, after)
            if (
                before.status == "playing"
                and after.status == "finished"
                and before.game_no == after.game_no
            ):
                queued += await self._game_over(session, after)
        if before.seats != after.seats and after.game_no == before.game_no:
            queued += await self._stand_ins(session, before, after)
            queued += await self._aways(session, before, after)
        elif not turned:
            queued += await self._chat(session, before, after)
        if queued and self.delay <= timedelta():
            self.due_now.add(after.room.id)

    async def _turns(self, session: Any, before: RoomState, after: RoomState) -> int:
        room_id = after.room.id
        if after.game_no != before.game_no:
            # a new game: the last one's alerts are moot, the table's chat is not
            await alert_store.cancel(
                session, room_id, kinds=[*TURN_KINDS, GAME_OVER, BOT_TOOK_SEAT]
            )
            waited = set()
        else:
            waited = waiting_for(before)
        waiting = waiting_for(after)
        done = waited - waiting
        if done:
            await alert_store.cancel(session, room_id, done, kinds=TURN_KINDS)
        queued = 0
        for seat in sorted(waiting - waited):
            if after.seats[seat].away_until is None:
                queued += await enqueue_turn_alert(session, after, seat, "turn", delay=self.delay)
        return queued

    async def _aways(self, session: Any, before: RoomState, after: RoomState) -> int:
        """Seats whose person went away lose their unsent turn alerts; those whose person
        is back while the game waits for them get their turn alert."""
        gone = [
            seat
            for seat, (was, now) in enumerate(zip(before.seats, after.seats, strict=True))
            if was.away_until is None and now.away_until is not None
        ]
        if gone:
            await alert_store.cancel(session, after.room.id, gone, kinds=TURN_KINDS)
        back = [
            seat
            for seat in sorted(waiting_for(after))
            if before.seats[seat].away_until is not None and after.seats[seat].away_until is None
        ]
        queued = 0
        for seat in back:
            queued += await enqueue_turn_alert(session, after, seat, "turn", delay=self.delay)
        return queued

    async def _game_over(self, session: Any, after: RoomState) -> int:
        people = {
            seat: s.token_hash
            for seat, s in enumerate(after.seats)
            if s.token_hash is not None and not (seat == after.mover and s.present)
        }
        found = await alert_store.channels(session, after.room.id, people.values())
        queued = 0
        for seat, person in people.items():
            mine = [c for c in found if c.token_hash == person]
            queued += await _queue(session, after, seat, GAME_OVER, mine, self.delay)
        hook = [c for c in found if c.token_hash is None]
        queued += await _queue(session, after, 0, GAME_OVER, hook, self.delay)
        return queued

    async def _stand_ins(self, session: Any, before: RoomState, after: RoomState) -> int:
        taken = [
            seat
            for seat, (was, now) in enumerate(zip(before.seats, after.seats, strict=True))
            if was.stand_in is None
            and now.stand_in is not None
            and not now.once
            and now.token_hash is not None
            and now.token_hash == was.token_hash
        ]
        if not taken:
            return 0
        written = await store.events_after(session, after.room.id, before.seq)
        left = {
            e.data.get("seat")
            for e in written
            if e.kind == events.SEAT_STAND_IN and e.data.get("reason") == "left"
        }
        queued = 0
        for seat in taken:
            if seat in left:
                continue  # they handed it over themself
            person = after.seats[seat].token_hash
            assert person is not None
            found = await alert_store.channels(session, after.room.id, [person])
            queued += await _queue(session, after, seat, BOT_TOOK_SEAT, found, self.delay)
        return queued

    async def _chat(self, session: Any, before: RoomState, after: RoomState) -> int:
        written = await store.events_after(session, after.room.id, before.seq)
        writers = {int(e.data["seat"]) for e in written if e.kind == events.CHAT}
        if not writers:
            return 0
        room_id = after.room.id
        await alert_store.cancel(session, room_id, writers, kinds=[CHAT])
        people = {
            seat: s.token_hash
            for seat, s in enumerate(after.seats)
            if s.token_hash is not None and seat not in writers
        }
        if not people:
            return 0
        found = await alert_store.channels(session, room_id, people.values(), webhook=False)
        waiting = await alert_store.pending(session, room_id, CHAT)
        queued = 0
        for seat, person in people.items():
            mine = [c for c in found if c.token_hash == person and (c.id, seat) not in waiting]
            queued += await _queue(session, after, seat, CHAT, mine, self.delay)
        return queued
