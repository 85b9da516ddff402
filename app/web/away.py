"""REST routes for being away: at one table, or at every table a browser holds a seat
in (see app/play/away.py). The tokens of the second kind come in the body, never in
the URL, and the answer names only the seats of the tokens sent."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.core.errors import ApiError
from app.play.access import seat_in
from app.play.away import Outcome
from app.play.schemas import Away, AwayEverywhere, BackEverywhere
from app.web.deps import ERRORS, RoomId, Svc, Token, state_message

router = APIRouter(prefix="/api", responses=ERRORS)


@router.post("/rooms/{room}/away", summary="Be away until a time: your clock here waits")
async def away(room: RoomId, body: Away, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.aways.declare(room, token, body.until)
    return await state_message(svc, state, seat_in(state, token))


@router.delete("/rooms/{room}/away", summary="Be back: your clock here runs again")
async def back(room: RoomId, svc: Svc, token: Token) -> dict[str, Any]:
    state = await svc.aways.back(room, token)
    return await state_message(svc, state, seat_in(state, token))


def _answer(outcomes: list[Outcome]) -> dict[str, Any]:
    if all(o.room_id is None for o in outcomes):
        raise ApiError(401, "bad_token", "None of these seat tokens holds a seat.")
    seats: list[dict[str, Any] | None] = []
    for o in outcomes:
        if o.room_id is None or o.seat is None:
            seats.append(None)
        elif o.error is not None:
            seats.append({"room": o.room_id, "seat": o.seat, "error": o.error.body()})
        else:
            assert o.state is not None
            until = o.state.seats[o.seat].away_until
            seats.append({"room": o.room_id, "seat": o.seat, "away_until": until})
    return {"seats": seats}


@router.post("/away", summary="Be away at every table of the seat tokens sent")
async def away_everywhere(body: AwayEverywhere, svc: Svc) -> dict[str, Any]:
    return _answer(await svc.aways.declare_all(body.tokens, body.until))


@router.delete("/away", summary="Be back at every table of the seat tokens sent")
async def back_everywhere(body: BackEverywhere, svc: Svc) -> dict[str, Any]:
    return _answer(await svc.aways.back_all(body.tokens))
