"""Game records: one game as a portable JSON document, and a new room made from one.

A record holds the engine and its version, the options, the players' names,
every move as ``{seat, move}``, the result, the commitment made at the start and,
once the game is over, the seed and salt that let anyone check the deal
(``app.fairness``). Importing replays every move through the engine first: a
record either becomes a room that is the same game move for move, or is refused
with the number of the first move that does not fit and the engine's reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app import store
from app.actor import hash_token
from app.errors import ApiError
from app.fairness import commitment, new_salt
from app.replay import Replays
from app.rooms import RoomRules, Rooms, new_token
from app.roomstate import RoomState
from engines import ENGINES, get_engine
from engines.base import BadOptions, IllegalMove

FORMAT = "spieltisch-record"
FORMAT_VERSION = 1
# engines with nothing hidden: their moves may be read while the game runs
OPEN_ENGINES = frozenset({"blokus"})


async def export(replays: Replays, room_id: str, game_no: int) -> dict[str, Any]:
    """The record of game ``game_no``; a running card game's moves stay private till the end."""
    entry = await replays.game(room_id, game_no)
    started = await replays.started(room_id, entry)
    data = started.data
    if not entry.over and data["engine"] not in OPEN_ENGINES:
        raise ApiError(
            409,
            "game_running",
            "A card game's record can be downloaded once the game is over: "
            "until then its moves would show hidden cards.",
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "engine": data["engine"],
        "version": data["version"],
        "options": data["options"],
        "players": data["players"],
        "names": list(started.names),
        "game_no": game_no,
        "commitment": data.get("commitment"),
        "moves": await replays.private_moves(room_id, entry),
        "result": await replays.result(room_id, entry),
    }
    if entry.over:
        record["seed"] = data["seed"]
        record["salt"] = data.get("salt")
    return record


def _bad(message: str) -> ApiError:
    return ApiError(400, "bad_record", message)


def check(record: Any) -> dict[str, Any]:
    """The record's shape checked (400 ``bad_record`` naming the first problem); not its moves."""
    if not isinstance(record, Mapping):
        raise _bad("A game record is a JSON object.")
    if record.get("format") != FORMAT:
        raise _bad(f'This is not a game record: "format" must be "{FORMAT}".')
    game = record.get("engine")
    if game not in ENGINES:
        raise _bad(f"The record names an unknown game {game!r}; known: {', '.join(ENGINES)}.")
    engine = get_engine(str(game))
    players = record.get("players")
    try:
        options = engine.normalize_options(players, record.get("options"))  # type: ignore[arg-type]
        if players not in engine.player_counts(options):
            raise BadOptions(f"{engine.title} with these options is not for {players} players.")
    except BadOptions as exc:
        raise _bad(f"The record's players or options don't fit: {exc.message}") from exc
    assert isinstance(players, int)
    names = record.get("names")
    if not (
        isinstance(names, list)
        and len(names) == players
        and all(isinstance(n, str) and n.strip() and len(n) <= 40 for n in names)
    ):
        raise _bad(f'"names" must list {players} names of 1 to 40 characters.')
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise _bad('"moves" must be a list of {"seat": n, "move": {...}} objects.')
    for number, entry in enumerate(moves, start=1):
        if not (
            isinstance(entry, Mapping)
            and isinstance(entry.get("seat"), int)
            and not isinstance(entry.get("seat"), bool)
            and isinstance(entry.get("move"), Mapping)
        ):
            raise _bad(f'Move {number} must be {{"seat": n, "move": {{...}}}}.')
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _bad('"seed" must be a whole number.')
    if seed is None and game not in OPEN_ENGINES:
        raise _bad("A card game's record needs its seed to deal the same cards again.")
    return {
        "engine": engine.name,
        "players": players,
        "options": options,
        "names": [" ".join(n.split()) for n in names],
        "moves": [{"seat": m["seat"], "move": dict(m["move"])} for m in moves],
        "seed": seed if seed is not None else 0,
        "salt": record.get("salt") if isinstance(record.get("salt"), str) else None,
        "commitment": record.get("commitment")
        if isinstance(record.get("commitment"), str)
        else None,
        "result": record.get("result"),
    }


