"""/metrics and /healthz of ``python -m app --workers 2`` speak for the whole server,
whichever worker answers: the moves both workers stored are summed, a killed worker's
counts stay summed while its sockets leave the gauges, and the health says how many
workers answer. The directory the workers count in is the run's own: private, fresh
(a crashed run's files are not counted), gone at exit.

Which worker holds a connection is read from /proc (``_socket_owners``); every wait
polls under a generous deadline, nothing depends on how fast the machine is.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.core.config import Settings
from app.services import create_app
from app.web import health
from app.workers import bury, gone, shared_directory
from tests.app.live import eventually
from tests.app.test_many_processes import (
    Client,
    _post,
    _room,
    _socket_owners,
    _workers,
    sockets_on_two_workers,
)
from tests.server import ServerProcess

TOKEN = "scrape-the-workers-0123456789"
MOVES = 6  # three by each seat, so each worker stores some
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _ask(server: ServerProcess, path: str, pids: list[int]) -> tuple[int | None, int, str]:
    """One request on a fresh connection: the worker that answered (None if it could
    not be told), the status and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
        response = conn.getresponse()
        body = response.read().decode()
        # the connection is still open (keep-alive): its server end names the worker
        assert conn.sock is not None
        owner = _socket_owners(server.port, pids).get(conn.sock.getsockname()[1])
        return owner, response.status, body
    finally:
        conn.close()


def _from_each(server: ServerProcess, path: str, pids: list[int]) -> dict[int, list[str]]:
    """Ask on fresh connections until each of ``pids`` has answered: the bodies, by worker."""
    answers: dict[int, list[str]] = {}
    for _ in range(1000):
        owner, status, body = _ask(server, path, pids)
        assert status == 200, body
        if owner is not None:
            answers.setdefault(owner, []).append(body)
        if set(answers) == set(pids):
            return answers
    raise AssertionError(f"not every worker answered {path}: {sorted(answers)} of {pids}")


def _samples(text: str) -> Samples:
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def _value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _counts(samples: Samples) -> dict[str, float]:
    return {
        "moves": _value(samples, "spieltisch_moves_total", game="blokus"),
        "rooms_created": _value(samples, "spieltisch_rooms_created_total", game="blokus"),
        "games_started": _value(samples, "spieltisch_games_started_total", game="blokus"),
        "playing": _value(samples, "spieltisch_rooms", status="playing"),
        "websockets": _value(samples, "spieltisch_websocket_connections"),
        "rooms_live": _value(samples, "spieltisch_rooms_live"),  # once on each worker
    }


def _stale_run(directory: Path) -> None:
    """What a crashed earlier run leaves: a moves counter of 100, in the variable's dir."""
    directory.mkdir()
    code = (
        "from prometheus_client import Counter\n"
        "Counter('spieltisch_moves', 'x', ['game']).labels('blokus').inc(100)\n"
    )
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    assert list(directory.glob("counter_*.db"))


