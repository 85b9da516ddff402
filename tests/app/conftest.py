"""Databases and app instances for the service tests.

Every database test runs on a fresh SQLite file, and on PostgreSQL when
``TEST_DATABASE_URL`` is set (CI sets it; with ``CI=true`` a missing or
unreachable database is a failure, not a skip).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.core.config import Settings, async_url
from app.core.migrate import upgrade
from app.services import Services
from tests.app.secret_engine import install as install_secret_engine
from tests.pg import run_sql

install_secret_engine()

IN_CI = os.environ.get("CI", "").lower() == "true"
BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    """A fresh, migrated PostgreSQL database for this test session (or None)."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        if IN_CI:
            pytest.fail("CI=true but TEST_DATABASE_URL is not set: the PostgreSQL tests must run")
        yield None
        return
    name = f"spieltisch_test_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        asyncio.run(run_sql(base, f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # pragma: no cover - depends on the machine
        if IN_CI:
            pytest.fail(f"PostgreSQL at TEST_DATABASE_URL is not reachable: {exc}")
        pytest.skip(f"PostgreSQL not reachable: {exc}")
    head, _, _ = async_url(base).rpartition("/")
    url = f"{head}/{name}"
    upgrade(url)
    yield url
    asyncio.run(run_sql(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
        upgrade(url)
        return url
    pg: str | None = request.getfixturevalue("postgres_url")
    if pg is None:
        pytest.skip("TEST_DATABASE_URL not set")
    return pg


@pytest.fixture(params=BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database nobody has migrated yet, this test's alone (SQLite, and PostgreSQL)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
        return
    pg: str | None = request.getfixturevalue("postgres_url")
    if pg is None:
        pytest.skip("TEST_DATABASE_URL not set")
    head, _, session_db = pg.rpartition("/")
    name = f"{session_db}_{secrets.token_hex(3)}"
    asyncio.run(run_sql(pg, f'CREATE DATABASE "{name}"'))
    yield f"{head}/{name}"
    asyncio.run(run_sql(pg, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(
        database_url=database_url,
        data_dir=tmp_path,
        auto_migrate=False,
        bot_delay_ms=0,
        bot_workers=0,
        # a searching bot thinks briefly: the tests wait for bot moves, not for good ones
        bot_think_seconds=0.05,
        snapshot_every=5,
        # tests play as fast as the machine goes: a budget they can't outrun, so no test
        # depends on the machine's speed (the budget's own tests narrow it on purpose)
        seat_budget_messages=1_000_000,
        rooms_per_minute=1_000_000,
    )


@pytest.fixture
async def services(settings: Settings) -> AsyncIterator[Services]:
    svc = Services.build(settings)
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


@pytest.fixture
def redis_url() -> str:
    """The Redis of ``TEST_REDIS_URL`` (CI sets it; with ``CI=true`` a missing one fails)."""
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        if IN_CI:
            pytest.fail("CI=true but TEST_REDIS_URL is not set: the multi-process tests must run")
        pytest.skip("TEST_REDIS_URL not set")
    return url


@pytest.fixture
def pg_url(postgres_url: str | None) -> str:
    """The session's PostgreSQL database, shared with other tests' rooms."""
    if postgres_url is None:
        pytest.skip("TEST_DATABASE_URL not set")
    return postgres_url


@pytest.fixture
def fresh_pg(pg_url: str) -> Iterator[str]:
    """An empty PostgreSQL database of this test's own."""
    head, _, session_db = pg_url.rpartition("/")
    name = f"{session_db}_m{secrets.token_hex(3)}"
    asyncio.run(run_sql(pg_url, f'CREATE DATABASE "{name}"'))
    try:
        yield f"{head}/{name}"
    finally:
        asyncio.run(run_sql(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
