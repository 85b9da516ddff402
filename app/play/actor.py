"""Who acts in a room: the holder of a seat token, or the bot in a seat.

An actor is never a fixed seat number. A shuffled start or rematch moves every
token to another seat, so the seat is looked up afresh in each state an action
is tried on, a message is built from, or a move is played on.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.errors import ApiError, bad_token
from app.play.access import hash_token
from app.play.state import RoomState


@dataclass(frozen=True)
class Actor:
    """A seat token's holder (``token_hash``) or the bot sitting in ``bot_seat``."""

    token_hash: str | None = None
    bot_seat: int | None = None

    @classmethod
    def holding(cls, token: str) -> Actor:
        return cls(token_hash=hash_token(token))

    @classmethod
    def bot(cls, seat: int) -> Actor:
        return cls(bot_seat=seat)

    def seat_in(self, state: RoomState) -> int:
        """The seat this actor acts for in ``state``; refused if it holds none there."""
        if self.token_hash is not None:
            seat = state.seat_with(self.token_hash)
            if seat is None:
                raise bad_token()
            return seat
        seat = self.bot_seat
        if seat is None or not 0 <= seat < len(state.seats) or state.seats[seat].player_bot is None:
            raise ApiError(409, "not_a_bot", "No bot sits in that seat any more.")
        return seat
