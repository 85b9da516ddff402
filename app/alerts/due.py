"""Which turn alerts become due, decided inside the transaction of the event that made them.

``Alerts.on_append`` runs in ``Rooms._append``'s transaction: a seat that the game
newly waits for gets one outbox row per channel of the person sitting there (and
one for the room's webhook), due after the configured delay; seats the game no
longer waits for lose their unsent alerts. So an alert exists exactly when its
event does, and at most one per seat and turn (the outbox's unique key). The seat
that just moved is never newly waited for, so it gets none.

Other parts send their own alerts through ``enqueue_turn_alert`` (the deadline
reminder: ``kind="reminder"``), inside their own transaction.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.alerts import store as alert_store
from app.core.clock import clock
from app.play.state import RoomState

KINDS = ("turn", "reminder")


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
            for channel in found
        ],
    )
    return len(found)


class Alerts:
    """The ``on_append`` hook; ``due_now`` names rooms whose new alerts need no delay."""

    def __init__(self, delay: timedelta) -> None:
        self.delay = delay
        self.due_now: set[str] = set()

    async def on_append(self, session: Any, before: RoomState, after: RoomState) -> None:
        if before.game is after.game and before.status == after.status:
            return  # chat, presence-free events: nobody's turn changed
        if not after.alerts:
            return  # nobody ever set up an alert here: nothing is queued, nothing to queue
        room_id = after.room.id
        if after.game_no != before.game_no:
            await alert_store.cancel(session, room_id)
            waited = set()
        else:
            waited = waiting_for(before)
        waiting = waiting_for(after)
        done = waited - waiting
        if done:
            await alert_store.cancel(session, room_id, done)
        queued = 0
        for seat in sorted(waiting - waited):
            queued += await enqueue_turn_alert(session, after, seat, "turn", delay=self.delay)
        if queued and self.delay <= timedelta():
            self.due_now.add(room_id)
