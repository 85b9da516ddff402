"""The database connection: one async engine per app, SQLite tuned for a single host."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.core.config import Settings

SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}  # the only values the PRAGMA is given


def make_engine(settings: Settings) -> AsyncEngine:
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        # every transaction ends in a commit or a rollback of its own: returning a
        # connection to the pool needs no extra rollback (a round trip to its thread)
        engine = create_async_engine(url, connect_args={"timeout": 30}, pool_reset_on_return=None)
        _tune_sqlite(engine, settings.sqlite_synchronous)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def _tune_sqlite(engine: AsyncEngine, synchronous: str = "normal") -> None:
    """WAL lets readers work beside the one writer; foreign keys are off by default.
    ``synchronous`` is ``SQLITE_SYNCHRONOUS`` (normal or full, docs/self-hosting.md).

    A transaction takes the write lock with its first write (``BEGIN IMMEDIATE``,
    issued by the driver in the same call as that statement): a deferred one that
    later wants to write could fail at once with "database is locked" instead of
    waiting its turn. Reads before that first write see committed data; this
    process's transactions take turns (``Store``), and across processes the log's
    unique (room, seq) key and conditional updates decide every race.
    """

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={SYNCHRONOUS[synchronous]}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()
        dbapi_connection.isolation_level = "IMMEDIATE"


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)