def replay_moves(record: Mapping[str, Any]) -> list[tuple[dict[str, Any], Any]]:
    """Play every move of a checked record; each move's log line and the state after it.

    Raises 422 ``illegal_move`` naming the first move that does not fit, and why.
    """
    engine = get_engine(record["engine"])
    state = engine.new_game(record["players"], record["seed"], record["options"])
    played = []
    for number, entry in enumerate(record["moves"], start=1):
        seat, move = entry["seat"], entry["move"]
        if seat not in engine.to_act(state):
            raise ApiError(
                422,
                "illegal_move",
                f"Move {number}: seat {seat + 1} may not act here "
                f"(to act: {', '.join(str(s + 1) for s in engine.to_act(state)) or 'nobody'}).",
                move=number,
                reason="not_your_turn",
            )
        try:
            after = engine.play(state, seat, move)
        except IllegalMove as exc:
            raise ApiError(
                422,
                "illegal_move",
                f"Move {number} (seat {seat + 1}) is illegal: {exc.message}",
                move=number,
                reason=exc.code,
            ) from exc
        played.append((engine.log_line(state, seat, move, after), after))
        state = after
    result = engine.result(state)
    if record["result"] is not None and record["result"] != result:
        raise ApiError(
            422,
            "result_differs",
            "Every move is legal, but they end in another result than the record says.",
        )
    return played


async def _sit(
    rooms: Rooms,
    state: RoomState,
    seat: int,
    name: str,
    data: dict[str, Any],
    public: dict[str, Any],
) -> RoomState:
    async def sit(session: Any) -> None:
        await store.claim_seat(session, state.room.id, seat, name, data["token_hash"])

    # a room nobody else knows yet: no race to lose
    return await rooms._append(state, [("seat_claimed", data, public)], extra=sit)


async def _append(
    rooms: Rooms,
    state: RoomState,
    events: list[tuple[str, dict[str, Any], dict[str, Any]]],
    status: str | None,
) -> RoomState:
    return await rooms._append(state, events, status=status)


async def import_record(rooms: Rooms, raw: Any) -> tuple[RoomState, list[str]]:
    """A new room holding the record's game, replayed move by move; its seats' tokens."""
    record = check(raw)
    played = replay_moves(record)
    engine = get_engine(record["engine"])
    names = record["names"]
    state, first = await rooms.create(
        game=record["engine"],
        players=record["players"],
        options=record["options"],
        name=names[0],
        seat=0,
        bots={},
        rules=RoomRules(),
    )
    tokens = [first]
    for seat in range(1, record["players"]):
        token = new_token()
        public = {"seat": seat, "name": names[seat]}
        data = {**public, "token_hash": hash_token(token)}
        state = await _sit(rooms, state, seat, names[seat], data, public)
        tokens.append(token)
    seed = record["seed"]
    salt = record["salt"] or new_salt()
    promised = record["commitment"] or commitment(seed, salt)
    data = {
        "engine": engine.name,
        "version": engine.version,
        "players": record["players"],
        "options": record["options"],
        "seed": seed,
        "game_no": 1,
        "order": list(range(record["players"])),
        "salt": salt,
        "commitment": promised,
        "imported": True,
    }
    public = {k: v for k, v in data.items() if k not in ("seed", "salt")}
    state = await _append(rooms, state, [("game_started", data, public)], "playing")
    chunk = max(1, rooms.snapshot_every)
    moves = record["moves"]
    for start in range(0, len(moves), chunk):
        events: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        for index in range(start, min(start + chunk, len(moves))):
            seat = moves[index]["seat"]
            events.append(
                (
                    "move",
                    {"seat": seat, "move": moves[index]["move"]},
                    {"seat": seat, "log": played[index][0]},
                )
            )
        status = None
        last = played[min(start + chunk, len(moves)) - 1][1]
        result = engine.result(last)
        if result is not None and start + chunk >= len(moves):
            events.append(("game_over", {"result": result}, {"result": result}))
            status = "finished"
        state = await _append(rooms, state, events, status)
    return state, tokens
