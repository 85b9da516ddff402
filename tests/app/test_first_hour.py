"""A fresh clone's first hour: `make test` starts throwaway PostgreSQL and Redis when
it can, and a run without them says at its end what it skipped and how to get them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest

from tests.server import ROOT
from tools.services import postgres_bin

PROBE = """
import asyncio, os, asyncpg, redis.asyncio as redis
async def main():
    pg = await asyncpg.connect(os.environ["TEST_DATABASE_URL"].replace("+asyncpg", ""))
    assert await pg.fetchval("SELECT 1") == 1
    await pg.close()
    r = redis.from_url(os.environ["TEST_REDIS_URL"])
    assert await r.ping()
    await r.aclose()
asyncio.run(main())
print(os.environ["TEST_DATABASE_URL"], os.environ["TEST_REDIS_URL"])
"""


def _without_services() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if k not in {"TEST_DATABASE_URL", "TEST_REDIS_URL", "CI"}
    }


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_a_run_without_services_says_what_it_skipped_and_how_to_start_them() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/app/test_ws_live.py",
            "-k",
            "two_processes",
        ],
        cwd=ROOT,
        env=_without_services(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    summary = run.stdout.split("services not tested", 1)[1]
    assert "PostgreSQL test(s) skipped: TEST_DATABASE_URL is not set" in summary
    assert "Redis test(s) skipped: TEST_REDIS_URL is not set" in summary
    assert "docker run" in summary and "export TEST_DATABASE_URL=" in summary


@pytest.mark.skipif(
    postgres_bin() is None or shutil.which("redis-server") is None,
    reason="PostgreSQL's or Redis's programs are not installed",
)
def test_throwaway_postgres_and_redis_serve_the_command_and_are_gone_after() -> None:
    run = subprocess.run(
        [sys.executable, "tools/services.py", "--", sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=_without_services(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "started throwaway PostgreSQL" in run.stdout
    database, redis_url = run.stdout.strip().splitlines()[-1].split()
    pg_port = int(database.rsplit(":", 1)[1].split("/")[0])
    redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    assert not _port_open(pg_port) and not _port_open(redis_port)


def test_given_service_urls_are_used_as_they_are() -> None:
    env = {
        **_without_services(),
        "TEST_DATABASE_URL": "postgresql://given",
        "TEST_REDIS_URL": "redis://given",
    }
    run = subprocess.run(
        [
            sys.executable,
            "tools/services.py",
            "--",
            sys.executable,
            "-c",
            "import os; print(os.environ['TEST_DATABASE_URL'], os.environ['TEST_REDIS_URL'])",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert run.stdout.strip() == "postgresql://given redis://given"


def test_the_commands_exit_status_is_passed_on() -> None:
    env = {**_without_services(), "TEST_DATABASE_URL": "x", "TEST_REDIS_URL": "y"}
    run = subprocess.run(
        [sys.executable, "tools/services.py", "--", sys.executable, "-c", "raise SystemExit(3)"],
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert run.returncode == 3
