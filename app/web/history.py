"""Routes for replay, room history, game records (JSON, and each engine's own file
formats) and verification."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from starlette.requests import HTTPConnection

from app.core.errors import ApiError
from app.core.text import display_name
from app.history.format import BadRecord, Record, from_json, parse, record_schema
from app.history.records import downloadable, export, import_record, imported_facts
from app.history.replay import Replays, tally
from app.history.verify import verify
from app.play.rooms import RoomRules
from app.play.schemas import ImportRules
from app.web.deps import ERRORS, Backend, Svc, Token, room_limited
from engines import ENGINES, get_engine, record_format
from engines.base import RecordFormat, UnreadableFile

router = APIRouter(prefix="/api", responses=ERRORS)


def _replays(conn: HTTPConnection) -> Replays:
    replays: Replays = conn.app.state.services.replays
    return replays


Rep = Annotated[Replays, Depends(_replays)]
Format = Annotated[str, Path(description="A record format's name, as GET /api/games lists them.")]


@router.get("/rooms/{room}/games", summary="Every game of the room, with results and a tally")
async def history(room: str, rep: Rep) -> dict[str, Any]:
    games = []
    names, results, bots = [], [], []
    for entry in await rep.games(room):
        started = await rep.started(room, entry)
        result = await rep.result(room, entry)
        names.append(started.names)
        results.append(result)
        bots.append(started.bots)
        games.append(
            {
                "game_no": entry.game_no,
                "engine": started.data["engine"],
                "status": "finished" if entry.over else "playing",
                # ended by agreement: no result, and no win in the tally
                "aborted": entry.over and result is None,
                "steps": entry.steps,
                "names": list(started.names),
                "bots": list(started.bots),
                "result": result,
                "commitment": started.data.get("commitment"),
                **imported_facts(started.data),
            }
        )
    return {"games": games, "tally": tally(names, results, bots)}


@router.get("/rooms/{room}/games/{game_no}", summary="One game: players, moves, commitment")
async def game(room: str, game_no: int, rep: Rep, token: Token) -> dict[str, Any]:
    entry = await rep.game(room, game_no)
    started = await rep.started(room, entry)
    data = started.data
    out: dict[str, Any] = {
        "game_no": game_no,
        "engine": data["engine"],
        "options": data["options"],
        "players": data["players"],
        "names": list(started.names),
        "bots": list(started.bots),
        "status": "finished" if entry.over else "playing",
        "steps": entry.steps,
        "you": await rep.seat_of(room, entry, token),
        "moves": await rep.moves(room, entry),
        "result": await rep.result(room, entry),
        "commitment": data.get("commitment"),
        "record": downloadable(data["engine"], entry.over),
        **imported_facts(data),
    }
    if entry.over:
        # a string: a JSON number above 2^53 reaches a browser rounded
        out["seed"] = str(data["seed"])
        out["salt"] = data.get("salt")
        # hidden facts, revealed with the end: each move's draws as an item of its own
        for move, drawn in zip(out["moves"], await rep.all_draws(room, entry), strict=True):
            move["draws"] = drawn
    return out


@router.get("/rooms/{room}/games/{game_no}/steps/{step}", summary="One step of a game's replay")
async def step(
    room: str,
    game_no: int,
    step: int,
    rep: Rep,
    token: Token,
    seen_as: Annotated[int | None, Query(alias="as")] = None,
) -> dict[str, Any]:
    return await rep.step(room, game_no, step, token, seen_as)


def _download(body: str, media_type: str, filename: str) -> Response:
    return Response(
        body,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/rooms/{room}/games/{game_no}/record", summary="The game record (JSON)")
async def record(room: str, game_no: int, rep: Rep) -> Response:
    data = await export(rep, room, game_no)
    name = f"{data['engine']}-{room[:8]}-{game_no}.json"
    return _download(json.dumps(data, indent=1), "application/json", name)


def _unknown_format(name: str, formats: list[str]) -> ApiError:
    known = ", ".join(sorted(formats)) or "none"
    return ApiError(
        404, "unknown_format", f"There is no record format {name!r} here; known: {known}."
    )


@router.get(
    "/rooms/{room}/games/{game_no}/record.{format}",
    summary="The game in a file format of its engine's own (GET /api/games lists them)",
)
async def record_file(room: str, game_no: int, format: Format, rep: Rep) -> Response:
    data = await export(rep, room, game_no)
    engine = get_engine(data["engine"])
    fmt = engine.record_format(format)
    if fmt is None:
        raise _unknown_format(format, [f.name for f in engine.record_formats()])
    name = f"{engine.name}-{room[:8]}-{game_no}{fmt.suffix}"
    return _download(fmt.write(data), fmt.media_type, name)


# the routes below read their bodies themselves, to parse them with a depth limit
RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": record_schema()}},
    }
}
FILE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        # the file as text; its type is not checked (browsers send what they guess)
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}


def _record(body: bytes) -> Record:
    try:
        return parse(body)
    except BadRecord as exc:
        raise ApiError(400, "bad_record", exc.message) from exc


# the imported table's time per move, timeout policy and stand-in, as query parameters
# (the body is the file): as a waiting table's page passes on its own settings
Rules = Annotated[ImportRules, Query()]


async def _created(
    request: Request, svc: Backend, record: Record, rules: ImportRules
) -> dict[str, Any]:
    # an import makes a room: it counts against the same limit as POST /api/rooms
    room_limited(svc, request)
    table = RoomRules(
        turn_seconds=rules.turn_seconds, on_timeout=rules.on_timeout, stand_in=rules.stand_in
    )
    state, tokens = await import_record(svc.rooms, record, svc.settings.name_max_chars, table)
    base = svc.settings.public_url.rstrip("/") or str(request.base_url).rstrip("/")
    return {
        "room": state.room.id,
        "url": f"{base}/r/{state.room.id}",
        "status": state.status,
        "seats": [
            {"seat": i, "name": s.name, "token": tokens[i]} for i, s in enumerate(state.seats)
        ],
    }


@router.post(
    "/records",
    status_code=201,
    summary="A new room from a game record",
    openapi_extra=RECORD_BODY,
)
async def import_json(request: Request, svc: Svc, rules: Rules) -> dict[str, Any]:
    return await _created(request, svc, _record(await request.body()), rules)


@router.post(
    "/records/verify",
    summary="Check a record's commitment, deal and moves",
    openapi_extra=RECORD_BODY,
)
async def verify_record(request: Request) -> dict[str, Any]:
    return verify(_record(await request.body())).body()


def _read_file(fmt: RecordFormat, body: bytes, name_max: int) -> Record:
    """A file of ``fmt`` as a record, refused as today's files are: the format's own
    code for a file that is none (its names too: they follow the rules of typed names),
    ``422 illegal_move`` for a move that breaks the rules."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = body.decode("latin-1")
    try:
        read = fmt.read(text, name_max)
    except UnreadableFile as exc:
        if exc.code == "illegal_move":
            extra = {"move": exc.move, **({"reason": exc.reason} if exc.reason else {})}
            raise ApiError(422, "illegal_move", exc.message, **extra) from exc
        raise ApiError(400, exc.code, exc.message) from exc
    names = read.get("names")
    for number, name in enumerate(names if isinstance(names, list) else [], start=1):
        if not isinstance(name, str):
            continue  # the record's own check names it
        try:
            display_name(name, name_max)
        except ApiError as bad:
            raise ApiError(400, fmt.error_code, f"Player {number}'s name: {bad.message}") from bad
    try:
        return from_json(read)
    except BadRecord as exc:
        raise ApiError(400, fmt.error_code, exc.message) from exc


# after /records/verify: a format's name is matched only where no route of its own is
@router.post(
    "/records/{format}",
    status_code=201,
    summary="A new room from a file in an engine's own format (GET /api/games lists them)",
    openapi_extra=FILE_BODY,
)
async def import_file(format: Format, request: Request, svc: Svc, rules: Rules) -> dict[str, Any]:
    found = record_format(format)
    if found is None:
        raise _unknown_format(
            format, [f.name for engine in ENGINES.values() for f in engine.record_formats()]
        )
    _, fmt = found
    record = _read_file(fmt, await request.body(), svc.settings.name_max_chars)
    return await _created(request, svc, record, rules)
