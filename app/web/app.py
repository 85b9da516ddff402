"""The FastAPI app: routes, error shapes, limits and static pages over one process's parts."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.config import Settings
from app.core.errors import ApiError, busy
from app.core.limits import BodyLimit, SecurityHeaders
from app.core.logs import RequestContext
from app.play.store import Conflict
from app.web import health
from app.web.alerts import router as alerts_router
from app.web.all_tables import router as all_tables_router
from app.web.away import router as away_router
from app.web.deps import Backend, room_id
from app.web.history import router as replay_router
from app.web.metrics import Metrics, SocketCounter
from app.web.metrics import router as metrics_router
from app.web.rooms import router
from app.web.seats import router as seats_router
from app.web.shell import worker_script
from app.web.site import router as site_router
from app.web.undo import router as undo_router
from engines import ENGINES

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parents[2] / "static"


def _titles() -> str:
    """The games on offer, as a sentence names them ("A, B and C")."""
    titles = [engine.title for engine in ENGINES.values()]
    return ", ".join(titles[:-1]) + (" and " if len(titles) > 1 else "") + titles[-1]


def build_app(
    settings: Settings,
    metrics: Metrics,
    run: Callable[[], AbstractAsyncContextManager[Backend]],
) -> FastAPI:
    """The routes, error shapes, limits and pages; ``run`` is the process's life (built
    by the composition root, ``app/services.py``): its parts serve the routes while it
    lasts."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = type(asyncio.get_running_loop())
        log.info("serving on the event loop %s.%s", loop.__module__, loop.__qualname__)
        async with run() as backend:
            app.state.services = backend
            yield

    app = FastAPI(
        title="Spieltisch",
        summary=f"Play {_titles()} with friends, by link.",
        version="0.1.0",
        lifespan=lifespan,
        # every API route with a room in its path checks the id first (app/web/deps.py)
        dependencies=[Depends(room_id)],
    )
    app.include_router(router)
    app.include_router(alerts_router)
    app.include_router(all_tables_router)  # one alert set-up for many tables
    app.include_router(seats_router)
    app.include_router(undo_router)
    app.include_router(away_router)
    app.include_router(site_router)
    app.include_router(metrics_router)
    app.state.metrics = metrics
    app.include_router(replay_router)
    _errors(app)

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> JSONResponse:
        status, body = await health.check(request.app.state.services)
        return JSONResponse(body, status_code=status)

    if STATIC.is_dir():
        _static(app)

    app.add_middleware(
        BodyLimit,
        limit=settings.max_body_bytes,
        larger={"/api/records": settings.max_record_bytes},
    )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(SocketCounter, metrics=metrics)
    app.add_middleware(RequestContext)
    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(Conflict)
    async def lost_race(_: Request, exc: Conflict) -> JSONResponse:
        # a write the database ended as a deadlock's victim, not tried again: the caller
        # may, and nothing of it was kept
        refused = busy()
        return JSONResponse(refused.body(), status_code=refused.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg"))
        return JSONResponse(
            {"code": "malformed", "message": f"The request is malformed ({message})."},
            status_code=400,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        return JSONResponse(
            {"code": codes.get(exc.status_code, "http_error"), "message": str(exc.detail)},
            status_code=exc.status_code,
        )


def _static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    # both answer from the root, so that the worker's scope is the whole site (push,
    # and the offline shell, whose list app/web/shell.py writes into it) and the
    # manifest's too; browsers check both again on every load (no-cache)
    worker = worker_script(STATIC)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(worker, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def web_app_manifest() -> FileResponse:
        return FileResponse(
            STATIC / "manifest.webmanifest",
            media_type="application/manifest+json",
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/r/{room}/games/{game_no}", include_in_schema=False)
    async def replay_page(room: str, game_no: int) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/r/{room}", include_in_schema=False)
    async def room_page(room: str) -> FileResponse:
        return FileResponse(STATIC / "room.html")
