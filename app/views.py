"""The one place that decides what a seat (or a spectator) receives.

Every state message, REST or websocket, is built here from the engine's view for
that seat. Nothing else of the engine state, and never the seed or a token hash,
is put in front of a browser.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.roomstate import RoomState
from app.store import EventRecord, SeatRecord


def seat_list(
    state: RoomState, seats: Sequence[SeatRecord], online: Mapping[int, bool]
) -> list[dict[str, Any]]:
    acting = set(state.engine.to_act(state.game)) if state.status == "playing" else set()
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": "bot" if s.bot else ("human" if s.claimed else "empty"),
            "bot": s.bot,
            "stand_in": s.stand_in,
            "online": bool(s.bot) or online.get(s.seat, False),
            "to_act": s.seat in acting,
        }
        for s in seats
    ]


def room_info(
    state: RoomState, seats: Sequence[SeatRecord], online: Mapping[int, bool]
) -> dict[str, Any]:
    room = state.room
    return {
        "id": room.id,
        "game": room.game,
        "title": state.engine.title,
        "players": room.players,
        "options": room.options,
        "rules": room.rules,
        "creator_seat": room.creator_seat,
        "status": state.status,
        "seq": state.seq,
        "game_no": state.game_no,
        "seats": seat_list(state, seats, online),
    }


def public_event(event: EventRecord) -> dict[str, Any]:
    """An event as anyone in the room may read it (``public`` was written for that)."""
    out: dict[str, Any] = {"seq": event.seq, "kind": event.kind, **event.public}
    if event.created_at is not None:
        out["at"] = event.created_at.isoformat()
    return out


def seat_state(
    state: RoomState,
    seats: Sequence[SeatRecord],
    online: Mapping[int, bool],
    seat: int | None,
    events: Iterable[EventRecord] = (),
    events_from: int | None = None,
) -> dict[str, Any]:
    """The full state message for ``seat`` (``None``: spectator).

    ``events_from`` marks a catch-up cut short: the receiver has not been sent the
    events before that seq which it hasn't seen, and fetches them from ``/events``.
    """
    engine = state.engine
    game = state.game
    if game is None:
        view = None
        to_act: list[int] = []
        legal: list[dict[str, Any]] = []
        result = None
    else:
        view = engine.view(game, seat)
        to_act = engine.to_act(game)
        legal = engine.legal_moves(game, seat) if seat is not None and seat in to_act else []
        result = engine.result(game)
    message = {
        "type": "state",
        "seq": state.seq,
        "game_seq": state.game_seq,
        "you": seat,
        "room": room_info(state, seats, online),
        "view": view,
        "to_act": to_act,
        "legal_moves": legal,
        "result": result,
        "events": [public_event(e) for e in events],
    }
    if events_from is not None:
        message["events_truncated"] = True
        message["events_from"] = events_from
    return message
