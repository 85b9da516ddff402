"""Taking a move back (docs/rules.md ALL-7): only across moves that showed nobody
anything hidden, as the engine judges each one (``Engine.undoable``).

The room's state keeps the ``trail`` of the running game's latest moves that may be
taken back. A seat takes its last move back alone while nobody has moved since; once
someone has, it asks (``undo_request``), and every other person holding a seat must
agree (``undo_answer``). A bot has no say, like in an abort vote: with only bots at
the table the take-back happens at once. One refusal, any move, the game's end or a
new game ends the request.

The take-back is an ``undo`` event naming the seq the game goes back to (``to``),
the moves it takes back (``undone``) and, in its private part, the whole position
before them: folding it loads that position, so no move path ever replays a game.
Finding that position replays the running game from its start once, when a move is
taken back; it is rare, and the normal move path never pays for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.errors import ApiError, busy, stale
from app.play import store
from app.play.actor import Actor
from app.play.kinds import GAME_STARTED, MOVE, UNDO, UNDO_ANSWER, UNDO_REQUEST
from app.play.rooms import RETRIES, Append, Event, Rooms
from app.play.state import RoomState


class _Moved(Exception):
    """The room moved on between reading the game and planning on it: read again."""


def last_move(state: RoomState, seat: int) -> int | None:
    """The index in ``state.trail`` of ``seat``'s last move, if that may be taken back."""
    for index in range(len(state.trail) - 1, -1, -1):
        if state.trail[index][1] == seat:
            return index
    return None


def take_backs(state: RoomState) -> list[dict[str, Any]]:
    """The seats whose person may take back their last move now, and whether they must
    ask the others (``ask``) first; what the room message tells everyone."""
    if state.status != "playing" or state.undo_request is not None:
        return []
    out = []
    for seat, info in enumerate(state.seats):
        index = last_move(state, seat)
        if index is None or info.token_hash is None:
            continue
        asks = index < len(state.trail) - 1 and bool(_others(state, info.token_hash))
        out.append({"seat": seat, "ask": asks})
    return out


def request_info(state: RoomState) -> dict[str, Any] | None:
    """The waiting take-back as anyone in the room may read it."""
    request = state.undo_request
    if request is None:
        return None
    return {
        "seat": request.seat,
        "back_to": request.back_to,
        "agreed": [i for i, s in enumerate(state.seats) if s.token_hash in request.agreed],
        "waiting": [
            i
            for i, s in enumerate(state.seats)
            if s.token_hash is not None
            and s.token_hash != request.token_hash
            and s.token_hash not in request.agreed
        ],
    }


def _others(state: RoomState, token_hash: str) -> set[str]:
    """The token hashes of the people, but ``token_hash``'s, holding a seat: who has a say."""
    return {s.token_hash for s in state.seats if s.token_hash is not None} - {token_hash}


def _playing(state: RoomState) -> None:
    if state.status != "playing":
        raise ApiError(409, "not_playing", "No game is running in this room.")


@dataclass(frozen=True)
class _Plan:
    """What a take-back appends, and the move it goes back before (``None``: no read)."""

    events: list[Event]
    back_to: int | None = None


