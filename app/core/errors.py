"""One error shape everywhere: ``{"code": ..., "message": ...}`` plus optional facts."""

from __future__ import annotations

from typing import Any


class Problem(Exception):
    """Something the person running a command (``python -m app …``) must fix; the
    message says what, ``exit_code`` is the command's."""

    exit_code = 1


class ApiError(Exception):
    """An error a client can act on: a stable ``code`` and a sentence for people."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


def not_found(room_id: str) -> ApiError:
    return ApiError(404, "room_not_found", "There is no room at this link. Check the address.")


def bad_token() -> ApiError:
    return ApiError(401, "bad_token", "This seat token is not valid for this room.")


def stale(seq: int) -> ApiError:
    return ApiError(
        409,
        "stale",
        "The game moved on since you last looked; here is the current state.",
        seq=seq,
    )


def busy() -> ApiError:
    """A change lost its race more times than it is retried (``Rooms.change``)."""
    return ApiError(409, "busy", "The room is very busy; please try again.")


def seat_taken() -> ApiError:
    return ApiError(409, "seat_taken", "Someone else sits in this seat already.")
