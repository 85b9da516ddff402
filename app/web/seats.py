"""REST routes for seats in a running game, the host's role and deadlines (see app/play/seats.py,
app/play/deadlines.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.play.access import seat_in
from app.play.deadlines import turn_seconds, with_clocks
from app.play.schemas import ChangeSettings, HandHost, HandOver, Leave, Resign
from app.play.table_settings import CHANGEABLE_RULES
from app.play.views import room_info
from app.web.deps import ERRORS, RoomId, Svc, Token, room_message, state_message

router = APIRouter(prefix="/api", responses=ERRORS)


@router.post("/rooms/{room}/leave", summary="Leave the running game; a bot plays for you")
async def leave(room: str, svc: Svc, token: Token, body: Leave | None = None) -> dict[str, Any]:
    state = await svc.seats.leave(room, token, body.bot if body else None)
    return await state_message(svc, state, seat_in(state, token))


@router.post("/rooms/{room}/seats/{seat}/hand-over", summary="The host hands a seat to a bot")
async def hand_over(
    room: str, seat: int, svc: Svc, token: Token, body: HandOver | None = None
) -> dict[str, Any]:
    state = await svc.seats.hand_over(room, token, seat, body.bot if body else None)
    return await room_message(svc, state)


@router.post("/rooms/{room}/resign", summary="Resign the running game")
async def resign(
    room: RoomId, svc: Svc, token: Token, body: Resign | None = None
) -> dict[str, Any]:
    state = await svc.endings.resign(room, token, body.seq if body else None)
    return await state_message(svc, state, seat_in(state, token))


@router.post("/rooms/{room}/abort", summary="Propose, or agree, to abort the running game")
async def abort(room: RoomId, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.endings.abort_vote(room, token)
    return await state_message(svc, state, seat_in(state, token))


@router.post("/rooms/{room}/stand-up", summary="Give up your seat at a waiting table")
async def stand_up(room: RoomId, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.seats.stand_up(room, token)
    return await state_message(svc, state, None)


@router.post("/rooms/{room}/settings", summary="The host changes a waiting table's settings")
async def change_settings(
    room: RoomId, body: ChangeSettings, svc: Svc, token: Token
) -> dict[str, Any]:
    rules: dict[str, Any] = {
        k: getattr(body, k) for k in CHANGEABLE_RULES if k in body.model_fields_set
    }
    if rules.get("on_timeout", "") is None:
        del rules["on_timeout"]
    state = await svc.table_settings.change(room, token, body.players, body.options, rules)
    return await room_message(svc, state)


@router.post("/rooms/{room}/seats/{seat}/free", summary="The host frees a seat for someone else")
async def free(room: str, seat: int, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.seats.release(room, token, seat)
    return await room_message(svc, state)


@router.post("/rooms/{room}/host", summary="The host makes the person in another seat host")
async def hand_host(room: RoomId, body: HandHost, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.seats.hand_host(room, token, body.seat)
    online = await svc.presence.online(room, state.room.players)
    return with_clocks(
        room_info(state, state.seat_records(), online), await svc.deadlines.clocks(state)
    )


@router.post("/rooms/{room}/seats/{seat}/take-back", summary="Take your seat back from a bot")
async def take_back(room: str, seat: int, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.seats.take_back(room, token, seat)
    return await state_message(svc, state, seat)


@router.get("/rooms/{room}/deadlines", summary="Time left for each seat the game waits for")
async def deadlines(room: str, svc: Svc) -> dict[str, Any]:
    state = await svc.rooms.load(room)
    return {
        "seq": state.seq,
        "turn_seconds": turn_seconds(state),
        "on_timeout": state.room.rules.get("on_timeout", "bot_move"),
        "deadlines": [c.to_json() for c in await svc.deadlines.clocks(state)],
    }
