"""The stages of one move inside the server process, timed one by one: where a lone
move's CPU goes apart from the socket it comes and goes on.

In one process, on the services the server builds (``Services.build``, durable SQLite
in a scratch directory unless ``DATABASE_URL`` says otherwise), Blokus Duo rooms are
played one move at a time as the websocket path plays them, each stage timed with
``time.perf_counter`` (one move at a time, so wall time is the stage's CPU plus its
waits on the database thread):

- ``judge``: the engine's part of a move (play, log line, result), alone;
- ``move_by``: the whole use case, ``Rooms.move_by`` — judge again, the append and
  its hooks in one transaction, the commit, the cache and the after-commit hooks;
- ``presence``: who is online, as each push asks;
- ``views``: the state messages of both seats as a push builds them
  (``StateMessages.text_for_seat``: the engine's view per seat, the mover's compact
  legal moves, the encoding), split into ``view`` and ``legal_compact`` for the engine
  alone (Blokus keeps the public parts of the last state it showed, so ``view``, timed
  after ``views`` asked for the same state, costs next to nothing there).

The rest of a move's server CPU, measured from outside by ``compare.sh``, is the
socket's: receiving and parsing the frame, validating the message, the hub's loop and
sending the frames. Prints one JSON line with the median and p90 per stage in
microseconds.

Usage: ``python bench/bench_move_stages.py`` (``ROOMS`` 40, ``MOVES`` 30 per room).
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.config import Settings
from app.core.migrate import upgrade
from app.play.access import hash_token
from app.play.actor import Actor
from app.play.rooms import RoomRules
from app.play.views import StateMessages
from app.services import Services
from bench.common import figures, say

ROOMS = int(os.environ.get("ROOMS", "40"))
MOVES = int(os.environ.get("MOVES", "30"))


def _micro(values: list[float]) -> dict[str, Any]:
    return figures([v * 1e6 for v in values])


def main() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="stages-") as scratch:
        settings = Settings(
            data_dir=Path(scratch),
            database_url=os.environ.get("DATABASE_URL") or None,
            bot_delay_ms=0,
        )
        upgrade(settings.effective_database_url)
        return asyncio.run(_serve(settings))


async def _serve(settings: Settings) -> dict[str, Any]:
    services = Services.build(settings)
    await services.start()
    try:
        return await _play(services)
    finally:
        await services.stop()


async def _play(services: Services) -> dict[str, Any]:
    rooms, presence = services.rooms, services.presence
    times: dict[str, list[float]] = {
        k: [] for k in ("judge", "move_by", "presence", "views", "view", "legal_compact")
    }
    for number in range(ROOMS):
        state, anna = await rooms.create(
            "blokus", 2, {"variant": "duo"}, "Anna", 0, {}, RoomRules()
        )
        room = state.room.id
        ben = (await services.seats.claim(room, 1, "Ben", None))[1]
        state = await rooms.start(room, anna, False)
        actors = {0: Actor(token_hash=hash_token(anna)), 1: Actor(token_hash=hash_token(ben))}
        for _ in range(MOVES):
            engine, game = state.engine, state.game
            acting = engine.to_act(game)
            if not acting or state.status != "playing":
                break
            seat = acting[0]
            move = engine.legal_moves(game, seat)[0]  # the client's choice, not timed

            began = time.perf_counter()
            rooms._judge(state, actors[seat], state.seq, move)
            times["judge"].append(time.perf_counter() - began)

            began = time.perf_counter()
            state = await rooms.move_by(room, actors[seat], state.seq, move)
            times["move_by"].append(time.perf_counter() - began)

            began = time.perf_counter()
            online = await presence.online(room, state.room.players)
            times["presence"].append(time.perf_counter() - began)

            began = time.perf_counter()
            messages = StateMessages(state, state.seat_records(), online)
            for reader in (0, 1):
                messages.text_for_seat(reader, (), None, True)
            times["views"].append(time.perf_counter() - began)

            engine, game = state.engine, state.game
            began = time.perf_counter()
            engine.view(game, 0)
            engine.view(game, 1)
            times["view"].append(time.perf_counter() - began)
            next_seats = engine.to_act(game)
            if next_seats:
                began = time.perf_counter()
                engine.legal_moves_compact(game, next_seats[0])
                times["legal_compact"].append(time.perf_counter() - began)
        if number % 10 == 9:
            say(f"{number + 1} rooms played")
    return {
        "bench": "server.move_stages",
        "unit": "us",
        "db": "postgresql" if services.settings.database_url else "sqlite",
        "rooms": ROOMS,
        "moves": len(times["move_by"]),
        "stages": {name: _micro(values) for name, values in times.items()},
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "cores": os.cpu_count(),
    }


if __name__ == "__main__":
    print(json.dumps(main()))
