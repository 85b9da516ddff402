"""Who sits where and who is host: leave, hand a seat to a bot, free it, take it back,
claim it, stand up from a waiting table, and hand the host's role to someone else.

A person who leaves (or whom the host replaces) keeps their token: a stand-in bot
plays for them until they take the seat back. A seat the host frees loses its
person for good; a bot plays it until someone claims it by the room's link. The
host is a person (app/play/access.py): leaving keeps the role, and the host's own seat
can't be freed; the role moves only when the host hands it to the person in another
seat. While no game runs a seat can be put right: a person stands up (the seat is
free again, their token worth nothing), or the host frees any seat but their own. Every change is one event in the log, appended at the expected ``seq`` like
any other, and who may make it is checked again on each state it is tried on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from app.core.errors import ApiError, bad_token, seat_taken
from app.play import store
from app.play.access import hash_token, require_host, seat_in
from app.play.actor import Actor
from app.play.deadlines import stand_in_bot
from app.play.kinds import (
    HOST_CHANGED,
    SEAT_CLAIMED,
    SEAT_RELEASED,
    SEAT_STAND_IN,
    SEAT_TAKEN_BACK,
    SEAT_VACATED,
)
from app.play.rooms import Append, Event, Rooms, level_of, new_token
from app.play.state import RoomState
from app.play.store import Conflict

Check = Callable[[RoomState], None]


def _seat_index(state: RoomState, seat: int) -> None:
    if not 0 <= seat < state.room.players:
        raise ApiError(404, "no_such_seat", f"This room has seats 0 to {state.room.players - 1}.")


def _playing(state: RoomState) -> None:
    if state.status != "playing":
        raise ApiError(409, "not_playing", "No game is running in this room.")


def _waiting(state: RoomState) -> None:
    if state.status == "playing":
        raise ApiError(409, "game_running", "Seats can't change this way while a game is running.")


def _own_seat(state: RoomState, seat: int) -> None:
    info = state.seats[seat]
    if info.token_hash is not None and info.token_hash == state.host:
        raise ApiError(
            409,
            "own_seat",
            "The host can't give up their own seat: make someone else host first.",
        )


def _host(state: RoomState, token: str | None) -> None:
    require_host(state, token, "change who plays a seat")


def _bot(state: RoomState, bot: str | None) -> str:
    if bot is None:
        return stand_in_bot(state)
    return level_of(state.engine, bot)


def _person_present(state: RoomState, seat: int) -> None:
    info = state.seats[seat]
    if info.token_hash is None:
        raise ApiError(409, "not_a_person", "No person sits in this seat.")
    if info.stand_in is not None:
        raise ApiError(409, "stood_in", "A bot already plays this seat.")


# called inside the transaction that frees a seat with (session, room id, the token hash
# of the person who held it): what is theirs in the room goes with them (their alerts)
OnRelease = Callable[[Any, str, str], Awaitable[object]]


class Seats:
    """The use cases; each checks against the newest state and retries a lost race."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.on_release: list[OnRelease] = []

    async def _change(
        self,
        room_id: str,
        check: Check,
        event: Callable[[RoomState], Event],
        extra: Callable[[RoomState], Callable[[Any], Awaitable[None]] | None] | None = None,
    ) -> RoomState:
        def plan(state: RoomState) -> Append:
            check(state)
            return Append([event(state)], extra=extra(state) if extra else None)

        return await self.rooms.change(room_id, plan)

    async def leave(self, room_id: str, token: str | None, bot: str | None = None) -> RoomState:
        """The caller leaves: a bot (theirs to choose, else the room's stand-in) plays for
        them until they come back. In a running game for that game only (a rematch asks
        them back); between games, or before the first, for the next game too."""
        state = await self.rooms.load(room_id)
        seat = seat_in(state, token)
        if seat is None:
            raise ApiError(401, "no_token", "Only a seated player can leave.")
        chosen = _bot(state, bot)

        def check(state: RoomState) -> None:
            if state.seat_with(hash_token(str(token))) != seat:
                raise bad_token()
            _person_present(state, seat)

        def event(state: RoomState) -> Event:
            public = {
                "seat": seat,
                "name": state.seats[seat].name,
                "bot": chosen,
                "reason": "left",
                "once": False,
            }
            return (SEAT_STAND_IN, public, public)

        return await self._change(room_id, check, event)

    async def hand_over(
        self, room_id: str, token: str | None, seat: int, bot: str | None
    ) -> RoomState:
        """The host hands a person's running seat to a bot until the person takes it back."""
        state = await self.rooms.load(room_id)
        _host(state, token)
        _seat_index(state, seat)
        chosen = _bot(state, bot)

        def check(state: RoomState) -> None:
            _host(state, token)
            _playing(state)
            _person_present(state, seat)

        def event(state: RoomState) -> Event:
            public = {
                "seat": seat,
                "name": state.seats[seat].name,
                "bot": chosen,
                "reason": "host",
                "once": False,
            }
            return (SEAT_STAND_IN, public, public)

        return await self._change(room_id, check, event)

    async def release(self, room_id: str, token: str | None, seat: int) -> RoomState:
        """The host frees a seat. While a game runs its person is gone and a bot plays
        until someone claims it; at a waiting table the seat is simply empty again
        (a person, a bot or a freed seat's stand-in alike)."""
        state = await self.rooms.load(room_id)
        _host(state, token)
        _seat_index(state, seat)

        def check(state: RoomState) -> None:
            _host(state, token)
            _seat_index(state, seat)
            _own_seat(state, seat)
            info = state.seats[seat]
            if state.status == "playing":
                empty = info.token_hash is None and info.bot is None
            else:
                empty = not info.taken and info.stand_in is None
            if empty:
                raise ApiError(409, "seat_free", "This seat is free already.")

        def event(state: RoomState) -> Event:
            info = state.seats[seat]
            bot = (info.player_bot or stand_in_bot(state)) if state.status == "playing" else None
            public = {"seat": seat, "name": info.name, "bot": bot}
            return (SEAT_RELEASED, public, public)

        def extra(state: RoomState) -> Callable[[Any], Awaitable[None]]:
            info = state.seats[seat]
            waiting = state.status != "playing"

            async def vacate(session: Any) -> None:
                if waiting:
                    if not await store.vacate_seat(
                        session, room_id, seat, info.token_hash, info.bot
                    ):
                        raise Conflict("the seat changed")
                elif info.token_hash is not None:
                    if not await store.release_seat(session, room_id, seat, info.token_hash):
                        raise Conflict("the seat changed")
                elif not await store.set_bot(session, room_id, seat, None):
                    raise Conflict("the seat changed")
                if info.token_hash is not None:
                    for forget in self.on_release:
                        await forget(session, room_id, info.token_hash)

            return vacate

        return await self._change(room_id, check, event, extra)

    async def stand_up(self, room_id: str, token: str | None) -> RoomState:
        """The caller gives up their seat at a waiting table (a seat taken by mistake):
        it is free again and their token holds nothing here any more. The host can't,
        while host: they hand the role on first."""
        if token is None:
            await self.rooms.load(room_id)  # an unknown room is reported as such first
            raise ApiError(401, "no_token", "Only a seated player can stand up.")
        actor = Actor.holding(token)

        def plan(state: RoomState) -> Append:
            seat = actor.seat_in(state)
            _waiting(state)
            _own_seat(state, seat)
            public = {"seat": seat, "name": state.seats[seat].name}

            async def vacate(session: Any) -> None:
                if not await store.vacate_seat(session, room_id, seat, actor.token_hash, None):
                    raise Conflict("the seat changed")
                for forget in self.on_release:
                    await forget(session, room_id, str(actor.token_hash))

            return Append([(SEAT_VACATED, public, public)], extra=vacate)

        return await self.rooms.change(room_id, plan)

    async def hand_host(self, room_id: str, token: str | None, seat: int) -> RoomState:
        """The host makes the person in ``seat`` the host, before, during or after a game.

        That person may be away (a bot standing in keeps their token in the seat); a
        bot's seat or a free one has nobody to be host. The event names the seat and
        the name; the new host's token hash stays in its private part."""
        state = await self.rooms.load(room_id)
        _seat_index(state, seat)

        def check(state: RoomState) -> None:
            require_host(state, token, "hand the host's role to someone else")
            _seat_index(state, seat)
            info = state.seats[seat]
            if info.token_hash is None:
                raise ApiError(409, "not_a_person", "No person sits in this seat.")
            if info.token_hash == state.host:
                raise ApiError(409, "already_host", "The person in this seat is the host already.")

        def event(state: RoomState) -> Event:
            info = state.seats[seat]
            before = seat_in(state, token)
            public = {
                "seat": seat,
                "name": info.name,
                "from": before,
                "from_name": state.seats[before].name if before is not None else None,
            }
            return (HOST_CHANGED, {**public, "token_hash": info.token_hash}, public)

        return await self._change(room_id, check, event)

    async def take_back(self, room_id: str, token: str | None, seat: int) -> RoomState:
        """A person plays their own seat again after a bot stood in for them."""
        state = await self.rooms.load(room_id)
        mine = seat_in(state, token)
        if mine is None:
            raise ApiError(401, "no_token", "Send your seat token to take your seat back.")
        _seat_index(state, seat)
        if mine != seat:
            raise ApiError(403, "not_your_seat", "You can only take back your own seat.")

        def check(state: RoomState) -> None:
            _seat_index(state, seat)
            # the seat must still be the token's where the take-back is appended: the
            # host may have freed it since (a freed seat's token holds nothing)
            if state.seat_with(hash_token(str(token))) != seat:
                raise bad_token()
            if state.seats[seat].stand_in is None:
                raise ApiError(409, "not_stood_in", "You play this seat yourself already.")

        def event(state: RoomState) -> Event:
            public = {"seat": seat, "name": state.seats[seat].name}
            return (SEAT_TAKEN_BACK, public, public)

        return await self._change(room_id, check, event)

    async def claim(
        self, room_id: str, seat: int, name: str, token: str | None
    ) -> tuple[RoomState, str]:
        """Claim a seat: a free one before or between games, a freed one while a game runs."""
        state = await self.rooms.load(room_id)
        if state.status != "playing":
            return await self.rooms.claim(room_id, seat, name, token)
        _seat_index(state, seat)
        mine = state.seat_with(hash_token(token)) if token is not None else None
        if mine is not None:
            raise ApiError(409, "already_seated", f"You already sit in seat {mine + 1}.", seat=mine)
        fresh = new_token()

        def check(state: RoomState) -> None:
            _playing(state)
            info = state.seats[seat]
            if info.taken:
                raise seat_taken()
            if info.stand_in is None:
                raise ApiError(409, "game_running", "Seats can't change while a game is running.")

        def event(state: RoomState) -> Event:
            public = {"seat": seat, "name": name}
            return (SEAT_CLAIMED, {**public, "token_hash": hash_token(fresh)}, public)

        def extra(state: RoomState) -> Callable[[Any], Awaitable[None]]:
            async def sit(session: Any) -> None:
                if not await store.claim_seat(session, room_id, seat, name, hash_token(fresh)):
                    raise seat_taken()

            return sit

        return await self._change(room_id, check, event, extra), fresh
