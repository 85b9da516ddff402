"""PostgreSQL administration for the tests and the bench scripts: scratch databases."""

from __future__ import annotations

from app.core.config import async_url


def admin_dsn(url: str) -> str:
    """asyncpg's own form of a SQLAlchemy PostgreSQL URL."""
    return async_url(url).replace("postgresql+asyncpg://", "postgresql://", 1)


async def run_sql(url: str, sql: str) -> None:
    """One statement outside a transaction (CREATE / DROP DATABASE need that)."""
    import asyncpg

    conn = await asyncpg.connect(admin_dsn(url))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
