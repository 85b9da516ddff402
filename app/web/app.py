"""The FastAPI app: routes, error shape, limits, static pages, start-up and shutdown."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.cautions import warn_at_start
from app.core.config import Settings, get_settings
from app.core.dblock import hold_shared, sqlite_path
from app.core.errors import ApiError
from app.core.limits import BodyLimit, SecurityHeaders
from app.core.logs import RequestContext, note_room
from app.core.migrate import upgrade
from app.play.retention import Retention
from app.services import Services
from app.web import health
from app.web.alerts import router as alerts_router
from app.web.history import router as replay_router
from app.web.metrics import Metrics, SocketCounter
from app.web.metrics import router as metrics_router
from app.web.rooms import room_id, router
from app.web.seats import router as seats_router
from app.web.site import router as site_router
from engines import ENGINES

STATIC = Path(__file__).resolve().parents[2] / "static"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        warn_at_start(settings)
        # while this app runs, `python -m app restore` is refused on its SQLite file
        database = sqlite_path(settings.effective_database_url)
        held = await asyncio.to_thread(hold_shared, database) if database is not None else None
        if settings.auto_migrate:
            await asyncio.to_thread(upgrade, settings.effective_database_url)
        services = Services.build(settings)
        app.state.services = services
        metrics.attach(services)
        services.rooms.after_commit.append(note_room)
        retention = Retention(services.rooms.db, settings.retention_days, duty=services.duty)
        app.state.retention = retention
        await services.start()
        retention.start()
        await asyncio.to_thread(warm_engines)
        # what exists now lives as long as the process: keep full collections off it
        gc.freeze()
        try:
            yield
        finally:
            await retention.stop()
            await services.stop()
            if held is not None:
                held.release()

    app = FastAPI(
        title="Spieltisch",
        summary="Play M, Mensch ärgere Dich nicht: Das Kartenspiel and Blokus with friends, by link.",
        version="0.1.0",
        lifespan=lifespan,
        # every API route with a room in its path checks the id first (app/web/rooms.py)
        dependencies=[Depends(room_id)],
    )
    app.include_router(router)
    app.include_router(alerts_router)
    app.include_router(seats_router)
    app.include_router(site_router)
    app.include_router(metrics_router)
    metrics = Metrics()
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


def warm_engines() -> None:
    """Build each engine's tables now, not on the first player's move."""
    for engine in ENGINES.values():
        for players in engine.player_counts():
            engine.new_game(players, 0)
        for opt in engine.options:
            for choice in opt.choices:
                for players in engine.player_counts({opt.name: choice}):
                    engine.legal_moves(engine.new_game(players, 0, {opt.name: choice}), 0)


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

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

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        # served from the root so that its scope can cover /r/ (turn alerts by push)
        return FileResponse(
            STATIC / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/r/{room}/games/{game_no}", include_in_schema=False)
    async def replay_page(room: str, game_no: int) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/r/{room}", include_in_schema=False)
    async def room_page(room: str) -> FileResponse:
        return FileResponse(STATIC / "room.html")
