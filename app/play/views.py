"""The one place that decides what a seat (or a spectator) receives.

Every state message, REST or websocket, is built here from the engine's view for
that seat. Nothing else of the engine state, and never the seed or a token hash,
is put in front of a browser.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import orjson

from app.play.access import host_seat
from app.play.rooms import confirms_moves
from app.play.state import RoomState
from app.play.store import EventRecord, SeatRecord
from app.play.undo import request_info, take_backs


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text. A string no UTF-8 can hold (a lone surrogate, which
    JSON text may carry as an escape, say in a client's message id) goes back escaped,
    as the standard library writes it; orjson, fast for all the rest, refuses those."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, separators=(",", ":"))


def seat_list(
    state: RoomState,
    seats: Sequence[SeatRecord],
    online: Mapping[int, bool],
    to_act: Iterable[int] | None = None,
) -> list[dict[str, Any]]:
    if to_act is None:
        to_act = state.engine.to_act(state.game) if state.game is not None else ()
    acting = set(to_act) if state.status == "playing" else set()
    level = _levels(state)
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": "bot" if s.bot else ("human" if s.claimed else "empty"),
            "bot": level(s.bot),
            "stand_in": level(s.stand_in),
            "online": bool(s.bot) or online.get(s.seat, False),
            "to_act": s.seat in acting,
            # the person is away until then (ISO, UTC): their clock is paused
            "away_until": s.away_until,
        }
        for s in seats
    ]


def _levels(state: RoomState) -> Callable[[str | None], str | None]:
    """A seat's bot as shown: the level, also where the room's log names it by an old
    name (``Engine.bot_name``)."""
    engine = state.engine
    return lambda bot: None if bot is None else engine.bot_name(bot) or bot


def _rules(state: RoomState) -> dict[str, Any]:
    rules = dict(state.room.rules)
    if rules.get("stand_in") is not None:
        rules["stand_in"] = _levels(state)(rules["stand_in"])
    return rules


def room_info(
    state: RoomState,
    seats: Sequence[SeatRecord],
    online: Mapping[int, bool],
    to_act: Iterable[int] | None = None,
) -> dict[str, Any]:
    room = state.room
    return {
        "id": room.id,
        "game": room.game,
        "title": state.engine.title,
        "players": room.players,
        "options": room.options,
        "rules": _rules(state),
        # the seat the room was opened from; who is host now is ``host_seat`` (a person)
        "creator_seat": room.creator_seat,
        "host_seat": host_seat(state),
        "status": state.status,
        "seq": state.seq,
        "game_no": state.game_no,
        # made from a game record (POST /api/records): whoever imported it chose the
        # moves so far and, for a card game, the seed, so may know every hand
        "imported": state.imported or state.game_imported,
        "game_imported": state.game_imported,
        # the game ended by agreement (no result); the seats that agree to abort the running one
        "aborted": state.aborted,
        "abort_votes": [i for i, s in enumerate(state.seats) if s.token_hash in state.abort_votes],
        # who may take back their last move now, and the take-back waiting for answers
        "take_back": take_backs(state),
        "undo_request": request_info(state),
        "seats": seat_list(state, seats, online, to_act),
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
    compact: bool = False,
) -> dict[str, Any]:
    """The full state message for ``seat`` (``None``: spectator).

    ``events_from`` marks a catch-up cut short: the receiver has not been sent the
    events before that seq which it hasn't seen, and fetches them from ``/events``.
    ``compact``: the legal moves in the engine's compact form where it has one.
    """
    return StateMessages(state, seats, online).for_seat(seat, events, events_from, compact)


class StateMessages:
    """The state messages of one room state, for as many seats as ask.

    What all seats share (who is to act, the result, the room) is worked out once,
    and each seat's view and legal moves once per seat, however many sockets that
    seat has open: a push to a full room costs one engine view per seat, not one
    per socket. The messages share those parts: send them, don't change them.
    """

    def __init__(
        self, state: RoomState, seats: Sequence[SeatRecord], online: Mapping[int, bool]
    ) -> None:
        self.state = state
        game = state.game
        engine = state.engine
        # an aborted game stopped where it stood: nobody is to act in it any more
        playing = game is not None and state.status == "playing"
        self.to_act: list[int] = engine.to_act(game) if playing else []
        self.result = engine.result(game) if game is not None else None
        self.room = room_info(state, seats, online, self.to_act)
        self._views: dict[int | None, Any] = {}
        self._seats: dict[tuple[int | None, bool], tuple[Any, str, Any]] = {}
        self._texts: dict[tuple[int | None, bool], tuple[Any, tuple[str, bytes]]] = {}
        self._finals: dict[int, Any] = {}

    def _final(self, seat: int) -> Any:
        """Which of ``seat``'s legal moves can't be taken back, in a room that confirms
        those: one bool for all, else one per move of ``legal_moves``, in its order."""
        if seat not in self._finals:
            game, engine = self.state.game, self.state.engine
            same = engine.all_final(game, seat)
            self._finals[seat] = (
                same
                if same is not None
                else [engine.final(game, seat, move) for move in engine.legal_moves(game, seat)]
            )
        return self._finals[seat]

    def _view(self, seat: int | None) -> Any:
        """The engine's view for ``seat``, worked out once whatever form its sockets ask."""
        if seat not in self._views:
            game = self.state.game
            self._views[seat] = self.state.engine.view(game, seat) if game is not None else None
        return self._views[seat]

    def _legal_text(self, seat: int | None, compact: bool) -> tuple[str, bytes]:
        """The field and JSON text of ``seat``'s legal moves: the engine's compact form
        when asked for and it has one, else the list; ``[]`` unless the seat may act."""
        game = self.state.game
        if game is None or seat is None or seat not in self.to_act:
            return "legal_moves", b"[]"
        engine = self.state.engine
        if compact:
            text = engine.legal_moves_compact(game, seat)
            if text is not None:
                return "legal_compact", text
        return "legal_moves", engine.legal_moves_json(game, seat)

    def _seat_part(self, seat: int | None, compact: bool) -> tuple[Any, str, Any]:
        key = (seat, compact)
        part = self._seats.get(key)
        if part is None:
            game = self.state.game
            engine = self.state.engine
            view = self._view(seat)
            if compact:
                field, text = self._legal_text(seat, compact)
                part = (view, field, json.loads(text))
            else:
                legal: list[Any] = []
                if game is not None and seat is not None and seat in self.to_act:
                    legal = engine.legal_moves(game, seat)
                part = (view, "legal_moves", legal)
            self._seats[key] = part
        return part

    def text_for_seat(
        self,
        seat: int | None,
        events: Iterable[EventRecord] = (),
        events_from: int | None = None,
        compact: bool = False,
    ) -> str:
        """``for_seat``'s message as JSON text, as sockets get it: the legal moves come
        as the engine's own JSON text, joined in, never built as objects and encoded."""
        key = (seat, compact)
        part = self._texts.get(key)
        if part is None:
            part = self._texts[key] = (self._view(seat), self._legal_text(seat, compact))
        view, (field, legal) = part
        try:
            message = self._message(seat, view, field, orjson.Fragment(legal), events, events_from)
            return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
        except orjson.JSONEncodeError:
            message = self._message(seat, view, field, json.loads(legal), events, events_from)
            return encode(message)

    def for_seat(
        self,
        seat: int | None,
        events: Iterable[EventRecord] = (),
        events_from: int | None = None,
        compact: bool = False,
    ) -> dict[str, Any]:
        view, field, legal = self._seat_part(seat, compact)
        return self._message(seat, view, field, legal, events, events_from)

    def _message(
        self,
        seat: int | None,
        view: Any,
        field: str,
        legal: Any,
        events: Iterable[EventRecord],
        events_from: int | None,
    ) -> dict[str, Any]:
        state = self.state
        message = {
            "type": "state",
            "seq": state.seq,
            "game_seq": state.game_seq,
            "you": seat,
            "room": self.room,
            "view": view,
            "to_act": self.to_act,
            field: legal,
            "result": self.result,
            "events": [public_event(e) for e in events],
        }
        if seat is not None and seat in self.to_act and confirms_moves(state.room.rules):
            message["confirm"] = self._final(seat)
        if events_from is not None:
            message["events_truncated"] = True
            message["events_from"] = events_from
        return message
