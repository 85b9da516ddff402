"""The typed edge of game records: what ``POST /api/records``, ``POST /api/records/verify``
and ``python -m app verify`` accept, checked before anything else looks at it.

A record comes from a file someone downloaded, or wrote by hand. Every field has
its JSON type; sizes, depths and numbers are bounded; every string is one the log
can store. The JSON text itself is parsed here too (pydantic's parser, which has a
depth limit of its own), never by ``json.loads``, which recurses without one.

A seed may be written as a number or as a string of digits. The server writes it
as a string: seeds are drawn from 63 bits, and a browser reads a JSON number above
2^53 rounded, so it would hash and send back another seed. Records written before
that carry numbers, and still verify.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from app.core.text import storable
from app.play.schemas import MAX_SEQ, Text
from engines import ENGINES

FORMAT = "spieltisch-record"
# the engines' PRNG folds any seed to 64 bits; the server draws 63
MAX_SEED = 2**64 - 1
# arrays and objects inside options, a move or a result: a real one nests 3 deep
MAX_DEPTH = 16
# whole numbers inside them: what any database's JSON and a 64-bit integer hold
MAX_INT = 2**63
# longer than any game of any engine (a long M game has a few hundred moves)
MAX_MOVES = 5000
MAX_PLAYERS = 16


class BadRecord(ValueError):
    """A record that is not one; ``message`` names the first problem for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _bounded(value: Any) -> Any:
    """``value`` itself, if it is JSON a log can keep: not too deep, finite numbers,
    whole numbers within 64 bits, storable strings (keys too). Walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not isinstance(key, str) or not storable(key):
                        raise ValueError(
                            "keys must be readable text (no NUL, no broken characters)"
                        )
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, str):
            if not storable(item):
                raise ValueError("text must be readable (no NUL, no broken characters)")
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                raise ValueError("a whole number is too large")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ValueError("numbers must be finite")
        else:
            raise ValueError(f"{type(item).__name__} is not JSON")
    return value


JsonObject = Annotated[dict[str, Any], AfterValidator(_bounded)]


def _seed(value: Any) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, written as digits")
    return value


Seed = Annotated[int, PlainValidator(_seed, json_schema_input_type=str | int)]
Name = Annotated[StrictStr, Field(max_length=200)]


class Loose(BaseModel):
    # records may carry fields of later versions or of their own (a step's log line)
    model_config = ConfigDict(extra="ignore")


class RecordMove(Loose):
    seat: StrictInt = Field(ge=0, lt=MAX_PLAYERS)
    move: JsonObject


class Record(Loose):
    """A game record as ``GET …/games/{n}/record`` writes it (docs/protocol.md)."""

    format: Literal["spieltisch-record"]
    format_version: StrictInt | None = Field(None, ge=0, le=1000)
    engine: StrictStr = Field(max_length=32)
    version: Annotated[StrictStr, Field(max_length=32)] | StrictInt | None = None
    options: JsonObject | None = None
    players: StrictInt = Field(ge=1, le=MAX_PLAYERS)
    names: list[Name] = Field(default_factory=list, max_length=MAX_PLAYERS)
    game_no: StrictInt | None = Field(None, ge=1, le=MAX_SEQ)
    commitment: Annotated[Text, Field(max_length=128)] | None = None
    moves: list[RecordMove] = Field(max_length=MAX_MOVES)
    result: JsonObject | None = None
    seed: Seed | None = None
    salt: Annotated[Text, Field(max_length=128)] | None = None
    # what the server that wrote the record knew: a game made from a file, and where
    # its seed came from ("record": the file, "server": drawn by the server)
    imported: StrictBool = False
    seed_from: Literal["record", "server"] | None = None

    @field_validator("engine")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in ENGINES:
            raise ValueError(
                f"The record names an unknown game {value[:32]!r}; known: {', '.join(ENGINES)}."
            )
        return value


def describe(exc: ValidationError) -> str:
    """The first problem ``exc`` found, as a sentence for the person who sent the file."""
    errors = exc.errors(include_url=False)
    if not errors:
        return "The record is not valid."
    error = errors[0]
    kind, loc = error["type"], tuple(error["loc"])
    context = error.get("ctx") or {}
    if kind == "json_invalid":
        return f"The record is not valid JSON ({context.get('error', 'unreadable')})."
    if not loc:
        return "A game record is a JSON object."
    if loc[0] == "format":
        return f'This is not a game record: "format" must be "{FORMAT}".'
    message = str(context["error"]) if kind == "value_error" else str(error["msg"])
    if loc[0] == "engine" and kind == "value_error":
        return message
    if loc[0] == "moves" and len(loc) > 1 and isinstance(loc[1], int):
        inner = ".".join(str(part) for part in loc[2:])
        return f'Move {loc[1] + 1} must be {{"seat": n, "move": {{...}}}}: {inner}: {message}.'
    if loc[0] == "names" and len(loc) > 1 and isinstance(loc[1], int):
        return f"Name {loc[1] + 1}: {message}."
    field = ".".join(str(part) for part in loc)
    return f'"{field}": {message}.'


def parse(text: str | bytes) -> Record:
    """A record from its JSON text; ``BadRecord`` naming the first problem."""
    try:
        return Record.model_validate_json(text)
    except ValidationError as exc:
        raise BadRecord(describe(exc)) from exc


def from_json(value: Any) -> Record:
    """A record from JSON already parsed (what a record format read from a file, a test's dict)."""
    try:
        return Record.model_validate(value)
    except ValidationError as exc:
        raise BadRecord(describe(exc)) from exc


def record_schema() -> dict[str, Any]:
    """The JSON schema of a record with its parts written in place, for the OpenAPI of
    the routes that read the body themselves (to parse it with a depth limit)."""
    schema = Record.model_json_schema()
    parts = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return inline(parts[ref.removeprefix("#/$defs/")])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    return dict(inline(schema))
