"""Schemathesis against a real server's /openapi.json: no request may get a 5xx.

Slow (``make test-long``). It runs twice: once as a stranger (random room ids,
no token), once aimed at a real room in play with a seat's token, so the
generated bodies reach the moves, chat and seat code behind the 404s and 401s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server import ServerProcess

EXAMPLES = os.environ.get("SCHEMATHESIS_EXAMPLES", "200")


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path / "data",
        env={
            "DATABASE_URL": database_url,
            "SEAT_BUDGET_MESSAGES": "1000000",
            "ROOMS_PER_MINUTE": "1000000",
        },
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def _schemathesis(server: ServerProcess, workdir: Path, config: str) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "schemathesis.toml").write_text(config)
    binary = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert binary, "schemathesis is in the dev extras: make .venv/.installed-dev"
    run = subprocess.run(
        [
            binary,
            "run",
            f"{server.url}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            EXAMPLES,
            "--workers",
            "1",
            "--no-color",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


@pytest.mark.slow
def test_schemathesis_finds_no_server_error(server: ServerProcess, tmp_path: Path) -> None:
    _schemathesis(server, tmp_path / "stranger", "")
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"}
    ).json()
    room, token = created["room"], created["token"]
    httpx.post(f"{server.url}/api/rooms/{room}/seats/1", json={"name": "Ben"}).raise_for_status()
    httpx.post(
        f"{server.url}/api/rooms/{room}/start", headers={"Authorization": f"Bearer {token}"}
    ).raise_for_status()
    seated = f"""
headers = {{ Authorization = "Bearer {token}" }}

[parameters]
"path.room" = "{room}"
"""
    _schemathesis(server, tmp_path / "seated", seated)
    events = httpx.get(f"{server.url}/api/rooms/{room}/events")
    assert events.status_code == 200, events.text
