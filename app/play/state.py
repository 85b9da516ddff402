"""A room's state as the fold of its events: which game, which engine state, which seq.

Folding is incremental: a cached ``RoomState`` plus the events after its ``seq``
gives the current one, so a move never replays a whole game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from app.play.kinds import (
    ABORT_VOTE,
    ALERTS_ON,
    GAME_OVER,
    GAME_STARTED,
    HOST_CHANGED,
    MOVE,
    ROOM_CREATED,
    ROOM_SETTINGS,
    SEAT_AWAY,
    SEAT_BACK,
    SEAT_BOT,
    SEAT_CLAIMED,
    SEAT_STAND_IN,
    SEAT_TAKEN_BACK,
    SEAT_VACATED,
    STAND_IN_EVENTS,
    UNDO,
    UNDO_ANSWER,
    UNDO_REQUEST,
)
from app.play.store import EventRecord, RoomRecord, SeatRecord
from engines import get_engine
from engines.base import Engine


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat, as the log tells it. ``token_hash`` never leaves the server.

    ``stand_in`` is a bot playing for the seat's person while they are away (they
    take the seat back with their token), or for nobody once the host freed the seat
    (until someone claims it). ``once``: the stand-in plays one move, then stops.
    """

    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    stand_in: str | None = None
    once: bool = False
    # the person chose the stand-in while no game ran: it plays their seat in the next
    # game too; a stand-in of a running game ends with it (the person is asked back)
    kept: bool = False
    # the person declared themself away (app/play/away.py): until when, since when (ISO
    # times in UTC), and when their last away time ended (the cooldown counts from it)
    away_until: str | None = None
    away_since: str | None = None
    back_at: str | None = None

    @property
    def taken(self) -> bool:
        return self.token_hash is not None or self.bot is not None

    @property
    def player_bot(self) -> str | None:
        """The bot that plays this seat now, if a bot does."""
        return self.bot or self.stand_in

    @property
    def present(self) -> bool:
        """A person plays this seat themself."""
        return self.token_hash is not None and self.stand_in is None


@dataclass(frozen=True)
class UndoRequest:
    """A seat asks to take back its last move (``back_to``: that move's seq) after others
    moved; ``agreed``: the token hashes of the people who said yes (app/play/undo.py)."""

    seat: int
    token_hash: str
    back_to: int
    agreed: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RoomState:
    """Everything the server folds out of a room's log, up to ``seq``."""

    room: RoomRecord
    seq: int = 0
    game_seq: int = 0
    game_no: int = 0
    status: str = "lobby"
    seed: int | None = None
    game: Any = None
    moves_since_snapshot: int = 0
    seats: tuple[SeatInfo, ...] = ()
    mover: int | None = None
    # someone set up turn alerts here once (app/alerts/due.py): without, moves skip them
    alerts: bool = False
    # the room was made from a game record; its current game is that record's game
    imported: bool = False
    game_imported: bool = False
    # the host's token hash: a person, whichever seat they sit in (app/play/access.py)
    host: str | None = None
    # the token hashes of the seated people who want the running game aborted
    abort_votes: frozenset[str] = frozenset()
    # the last game ended by agreement, not by the rules (it counts in no tally)
    aborted: bool = False
    # ``(seq, seat)`` of the running game's latest moves that may be taken back, oldest
    # first: those since the last one that can't (docs/rules.md ALL-7, app/play/undo.py)
    trail: tuple[tuple[int, int], ...] = ()
    # a take-back waiting for the others' answer
    undo_request: UndoRequest | None = None

    @property
    def engine(self) -> Engine[Any]:
        return get_engine(self.room.game)

    def seat_records(self) -> list[SeatRecord]:
        return [
            SeatRecord(
                seat=i,
                name=s.name,
                bot=s.bot,
                claimed=s.token_hash is not None,
                stand_in=s.stand_in,
                away_until=s.away_until,
            )
            for i, s in enumerate(self.seats)
        ]

    def seat_with(self, token_hash: str | None) -> int | None:
        """The seat ``token_hash`` holds; ``None`` for none (or no hash). Who a token is
        in a room is decided from this in ``app/play/access.py``."""
        if token_hash is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.token_hash == token_hash:
                return index
        return None

    def bots_to_act(self) -> list[int]:
        """Bot seats the running game waits for."""
        if self.status != "playing" or self.game is None:
            return []
        return [seat for seat in self.engine.to_act(self.game) if self.seats[seat].player_bot]

    def people_to_act(self) -> list[int]:
        """Seats the running game waits for whose person plays themself."""
        if self.status != "playing" or self.game is None:
            return []
        return [seat for seat in self.engine.to_act(self.game) if self.seats[seat].present]


