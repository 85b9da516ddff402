"""``python -m app backup | restore | check``, run as a self-hoster runs them."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.core.config import Settings
from app.core.migrate import upgrade
from app.play.rooms import RoomRules
from app.services import Services
from tests.server import ROOT, ServerProcess, free_port


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


def _create_rooms(data_dir: Path, names: list[str]) -> list[str]:
    async def create() -> list[str]:
        services = Services.build(Settings(data_dir=data_dir, bot_workers=0, auto_migrate=False))
        await services.start()
        try:
            rooms = []
            for name in names:
                state, _ = await services.rooms.create(
                    game="blokus",
                    players=2,
                    options=None,
                    name=name,
                    seat=0,
                    bots={},
                    rules=RoomRules(),
                )
                rooms.append(state.room.id)
            return rooms
        finally:
            await services.stop()

    data_dir.mkdir(parents=True, exist_ok=True)
    upgrade(f"sqlite+aiosqlite:///{data_dir / 'spieltisch.db'}")
    return asyncio.run(create())


def _room_ids(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM rooms")}


def test_backup_then_restore_brings_back_exactly_what_was_backed_up(tmp_path: Path) -> None:
    data = tmp_path / "data"
    kept = _create_rooms(data, ["Anna", "Ben"])
    backup = tmp_path / "backups" / "spieltisch-1.db"

    made = _run("backup", str(backup), DATA_DIR=str(data))
    assert made.returncode == 0, made.stderr
    assert "2 rooms" in made.stdout
    later = _create_rooms(data, ["Cleo"])
    assert _room_ids(data / "spieltisch.db") == {*kept, *later}

    restored = _run("restore", str(backup), DATA_DIR=str(data))
    assert restored.returncode == 0, restored.stderr
    assert _room_ids(data / "spieltisch.db") == set(kept)
    with sqlite3.connect(data / "spieltisch.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seats = conn.execute("SELECT count(*) FROM seats").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    assert (seats, events) == (4, 2)


def test_a_backup_taken_while_the_server_writes_is_whole(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", env={"BOT_WORKERS": "0"})
    server.start()
    try:
        for name in ("Anna", "Ben", "Cleo"):
            made = httpx.post(
                f"{server.url}/api/rooms", json={"game": "blokus", "players": 2, "name": name}
            )
            assert made.status_code == 201
        result = _run("backup", str(tmp_path / "live.db"), DATA_DIR=str(tmp_path / "data"))
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    assert "3 rooms" in result.stdout
    with sqlite3.connect(tmp_path / "live.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 3


def test_restore_into_a_fresh_data_dir_works(tmp_path: Path) -> None:
    kept = _create_rooms(tmp_path / "old", ["Anna"])
    backup = tmp_path / "b.db"
    assert _run("backup", str(backup), DATA_DIR=str(tmp_path / "old")).returncode == 0
    restored = _run("restore", str(backup), DATA_DIR=str(tmp_path / "new"))
    assert restored.returncode == 0, restored.stderr
    assert _room_ids(tmp_path / "new" / "spieltisch.db") == set(kept)


def test_restore_refuses_a_file_that_is_no_spieltisch_backup(tmp_path: Path) -> None:
    _create_rooms(tmp_path / "data", ["Anna"])
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all, just some text that is long enough" * 100)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    for path, words in [
        (junk, "not an SQLite database"),
        (other, "not a Spieltisch database"),
        (tmp_path / "missing.db", "no backup file"),
    ]:
        result = _run("restore", str(path), DATA_DIR=str(tmp_path / "data"))
        assert result.returncode == 1
        assert words in result.stderr
    assert len(_room_ids(tmp_path / "data" / "spieltisch.db")) == 1


def test_backup_on_postgresql_names_the_pg_dump_line(tmp_path: Path) -> None:
    result = _run(
        "backup", str(tmp_path / "x.db"), DATABASE_URL="postgresql://u:p@127.0.0.1:1/spieltisch"
    )
    assert result.returncode == 1
    assert "pg_dump" in result.stderr and "pg_restore" in result.stderr
    assert not (tmp_path / "x.db").exists()


def test_backup_without_a_database_says_so(tmp_path: Path) -> None:
    result = _run("backup", str(tmp_path / "x.db"), DATA_DIR=str(tmp_path / "empty"))
    assert result.returncode == 1
    assert "no database" in result.stderr


def test_check_passes_on_a_working_setup(tmp_path: Path) -> None:
    result = _run("check", DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "everything looks right" in result.stdout
    assert "the app migrates it" in result.stdout


def test_check_names_a_bad_setting(tmp_path: Path) -> None:
    result = _run("check", DATA_DIR=str(tmp_path), BOT_WORKERS="-1", LOG_FORMAT="yaml")
    assert result.returncode == 1
    assert "FAIL setting BOT_WORKERS" in result.stdout
    assert "(it is '-1')" in result.stdout
    assert "FAIL setting LOG_FORMAT" in result.stdout


def test_check_says_what_is_wrong_with_the_database_and_redis(tmp_path: Path) -> None:
    closed = free_port()
    result = _run(
        "check",
        DATABASE_URL=f"postgresql://spieltisch:secret-pw@127.0.0.1:{closed}/spieltisch",
        REDIS_URL=f"redis://:redis-pw@127.0.0.1:{closed}/0",
        PUBLIC_URL="games.example.org",
    )
    assert result.returncode == 1
    out = result.stdout
    assert (
        f"FAIL database: can't reach postgresql+asyncpg://spieltisch:***@127.0.0.1:{closed}" in out
    )
    assert "FAIL redis: can't reach" in out
    assert "FAIL PUBLIC_URL must start with http:// or https://" in out
    assert "secret-pw" not in out and "redis-pw" not in out
    assert "3 problem(s) found" in out


def test_check_reports_an_unmigrated_database_when_the_app_will_not_migrate(
    tmp_path: Path,
) -> None:
    result = _run("check", DATA_DIR=str(tmp_path), AUTO_MIGRATE="false")
    assert result.returncode == 1
    assert "AUTO_MIGRATE is off" in result.stdout


@pytest.mark.parametrize("args", [["--help"], ["serve", "--help"]])
def test_serve_keeps_its_options(args: list[str]) -> None:
    result = _run(*args)
    assert result.returncode == 0
    for verb in ("--host", "--port", "--no-migrate") if "serve" in args else ("backup", "check"):
        assert verb in result.stdout
