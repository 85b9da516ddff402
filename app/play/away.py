"""Away: a person pauses the clocks of their seats for a while, and comes back.

A seated person may declare themself away until a time at most ``MAX_DAYS`` after
their away time began (declaring again while away moves the end, within the same
limit). While away, the deadline of their seat waits (``app/play/deadlines.py``)
with the seconds it had left, in every room they declared it for; the others see
"away until …" beside the name, and no turn alert or reminder goes to or about
the seat (``app/alerts/due.py``). They may still move: a move does not end the
away time, so a quick move from a phone leaves their other clocks paused.

The away time ends when they say they are back, or when it runs out: the
scheduler loop (``sweep``) then appends the ``seat_back`` itself. Either way the
deadline runs again from the seconds it had left, and only if those run out does
the table's timeout policy (a stand-in bot) apply. After an away time ends, a new
one may begin only ``COOLDOWN_DAYS`` later, so away can't pause a game for ever.

Each change is one event of the room's log (``seat_away``, ``seat_back``); the
``aways`` table mirrors the away seats in the event's transaction, so the loop
finds the away times that run out without reading every room.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from app.core.clock import clock
from app.core.errors import ApiError, bad_token
from app.play import store
from app.play.access import hash_token
from app.play.kinds import SEAT_AWAY, SEAT_BACK
from app.play.rooms import Append, Rooms
from app.play.state import RoomState
from app.play.store import AwayRecord

MAX_DAYS = 14
COOLDOWN_DAYS = 7
# the most seats one call for every seat of a browser may name
MAX_TOKENS = 50


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def _seat(state: RoomState, token: str) -> int:
    seat = state.seat_with(hash_token(token))
    if seat is None:
        raise bad_token()
    return seat


def check_away(state: RoomState, seat: int, until: datetime, now: datetime) -> None:
    """Whether the person in ``seat`` may be away until ``until``: refused with a code
    for a time past, one too far from the start of their away time, or in the cooldown."""
    info = state.seats[seat]
    if until <= now:
        raise ApiError(400, "away_past", "Choose a time in the future to be away until.")
    since = datetime.fromisoformat(info.away_since) if info.away_since else now
    if until > since + timedelta(days=MAX_DAYS):
        raise ApiError(
            400,
            "away_too_long",
            f"You can be away for at most {MAX_DAYS} days at a time.",
            latest=_iso(since + timedelta(days=MAX_DAYS)),
        )
    if info.away_until is None and info.back_at is not None:
        again = datetime.fromisoformat(info.back_at) + timedelta(days=COOLDOWN_DAYS)
        if now < again:
            raise ApiError(
                409,
                "away_cooldown",
                f"After being away you can be away again only {COOLDOWN_DAYS} days later.",
                again=_iso(again),
            )


@dataclass(frozen=True)
class Outcome:
    """What one token of a call for several seats came to: its room and seat and the
    state after, or the error that refused it there; both None for a token of no seat."""

    room_id: str | None = None
    seat: int | None = None
    state: RoomState | None = None
    error: ApiError | None = None


class Aways:
    """The use cases, and the hook that keeps the ``aways`` table with the log."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    # -- one seat -----------------------------------------------------------------

    async def declare(self, room_id: str, token: str | None, until: datetime) -> RoomState:
        """The caller is away until ``until`` (or, already away, until then instead)."""
        if token is None:
            raise ApiError(401, "no_token", "Only a seated player can be away.")
        end = until.astimezone(UTC).replace(microsecond=0)

        def plan(state: RoomState) -> Append:
            seat = _seat(state, token)
            now = clock.now()
            check_away(state, seat, end, now)
            info = state.seats[seat]
            public = {
                "seat": seat,
                "name": info.name,
                "until": _iso(end),
                "since": info.away_since or _iso(now),
            }
            return Append([(SEAT_AWAY, public, public)])

        return await self.rooms.change(room_id, plan)

    async def back(self, room_id: str, token: str | None) -> RoomState:
        """The caller is back: their clock runs again with the time it had left."""
        if token is None:
            raise ApiError(401, "no_token", "Only a seated player can come back.")

        def plan(state: RoomState) -> Append:
            seat = _seat(state, token)
            if state.seats[seat].away_until is None:
                raise ApiError(409, "not_away", "You are not away at this table.")
            return _back(state, seat, "back")

        return await self.rooms.change(room_id, plan)

    # -- every seat a browser holds -----------------------------------------------

    async def _find(self, tokens: Sequence[str]) -> list[tuple[str, str, int] | None]:
        hashes = [hash_token(t) for t in tokens]
        async with self.rooms.db.transaction() as session:
            found = await store.seats_of_tokens(session, hashes)
        return [(t, *found[h]) if h in found else None for t, h in zip(tokens, hashes, strict=True)]

    async def declare_all(self, tokens: Sequence[str], until: datetime) -> list[Outcome]:
        """Away at every seat of ``tokens`` (one outcome per token, in order). A limit or
        cooldown that refuses one seat refuses the call before anything changes."""
        found = await self._find(tokens)
        now = clock.now()
        end = until.astimezone(UTC).replace(microsecond=0)
        for item in found:
            if item is not None:
                token, room_id, _ = item
                state = await self.rooms.load(room_id)
                seat = state.seat_with(hash_token(token))
                if seat is not None:
                    check_away(state, seat, end, now)
        return await self._each_once(tokens, found, lambda r, t: self.declare(r, t, end))

    async def back_all(self, tokens: Sequence[str]) -> list[Outcome]:
        """Back at every seat of ``tokens`` that is away (the others are left as they are)."""
        found = await self._find(tokens)

        async def back(room_id: str, token: str) -> RoomState:
            try:
                return await self.back(room_id, token)
            except ApiError as error:
                if error.code != "not_away":
                    raise
                return await self.rooms.load(room_id)

        return await self._each_once(tokens, found, back)

    async def _each_once(
        self, tokens: Sequence[str], found: list[tuple[str, str, int] | None], act: Any
    ) -> list[Outcome]:
        """One change per seat, however often its token was sent."""
        done: dict[str, Outcome] = {}
        for token, item in zip(tokens, found, strict=True):
            if token not in done:
                done[token] = await self._each(item, act)
        return [done[token] for token in tokens]

    async def _each(self, item: tuple[str, str, int] | None, act: Any) -> Outcome:
        if item is None:
            return Outcome()
        token, room_id, seat = item
        try:
            state: RoomState = await act(room_id, token)
        except ApiError as error:
            if error.code == "bad_token":
                return Outcome()  # the seat changed hands since it was looked up
            return Outcome(room_id=room_id, seat=seat, error=error)
        return Outcome(room_id=room_id, seat=state.seat_with(hash_token(token)), state=state)

    # -- the end of away times ----------------------------------------------------

    async def sweep(self, now: datetime) -> int:
        """End the away times that have run out (the scheduler loop calls this)."""
        async with self.rooms.db.transaction() as session:
            ended = await store.aways_ended(session, now)
        done = 0
        for room_id, seat in ended:

            def plan(state: RoomState, seat: int = seat) -> Append:
                until = state.seats[seat].away_until if seat < len(state.seats) else None
                if until is None or datetime.fromisoformat(until) > clock.now():
                    raise _NotEnded
                return _back(state, seat, "expired")

            try:
                await self.rooms.change(room_id, plan)
                done += 1
            except _NotEnded:
                # ended or moved on in the log since it was read: the mirror follows it
                state = await self.rooms.load(room_id)
                async with self.rooms.db.transaction() as session:
                    await store.replace_aways(session, room_id, away_records(state))
            except ApiError:
                pass  # busy: the next pass tries again
        return done

    # -- inside every append ------------------------------------------------------

    async def within(self, session: Any, before: RoomState, after: RoomState) -> None:
        """Keep the ``aways`` rows of the room as the log has them."""
        if before.seats is after.seats:
            return  # a move or a chat line leaves the seats as they were
        if away_records(before) != away_records(after):
            await store.replace_aways(session, after.room.id, away_records(after))


class _NotEnded(Exception):
    """The away time of a row the loop found has not run out in the room's state."""


def _back(state: RoomState, seat: int, reason: str) -> Append:
    public = {
        "seat": seat,
        "name": state.seats[seat].name,
        "reason": reason,
        "at": _iso(clock.now()),
    }
    return Append([(SEAT_BACK, public, public)])


def away_records(state: RoomState) -> list[AwayRecord]:
    return [
        AwayRecord(
            room_id=state.room.id,
            seat=index,
            token_hash=s.token_hash,
            until=datetime.fromisoformat(s.away_until),
            started_at=datetime.fromisoformat(s.away_since or s.away_until),
        )
        for index, s in enumerate(state.seats)
        if s.away_until is not None and s.token_hash is not None
    ]