def fold(state: RoomState, events: Iterable[EventRecord], played: Any = None) -> RoomState:
    """Apply ``events`` (consecutive, after ``state.seq``) to ``state``.

    ``played`` is the game state a ``move`` among them leads to, when the caller has
    just computed it: the move is then not played a second time.
    """
    for event in events:
        if event.seq != state.seq + 1:
            raise RuntimeError(
                f"room {state.room.id}: event {event.seq} does not follow {state.seq}"
            )
        state = apply(state, event, played)
    return state


def apply(state: RoomState, event: EventRecord, played: Any = None) -> RoomState:
    data = event.data
    if event.kind == ROOM_CREATED:
        seats = [SeatInfo() for _ in range(data["players"])]
        seats[data["creator_seat"]] = SeatInfo(name=data["name"], token_hash=data["token_hash"])
        for seat, bot in data["bots"].items():
            seats[int(seat)] = SeatInfo(bot=bot)
        return replace(
            state,
            seq=event.seq,
            seats=tuple(seats),
            imported=bool(data.get("imported")),
            host=data["token_hash"],
        )
    if event.kind == HOST_CHANGED:
        return replace(state, seq=event.seq, host=data["token_hash"])
    if event.kind == SEAT_CLAIMED:
        seats = list(state.seats)
        seats[data["seat"]] = SeatInfo(name=data["name"], token_hash=data["token_hash"])
        return replace(state, seq=event.seq, seats=tuple(seats))
    if event.kind == SEAT_VACATED:
        return replace(state, seq=event.seq, seats=_with(state.seats, data["seat"], SeatInfo()))
    if event.kind == ROOM_SETTINGS:
        players = data["players"]
        added = tuple(SeatInfo() for _ in range(players - len(state.seats)))
        room = replace(state.room, players=players, options=data["options"], rules=data["rules"])
        return replace(state, seq=event.seq, room=room, seats=state.seats[:players] + added)
    if event.kind == ABORT_VOTE:
        votes = state.abort_votes | {data["token_hash"]}
        return replace(state, seq=event.seq, abort_votes=votes)
    if event.kind in (SEAT_AWAY, SEAT_BACK):
        seat = state.seats[data["seat"]]
        if event.kind == SEAT_AWAY:
            seat = replace(seat, away_until=data["until"], away_since=data["since"])
        else:
            seat = replace(seat, away_until=None, away_since=None, back_at=data["at"])
        return replace(state, seq=event.seq, seats=_with(state.seats, data["seat"], seat))
    if event.kind == SEAT_BOT:
        seats = list(state.seats)
        seats[data["seat"]] = SeatInfo(bot=data["bot"])
        return replace(state, seq=event.seq, seats=tuple(seats))
    if event.kind in STAND_IN_EVENTS:
        between = state.status != "playing"
        return replace(
            state, seq=event.seq, seats=_stand_in(state.seats, event.kind, data, between)
        )
    if event.kind == GAME_STARTED:
        engine = get_engine(data["engine"])
        game = engine.new_game(data["players"], data["seed"], data["options"])
        return replace(
            state,
            seq=event.seq,
            seats=tuple(_seated_for_start(state.seats[source]) for source in data["order"]),
            mover=None,
            game_seq=event.seq,
            game_no=data["game_no"],
            status="playing",
            seed=data["seed"],
            game=game,
            moves_since_snapshot=0,
            game_imported=bool(data.get("imported")),
            abort_votes=frozenset(),
            aborted=False,
            trail=(),
            undo_request=None,
        )
    if event.kind == MOVE:
        engine = state.engine
        game = played if played is not None else engine.apply(state.game, data["seat"], data[MOVE])
        undoable = engine.undoable(state.game, data["seat"], data[MOVE], game)
        mover = state.seats[data["seat"]]
        after = (
            _with(state.seats, data["seat"], replace(mover, stand_in=None, once=False))
            if mover.once
            else state.seats
        )
        return replace(
            state,
            seq=event.seq,
            game_seq=event.seq,
            game=game,
            moves_since_snapshot=state.moves_since_snapshot + 1,
            seats=after,
            mover=data["seat"],
            trail=(*state.trail, (event.seq, data["seat"])) if undoable else (),
            undo_request=None,
        )
    if event.kind == UNDO:
        # the position before the move taken back, written whole into the event: the
        # fold never replays a game (app/play/undo.py)
        back = played if played is not None else state.engine.load(data["game"])
        # a bot given one move of a turn taken back (the time ran out) has none to play
        lapsed = tuple(
            replace(s, stand_in=None, once=False) if s.once and s.token_hash else s
            for s in state.seats
        )
        return replace(
            state,
            seq=event.seq,
            game_seq=event.seq,
            game=back,
            seats=lapsed,
            moves_since_snapshot=state.moves_since_snapshot + 1,
            mover=None,
            trail=tuple(entry for entry in state.trail if entry[0] <= data["to"]),
            undo_request=None,
        )
    if event.kind == UNDO_REQUEST:
        asked = UndoRequest(data["seat"], data["token_hash"], data["back_to"])
        return replace(state, seq=event.seq, undo_request=asked)
    if event.kind == UNDO_ANSWER:
        waiting = state.undo_request
        if waiting is None or not data["accept"]:
            return replace(state, seq=event.seq, undo_request=None)
        agreed = replace(waiting, agreed=waiting.agreed | {data["token_hash"]})
        return replace(state, seq=event.seq, undo_request=agreed)
    if event.kind == ALERTS_ON:
        return replace(state, seq=event.seq, alerts=True)
    if event.kind == GAME_OVER:
        return replace(
            state,
            seq=event.seq,
            game_seq=event.seq,
            status="finished",
            abort_votes=frozenset(),
            aborted=bool(data.get("aborted")),
            trail=(),
            undo_request=None,
        )
    return replace(state, seq=event.seq)


