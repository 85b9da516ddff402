"""``python -m app restore``: refused while a server holds the database, and the
restored logs checked to be gapless (issue 20, item 13). Real server processes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.core.dblock import lock_file, try_exclusive
from tests.server import ROOT, ServerProcess

# a hang guard only: each wait below ends on a signal, never on the clock
HANG = 60.0


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _play(server: ServerProcess, moves: int) -> str:
    """A Blokus room with ``moves`` moves played over HTTP: a log of a few dozen events."""
    made = httpx.post(
        f"{server.url}/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}
    ).json()
    room, anna = made["room"], made["token"]
    ben = httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()
    tokens = [anna, ben["token"]]
    auth = {"Authorization": f"Bearer {anna}"}
    state = httpx.post(f"{server.url}/api/rooms/{room}/start", headers=auth).json()
    for _ in range(moves):
        seat = state["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = httpx.get(f"{server.url}/api/rooms/{room}/state", headers=auth).json()
        state = httpx.post(
            f"{server.url}/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
            headers=auth,
        ).json()
    return str(room)


def _rooms(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM rooms")}


def test_restore_is_refused_while_a_server_runs_and_works_once_it_is_stopped(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    server = ServerProcess(data, env={"BOT_WORKERS": "0"})
    server.start()
    try:
        kept = _play(server, 4)
        backup = tmp_path / "backup.db"
        assert _run("backup", str(backup), DATA_DIR=str(data)).returncode == 0
        later = _play(server, 6)
        refused = _run("restore", str(backup), DATA_DIR=str(data))
        assert refused.returncode == 3, refused.stdout + refused.stderr
        assert "server is using" in refused.stderr and "Stop it first" in refused.stderr
        assert str(server.proc.pid if server.proc else "") in refused.stderr
        # nothing was touched: the server still serves the room made after the backup
        assert httpx.get(f"{server.url}/api/rooms/{later}").status_code == 200
        assert _rooms(data / "spieltisch.db") == {kept, later}
    finally:
        server.stop()
    restored = _run("restore", str(backup), DATA_DIR=str(data))
    assert restored.returncode == 0, restored.stderr
    assert "every room's log is gapless" in restored.stdout
    assert _rooms(data / "spieltisch.db") == {kept}
    assert lock_file(data / "spieltisch.db").stat().st_mode & 0o077 == 0


def test_a_server_killed_outright_does_not_block_a_restore(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = ServerProcess(data, env={"BOT_WORKERS": "0"})
    server.start()
    try:
        room = _play(server, 2)
        backup = tmp_path / "backup.db"
        assert _run("backup", str(backup), DATA_DIR=str(data)).returncode == 0
    finally:
        server.stop(kill=True)  # SIGKILL: no clean-up ran; the kernel dropped the lock
    restored = _run("restore", str(backup), DATA_DIR=str(data))
    assert restored.returncode == 0, restored.stderr
    assert "every room's log is gapless" in restored.stdout
    assert _rooms(data / "spieltisch.db") == {room}


def test_a_server_started_during_a_restore_waits_for_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    lock = try_exclusive((data / "spieltisch.db").resolve())  # what a running restore holds
    assert lock is not None
    server = ServerProcess(data, env={"BOT_WORKERS": "0"})
    log = server.log
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(server.port)],
            cwd=ROOT,
            env=server.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server.proc = proc
    try:
        deadline = time.monotonic() + HANG
        while "waiting for `python -m app restore`" not in log.read_text():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server never said it waits"
            time.sleep(0.05)
        # it waits before migrating or listening: nothing answers on its port yet
        try:
            httpx.get(f"{server.url}/healthz", timeout=2)
            raise AssertionError("the server serves while a restore holds the database")
        except httpx.ConnectError:
            pass
        lock.release()
        while True:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline + HANG, "the server did not come up"
            try:
                if httpx.get(f"{server.url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
    finally:
        lock.release()
        server.stop()


def test_a_backup_with_a_gap_in_a_log_is_reported_and_not_restored(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = ServerProcess(data, env={"BOT_WORKERS": "0"})
    server.start()
    try:
        gapped, whole = _play(server, 5), _play(server, 3)
        backup = tmp_path / "backup.db"
        assert _run("backup", str(backup), DATA_DIR=str(data)).returncode == 0
        after = _play(server, 1)
    finally:
        server.stop()
    with sqlite3.connect(backup) as conn:
        conn.execute("DELETE FROM events WHERE room_id = ? AND seq IN (4, 6)", (gapped,))
    refused = _run("restore", str(backup), DATA_DIR=str(data))
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert f"room {gapped[:8]}… misses seq 4, 6" in refused.stderr
    assert whole[:8] not in refused.stderr and gapped not in refused.stderr
    assert "left as it was" in refused.stderr
    assert _rooms(data / "spieltisch.db") == {gapped, whole, after}
