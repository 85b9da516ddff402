"""The floor under the shared yardstick: its own client against a server that does no work.

The yardstick's ``load.py`` (the client its ``compare.sh`` runs; not part of this
repository: ``LOAD`` names it) times this server with a Python client on the same cores. What that client costs itself, with this server's
messages, bounds what any server could reach on this machine. This script measures it:

1. it records one two-seat Blokus Duo game as this server sends it (``python -m app``,
   each seat its first legal move, the compact legal moves, as the yardstick plays):
   every state text each seat receives, by seq;
2. it writes a stand-in ``app`` package to a temporary directory: a uvicorn server with
   this server's loop, parser and websocket protocol (uvloop, httptools, sans-I/O
   websockets) that answers the yardstick's REST calls with fixed bodies and, on the
   websocket, plays the recorded texts back: a hello gets its seat's first state, a
   move an ack and the recorded next state for both seats (the seat to act first).
   Nothing is stored, checked or computed;
3. it runs the yardstick's ``load.py`` unchanged from that directory (its ``python -m
   app`` then starts the stand-in) ``ROUNDS`` times at ``CONCURRENCY`` rooms at once,
   and prints each run's JSON line with ``"bench": "move_path.floor"`` and ``"system":
   "floor"`` added.

    LOAD=…/load.py .venv/bin/python bench/bench_floor.py              # K=30, 60 rooms
    LOAD=…/load.py CONCURRENCY=1 MATCHES=10 .venv/bin/python bench/bench_floor.py
    LOAD=…/load.py MESSAGES=lean .venv/bin/python bench/bench_floor.py

``MESSAGES`` says what the stand-in plays back: ``full`` (the default) the recorded
texts as they are; ``lean`` each state cut to what the yardstick's client reads (its
type, seq, who is to act, the result and the legal moves, in full), as if the room and
the view cost the client nothing; ``bare`` that cut and the legal moves cut to the one
placement the client plays, a state of a few dozen bytes. The three apart say how much
of the client's cost a move is the bytes of each part.

The client's CPU a move (``client_cpu_util_during_play`` over the moves a second) and
the stand-in's figures are what the yardstick itself costs with these messages: no
server can give a higher throughput or a lower round trip than this on the machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import say  # noqa: E402
from bench.table import first_move  # noqa: E402
from tests.server import ServerProcess  # noqa: E402

YARDSTICK = Path(os.environ.get("LOAD", "load.py")).resolve()
ROUNDS = int(os.environ.get("ROUNDS", "2"))
MESSAGES = os.environ.get("MESSAGES", "full")
RECORD_MOVES = 80  # more than any game lasts: the yardstick's MOVES stay inside it

STAND_IN = '''
"""A stand-in server for bench/bench_floor.py: recorded texts played back, no work."""
import json
import sys
from pathlib import Path

import uvicorn

RECORDED = json.loads(Path(__file__).with_name("recorded.json").read_text())
# seat -> {seq: text}; the first state a hello gets is the lowest seq
TEXTS = [{int(seq): text for seq, text in seat.items()} for seat in RECORDED]
FIRST = min(TEXTS[0])
# a move can take the log more than one seq on (a colour with no move left passes)
ORDER = sorted(TEXTS[0])
NEXT = dict(zip(ORDER, ORDER[1:]))
ROOMS = {}


async def reply(send, status, body):
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


async def http(scope, receive, send):
    while (await receive()).get("more_body"):
        pass
    parts = scope["path"].strip("/").split("/")
    if parts == ["healthz"]:
        return await reply(send, 200, {"ok": True})
    if parts == ["api", "rooms"]:
        room = f"r{len(ROOMS)}"
        ROOMS[room] = {}
        return await reply(send, 201, {"room": room, "token": "seat-0"})
    if len(parts) == 5 and parts[3] == "seats":
        return await reply(send, 200, {"token": "seat-" + parts[4]})
    return await reply(send, 200, {})


async def websocket(scope, receive, send):
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    sockets = ROOMS[scope["path"].split("/")[3]]
    seat = None
    while True:
        frame = await receive()
        if frame["type"] == "websocket.disconnect":
            return
        message = json.loads(frame["text"])
        if message["type"] == "hello":
            seat = int(message["token"].rsplit("-", 1)[1])
            sockets[seat] = send
            await send({"type": "websocket.send", "text": TEXTS[seat][FIRST]})
        elif message["type"] == "move":
            seq = NEXT[message["seq"]]
            await send({"type": "websocket.send",
                        "text": json.dumps({"type": "ack", "id": message["id"], "seq": seq})})
            await sockets[1 - seat]({"type": "websocket.send", "text": TEXTS[1 - seat][seq]})
            await send({"type": "websocket.send", "text": TEXTS[seat][seq]})


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            event = await receive()
            kind = event["type"].rsplit(".", 1)[1]
            await send({"type": f"lifespan.{kind}.complete"})
            if kind == "shutdown":
                return
    elif scope["type"] == "http":
        await http(scope, receive, send)
    else:
        await websocket(scope, receive, send)


host, port = sys.argv[sys.argv.index("--host") + 1], int(sys.argv[sys.argv.index("--port") + 1])
uvicorn.run(app, host=host, port=port, log_config=None, log_level="warning",
            loop="uvloop", http="httptools", ws="websockets-sansio",
            ws_per_message_deflate=False)
'''


async def record(server: ServerProcess) -> list[dict[int, str]]:
    """Every state text each seat of one game receives, by seq."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        body = {"game": "blokus", "players": 2, "options": {"variant": "duo"}, "name": "a"}
        created = (await http.post("/api/rooms", json=body)).json()
        room, tokens = created["room"], [created["token"]]
        claimed = await http.post(f"/api/rooms/{room}/seats/1", json={"name": "b"})
        tokens.append(claimed.json()["token"])
        headers = {"Authorization": f"Bearer {tokens[0]}"}
        (await http.post(f"/api/rooms/{room}/start", json={}, headers=headers)).raise_for_status()
    texts: list[dict[int, str]] = [{}, {}]
    latest: list[dict[str, Any]] = [{}, {}]
    url = f"{server.ws_url}/api/rooms/{room}/ws"
    async with connect(url, max_size=2**24) as one, connect(url, max_size=2**24) as two:
        sockets = [one, two]

        async def until_seq(seat: int, seq: int) -> None:
            while latest[seat].get("seq", -1) < seq:
                raw = await sockets[seat].recv()
                message = json.loads(raw)
                if message["type"] == "state":
                    texts[seat][message["seq"]] = str(raw)
                    latest[seat] = message

        for seat, token in enumerate(tokens):
            hello = {"type": "hello", "token": token, "since": None, "legal_form": "compact"}
            await sockets[seat].send(json.dumps(hello))
            await until_seq(seat, 0)
        for number in range(RECORD_MOVES):
            state = latest[0]
            if state["result"] is not None or not state["to_act"]:
                break
            seat = state["to_act"][0]
            await until_seq(seat, state["seq"])
            move = first_move(latest[seat])
            if move is None:
                break
            message = {"type": "move", "seq": state["seq"], "move": move, "id": number}
            await sockets[seat].send(json.dumps(message))
            for each in (0, 1):
                await until_seq(each, state["seq"] + 1)
    return texts


