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

So that ``/metrics`` and ``/healthz`` speak for the whole server, whichever worker
answers, the parent makes a private directory for this run (``shared_directory``:
0700, fresh, removed at exit) and names it to the workers in
``PROMETHEUS_MULTIPROC_DIR`` before they start. Each worker counts its metrics in it
(prometheus_client's multiprocess mode) and touches a heartbeat file there; when a
worker is gone, the parent (``Supervisor``) takes its live gauges and its heartbeat out,
and keeps its counters (they happened).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from socket import socket
from typing import Any

from fastapi import FastAPI
from uvicorn import Config
from uvicorn.supervisors import Multiprocess

from app.core.config import Settings, get_settings
from app.core.logs import configure as configure_logs
from app.web import health
from app.web.metrics import MULTIPROCESS_ENV

log = logging.getLogger(__name__)
# the files a worker leaves that say it is alive: live gauges, its heartbeat
LIVE_FILE = re.compile(r"^(?:gauge_live\w+|worker)_(\d+)\.(?:db|beat)$")

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
    """The app of one worker process (uvicorn calls this in each): the parent migrated.
    While it serves, it beats in the shared directory (``app/web/health.py``)."""
    from app.services import create_app

    settings = get_settings()
    configure_logs(settings)
    app = create_app(settings.model_copy(update={"auto_migrate": False}))
    shared = os.environ.get(MULTIPROCESS_ENV)
    if shared:
        inner = app.router.lifespan_context

        @contextlib.asynccontextmanager
        async def beating(app: FastAPI) -> AsyncIterator[Any]:
            async with inner(app) as state:
                beats = asyncio.create_task(health.heartbeat(shared))
                try:
                    yield state
                finally:
                    beats.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await beats

        app.router.lifespan_context = beating
    return app


@contextlib.contextmanager
def shared_directory() -> Iterator[Path]:
    """A fresh directory for this run's workers, the owner's alone (0700), named to
    them in ``PROMETHEUS_MULTIPROC_DIR``; removed at exit. One a crashed run left is
    never read again: each run makes its own."""
    directory = Path(tempfile.mkdtemp(prefix="spieltisch-workers-"))  # 0700, new
    previous = os.environ.get(MULTIPROCESS_ENV)
    os.environ[MULTIPROCESS_ENV] = str(directory)
    try:
        yield directory
    finally:
        if previous is None:
            os.environ.pop(MULTIPROCESS_ENV, None)
        else:
            os.environ[MULTIPROCESS_ENV] = previous
        shutil.rmtree(directory, ignore_errors=True)


def gone(directory: Path, running: set[int]) -> set[int]:
    """The workers that left live files in ``directory`` but are not ``running``."""
    pids = set()
    for path in directory.iterdir():
        match = LIVE_FILE.match(path.name)
        if match and int(match.group(1)) not in running:
            pids.add(int(match.group(1)))
    return pids


def bury(directory: Path, pid: int) -> None:
    """A worker has ended: its live gauges and heartbeat go, its counters stay."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid, str(directory))  # type: ignore[no-untyped-call]
    health.forget(directory, pid)


class Supervisor(Multiprocess):
    """uvicorn's supervisor (it starts the workers, and starts a dead one again), that
    after each round of its watch also buries the workers that have gone and writes how
    many it runs, for ``/healthz``."""

    def __init__(self, config: Config, sockets: list[socket], directory: Path) -> None:
        super().__init__(config, sockets)
        self.directory = directory
        self._expected = 0

    def keep_subprocess_alive(self) -> None:
        super().keep_subprocess_alive()
        if self.should_exit.is_set():
            return
        # every worker started is in self.processes before this runs (one thread), so
        # a pid that left files and is not there has ended: killed, crashed, retired
        running = {process.pid for process in self.processes if process.pid is not None}
        for pid in gone(self.directory, running):
            log.info("worker %s is gone: its live metrics and heartbeat are removed", pid)
            bury(self.directory, pid)
        if self.processes_num != self._expected:
            health.expect(self.directory, self.processes_num)
            self._expected = self.processes_num

    def init_processes(self) -> None:
        health.expect(self.directory, self.processes_num)
        self._expected = self.processes_num
        super().init_processes()


def serve(workers: int, options: dict[str, Any]) -> None:
    """Serve ``workers`` processes on one port, as ``uvicorn.run`` does, with the
    shared directory made first and buried workers taken out of it."""
    with shared_directory() as directory:
        config = Config("app.workers:worker_app", factory=True, workers=workers, **options)
        sock = config.bind_socket()
        try:
            Supervisor(config, [sock], directory).run()
        except KeyboardInterrupt:
            pass
        finally:
            sock.close()
