"""REST routes: thin adapters from HTTP to the room use cases (paths fixed, docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket

from app.core.errors import ApiError, not_found
from app.core.text import chat_text, display_name, is_room_id
from app.live.hub import CLOSE_NO_ROOM
from app.play.access import hash_token, seat_in
from app.play.rooms import RoomRules
from app.play.schemas import (
    MAX_SEQ,
    Chat,
    ClaimedSeat,
    ClaimSeat,
    CreatedRoom,
    CreateRoom,
    LegalForm,
    SetBot,
    StartGame,
    SubmitMove,
)
from app.play.views import public_event
from app.web.deps import (
    ERRORS,
    Backend,
    RoomId,
    SeatNo,
    Svc,
    Token,
    room_limited,
    room_message,
    state_message,
)
from engines import ENGINES

router = APIRouter(prefix="/api", responses=ERRORS)


def _name(svc: Backend, name: str) -> str:
    return display_name(name, svc.settings.name_max_chars)


async def _spend(svc: Backend, room: str, token: str | None) -> None:
    """One message of the budget of the seat ``token`` holds, shared with that token's
    websockets; 429 when it is spent, 401 ``bad_token`` for a token of no seat here."""
    if token is None or seat_in(await svc.rooms.load(room), token) is None:
        return
    if not svc.hub.budget.take((room, hash_token(token))):
        raise ApiError(
            429, "rate_limited", "Too many moves and messages from your seat; slow down."
        )


@router.get("/games", summary="The games, their player counts and options")
async def list_games() -> list[dict[str, Any]]:
    return [
        engine.describe() | {"player_counts": engine.player_counts()} for engine in ENGINES.values()
    ]


@router.post("/rooms", status_code=201, summary="Create a room", response_model=CreatedRoom)
async def create_room(body: CreateRoom, request: Request, svc: Svc) -> CreatedRoom:
    room_limited(svc, request)
    state, token = await svc.rooms.create(
        game=body.game,
        players=body.players,
        options=body.options,
        name=_name(svc, body.name),
        seat=body.seat,
        bots=body.bots,
        rules=RoomRules(
            start_when_full=body.start_when_full,
            anyone_can_start=body.anyone_can_start,
            shuffle_seats=body.shuffle_seats,
            turn_seconds=body.turn_seconds,
            on_timeout=body.on_timeout,
            stand_in=body.stand_in,
        ),
    )
    base = svc.settings.public_url.rstrip("/") or str(request.base_url).rstrip("/")
    return CreatedRoom(
        room=state.room.id,
        seat=body.seat,
        token=token,
        url=f"{base}/r/{state.room.id}",
        state=await state_message(svc, state, body.seat),
    )


@router.get("/rooms/{room}", summary="Seats, status and seq of a room")
async def get_room(room: RoomId, svc: Svc) -> dict[str, Any]:
    return await room_message(svc, await svc.rooms.load(room))


@router.post("/rooms/{room}/seats/{seat}", summary="Claim a free seat", response_model=ClaimedSeat)
async def claim_seat(
    room: RoomId, seat: SeatNo, body: ClaimSeat, svc: Svc, token: Token
) -> ClaimedSeat:
    state, new_token = await svc.seats.claim(room, seat, _name(svc, body.name), token)
    # the room may have started (and shuffled) the moment the last seat filled
    seat_now = seat_in(state, new_token)
    assert seat_now is not None
    return ClaimedSeat(
        seat=seat_now, token=new_token, state=await state_message(svc, state, seat_now)
    )


@router.post("/rooms/{room}/seats/{seat}/bot", summary="Make a free seat a bot (or free it)")
async def set_bot(
    room: RoomId, seat: SeatNo, body: SetBot, svc: Svc, token: Token
) -> dict[str, Any]:
    await svc.rooms.set_bot(room, token, seat, body.bot)
    return await get_room(room, svc)


@router.post("/rooms/{room}/start", summary="Start the game, or a rematch")
async def start(
    room: RoomId, svc: Svc, token: Token, body: StartGame | None = None
) -> dict[str, Any]:
    state = await svc.rooms.start(room, token, body.shuffle if body else None)
    return await state_message(svc, state, seat_in(state, token))


@router.get("/rooms/{room}/state", summary="The caller's view of the room")
async def get_state(
    room: RoomId,
    svc: Svc,
    token: Token,
    legal_form: Annotated[
        LegalForm,
        Query(description="compact: the legal moves in the game's compact form, if it has one"),
    ] = "list",
) -> dict[str, Any]:
    state = await svc.rooms.load(room)
    return await state_message(svc, state, seat_in(state, token), legal_form)


@router.post("/rooms/{room}/moves", summary="Play a move")
async def play_move(room: RoomId, body: SubmitMove, svc: Svc, token: Token) -> dict[str, Any]:
    await _spend(svc, room, token)
    state = await svc.rooms.move(room, token, body.seq, body.move)
    return await state_message(svc, state, seat_in(state, token))


@router.post("/rooms/{room}/chat", summary="Say something to the room")
async def chat(room: RoomId, body: Chat, svc: Svc, token: Token) -> dict[str, Any]:
    await _spend(svc, room, token)
    state = await svc.rooms.chat(room, token, chat_text(body.text), svc.settings.chat_max_chars)
    return {"seq": state.seq}


@router.get("/rooms/{room}/events", summary="The room's log, as the caller may see it")
async def events(
    room: RoomId,
    svc: Svc,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> dict[str, Any]:
    state = await svc.rooms.load(room)
    rows = await svc.rooms.events(room, after, limit)
    return {"seq": state.seq, "events": [public_event(e) for e in rows]}


@router.websocket("/rooms/{room}/ws")
async def websocket(ws: WebSocket, room: str) -> None:
    svc: Backend = ws.app.state.services
    if not is_room_id(room):
        # the same answer as for a well-formed id that names no room
        error = not_found(room)
        await ws.accept()
        await ws.send_json({"type": "error", **error.body()})
        await ws.close(code=CLOSE_NO_ROOM)
        return
    await svc.hub.serve(ws, room)
