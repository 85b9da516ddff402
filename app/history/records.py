"""Game records: one game as a portable JSON document, and a new room made from one.

A record holds the engine and its version, the options, the players' names,
every move as ``{seat, move}``, the result, the commitment made at the start and,
once the game is over, the seed and salt that let anyone check the deal
(``app.play.fairness``). Importing replays every move through the engine first: a
record either becomes a room that is the same game move for move, or is refused
with the number of the first move that does not fit and the engine's reason.

An imported game is not a fair deal: whoever wrote the file chose its seed and
moves, so may know every hand. The room says so in its log (``room_created`` and
``game_started`` carry ``imported``, the latter also ``seed_from``), and so its
info, its page, its replay and its record. The commitment is always the server's
own, from the seed and a fresh salt, marked ``imported-`` when the file chose the
seed: a record stripped of its ``imported`` flag still shows it in the salt the
commitment binds. The room is written in one transaction, from its first event to
its last: a refusal leaves nothing behind.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from app.core.errors import ApiError
from app.core.text import display_name
from app.history.format import FORMAT, BadRecord, Record, from_json
from app.history.replay import Replays
from app.play import store
from app.play.access import hash_token
from app.play.fairness import IMPORTED_SALT, commitment, new_salt
from app.play.kinds import GAME_OVER, GAME_STARTED, MOVE, SEAT_CLAIMED
from app.play.rooms import Append, RoomRules, Rooms, new_token
from app.play.state import RoomState, apply, to_snapshot
from engines import get_engine
from engines.base import BadOptions, IllegalMove, is_resign, resign_line

FORMAT_VERSION = 1

Event = tuple[str, dict[str, Any], dict[str, Any]]
# the longest name by default (``NAME_MAX_CHARS``); the routes pass the setting
NAME_MAX = 40


def seed_from(data: Mapping[str, Any]) -> str:
    """Where a game's seed came from: ``"server"`` (drawn at the start) or ``"record"``
    (an imported file); an import from before ``seed_from`` was written took the file's."""
    if not data.get("imported"):
        return "server"
    return str(data.get("seed_from") or "record")


def downloadable(engine_name: str, over: bool) -> bool:
    """Whether a game's record may be had now: once it is over, or at any time for an
    engine that hides nothing (a running game's moves would show no hidden fact)."""
    return over or not get_engine(engine_name).hidden_information


