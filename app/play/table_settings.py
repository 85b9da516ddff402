"""A waiting table's settings: the host changes the player count, the game's options
and the time per move until a game starts (and again between games).

One ``room_settings`` event carries the whole new setting; the room's row and its
seat rows change in the same transaction. Fewer players drop the last seats: a bot
there goes, a person there must stand up or be freed first (``409 seat_taken``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.errors import ApiError
from app.play import store
from app.play.access import require_host
from app.play.kinds import ROOM_SETTINGS
from app.play.rooms import Append, Rooms, level_of
from app.play.state import RoomState
from app.play.store import Conflict
from engines.base import BadOptions

# the room rules a waiting table may change (the others are chosen when it is made)
CHANGEABLE_RULES = ("turn_seconds", "on_timeout", "stand_in", "confirm_moves")


class TableSettings:
    """The settings use case over the room log."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    async def change(
        self,
        room_id: str,
        token: str | None,
        players: int | None,
        options: Mapping[str, Any] | None,
        rules: Mapping[str, Any],
    ) -> RoomState:
        """``players`` or ``options`` ``None``: kept as they are; ``rules``: only the
        rules named in it change (``CHANGEABLE_RULES``)."""

        def plan(state: RoomState) -> Append:
            require_host(state, token, "change the table's settings")
            if state.status == "playing":
                raise ApiError(
                    409, "game_running", "The settings can't change while a game is running."
                )
            count = state.room.players if players is None else players
            engine = state.engine
            try:
                given = state.room.options if options is None else options
                normalized = engine.normalize_options(count, given)
                if count not in engine.player_counts(normalized):
                    raise BadOptions(
                        f"With these options {engine.title} is played by "
                        f"{', '.join(map(str, engine.player_counts(normalized)))} players.",
                        code="bad_players",
                    )
            except BadOptions as exc:
                raise ApiError(400, exc.code, exc.message) from exc
            for seat in range(count, len(state.seats)):
                if state.seats[seat].token_hash is not None:
                    raise ApiError(
                        409,
                        "seat_taken",
                        f"Seat {seat + 1} is taken: free it (or its person stands up) first.",
                        seat=seat,
                    )
            changed = {k: rules[k] for k in CHANGEABLE_RULES if k in rules}
            if changed.get("stand_in") is not None:
                changed["stand_in"] = level_of(engine, changed["stand_in"])
            new_rules = {**state.room.rules, **changed}
            public = {"players": count, "options": normalized, "rules": new_rules}

            async def write(session: Any) -> None:
                if not await store.change_settings(session, room_id, count, normalized, new_rules):
                    raise Conflict("a seat changed")

            return Append([(ROOM_SETTINGS, public, public)], extra=write)

        return await self.rooms.change(room_id, plan)
