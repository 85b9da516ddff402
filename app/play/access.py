"""Who a seat token is in a room: the seat it holds, whose hidden facts it may see, the host.

The one place that decides it, for live state messages (REST and websocket), for
moves and seat changes, and for replay alike, always from the state in hand:

- A token holds the seat it sits in *now*. A shuffled start moves tokens between
  seats; a seat the host freed has no token any more, and its old token is a
  stranger from then on (401 on live routes, a spectator in replay); a newcomer
  who claims a freed seat holds it as if they had sat there from the start.
- While a game runs, a caller sees the hidden facts of the seat it holds and of no
  other, at every step of that game. Once the game is over everything is revealed,
  and any seat's view of it may be asked for.
- The host is a person, not a seat number: the token of the room's creator, kept
  through shuffles, rematches, leaving and taking back, until the host hands the
  role to the person in another seat (``host_changed``). The host's seat can't be
  freed while they are host.
"""

from __future__ import annotations

import hashlib

from app.core.errors import ApiError, bad_token
from app.play.state import RoomState


def hash_token(token: str) -> str:
    """What the server keeps of a seat token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_in(state: RoomState, token: str | None) -> int | None:
    """The seat ``token`` holds in ``state``; ``None`` without a token; ``bad_token``
    (401) for a token that holds no seat here (another room's, a freed seat's, a guess)."""
    if token is None:
        return None
    seat = state.seat_with(hash_token(token))
    if seat is None:
        raise bad_token()
    return seat


def game_over(state: RoomState, game_no: int) -> bool:
    """Whether game ``game_no`` of the room ``state`` is of has ended (a later one began,
    or it is the last and finished)."""
    return game_no < state.game_no or (game_no == state.game_no and state.status == "finished")


def may_see(state: RoomState, token_hash: str | None, seat: int | None, game_no: int) -> bool:
    """Whether the caller with ``token_hash`` may see seat ``seat``'s hidden facts in game
    ``game_no`` (``None``: the spectator's view, which anyone may see), by ``state``, the
    room as it is now."""
    if seat is None or game_over(state, game_no):
        return True
    return game_no == state.game_no and state.seat_with(token_hash) == seat


def perspective(
    state: RoomState, token_hash: str | None, asked: int | None, game_no: int
) -> int | None:
    """The seat whose view of game ``game_no`` the caller gets: ``asked`` if given and
    allowed (403 ``hidden_until_over`` if not), else the seat the caller holds now."""
    if asked is None:
        return state.seat_with(token_hash) if state.game_no == game_no else None
    if not may_see(state, token_hash, asked, game_no):
        raise ApiError(
            403,
            "hidden_until_over",
            "While the game runs you see only your own seat's view; "
            "every hand is shown once the game is over.",
        )
    return asked


def host_seat(state: RoomState) -> int | None:
    """The seat the host sits in now (``None`` only for a room whose host holds no seat)."""
    return state.seat_with(state.host)


def is_host(state: RoomState, token_hash: str | None) -> bool:
    return token_hash is not None and token_hash == state.host and host_seat(state) is not None


def require_host(state: RoomState, token: str | None, doing: str) -> int:
    """The seat of the caller, who must be the host: 401 without a token or with one of
    no seat here, 403 ``not_creator`` for any other seat's. ``doing`` completes "Only the
    room's host can …"."""
    if token is None:
        raise ApiError(401, "no_token", f"Only the room's host can {doing}.")
    seat = seat_in(state, token)
    assert seat is not None
    if not is_host(state, hash_token(token)):
        raise ApiError(403, "not_creator", f"Only the room's host can {doing}.")
    return seat