def imported_facts(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a game's ``game_started`` says about an import, for the replay API and records."""
    if not data.get("imported"):
        return {"imported": False}
    return {"imported": True, "seed_from": seed_from(data)}


async def export(replays: Replays, room_id: str, game_no: int) -> dict[str, Any]:
    """The record of game ``game_no``; a running game with hidden information keeps its
    moves private till the end."""
    entry = await replays.game(room_id, game_no)
    started = await replays.started(room_id, entry)
    data = started.data
    if not downloadable(data["engine"], entry.over):
        raise ApiError(
            409,
            "game_running",
            "This game's record can be downloaded once the game is over: "
            "until then its moves would show what only some players may know.",
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
        **imported_facts(data),
    }
    if entry.over:
        # a string: a JSON number above 2^53 reaches a browser rounded
        record["seed"] = str(data["seed"])
        record["salt"] = data.get("salt")
    return record


def _bad(message: str) -> ApiError:
    return ApiError(400, "bad_record", message)


def check(record: Record, name_max: int) -> dict[str, Any]:
    """What the record's shape left to check: its players and options fit the engine,
    its names are names (the rules of ``app.core.text``), a card game has its seed, and a
    commitment it carries belongs to its seed and salt. Not its moves."""
    engine = get_engine(record.engine)
    players = record.players
    try:
        options = engine.normalize_options(players, record.options)
        if players not in engine.player_counts(options):
            raise BadOptions(f"{engine.title} with these options is not for {players} players.")
    except BadOptions as exc:
        raise _bad(f"The record's players or options don't fit: {exc.message}") from exc
    if len(record.names) != players:
        raise _bad(f'"names" must list {players} names, one for each seat.')
    names = []
    for number, raw in enumerate(record.names, start=1):
        try:
            names.append(display_name(raw, name_max))
        except ApiError as exc:
            raise _bad(f'Name {number} in "names": {exc.message}') from exc
    if record.seed is None and engine.hidden_information:
        raise _bad(
            f"A record of {engine.title} needs its seed: the game has hidden information, "
            "dealt from the seed, and only the same seed deals it again."
        )
    if (
        record.commitment is not None
        and record.seed is not None
        and record.salt is not None
        and commitment(record.seed, record.salt) != record.commitment
    ):
        raise _bad(
            "The record's commitment is not SHA-256 of its seed and salt: "
            "the seed or the salt was changed."
        )
    return {
        "engine": engine.name,
        "players": players,
        "options": options,
        "names": names,
        "moves": [{"seat": m.seat, "move": m.move} for m in record.moves],
        "seed": record.seed,
        "result": record.result,
    }


def replay_moves(record: Mapping[str, Any], seed: int) -> list[tuple[dict[str, Any], Any]]:
    """Play every move of a checked record from ``seed``; each move's log line and the
    state after it.

    Raises 422 ``illegal_move`` naming the first move that does not fit, and why.
    """
    engine = get_engine(record["engine"])
    state = engine.new_game(record["players"], seed, record["options"])
    played = []
    for number, entry in enumerate(record["moves"], start=1):
        seat, move = entry["seat"], entry["move"]
        if seat not in engine.to_act(state) and not is_resign(move):
            raise ApiError(
                422,
                "illegal_move",
                f"Move {number}: seat {seat + 1} may not act here "
                f"(to act: {', '.join(str(s + 1) for s in engine.to_act(state)) or 'nobody'}).",
                move=number,
                reason="not_your_turn",
            )
        try:
            after = engine.apply(state, seat, move)
        except IllegalMove as exc:
            raise ApiError(
                422,
                "illegal_move",
                f"Move {number} (seat {seat + 1}) is illegal: {exc.message}",
                move=number,
                reason=exc.code,
            ) from exc
        line = resign_line(seat) if is_resign(move) else engine.log_line(state, seat, move, after)
        played.append((line, after))
        state = after
    result = engine.result(state)
    if record["result"] is not None and record["result"] != result:
        raise ApiError(
            422,
            "result_differs",
            "Every move is legal, but they end in another result than the record says.",
        )
    return played


def _snapshots(
    start: RoomState, events: list[Event], afters: list[Any], every: int
) -> list[tuple[int, int, dict[str, Any]]]:
    """The snapshots a room played move by move would have kept along the way, before
    its last event (whose snapshot the append itself takes)."""
    state = start
    moves = iter(afters)
    out = []
    for offset, (kind, data, public) in enumerate(events[:-1]):
        event = store.EventRecord(
            seq=start.seq + 1 + offset, kind=kind, data=data, public=public, created_at=None
        )
        state = apply(state, event, next(moves) if kind == MOVE else None)
        if state.game is not None and state.moves_since_snapshot >= every:
            state = replace(state, moves_since_snapshot=0)
            out.append((state.seq, state.game_no, to_snapshot(state)))
    return out


async def import_record(
    rooms: Rooms,
    record: Record | Mapping[str, Any],
    name_max: int = NAME_MAX,
    rules: RoomRules | None = None,
) -> tuple[RoomState, list[str]]:
    """A new room holding the record's game, replayed move by move; its seats' tokens.

    The room, its seats, the game and every move are written in one transaction; the
    table's ``rules`` (time per move, stand-in) hold from the next move on.
    """
    if not isinstance(record, Record):
        try:
            record = from_json(record)
        except BadRecord as exc:
            raise _bad(exc.message) from exc
    checked = check(record, name_max)
    given = checked["seed"]
    # a record of a game without hidden information may come without a seed: the
    # server draws one
    seed = given if given is not None else secrets.randbits(63)
    played = replay_moves(checked, seed)
    engine = get_engine(checked["engine"])
    players, names = checked["players"], checked["names"]
    new = rooms.new_room(
        game=engine.name,
        players=players,
        options=checked["options"],
        name=names[0],
        seat=0,
        bots={},
        rules=rules or RoomRules(),
        imported=True,
    )
    events: list[Event] = [new.event]
    tokens = [new.token]
    for seat in range(1, players):
        token = new_token()
        public = {"seat": seat, "name": names[seat]}
        events.append((SEAT_CLAIMED, {**public, "token_hash": hash_token(token)}, public))
        tokens.append(token)
    # the salt is the server's, never the file's: it hides the seed behind the
    # commitment while the game runs; its mark tells that the file chose the seed
    salt = (IMPORTED_SALT if given is not None else "") + new_salt()
    data = {
        "engine": engine.name,
        "version": engine.version,
        "players": players,
        "options": checked["options"],
        "seed": seed,
        "game_no": 1,
        # the record's own seating: the seats are the record's, in its order
        "order": list(range(players)),
        "salt": salt,
        "commitment": commitment(seed, salt),
        "imported": True,
        "seed_from": "record" if given is not None else "server",
    }
    public = {k: v for k, v in data.items() if k not in ("seed", "salt")}
    events.append((GAME_STARTED, data, public))
    for entry, (line, _) in zip(checked["moves"], played, strict=True):
        events.append((MOVE, dict(entry), {"seat": entry["seat"], "log": line}))
    last = played[-1][1] if played else engine.new_game(players, seed, checked["options"])
    result = engine.result(last)
    status = "playing"
    if result is not None:
        events.append((GAME_OVER, {"result": result}, {"result": result}))
        status = "finished"
    snapshots = _snapshots(
        new.state, events, [after for _, after in played], max(1, rooms.snapshot_every)
    )

    async def write(session: Any) -> None:
        await new.setup(session)
        for seat in range(1, players):
            await store.claim_seat(
                session, new.state.room.id, seat, names[seat], events[seat][1]["token_hash"]
            )
        for seq, game_no, snapshot in snapshots:
            await store.save_snapshot(session, new.state.room.id, seq, game_no, snapshot)

    # a room nobody else knows yet: no race to lose, and nothing of it if any write fails
    state = await rooms.append(new.state, Append(events, extra=write, status=status))
    return state, tokens