def _with(seats: tuple[SeatInfo, ...], index: int, seat: SeatInfo) -> tuple[SeatInfo, ...]:
    return (*seats[:index], seat, *seats[index + 1 :])


def _seated_for_start(seat: SeatInfo) -> SeatInfo:
    """Who plays a seat when a game starts: the person again, unless they chose a bot
    for it between games (a one-move stand-in never outlasts a game either)."""
    if seat.once or (seat.token_hash is not None and seat.stand_in and not seat.kept):
        return replace(seat, stand_in=None, once=False, kept=False)
    return seat


def _stand_in(
    seats: tuple[SeatInfo, ...], kind: str, data: dict[str, Any], between: bool = False
) -> tuple[SeatInfo, ...]:
    """A bot steps in for a seat's person, the person comes back, or the host frees the seat."""
    index = data["seat"]
    seat = seats[index]
    if kind == SEAT_STAND_IN:
        seat = replace(seat, stand_in=data["bot"], once=bool(data.get("once")), kept=between)
    elif kind == SEAT_TAKEN_BACK:
        seat = replace(seat, stand_in=None, once=False, kept=False)
    else:  # seat_released: the person is gone; a bot plays until someone claims the seat
        seat = SeatInfo(stand_in=data["bot"])
    return _with(seats, index, seat)


def to_snapshot(state: RoomState) -> dict[str, Any]:
    """What a snapshot row keeps: enough to resume without the events before it."""
    return {
        "game_seq": state.game_seq,
        "game_no": state.game_no,
        "status": state.status,
        "seed": state.seed,
        "alerts": state.alerts,
        "imported": state.imported,
        "game_imported": state.game_imported,
        "host": state.host,
        "abort_votes": sorted(state.abort_votes),
        "aborted": state.aborted,
        "trail": [list(entry) for entry in state.trail],
        "undo_request": _request_json(state.undo_request),
        "game": state.engine.dump(state.game) if state.game is not None else None,
        "seats": [
            {
                "name": s.name,
                "bot": s.bot,
                "token_hash": s.token_hash,
                "stand_in": s.stand_in,
                "once": s.once,
                "kept": s.kept,
                "away_until": s.away_until,
                "away_since": s.away_since,
                "back_at": s.back_at,
            }
            for s in state.seats
        ],
    }


def from_snapshot(room: RoomRecord, seq: int, data: dict[str, Any]) -> RoomState:
    """The state a snapshot row keeps. One written before snapshots kept the host has
    ``host`` None: the loader then takes the creator's from the room's first event."""
    engine = get_engine(room.game)
    game = engine.load(data["game"]) if data["game"] is not None else None
    return RoomState(
        room=room,
        seq=seq,
        game_seq=data["game_seq"],
        game_no=data["game_no"],
        status=data["status"],
        seed=data["seed"],
        game=game,
        seats=tuple(SeatInfo(**seat) for seat in data["seats"]),
        # snapshots from before this flag existed: assume alerts, as it is only a shortcut
        alerts=data.get("alerts", True),
        # snapshots from before these flags: an import then marked only its game_started
        imported=data.get("imported", False),
        game_imported=data.get("game_imported", False),
        host=data.get("host"),
        abort_votes=frozenset(data.get("abort_votes", ())),
        aborted=bool(data.get("aborted", False)),
        # snapshots from before taking back: nothing to take back until the next move
        trail=tuple((int(seq), int(seat)) for seq, seat in data.get("trail", ())),
        undo_request=_request_from(data.get("undo_request")),
    )


def _request_json(request: UndoRequest | None) -> dict[str, Any] | None:
    if request is None:
        return None
    return {
        "seat": request.seat,
        "token_hash": request.token_hash,
        "back_to": request.back_to,
        "agreed": sorted(request.agreed),
    }


def _request_from(data: dict[str, Any] | None) -> UndoRequest | None:
    if data is None:
        return None
    return UndoRequest(data["seat"], data["token_hash"], data["back_to"], frozenset(data["agreed"]))
