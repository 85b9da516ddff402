"""A backup holds secrets: its file is its owner's alone, and with ``ALERT_SECRET`` set the
tokens sealed in it stay sealed without that secret."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import auth, table
from tests.server import ROOT, free_port


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


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


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _subscribed(data_dir: Path, secret: str | None) -> tuple[str, str]:
    """A room on the SQLite file in ``data_dir`` whose second seat left an address; the
    seat's token and what the database keeps of it (sealed)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    settings = Settings(
        data_dir=data_dir,
        bot_workers=0,
        alert_secret=secret,
        smtp_host="127.0.0.1",
        smtp_port=free_port(),
        public_url="https://play.example.org",
        alert_poll_seconds=3600,
    )
    with TestClient(create_app(settings)) as client:
        room, (_, ben) = table(client)
        put = client.put(
            f"/api/rooms/{room}/alerts/email", json={"address": "b@example.org"}, headers=auth(ben)
        )
        assert put.status_code == 200, put.text
        with closing(sqlite3.connect(data_dir / "spieltisch.db")) as conn:
            (data,) = conn.execute("SELECT data FROM alert_channels").fetchone()
        sealed = json.loads(data)["sealed"]
    return ben, sealed


def _opens(key: str, sealed: str) -> str | None:
    try:
        return Fernet(key.encode()).decrypt(sealed.encode()).decode()
    except (InvalidToken, ValueError):
        return None


def test_a_backup_is_written_for_its_owner_alone_whatever_the_umask(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _subscribed(data, None)
    target = tmp_path / "backups" / "spieltisch.db"
    with _umask(0):  # a file made with the process's default mode would be 0666 here
        result = _run("backup", str(target), DATA_DIR=str(data))
    assert result.returncode == 0, result.stderr
    assert _mode(target) == 0o600
    assert not target.with_name(target.name + ".partial").exists()

    fresh = tmp_path / "fresh"
    with _umask(0):
        restored = _run("restore", str(target), DATA_DIR=str(fresh))
    assert restored.returncode == 0, restored.stderr
    assert _mode(fresh / "spieltisch.db") == 0o600


def test_with_alert_secret_set_a_backup_alone_opens_no_token(tmp_path: Path) -> None:
    secret = Fernet.generate_key().decode()
    data = tmp_path / "data"
    token, sealed = _subscribed(data, secret)
    target = tmp_path / "backup.db"
    result = _run("backup", str(target), DATA_DIR=str(data), ALERT_SECRET=secret)
    assert result.returncode == 0, result.stderr
    with closing(sqlite3.connect(target)) as conn:
        kept = [value for (value,) in conn.execute("SELECT value FROM alert_keys")]
        (data_json,) = conn.execute("SELECT data FROM alert_channels").fetchone()
    assert json.loads(data_json)["sealed"] == sealed
    assert secret not in target.read_bytes().decode("latin-1")
    assert [_opens(key, sealed) for key in kept] == [None] * len(kept)
    assert _opens(secret, sealed) == token, "the secret kept outside the backup opens it"


def test_without_alert_secret_the_backup_holds_the_key_to_its_tokens(tmp_path: Path) -> None:
    """What docs/self-hosting.md warns about: the reason to set ALERT_SECRET."""
    data = tmp_path / "data"
    token, sealed = _subscribed(data, None)
    target = tmp_path / "backup.db"
    assert _run("backup", str(target), DATA_DIR=str(data)).returncode == 0
    with closing(sqlite3.connect(target)) as conn:
        kept = [value for (value,) in conn.execute("SELECT value FROM alert_keys")]
    assert token in [_opens(key, sealed) for key in kept]
