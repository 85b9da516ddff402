"""Routes for replay, room history, game records, ``.blksgf`` files and verification."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from starlette.requests import HTTPConnection

from app.core.errors import ApiError
from app.core.text import display_name
from app.history.format import BadRecord, Record, from_json, parse, record_schema
from app.history.records import OPEN_ENGINES, export, import_record, imported_facts
from app.history.replay import Replays, tally
from app.history.verify import verify
from app.web.deps import ERRORS, Backend, Svc, Token, room_limited
from engines.blokus import sgf

router = APIRouter(prefix="/api", responses=ERRORS)


def _replays(conn: HTTPConnection) -> Replays:
    replays: Replays = conn.app.state.services.replays
    return replays


Rep = Annotated[Replays, Depends(_replays)]


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
        "record": entry.over or data["engine"] in OPEN_ENGINES,
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


@router.get("/rooms/{room}/games/{game_no}/record.blksgf", summary="A Blokus game as .blksgf")
async def record_sgf(room: str, game_no: int, rep: Rep) -> Response:
    data = await export(rep, room, game_no)
    if data["engine"] != "blokus":
        raise ApiError(404, "not_blokus", "Only Blokus games can be saved as .blksgf.")
    return _download(sgf.write(data), sgf.MEDIA_TYPE, f"blokus-{room[:8]}-{game_no}.blksgf")


# the routes below read their bodies themselves, to parse them with a depth limit
RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": record_schema()}},
    }
}
SGF_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        # the file as text; its type is not checked (browsers send either)
        "content": {
            "text/plain": {"schema": {"type": "string"}},
            sgf.MEDIA_TYPE: {"schema": {"type": "string"}},
        },
    }
}


def _record(body: bytes) -> Record:
    try:
        return parse(body)
    except BadRecord as exc:
        raise ApiError(400, "bad_record", exc.message) from exc


async def _created(request: Request, svc: Backend, record: Record) -> dict[str, Any]:
    # an import makes a room: it counts against the same limit as POST /api/rooms
    room_limited(svc, request)
    state, tokens = await import_record(svc.rooms, record, svc.settings.name_max_chars)
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
async def import_json(request: Request, svc: Svc) -> dict[str, Any]:
    return await _created(request, svc, _record(await request.body()))


@router.post(
    "/records/blksgf",
    status_code=201,
    summary="A new room from a .blksgf file",
    openapi_extra=SGF_BODY,
)
async def import_sgf(request: Request, svc: Svc) -> dict[str, Any]:
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = body.decode("latin-1")
    try:
        read = sgf.read(text, svc.settings.name_max_chars)
    except sgf.SgfError as exc:
        if exc.code == "illegal_move":
            extra = {"move": exc.move, **({"reason": exc.reason} if exc.reason else {})}
            raise ApiError(422, "illegal_move", exc.message, **extra) from exc
        raise ApiError(400, exc.code, exc.message) from exc
    for key, name in zip(("PB", "PW"), read["names"], strict=False):
        try:  # the file's names follow the rules of names typed in
            display_name(name, svc.settings.name_max_chars)
        except ApiError as bad:
            raise ApiError(400, "bad_sgf", f"{key}[…]: {bad.message}") from bad
    try:
        record = from_json(read)
    except BadRecord as exc:
        raise ApiError(400, "bad_sgf", exc.message) from exc
    return await _created(request, svc, record)


@router.post(
    "/records/verify",
    summary="Check a record's commitment, deal and moves",
    openapi_extra=RECORD_BODY,
)
async def verify_record(request: Request) -> dict[str, Any]:
    return verify(_record(await request.body())).body()
