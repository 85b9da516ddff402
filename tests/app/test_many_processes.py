"""Many app processes on one PostgreSQL and one Redis: games played across them lose
nothing and store nothing twice; ``python -m app --workers 2`` serves both workers on
one port; several workers are refused where they can't work; one process does the
site's chores.

Every socket receive has a timeout; nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from app.core.config import Settings
from app.services import Services
from tests.app.live import children, eventually
from tests.server import ROOT, ServerProcess, free_port

TIMEOUT = 30.0
# the games played across two processes: (game, options), each in its own room
GAMES = [("blokus", {"variant": "duo"})] * 3 + [("m", None)] * 3
QUICK = {
    "BOT_WORKERS": "0",
    # these clients play as fast as the machine goes: a budget they can't outrun
    "SEAT_BUDGET_MESSAGES": "1000000",
}


class Client:
    """One tab's socket; keeps every message, and checks each state message on arrival:
    its seq is past the last one, and its events run on from there without a gap
    (unless the message says it was cut short, and then the gap is fetched)."""

    def __init__(self, url: str, room: str, token: str | None, base: str) -> None:
        self.base = base
        self.room = room
        # no keepalive pings: every wait below has its own timeout, and a busy machine
        # must not close a socket the test is still using. No limit on the frames kept
        # unread either: a tab the test does not read for a while (while more tabs are
        # opened to reach both workers, each a presence message to every tab) must go on
        # answering the server's pings as a browser does; past the default 16 frames the
        # client would stop reading them, and the server close the socket (1011) after
        # its ping interval and timeout
        self.ws: ClientConnection = connect(
            f"{url}/api/rooms/{room}/ws",
            open_timeout=TIMEOUT,
            ping_interval=None,
            max_queue=None,
        )
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        self.seen: list[int] = []  # the seq of every event received, in order
        self.state: dict[str, Any] = {}
        while not self.state:
            self.recv()

    @property
    def local_port(self) -> int:
        return int(self.ws.socket.getsockname()[1])

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
        if message["type"] == "state":
            self._check(message)
            self.state = message
        return message

    def _check(self, message: dict[str, Any]) -> None:
        last = self.state.get("seq", 0)
        assert message["seq"] > last, f"state seq {message['seq']} after {last}"
        seqs = [e["seq"] for e in message["events"]]
        if message.get("events_truncated"):
            start = message["events_from"]
            assert start > last + 1
            gap = httpx.get(
                f"{self.base}/api/rooms/{self.room}/events",
                params={"after": last, "limit": start - 1 - last},
            ).json()["events"]
            seqs = [e["seq"] for e in gap] + seqs
        assert seqs == list(range(last + 1, message["seq"] + 1)), (last, message["seq"], seqs)
        self.seen.extend(seqs)

    def until_seq(self, seq: int) -> dict[str, Any]:
        while self.state["seq"] < seq:
            self.recv()
        return self.state

    def move(self) -> int:
        """Play the first legal move; the seq it was stored as."""
        seq = self.state["seq"]
        move = self.state["legal_moves"][0]
        self.ws.send(json.dumps({"type": "move", "seq": seq, "move": move, "id": seq}))
        while True:
            message = self.recv()
            if message.get("id") == seq and message["type"] in {"ack", "error"}:
                assert message["type"] == "ack", message
                return int(message["seq"])

    def close(self) -> None:
        self.ws.close()


def _post(base: str, path: str, token: str | None = None, **body: Any) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.post(f"{base}{path}", json=body, headers=headers, timeout=TIMEOUT)
    assert response.is_success, response.text
    return dict(response.json())


def _room(base: str, game: str, options: dict[str, Any] | None) -> tuple[str, list[str]]:
    created = _post(base, "/api/rooms", game=game, players=2, name="Anna", options=options or {})
    room = created["room"]
    ben = _post(base, f"/api/rooms/{room}/seats/1", name="Ben")
    return room, [created["token"], ben["token"]]


def _log(base: str, room: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        after = events[-1]["seq"] if events else 0
        page = httpx.get(
            f"{base}/api/rooms/{room}/events", params={"after": after}, timeout=TIMEOUT
        ).json()["events"]
        if not page:
            return events
        events += page


def _state(base: str, room: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(f"{base}/api/rooms/{room}/state", headers=headers, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _play(seats: list[Client], watchers: list[Client]) -> list[int]:
    """Play to the end, each move through the socket of the seat to act; the move seqs."""
    everyone = seats + watchers
    moves: list[int] = []
    while seats[0].state["result"] is None:
        acting = [c for c in seats if c.state["legal_moves"]]
        assert len(acting) == 1, [c.state["to_act"] for c in seats]
        moves.append(acting[0].move())
        for client in everyone:
            client.until_seq(moves[-1])
    return moves


def _each_move_once(log: list[dict[str, Any]], start: int, acks: list[int]) -> None:
    """Between two acknowledged seqs the log holds exactly the one move acknowledged
    (an ack names the room's seq after the move, a game's end included)."""
    moves = [e["seq"] for e in log if e["kind"] == "move"]
    assert len(moves) == len(acks)
    for before, move, ack in zip([start, *acks], moves, acks, strict=False):
        assert before < move <= ack, (before, move, ack)


def _game_across(a: str, b: str, ws_a: str, ws_b: str, game: str, options: Any) -> None:
    """One room: seat 0 and a spectator on process A, seat 1 and a spectator on B."""
    room, tokens = _room(a, game, options)
    seats = [Client(ws_a, room, tokens[0], a), Client(ws_b, room, tokens[1], b)]
    watchers = [Client(ws_a, room, None, a), Client(ws_b, room, None, b)]
    try:
        started = _post(b, f"/api/rooms/{room}/start", tokens[0])
        for client in seats + watchers:
            client.until_seq(started["seq"])
        moves = _play(seats, watchers)
        head = seats[0].state["seq"]
        log = _log(a, room)
        assert log == _log(b, room)
        # the log: every seq once, in order; each acknowledged move stored once
        assert [e["seq"] for e in log] == list(range(1, head + 1))
        _each_move_once(log, started["seq"], moves)
        # every client saw every seq exactly once, in order
        for client in seats + watchers:
            assert client.seen == list(range(1, head + 1))
        # both processes tell each seat the same final state, and so did the sockets
        for seat, token in enumerate(tokens):
            final = _state(a, room, token)
            assert final == _state(b, room, token)
            assert final["seq"] == head and final["result"] is not None
            pushed = seats[seat].state
            assert {k: pushed[k] for k in ("seq", "you", "view", "result", "to_act")} == {
                k: final[k] for k in ("seq", "you", "view", "result", "to_act")
            }
        assert watchers[0].state["view"] == watchers[1].state["view"]
    finally:
        for client in seats + watchers:
            client.close()


@pytest.fixture
def two_processes(tmp_path: Path, fresh_pg: str, redis_url: str) -> Iterator[list[ServerProcess]]:
    # a database of their own: the one that has the duty would otherwise resume every
    # bot game other tests left running on the shared one, and play them meanwhile
    env = {"DATABASE_URL": fresh_pg, "REDIS_URL": redis_url, **QUICK}
    servers = [ServerProcess(tmp_path / name, env=env) for name in ("a", "b")]
    try:
        with ThreadPoolExecutor(len(servers)) as pool:  # both start at once, as a rollout would
            for started in [pool.submit(server.start) for server in servers]:
                started.result()
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_games_played_across_two_processes_lose_nothing_and_store_nothing_twice(
    two_processes: list[ServerProcess],
) -> None:
    a, b = two_processes
    with ThreadPoolExecutor(len(GAMES)) as pool:
        runs = [
            pool.submit(_game_across, a.url, b.url, a.ws_url, b.ws_url, game, options)
            if i % 2 == 0
            else pool.submit(_game_across, b.url, a.url, b.ws_url, a.ws_url, game, options)
            for i, (game, options) in enumerate(GAMES)
        ]
        for run in runs:
            run.result(timeout=300)


# -- python -m app --workers 2 ------------------------------------------------------------


def sockets_on_two_workers(
    server: ServerProcess,
    room: str,
    tokens: list[str],
    workers: list[int],
    tabs: dict[int, list[Client]],
    tries: int = 100,
) -> tuple[dict[int, Client], dict[int, int]]:
    """Tabs for seats 0 and 1 of ``room``, kept in ``tabs``, more of them until each
    seat has one on a different worker than the other's: the two chosen, and which
    worker holds each local port."""
    owners: dict[int, int] = {}
    for _ in range(tries):
        for seat in (0, 1):
            tabs[seat].append(Client(server.ws_url, room, tokens[seat], server.url))
        owners = _socket_owners(server.port, workers)
        by_worker = {seat: {owners.get(t.local_port): t for t in tabs[seat]} for seat in (0, 1)}
        pairs = [(w0, w1) for w0 in by_worker[0] for w1 in by_worker[1] if w0 and w1 and w0 != w1]
        if pairs:
            w0, w1 = pairs[0]
            return {0: by_worker[0][w0], 1: by_worker[1][w1]}, owners
    raise AssertionError(f"the connections never reached both workers: {owners}")


def _socket_owners(port: int, pids: list[int]) -> dict[int, int]:
    """The process (among ``pids``) holding the server end of each connection to ``port``,
    by the client's port: read from /proc, as `ss -tnp` would."""
    inodes: dict[str, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
            if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:
                inodes[inode] = int(remote.rsplit(":", 1)[1], 16)
    owners = {}
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                owners[inodes[target[8:-1]]] = pid
    return owners


def _workers(server: ServerProcess) -> list[int]:
    assert server.proc is not None
    return [pid for pid, cmd in children(server.proc.pid) if "spawn_main" in cmd]


def test_python_m_app_workers_2_serves_both_workers_on_one_port(
    tmp_path: Path, fresh_pg: str, redis_url: str
) -> None:
    server = ServerProcess(
        tmp_path / "w", env={"DATABASE_URL": fresh_pg, "REDIS_URL": redis_url, **QUICK}
    )
    # ServerProcess starts `python -m app` on its port; the same, with two workers
    server.env["WORKERS"] = "2"
    server.start()
    try:
        workers = eventually(lambda: len(w := _workers(server)) == 2 and w, "two worker processes")
        room, tokens = _room(server.url, "blokus", {"variant": "duo"})
        tabs: dict[int, list[Client]] = {0: [], 1: []}
        chosen, owners = sockets_on_two_workers(server, room, tokens, workers, tabs)
        assert set(owners.values()) == set(workers)
        for tab in tabs[0] + tabs[1]:
            if tab not in chosen.values():
                tab.close()
        seats = [chosen[0], chosen[1]]
        started = _post(server.url, f"/api/rooms/{room}/start", tokens[0])
        for client in seats:
            client.until_seq(started["seq"])
        moves = _play(seats, [])
        head = seats[0].state["seq"]
        log = _log(server.url, room)
        assert [e["seq"] for e in log] == list(range(1, head + 1))
        _each_move_once(log, started["seq"], moves)
        for client in seats:
            assert client.seen == list(range(1, head + 1))
            client.close()
        assert seats[0].state["result"] == seats[1].state["result"] is not None
    finally:
        server.stop()


# -- where several workers are refused ------------------------------------------------------


def _app(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_several_workers_are_refused_on_sqlite_and_without_redis(tmp_path: Path) -> None:
    port = str(free_port())
    sqlite = _app("--workers", "2", "--port", port, DATA_DIR=str(tmp_path))
    assert sqlite.returncode == 1
    assert "several workers need PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)" in sqlite.stderr
    assert "SQLite" in sqlite.stderr and str(tmp_path) in sqlite.stderr
    assert not (tmp_path / "spieltisch.db").exists()  # refused before anything was touched

    # the setting says the same as the flag; nothing is contacted before the refusal
    no_redis = _app(
        "--port", port, WORKERS="3", DATABASE_URL="postgresql://nobody@127.0.0.1:1/none"
    )
    assert no_redis.returncode == 1
    assert "several workers need PostgreSQL" in no_redis.stderr
    assert "REDIS_URL is not set" in no_redis.stderr

    checked = _app("check", WORKERS="2", DATA_DIR=str(tmp_path))
    assert checked.returncode == 1
    assert "FAIL WORKERS=2: several workers need PostgreSQL" in checked.stdout


# -- replicas migrating at once ------------------------------------------------------------


def test_replicas_starting_together_migrate_one_after_another(
    fresh_pg: str, tmp_path: Path
) -> None:
    """Each app container runs `alembic upgrade head` first: three at once on an empty
    database all succeed, and the migrations run once."""
    alembic = Path(sys.executable).parent / "alembic"
    env = {**os.environ, "DATABASE_URL": fresh_pg, "DATA_DIR": str(tmp_path)}
    runs = [
        subprocess.Popen(
            [str(alembic), "upgrade", "head"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], outputs
    first = "Running upgrade  -> "
    assert sum(first in out for out in outputs) == 1, outputs


# -- the site's chores: one process does them -------------------------------------------------


async def test_one_process_of_many_has_the_duty_and_hands_it_on_when_it_stops(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    settings = Settings(
        database_url=pg_url,
        redis_url=redis_url,
        data_dir=tmp_path,
        auto_migrate=False,
        bot_workers=0,
    )
    first, second = Services.build(settings), Services.build(settings)
    # a key of this test's own, whatever other tests on this database and Redis left
    first.duty.key = second.duty.key = f"spieltisch:duty:test-{os.getpid()}-{id(first)}"
    await first.start()
    await second.start()
    running = [first, second]
    try:
        assert [first.duty.mine, second.duty.mine] == [True, False]
        assert await second.duty.claim() is False  # renewing is the holder's alone
        assert await first.duty.claim() is True
        gained: list[bool] = []
        second.duty.on_gain.append(lambda: gained.append(True))
        running.remove(first)
        await first.stop()
        assert await second.duty.claim() is True
        assert gained == [True]
        # the new holder resumes every game with a bot once, at its next sweep
        assert second.bots._resume
    finally:
        for services in running:
            await services.stop()
