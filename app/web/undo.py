"""REST routes for taking a move back (see app/play/undo.py, docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.play.access import seat_in
from app.play.schemas import TakeBack
from app.web.deps import ERRORS, RoomId, Svc, Token, state_message

router = APIRouter(prefix="/api", responses=ERRORS)


@router.post("/rooms/{room}/undo", summary="Take back your last move, or ask to")
async def undo(
    room: RoomId, svc: Svc, token: Token, body: TakeBack | None = None
) -> dict[str, Any]:
    ask, seq = (body.ask, body.seq) if body else (False, None)
    state = await svc.undo.take_back(room, token, ask, seq)
    return await state_message(svc, state, seat_in(state, token))


@router.post("/rooms/{room}/undo/accept", summary="Agree to the take-back asked for")
async def accept(room: RoomId, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.undo.accept(room, token)
    return await state_message(svc, state, seat_in(state, token))


@router.post("/rooms/{room}/undo/decline", summary="Decline the take-back asked for")
async def decline(room: RoomId, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.undo.decline(room, token)
    return await state_message(svc, state, seat_in(state, token))