def cut(text: str, bare: bool) -> str:
    """A recorded state cut to what the yardstick's client reads (module docstring)."""
    state = json.loads(text)
    lean = {key: state[key] for key in ("type", "seq", "to_act", "result")}
    if "legal_moves" in state:
        lean["legal_moves"] = state["legal_moves"][:1] if bare else state["legal_moves"]
    compact = state.get("legal_compact")
    if compact is not None:
        if bare:
            shapes = [shape for shape in compact["shapes"] if shape["at"]][:1]
            shapes = [{**shape, "at": shape["at"][:1]} for shape in shapes]
            compact = {**compact, "shapes": shapes}
        lean["legal_compact"] = compact
    return json.dumps(lean, separators=(",", ":"))


def played_back(texts: list[dict[int, str]]) -> list[dict[int, str]]:
    """The texts the stand-in sends, as ``MESSAGES`` asks."""
    if MESSAGES == "full":
        return texts
    bare = MESSAGES == "bare"
    return [{seq: cut(text, bare) for seq, text in seat.items()} for seat in texts]


def main() -> None:
    if MESSAGES not in ("full", "lean", "bare"):
        raise SystemExit(f"MESSAGES is full, lean or bare (not {MESSAGES!r})")
    if not YARDSTICK.exists():
        raise SystemExit(f"set LOAD to the yardstick's load.py (there is none at {YARDSTICK})")
    with tempfile.TemporaryDirectory(prefix="floor-") as scratch:
        server = ServerProcess(Path(scratch) / "data")
        server.start()
        try:
            texts = asyncio.run(record(server))
        finally:
            server.stop()
        stand_in = Path(scratch) / "standin" / "app"
        stand_in.mkdir(parents=True)
        (stand_in / "__init__.py").write_text("")
        (stand_in / "__main__.py").write_text(STAND_IN)
        sent = played_back(texts)
        (stand_in / "recorded.json").write_text(json.dumps(sent))
        sizes = [len(text) for seat in sent for text in seat.values()]
        moves = len(texts[0]) - 1
        say(f"recorded a game of {moves} moves; the yardstick plays up to its MOVES of them")
        env = {**os.environ, "LABEL": "floor"}
        env.setdefault("MATCHES", "60")
        env.setdefault("MOVES", "30")
        env.setdefault("CONCURRENCY", "30")
        for _ in range(ROUNDS):
            done = subprocess.run(
                [sys.executable, str(YARDSTICK)],
                cwd=stand_in.parent,
                env=env,
                capture_output=True,
                text=True,
            )
            if not done.stdout.strip():
                raise SystemExit(f"the yardstick printed nothing:\n{done.stderr[-3000:]}")
            line = {"bench": "move_path.floor", **json.loads(done.stdout.strip().splitlines()[-1])}
            line["system"] = "floor"
            util, rate = line["client_cpu_util_during_play"], line["moves_per_s"]
            line["client_cpu_ms_per_move"] = round(util / rate * 1000, 3) if rate else None
            line["recorded_moves"] = moves
            line["messages"] = MESSAGES
            line["state_bytes_mean"] = round(sum(sizes) / len(sizes))
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
