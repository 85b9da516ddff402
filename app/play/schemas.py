"""The typed edge: request bodies and websocket messages, one pydantic model each."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from app.core.text import check_json
from engines import ENGINES

# the largest seq (or count) the database's integer columns hold
MAX_SEQ = 2**31 - 1

Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]
# free-form JSON from a client: it may end up in the log, so every string must be storable
Json = Annotated[dict[str, Any], AfterValidator(check_json)]
Text = Annotated[str, AfterValidator(check_json)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TimeRules(Strict):
    """How a table deals with time and absence: chosen when it is made, or imported."""

    turn_seconds: Literal[3600, 43200, 86400, 259200, 604800] | None = Field(
        None, description="Time per move in seconds (1 h, 12 h, 1, 3 or 7 days); null: no limit."
    )
    on_timeout: Literal["bot_move", "bot_seat"] = Field(
        "bot_move",
        description="When time is up: a bot plays that one move (bot_move), "
        "or takes the seat until its person comes back (bot_seat).",
    )
    stand_in: Text | None = Field(
        None,
        description="The bot that plays for a person who leaves or runs out of time; "
        "null: the game's strongest (the first GET /api/games lists). A level (hard, "
        "medium, easy); the old names strong and random stand for medium and easy.",
        examples=["hard"],
    )


class ImportRules(TimeRules):
    """The same, as the query of an import: there every value comes as text."""

    @field_validator("turn_seconds", mode="before")
    @classmethod
    def _seconds(cls, value: object) -> object:
        return (
            int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else value
        )


class CreateRoom(TimeRules):
    game: Text = Field(
        description="Engine name, as listed by GET /api/games.", examples=list(ENGINES)[:1]
    )
    players: int = Field(ge=1, le=16, examples=[4])
    options: Json = Field(default_factory=dict, examples=[{"free_corners": False}])
    name: str = Field(description="The creator's display name.", examples=["Anna"])
    seat: int = Field(0, ge=0, le=MAX_SEQ, description="The creator's seat.")
    bots: dict[Annotated[int, Field(ge=0, le=MAX_SEQ)], Text] = Field(
        default_factory=dict,
        description="Seats played by bots: seat -> bot level (hard, medium, easy).",
        examples=[{"2": "hard", "3": "easy"}],
    )
    start_when_full: bool = Field(False, description="Start by itself when the last seat fills.")
    anyone_can_start: bool = Field(
        False, description="Any seated player may start, not only the creator."
    )
    shuffle_seats: bool = Field(False, description="Shuffle who sits where when a game starts.")


class ClaimSeat(Strict):
    name: str = Field(description="Your display name.", examples=["Ben"])


class SetBot(Strict):
    bot: Text | None = Field(
        description="Bot level, or null to free the seat again.", examples=["medium"]
    )


class HandOver(Strict):
    bot: Text | None = Field(
        None, description="The bot to play the seat; null: the room's stand-in bot."
    )


class Leave(Strict):
    bot: Text | None = Field(
        None, description="The bot to play for you; null: the room's stand-in bot."
    )


class HandHost(Strict):
    seat: int = Field(ge=0, le=MAX_SEQ, description="The seat of the person to make host.")


class ChangeSettings(Strict):
    """A waiting table's new settings; a field left out keeps its value."""

    players: int | None = Field(None, ge=1, le=16, examples=[3])
    options: Json | None = Field(None, examples=[{"variant": "classic"}])
    turn_seconds: Literal[3600, 43200, 86400, 259200, 604800] | None = Field(
        None, description="Time per move in seconds; null: no limit (send it to lift one)."
    )
    on_timeout: Literal["bot_move", "bot_seat"] | None = Field(
        None, description="When time is up: bot_move or bot_seat."
    )
    stand_in: Text | None = Field(
        None, description="The bot that plays for whoever is away; null: the strongest."
    )
    confirm_moves: bool | None = Field(
        None, description="Confirm moves that can't be taken back; null: with a time per move."
    )


class Resign(Strict):
    seq: Seq | None = Field(None, description="The last seq the sender saw; null: any.")


class TakeBack(Strict):
    ask: bool = Field(
        False, description="Ask the others if someone has moved since; false: only alone."
    )
    seq: Seq | None = Field(None, description="The last seq the sender saw; null: any.")


def _in_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("a time out of the calendar's range") from None


UtcTime = Annotated[AwareDatetime, AfterValidator(_in_utc)]


class Away(Strict):
    until: UtcTime = Field(
        description="Away until this time (with its offset), at most 14 days after the "
        "away time began.",
        examples=["2026-12-10T18:00:00+01:00"],
    )


SeatToken = Annotated[Text, Field(min_length=1, max_length=200)]


class AwayEverywhere(Away):
    tokens: list[SeatToken] = Field(
        min_length=1, max_length=50, description="The seat tokens this browser holds."
    )


class BackEverywhere(Strict):
    tokens: list[SeatToken] = Field(
        min_length=1, max_length=50, description="The seat tokens this browser holds."
    )


class StartGame(Strict):
    shuffle: bool | None = Field(None, description="Shuffle seats; null: the room's setting.")


class SubmitMove(Strict):
    seq: Seq = Field(description="The last seq the sender saw.")
    move: Json = Field(examples=[{"piece": "I1", "cells": [[0, 0]]}])


class Chat(Strict):
    text: str = Field(examples=["Good game!"])


class CreatedRoom(BaseModel):
    room: str
    seat: int
    token: str
    url: str
    state: dict[str, Any]


class ClaimedSeat(BaseModel):
    seat: int
    token: str
    state: dict[str, Any]


class ErrorBody(BaseModel):
    code: str = Field(examples=["stale"])
    message: str = Field(examples=["The game moved on since you last looked."])


# -- websocket, client to server -------------------------------------------------


LegalForm = Literal["list", "compact"]


class Hello(Strict):
    type: Literal["hello"]
    token: Text | None = None
    since: Seq | None = None
    # "compact": state messages carry the engine's compact form of the legal moves
    # (``legal_compact``) where it has one, instead of the list
    legal_form: LegalForm = "list"


class WsMove(Strict):
    type: Literal["move"]
    seq: Seq
    move: Json
    id: str | int | None = None


class WsChat(Strict):
    type: Literal["chat"]
    text: str
    id: str | int | None = None


class Ping(Strict):
    type: Literal["ping"]
    id: str | int | None = None


ClientMessage = Annotated[Hello | WsMove | WsChat | Ping, Field(discriminator="type")]
