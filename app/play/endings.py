"""Ending a game early: a seat resigns, or the seated people agree to abort.

A resignation is a ``move`` event whose move is ``RESIGN`` (engines/base.py): the
engine decides what it does to the game (the seat drops out, or the game ends with
it last; docs/rules.md ALL-6), so replay, records and restarts fold it
like any move. It is counted in the tally like any finished game.

An abort needs every person who holds a seat now (a bot has no say, an away person
has): each agrees with an ``abort_vote`` event, and the last vote appends a
``game_over`` with no result and ``aborted`` set. Such a game counts in no tally.
Votes belong to the running game: the next start clears them.
"""

from __future__ import annotations

from typing import Any

from app.core.errors import ApiError, stale
from app.play.actor import Actor
from app.play.kinds import ABORT_VOTE, GAME_OVER, MOVE
from app.play.rooms import Append, Event, Rooms
from app.play.state import RoomState
from engines.base import RESIGN, IllegalMove, resign_line


def _playing(state: RoomState) -> None:
    if state.status != "playing":
        raise ApiError(409, "not_playing", "No game is running in this room.")


class Endings:
    """Resign and abort, over the room log."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    async def resign(self, room_id: str, token: str | None, seq: int | None = None) -> RoomState:
        """The caller's seat resigns the running game. ``seq``: the last seq the caller
        saw, refused as ``stale`` if a game event came after it (so a resignation meant
        for one game never lands in the next)."""
        if token is None:
            await self.rooms.load(room_id)  # an unknown room is reported as such first
            raise ApiError(401, "no_token", "Only a seated player can resign.")
        actor = Actor.holding(token)

        def plan(state: RoomState) -> Append:
            seat = actor.seat_in(state)
            _playing(state)
            if seq is not None and seq < state.game_seq:
                raise stale(state.seq)
            try:
                after = state.engine.resign(state.game, seat)
            except IllegalMove as exc:
                raise ApiError(409, "cannot_resign", exc.message, reason=exc.code) from exc
            public = {"seat": seat, "log": resign_line(seat), "resigned": True}
            events: list[Event] = [(MOVE, {"seat": seat, "move": dict(RESIGN)}, public)]
            result = state.engine.result(after)
            status = None
            if result is not None:
                events.append((GAME_OVER, {"result": result}, {"result": result}))
                status = "finished"
            return Append(events, status=status, played=after)

        return await self.rooms.change(room_id, plan)

    async def abort_vote(self, room_id: str, token: str | None) -> RoomState:
        """The caller proposes to abort the running game, or agrees to it; the last of
        the seated people to agree ends it."""
        if token is None:
            await self.rooms.load(room_id)
            raise ApiError(401, "no_token", "Only a seated player can propose to abort.")
        actor = Actor.holding(token)

        def plan(state: RoomState) -> Append:
            seat = actor.seat_in(state)
            _playing(state)
            mine = str(actor.token_hash)
            if mine in state.abort_votes:
                raise ApiError(409, "already_agreed", "You agreed to abort this game already.")
            public: dict[str, Any] = {"seat": seat, "name": state.seats[seat].name}
            events: list[Event] = [(ABORT_VOTE, {**public, "token_hash": mine}, public)]
            people = {s.token_hash for s in state.seats if s.token_hash is not None}
            status = None
            if people <= state.abort_votes | {mine}:
                ended = {"result": None, "aborted": True}
                events.append((GAME_OVER, ended, ended))
                status = "finished"
            return Append(events, status=status)

        return await self.rooms.change(room_id, plan)
