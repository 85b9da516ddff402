"""A lone move's cost in CPU instructions: a figure the machine's load does not move.

On a shared machine a millisecond figure changes from run to run with what else runs;
the number of instructions the server executes for the same moves hardly does. The
server runs under valgrind's callgrind, counting nothing while it starts and the rooms
are set up; then ``MATCHES`` two-seat Blokus Duo rooms (durable SQLite unless
``DATABASE_URL`` says otherwise, the compact legal moves, as the browser asks) are
played one move at a time, each seat its first legal move (``bench/table.py``), with
counting on; ``CONCURRENCY`` rooms at once (1: one room after another, a lone move).
The count covers every thread of the server (the event loop, the database's thread) in
user space; the kernel's part of a send or a commit is not in it. Periodic work that happens to fall in the window (the catch-up,
a heartbeat) adds a little, so two runs of the same code differ by a few percent.

    MATCHES=10 MOVES=30 .venv/bin/python bench/bench_move_instructions.py
    MATCHES=30 CONCURRENCY=30 .venv/bin/python bench/bench_move_instructions.py
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/scratch .venv/bin/python \
        bench/bench_move_instructions.py

With ``DATABASE_URL`` naming a PostgreSQL database (a fresh one: the app migrates it),
the server stores there instead; the database server's own instructions are not counted.

Needs valgrind (Debian: ``apt-get install valgrind``); under it the server is about 50
times slower, so a run of 280 moves takes about half a minute. Prints one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import say  # noqa: E402
from bench.table import Seat, mover, open_seat, start_table, timed_move  # noqa: E402
from tests.server import ServerProcess  # noqa: E402

MATCHES = int(os.environ.get("MATCHES", "10"))
MOVES = int(os.environ.get("MOVES", "30"))
# rooms played at once (each one move at a time): above 1, moves queue and share commits
CONCURRENCY = int(os.environ.get("CONCURRENCY", "1"))
# under valgrind every answer is slow: generous waits, they only catch a hang
WAIT_S = 120.0


def _control(pid: int, *args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True)


def _counted(folder: Path) -> int | None:
    """The largest count a finished dump in ``folder`` holds (``None``: none written yet)."""
    found = []
    for dump in folder.glob("callgrind.out*"):
        for line in dump.read_text(errors="replace").splitlines():
            if line.startswith("totals:"):
                found.append(int(line.split()[1]))
    return max(found, default=None)


async def _play(server: ServerProcess) -> int:
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT_S) as http:
        rooms: list[list[Seat]] = []
        for n in range(MATCHES):
            room, tokens = await start_table(http, n)
            rooms.append(
                [await open_seat(server.ws_url, room, t, "compact", WAIT_S) for t in tokens]
            )
    assert server.proc is not None
    gate = asyncio.Semaphore(CONCURRENCY)

    async def play_room(seats: list[Seat]) -> int:
        moves = 0
        async with gate:
            for ref in range(1, MOVES + 1):
                seat = mover(seats)
                if seat is None:
                    break
                await timed_move(seats[seat], seats[1 - seat], ref, WAIT_S)
                moves += 1
        return moves

    _control(server.proc.pid, "--instr=on")
    moves = sum(await asyncio.gather(*(play_room(seats) for seats in rooms)))
    _control(server.proc.pid, "--instr=off")
    for seats in rooms:
        for seat in seats:
            await seat.close()
    return moves


def main() -> dict[str, Any]:
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as tmp:
        out = Path(tmp) / "callgrind.out"
        prefix = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
        ]
        server = ServerProcess(Path(tmp) / "data", env={"BOT_DELAY_MS": "0"}, prefix=prefix)
        began = time.perf_counter()
        server.start(timeout=300)
        try:
            moves = asyncio.run(_play(server))
            assert server.proc is not None
            _control(server.proc.pid, "--dump")
            total = None
            for _ in range(60):
                total = _counted(Path(tmp))
                if total is not None:
                    break
                time.sleep(1)
            if total is None:
                raise RuntimeError("callgrind wrote no counts")
        finally:
            server.stop()
        say(f"{moves} moves counted in {time.perf_counter() - began:.0f} s")
    return {
        "bench": "server.move_instructions",
        "game": "blokus duo",
        "db": "postgresql" if "postgresql" in os.environ.get("DATABASE_URL", "") else "sqlite",
        "matches": MATCHES,
        "concurrency": CONCURRENCY,
        "moves": moves,
        "instructions": total,
        "instructions_per_move": round(total / max(1, moves)),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


if __name__ == "__main__":
    print(json.dumps(main()))