class Undo:
    """Take back, ask to, agree and decline, over the room log."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    async def take_back(
        self, room_id: str, token: str | None, ask: bool = False, seq: int | None = None
    ) -> RoomState:
        """The caller takes back their last move, or (``ask``) asks the others to let them
        once someone has moved since. ``seq``: the last seq the caller saw, refused as
        ``stale`` if a game event came after it (never take back what you did not see)."""
        actor = await self._actor(room_id, token, "take a move back")

        def decide(state: RoomState) -> _Plan:
            seat = actor.seat_in(state)
            _playing(state)
            if seq is not None and seq < state.game_seq:
                raise stale(state.seq)
            if state.undo_request is not None:
                raise ApiError(
                    409, "undo_requested", "A take-back is already waiting for the others' answer."
                )
            index = last_move(state, seat)
            if index is None:
                raise ApiError(
                    409,
                    "not_undoable",
                    "You have no move that can be taken back: a move that drew or showed "
                    "something hidden stays, and so does every move before it.",
                )
            back_to = state.trail[index][0]
            mine = str(actor.token_hash)
            # someone has moved since: the others must agree, if any person is there to
            moved = index < len(state.trail) - 1 and bool(_others(state, mine))
            if moved and not ask:
                raise ApiError(
                    409,
                    "others_moved",
                    "Someone has moved since your move; ask the others to let you take it back.",
                )
            public = {"seat": seat, "name": state.seats[seat].name, "back_to": back_to}
            if moved:
                data = {**public, "token_hash": mine}
                return _Plan([(UNDO_REQUEST, data, public)])
            return _Plan([], back_to)

        return await self._change(room_id, decide)

    async def accept(self, room_id: str, token: str | None) -> RoomState:
        """The caller agrees to the waiting take-back; the last to agree makes it happen."""
        actor = await self._actor(room_id, token, "answer a take-back")

        def decide(state: RoomState) -> _Plan:
            seat = actor.seat_in(state)
            _playing(state)
            request = _request(state)
            mine = str(actor.token_hash)
            if mine == request.token_hash:
                raise ApiError(409, "own_request", "You asked to take back; the others answer.")
            if mine in request.agreed:
                raise ApiError(409, "already_agreed", "You agreed to this take-back already.")
            public = {"seat": seat, "name": state.seats[seat].name, "accept": True}
            events: list[Event] = [(UNDO_ANSWER, {**public, "token_hash": mine}, public)]
            if _others(state, request.token_hash) <= request.agreed | {mine}:
                return _Plan(events, request.back_to)
            return _Plan(events)

        return await self._change(room_id, decide)

    async def decline(self, room_id: str, token: str | None) -> RoomState:
        """The caller declines the waiting take-back (its asker withdraws it): it ends."""
        actor = await self._actor(room_id, token, "answer a take-back")

        def decide(state: RoomState) -> _Plan:
            seat = actor.seat_in(state)
            _playing(state)
            _request(state)
            mine = str(actor.token_hash)
            public = {"seat": seat, "name": state.seats[seat].name, "accept": False}
            return _Plan([(UNDO_ANSWER, {**public, "token_hash": mine}, public)])

        return await self._change(room_id, decide)

    # -- the walk ------------------------------------------------------------------

    async def _actor(self, room_id: str, token: str | None, doing: str) -> Actor:
        if token is None:
            await self.rooms.load(room_id)  # an unknown room is reported as such first
            raise ApiError(401, "no_token", f"Only a seated player can {doing}.")
        return Actor.holding(token)

    async def _change(self, room_id: str, decide: Callable[[RoomState], _Plan]) -> RoomState:
        """Decide on the room's state, read the position to go back to if needed, and
        append on that very state; after the room moved on, all of it again."""
        for _ in range(RETRIES):
            state = await self.rooms.load(room_id)
            planned: _Plan = decide(state)
            events, played = list(planned.events), None
            if planned.back_to is not None:
                played, undone = await self._before(state, planned.back_to)
                seat = next(s for q, s in state.trail if q == planned.back_to)
                public = {
                    "seat": seat,
                    "name": state.seats[seat].name,
                    "to": planned.back_to - 1,
                    "undone": undone,
                }
                data = {**public, "game": state.engine.dump(played)}
                events.append((UNDO, data, public))

            def plan(
                now: RoomState,
                seen: int = state.seq,
                events: list[Event] = events,
                played: Any = played,
            ) -> Append:
                if now.seq != seen:
                    raise _Moved
                return Append(events, played=played)

            try:
                return await self.rooms.change(room_id, plan, state)
            except _Moved:
                continue
        raise busy()

    async def _before(self, state: RoomState, back_to: int) -> tuple[Any, list[int]]:
        """The running game's position just before its move at ``back_to``, and the seqs of
        the moves from there on that a take-back undoes (read from the log, replayed from
        the game's start: the moves taken back before come back as the positions their
        ``undo`` events hold)."""
        room_id, engine = state.room.id, state.engine
        async with self.rooms.db.reading() as session:
            start = await store.last_of_kind(session, room_id, GAME_STARTED, state.seq)
            if start is None:
                raise RuntimeError(f"room {room_id}: a game runs without a start")
            events = await store.game_events(
                session, room_id, start, state.seq, (GAME_STARTED, MOVE, UNDO)
            )
        game: Any = None
        live: list[int] = []
        before: Any = None
        for event in events:
            data = event.data
            if event.kind == GAME_STARTED:
                game = engine.new_game(data["players"], data["seed"], data["options"])
            elif event.kind == UNDO:
                game = engine.load(data["game"])
                live = [seq for seq in live if seq <= data["to"]]
            else:
                if event.seq == back_to:
                    before = game
                game = engine.apply(game, data["seat"], data[MOVE])
                live.append(event.seq)
        if before is None or game != state.game:
            raise RuntimeError(f"room {room_id}: the log does not replay to the state held")
        return before, _undone(live, back_to)


def _undone(live: Sequence[int], back_to: int) -> list[int]:
    return [seq for seq in live if seq >= back_to]


def _request(state: RoomState) -> Any:
    if state.undo_request is None:
        raise ApiError(409, "no_request", "Nobody is asking to take a move back.")
    return state.undo_request
