"""Moves under load, as the browser plays them: the figure issue 11 compares with the peer.

Measures what the shared yardstick's ``load.py`` measures (two-seat Blokus Duo rooms, both
seats connected by websocket, every seat playing its first legal move, ``CONCURRENCY``
rooms at once; a move's round trip runs from the mover's send until the *other* seat
holds a state with the new seq), but speaks the protocol as the browser does: its hello
asks for the compact form of the legal moves (``LEGAL_FORM=compact``, the default).
``LEGAL_FORM=list`` asks for the plain list, as the shared script does, so one run of
each shows what the compact form alone changes. Both play the very same games: the
compact form keeps the legal moves' order.

The client is built not to be the bottleneck it measures: each seat keeps what its next
move needs (seq, who is to act, the result, its first legal move; ``bench/table.py``)
rather than the whole message, and the objects of the set-up are frozen out of the garbage collector's full
passes before play, as the server freezes its own after start. Without both, on two
cores the Python client spent more CPU per move than the server did.

    MATCHES=60 MOVES=30 CONCURRENCY=30 .venv/bin/python bench/bench_load.py

DATABASE_URL, REDIS_URL and WORKERS go to the server as they are. Prints one JSON line
with the shared script's keys (``bench/compare_peer.sh`` puts it beside boardgame.io).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import figures, say  # noqa: E402
from bench.table import MoveFailed, Seat, mover, open_seat, start_table, timed_move  # noqa: E402
from tests.server import ServerProcess  # noqa: E402

MATCHES = int(os.environ.get("MATCHES", "60"))
MOVES = int(os.environ.get("MOVES", "30"))
CONCURRENCY = int(os.environ.get("CONCURRENCY", "30"))
LEGAL_FORM = os.environ.get("LEGAL_FORM", "compact")
SETUP_AT_ONCE = 10
WAIT_S = 10.0


def cpu_ms(pids: list[int]) -> float:
    """User plus system CPU of these processes so far, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total * 1000 / ticks


def server_pids(root: int) -> list[int]:
    """The server and its worker processes (``--workers N`` forks them)."""
    pids, queue = [root], [root]
    while queue:
        pid = queue.pop()
        children = Path(f"/proc/{pid}/task/{pid}/children")
        if children.exists():
            found = [int(p) for p in children.read_text().split()]
            pids += found
            queue += found
    return pids


async def open_room(http: httpx.AsyncClient, ws_url: str, n: int) -> list[Seat]:
    room, tokens = await start_table(http, n)
    return [await open_seat(ws_url, room, token, LEGAL_FORM, WAIT_S) for token in tokens]


async def play(seats: list[Seat], out: dict[str, list[Any]]) -> None:
    for ref in range(1, MOVES + 1):
        seat = mover(seats)
        if seat is None:
            return
        try:
            rtt, own = await timed_move(seats[seat], seats[1 - seat], ref, WAIT_S)
        except MoveFailed as exc:
            out["failures"].append(exc.args[0])
            return
        out["rtt"].append(rtt)
        out["self"].append(own)


async def measure(server: ServerProcess) -> dict[str, Any]:
    assert server.proc is not None
    pids = server_pids(server.proc.pid)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        began = time.perf_counter()
        rooms: list[list[Seat]] = []
        for start in range(0, MATCHES, SETUP_AT_ONCE):
            batch = range(start, min(MATCHES, start + SETUP_AT_ONCE))
            rooms += await asyncio.gather(*(open_room(http, server.ws_url, n) for n in batch))
        setup_s = time.perf_counter() - began
    say(f"{MATCHES} rooms ready in {setup_s:.1f} s; playing {CONCURRENCY} at once")
    # as the server does after its start (app/web/app.py): what lives for the whole run is
    # kept out of the collector's full passes, so the client's own garbage collection
    # does not stand in for the server's latency
    gc.freeze()
    out: dict[str, list[Any]] = {"rtt": [], "self": [], "failures": []}
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(seats: list[Seat]) -> None:
        async with gate:
            await play(seats, out)

    usage = resource.getrusage(resource.RUSAGE_SELF)
    client0 = usage.ru_utime + usage.ru_stime
    cpu0, t0 = cpu_ms(pids), time.perf_counter()
    await asyncio.gather(*(one(seats) for seats in rooms))
    wall = time.perf_counter() - t0
    cpu1 = cpu_ms(pids)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    client1 = usage.ru_utime + usage.ru_stime
    for seats in rooms:
        for seat in seats:
            await seat.close()
    moves = len(out["rtt"])
    database = os.environ.get("DATABASE_URL", "")
    return {
        "system": "spieltisch",
        "client": "bench/bench_load.py",
        "legal_form": LEGAL_FORM,
        "db": "postgresql" if database.startswith("postgres") else "sqlite",
        "workers": int(os.environ.get("WORKERS", "1")),
        "matches": MATCHES,
        "moves_per_match": MOVES,
        "concurrency": CONCURRENCY,
        "moves": moves,
        "failures": len(out["failures"]),
        "failure_codes": sorted({str(code) for code in out["failures"]})[:5],
        "play_s": round(wall, 3),
        "setup_s": round(setup_s, 3),
        "moves_per_s": round(moves / wall, 1) if wall else None,
        "rtt_ms": figures(out["rtt"]),
        "self_confirm_ms": figures(out["self"]),
        "server_cpu_ms_per_move": round((cpu1 - cpu0) / max(1, moves), 3),
        "server_cpu_util_during_play": round((cpu1 - cpu0) / 1000 / wall, 3),
        "client_cpu_util_during_play": round((client1 - client0) / wall, 3),
        "client_cpu_ms_per_move": round((client1 - client0) * 1000 / max(1, moves), 3),
    }


def main() -> int:
    if LEGAL_FORM not in ("list", "compact"):
        raise SystemExit(f"LEGAL_FORM is list or compact, not {LEGAL_FORM!r}")
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        server = ServerProcess(Path(tmp), env={"BOT_DELAY_MS": "0"})
        server.start(timeout=60)
        try:
            result = asyncio.run(measure(server))
        finally:
            server.stop()
    print(json.dumps(result))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
