"""Server benchmark: move latency over REST and websockets, and fan-out to other seats.

Starts a real server process on SQLite (or DATABASE_URL), plays Blokus games by
four seats and prints JSON lines with medians and p99s in milliseconds.

    .venv/bin/python bench/bench_server.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server import ServerProcess

MOVES = 120
warnings.filterwarnings("ignore", category=DeprecationWarning)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _report(name: str, samples: list[float]) -> None:
    print(
        json.dumps(
            {
                "bench": name,
                "unit": "ms",
                "p50": round(statistics.median(samples), 2),
                "p99": round(_pct(samples, 0.99), 2),
                "n": len(samples),
            }
        )
    )


def _room(client: httpx.Client) -> tuple[str, list[str]]:
    created = client.post("/api/rooms", json={"game": "blokus", "players": 4, "name": "P0"}).json()
    room = created["room"]
    tokens = [created["token"]]
    for seat in (1, 2, 3):
        tokens.append(
            client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": f"P{seat}"}).json()[
                "token"
            ]
        )
    client.post(
        f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    ).raise_for_status()
    return room, tokens


def bench_rest(server: ServerProcess) -> None:
    samples: list[float] = []
    with httpx.Client(base_url=server.url) as client:
        while len(samples) < MOVES:
            room, tokens = _room(client)
            state = client.get(
                f"/api/rooms/{room}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()
            while state["result"] is None and len(samples) < MOVES:
                seat = state["to_act"][0]
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                mine = client.get(f"/api/rooms/{room}/state", headers=auth).json()
                started = time.perf_counter()
                response = client.post(
                    f"/api/rooms/{room}/moves",
                    json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
                    headers=auth,
                )
                samples.append((time.perf_counter() - started) * 1000)
                state = response.json()
    _report("server.rest_move", samples)


def bench_ws(server: ServerProcess) -> None:
    acks: list[float] = []
    fanout: list[float] = []
    with httpx.Client(base_url=server.url) as client:
        while len(acks) < MOVES:
            room, tokens = _room(client)
            sockets = []
            states = []
            for token in tokens:
                ws = connect(f"{server.ws_url}/api/rooms/{room}/ws")
                ws.send(json.dumps({"type": "hello", "token": token}))
                states.append(json.loads(ws.recv()))
                sockets.append(ws)
            while states[0]["result"] is None and len(acks) < MOVES:
                seat = next(i for i, s in enumerate(states) if s["legal_moves"])
                started = time.perf_counter()
                sockets[seat].send(
                    json.dumps(
                        {
                            "type": "move",
                            "seq": states[seat]["seq"],
                            "move": states[seat]["legal_moves"][0],
                        }
                    )
                )
                target = states[seat]["seq"] + 1
                for i, ws in enumerate(sockets):
                    while True:
                        message = json.loads(ws.recv(timeout=10))
                        if message["type"] == "ack":
                            acks.append((time.perf_counter() - started) * 1000)
                        elif message["type"] == "state" and message["seq"] >= target:
                            states[i] = message
                            if i != seat:
                                fanout.append((time.perf_counter() - started) * 1000)
                            break
            for ws in sockets:
                ws.close()
    _report("server.ws_move_ack", acks)
    _report("server.ws_fanout_all_seats", fanout)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp), env={"BOT_DELAY_MS": "0"})
        server.start()
        try:
            bench_rest(server)
            bench_ws(server)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
