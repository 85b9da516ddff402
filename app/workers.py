"""Several app processes on one port: ``python -m app --workers N`` (or ``WORKERS=N``).

uvicorn's supervisor binds the port once and starts N worker processes that all
accept on it, so the kernel spreads connections over them; a worker that dies is
started again. The workers share nothing but PostgreSQL and Redis, exactly as app
processes on different hosts do (docs/scaling.md): any of them can serve any
request and any websocket. That is why N > 1 is refused on SQLite (one file, one
writer) and without Redis (a move on one worker would reach the others' sockets
only at the next catch-up).

The parent migrates the database once, before any worker starts; each worker is
built by ``worker_app`` with migrations off, so N workers never run Alembic at once.
"""

from __future__ import annotations

from fastapi import FastAPI

from app.core.config import Settings, get_settings
from app.core.logs import configure as configure_logs

NEEDS = "several workers need PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)"


def refusal(settings: Settings, workers: int) -> str | None:
    """Why ``workers`` processes can't serve with these settings; None if they can."""
    if workers <= 1:
        return None
    if settings.effective_database_url.startswith("sqlite"):
        where = (
            f"DATABASE_URL={settings.database_url}"
            if settings.database_url
            else f"the SQLite file in DATA_DIR={settings.data_dir}"
        )
        return (
            f"{NEEDS}: this server uses {where}, which one process at a time can write. "
            "Set DATABASE_URL to a PostgreSQL database and REDIS_URL, or run one worker."
        )
    if not settings.redis_url:
        return (
            f"{NEEDS}: REDIS_URL is not set, so a move one worker takes would reach the "
            "sockets the other workers hold only at their next catch-up. Set REDIS_URL, "
            "or run one worker."
        )
    return None


def worker_app() -> FastAPI:
    """The app of one worker process (uvicorn calls this in each): the parent migrated."""
    from app.services import create_app

    settings = get_settings()
    configure_logs(settings)
    return create_app(settings.model_copy(update={"auto_migrate": False}))
