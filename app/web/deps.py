"""What every route depends on: the process's parts, the caller's token and address,
the checked room id, the error shapes, and the state and room messages routes answer.

The routes see the process's parts through ``Backend``, the shape the composition root
(``app/services.py``) fills: the web package names what it uses and imports nothing
above itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import Depends, Header, Path, Request
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import HTTPConnection

from app.core.config import Settings
from app.core.duty import Duty
from app.core.errors import ApiError, not_found
from app.core.limits import RateLimit
from app.core.redislink import RedisLink
from app.core.text import is_room_id
from app.play.deadlines import with_clocks
from app.play.schemas import MAX_SEQ, ErrorBody, LegalForm
from app.play.state import RoomState
from app.play.views import room_info, seat_state

if TYPE_CHECKING:
    from app.alerts.outbox import Outbox
    from app.bots.runner import BotRunner
    from app.history.replay import Replays
    from app.live.doorbell import Doorbell
    from app.live.hub import Hub
    from app.live.presence import Presence
    from app.play.away import Aways
    from app.play.deadlines import Deadlines
    from app.play.endings import Endings
    from app.play.rooms import Rooms
    from app.play.seats import Seats
    from app.play.table_settings import TableSettings
    from app.play.undo import Undo


class Backend(Protocol):
    """The parts of one app process the routes use (built by ``app/services.py``)."""

    settings: Settings
    engine: AsyncEngine
    redis: RedisLink | None
    rooms: Rooms
    seats: Seats
    table_settings: TableSettings
    endings: Endings
    undo: Undo
    deadlines: Deadlines
    aways: Aways
    replays: Replays
    doorbell: Doorbell
    presence: Presence
    hub: Hub
    bots: BotRunner
    outbox: Outbox
    duty: Duty
    room_limit: RateLimit


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429)
}


def backend(conn: HTTPConnection) -> Backend:
    found: Backend = conn.app.state.services
    return found


Svc = Annotated[Backend, Depends(backend)]


def bearer(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """``Authorization: Bearer <seat token>``; none means a spectator."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", "Send the seat token as 'Authorization: Bearer <token>'.")
    return token.strip()


Token = Annotated[str | None, Depends(bearer)]


def room_id(conn: HTTPConnection) -> None:
    """The room id of every API route with ``{room}`` in its path, checked in this one
    place: anything that can't be a room id is no room (and never reaches a query).

    The app makes it a dependency of every route (``app/web/app.py``), so no route,
    however new, goes without it. The websocket answers a bad id itself, in its own
    error shape.
    """
    room = conn.path_params.get("room")
    if room is None or conn.scope["type"] != "http" or not conn.url.path.startswith("/api/"):
        return
    if not isinstance(room, str) or not is_room_id(room):
        raise not_found(str(room))


RoomId = Annotated[str, Path(description="The room id from the link.")]
SeatNo = Annotated[int, Path(ge=0, le=MAX_SEQ, description="The seat number, from 0.")]


def client_address(request: Request) -> str:
    """The caller's address; behind a trusted proxy (``TRUST_PROXY_HEADERS``) uvicorn has
    already put the address that proxy saw here, never one the client claims."""
    return request.client.host if request.client else "unknown"


def room_limited(svc: Backend, request: Request) -> None:
    """429 when the caller's address has made too many rooms this minute (creating a
    room and importing one count alike)."""
    if not svc.room_limit.allow(client_address(request)):
        raise ApiError(
            429, "too_many_rooms", "Too many new rooms from your address; wait a minute."
        )


async def state_message(
    svc: Backend, state: RoomState, seat: int | None, legal_form: LegalForm = "list"
) -> dict[str, Any]:
    """The state message for ``seat`` from a state the caller has in hand."""
    online = await svc.presence.online(state.room.id, state.room.players)
    compact = legal_form == "compact"
    message = seat_state(state, state.seat_records(), online, seat, compact=compact)
    with_clocks(message["room"], await svc.deadlines.clocks(state))
    return message


async def room_message(svc: Backend, state: RoomState) -> dict[str, Any]:
    """The room's info (seats, status, seq, clocks) as ``GET /api/rooms/{room}`` answers."""
    online = await svc.presence.online(state.room.id, state.room.players)
    return with_clocks(
        room_info(state, state.seat_records(), online), await svc.deadlines.clocks(state)
    )