def test_metrics_and_health_cover_every_worker_and_outlive_a_killed_one(
    tmp_path: Path, fresh_pg: str, redis_url: str
) -> None:
    stale = tmp_path / "stale"
    _stale_run(stale)
    temp = tmp_path / "tmp"
    temp.mkdir()
    server = ServerProcess(
        tmp_path / "w",
        env={
            "DATABASE_URL": fresh_pg,
            "REDIS_URL": redis_url,
            "WORKERS": "2",
            "BOT_WORKERS": "0",
            "METRICS_ENABLED": "true",
            "METRICS_TOKEN": TOKEN,
            # named from outside, as a crashed run would leave it: not this run's
            "PROMETHEUS_MULTIPROC_DIR": str(stale),
            "TMPDIR": str(temp),  # where the parent makes the run's directory
        },
    )
    server.start()
    tabs: dict[int, list[Client]] = {0: [], 1: []}  # each seat's sockets
    try:
        workers = eventually(lambda: len(w := _workers(server)) == 2 and w, "two worker processes")
        # the run's directory: a fresh one of its own, the owner's alone
        (shared,) = temp.glob("spieltisch-workers-*")
        assert stat.S_IMODE(shared.stat().st_mode) == 0o700

        # both workers beat, and each says so
        def all_up() -> bool:
            answers = _from_each(server, "/healthz", workers)
            parts = [json.loads(body)["checks"]["workers"] for b in answers.values() for body in b]
            return all(p == {"status": "ok", "alive": 2, "configured": 2} for p in parts)

        eventually(all_up, "both workers beat")

        # one room; seat 0's socket on one worker, seat 1's on the other
        room, tokens = _room(server.url, "blokus", {"variant": "duo"})
        chosen, owners = sockets_on_two_workers(server, room, tokens, workers, tabs)
        first, second = (owners[chosen[seat].local_port] for seat in (0, 1))

        started = _post(server.url, f"/api/rooms/{room}/start", tokens[0])
        seats = [chosen[0], chosen[1]]
        for client in seats:
            client.until_seq(started["seq"])
        played = 0
        while played < MOVES:  # each move through the socket of the seat to act
            (acting,) = [c for c in seats if c.state["legal_moves"]]
            seq = acting.move()
            played += 1
            for client in seats:
                client.until_seq(seq)

        # every worker sums the same: all the moves, all the sockets
        expected = {
            "moves": MOVES,
            "rooms_created": 1,
            "games_started": 1,
            "playing": 1,
            "websockets": len(tabs[0]) + len(tabs[1]),
            "rooms_live": 2,
        }
        for pid, bodies in _from_each(server, "/metrics", workers).items():
            for body in bodies:
                assert _counts(_samples(body)) == expected, pid

        # the first seat's worker dies: its sockets go, what it counted stays. Which tabs
        # stay is read before: a tab whose server end dies may close its socket at once
        left = sum(1 for t in tabs[0] + tabs[1] if owners.get(t.local_port) == second)
        os.kill(first, signal.SIGKILL)
        now = eventually(
            lambda: len(w := _workers(server)) == 2 and first not in w and w,
            "a worker in the killed one's place",
        )
        eventually(
            lambda: all(
                json.loads(body)["checks"]["workers"]
                == {"status": "ok", "alive": 2, "configured": 2}
                for bodies in _from_each(server, "/healthz", now).values()
                for body in bodies
            ),
            "both workers beat again",
        )
        expected["websockets"] = left
        expected["rooms_live"] = 1
        eventually(
            lambda: all(
                _counts(_samples(body)) == expected
                for bodies in _from_each(server, "/metrics", now).values()
                for body in bodies
            ),
            f"the sums without the killed worker's sockets: {expected}",
        )
    finally:
        for tab in tabs[0] + tabs[1]:
            tab.close()
        server.stop()
    # the run's directory is gone with it; the one named from outside is untouched
    assert not list(temp.glob("spieltisch-workers-*"))
    assert list(stale.glob("counter_*.db"))


# -- the parts, on real files -----------------------------------------------------------


def test_one_process_has_no_workers_part_and_its_own_registry(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        body = client.get("/healthz").json()
        assert "workers" not in body["checks"]
        assert client.app.state.metrics.shared is None  # type: ignore[attr-defined]


def test_health_counts_fresh_heartbeats_against_the_workers_the_parent_runs(
    tmp_path: Path,
) -> None:
    health.expect(tmp_path, 3)
    health.beat(tmp_path)  # this process, fresh
    old = health.beat_file(tmp_path, 1)
    old.touch()
    long_ago = time.time() - 10 * health.STALE_SECONDS
    os.utime(old, (long_ago, long_ago))  # a worker whose loop stopped turning
    assert health.beating_pids(tmp_path) == [os.getpid()]
    assert health.workers(tmp_path, configured=2) == {
        "status": "degraded",
        "alive": 1,
        "configured": 3,
        "message": "1 of 3 workers answer",
    }
    health.expect(tmp_path, 1)
    assert health.workers(tmp_path, configured=2) == {"status": "ok", "alive": 1, "configured": 1}
    # before the parent has written the count, the settings say it
    (tmp_path / health.EXPECTED_FILE).unlink()
    assert health.workers(tmp_path, configured=2)["configured"] == 2


def test_a_buried_worker_keeps_its_counters_and_loses_its_live_files(tmp_path: Path) -> None:
    for name in (
        "counter_41.db",
        "histogram_41.db",
        "gauge_livesum_41.db",
        "gauge_mostrecent_41.db",
        "worker_41.beat",
        "gauge_livesum_42.db",
        "worker_42.beat",
        "workers",
    ):
        (tmp_path / name).write_bytes(b"")
    assert gone(tmp_path, running={42}) == {41}
    bury(tmp_path, 41)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "counter_41.db",
        "gauge_livesum_42.db",
        "gauge_mostrecent_41.db",
        "histogram_41.db",
        "worker_42.beat",
        "workers",
    ]
    assert gone(tmp_path, running={42}) == set()


def test_each_run_has_a_fresh_private_directory_gone_at_exit() -> None:
    before = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    with shared_directory() as one:
        assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(one)
        assert stat.S_IMODE(one.stat().st_mode) == 0o700
        assert not list(one.iterdir())
        with shared_directory() as other:
            assert other != one
        assert not other.exists()
    assert not one.exists()
    assert os.environ.get("PROMETHEUS_MULTIPROC_DIR") == before
