"""Prometheus metrics at ``/metrics``: moves, rooms, sockets, push latency, errors.

Each app gets its own registry, so two apps in one process (tests) never share
counts. With several workers (``python -m app --workers N``) each worker counts into
files in a directory the parent made for this run (``PROMETHEUS_MULTIPROC_DIR``, set
before the workers start: prometheus_client's multiprocess mode), and a scrape,
whichever worker answers it, sums the files of all of them: a dead worker's counters
stay counted, its live gauges go with it (the parent, ``app/workers.py``, marks it
dead). Counting hangs on hooks that exist anyway: the room use cases' append and
commit hooks, an ASGI middleware for sockets, SQLAlchemy's error event. Off unless
``METRICS_ENABLED``; with ``METRICS_TOKEN`` set a scrape must send it as a bearer token,
and without one only a scrape from this machine is answered (``from_this_machine``).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings
from app.core.errors import ApiError
from app.play import store
from app.play.state import RoomState
from app.web.deps import Backend

log = logging.getLogger(__name__)

PUSH_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
STATUSES = ("lobby", "playing", "finished")
# prometheus_client reads it when it is first imported: the parent sets it, or nobody
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"


def multiprocess_dir() -> str | None:
    """The directory the workers of this server count in; None for one process."""
    return os.environ.get(MULTIPROCESS_ENV) or None


class Metrics:
    """One registry and the instruments in it: with one process the instruments live in
    the registry; with several workers (``multiprocess_dir``) they count into the shared
    directory and the registry reads every worker's files."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.shared = multiprocess_dir()
        if self.shared is not None:
            multiprocess.MultiProcessCollector(self.registry, path=self.shared)  # type: ignore[no-untyped-call]
        # in multiprocess mode the values are in the files, and the collector reads them
        r = self.registry if self.shared is None else None
        self.moves = Counter("spieltisch_moves", "Moves stored, by game.", ["game"], registry=r)
        self.bot_moves = Counter(
            "spieltisch_bot_moves", "Moves stored that a bot chose, by game.", ["game"], registry=r
        )
        self.games_started = Counter(
            "spieltisch_games_started", "Games started (rematches too).", ["game"], registry=r
        )
        self.games_finished = Counter(
            "spieltisch_games_finished", "Games played to the end.", ["game"], registry=r
        )
        self.rooms_created = Counter(
            "spieltisch_rooms_created", "Rooms created by this process.", ["game"], registry=r
        )
        self.rooms = Gauge(
            "spieltisch_rooms",
            "Rooms in the database by status (lobby, playing, finished), read at each scrape.",
            ["status"],
            registry=r,
            multiprocess_mode="mostrecent",  # the scraped worker's reading is the newest
        )
        self.rooms_live = Gauge(
            "spieltisch_rooms_live",
            "Rooms with at least one open websocket on this process "
            "(several workers: summed over the live ones, a room once per worker).",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.websockets = Gauge(
            "spieltisch_websocket_connections",
            "Open websockets on this process (several workers: on the live ones).",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.push_seconds = Histogram(
            "spieltisch_push_seconds",
            "Time to send every socket of a room on this process its new state after a bell.",
            buckets=PUSH_BUCKETS,
            registry=r,
        )
        self.database_errors = Counter(
            "spieltisch_database_errors",
            "Database errors (not counting the expected seq races), by exception class.",
            ["error"],
            registry=r,
        )
        # the alert worker's tries: outcome sent, failed (tried again), given_up or dropped
        self.alert_deliveries = Counter(
            "spieltisch_alert_deliveries",
            "Turn alerts handed to a channel, by channel and outcome.",
            ["channel", "outcome"],
            registry=r,
        )
        self._sockets: dict[str, int] = {}
        self._pending: OrderedDict[tuple[str, int], list[tuple[Counter, str]]] = OrderedDict()

    # -- room use cases ------------------------------------------------------------

    def attach(self, services: Backend) -> None:
        """Hook into one process's services: appends, commits, pushes, the database."""
        services.rooms.on_append.append(self._on_append)
        services.rooms.after_commit.append(self._after_commit)
        self.watch_database(services.engine)
        self._time_pushes(services)
        services.outbox.outcomes.append(
            lambda channel, outcome: self.alert_deliveries.labels(channel, outcome).inc()
        )

    async def _on_append(self, _session: Any, before: RoomState, after: RoomState) -> None:
        """Note what an append adds; it counts once its transaction has committed."""
        game = after.room.game
        counts: list[tuple[Counter, str]] = []
        if before.seq == 0:
            counts.append((self.rooms_created, game))
        if after.game_no > before.game_no:
            counts.append((self.games_started, game))
        elif after.game is not before.game and before.game is not None:
            counts.append((self.moves, game))
            acting = before.engine.to_act(before.game)
            if acting and all(before.seats[seat].bot for seat in acting):
                counts.append((self.bot_moves, game))
        if after.status == "finished" and before.status != "finished":
            counts.append((self.games_finished, game))
        if counts:
            self._pending[(after.room.id, after.seq)] = counts
            while len(self._pending) > 1000:  # appends whose transaction failed
                self._pending.popitem(last=False)

    def _after_commit(self, state: RoomState) -> None:
        for counter, game in self._pending.pop((state.room.id, state.seq), ()):
            counter.labels(game).inc()

    def _time_pushes(self, services: Backend) -> None:
        hub = services.hub
        push: Callable[[str], Awaitable[None]] | None = getattr(hub, "_push_room", None)
        if push is None:  # the hub changed shape: pushes go untimed rather than fail
            log.warning("metrics: the hub has no _push_room; push latency is not measured")
            return

        async def timed(room_id: str) -> None:
            started = time.perf_counter()
            try:
                await push(room_id)
            finally:
                self.push_seconds.observe(time.perf_counter() - started)

        setattr(hub, "_push_room", timed)  # noqa: B010 - wraps the instance's method only

    def watch_database(self, engine: AsyncEngine) -> None:
        @event.listens_for(engine.sync_engine, "handle_error")
        def _on_error(context: Any) -> None:
            error = context.original_exception
            if isinstance(context.sqlalchemy_exception, IntegrityError):
                return  # two writers raced for a seq: the store turns that into a retry
            self.database_errors.labels(type(error).__name__).inc()

    # -- sockets (from the middleware) ---------------------------------------------

    def socket_opened(self, room_id: str) -> None:
        self.websockets.inc()
        self._sockets[room_id] = self._sockets.get(room_id, 0) + 1
        self.rooms_live.set(len(self._sockets))

    def socket_closed(self, room_id: str) -> None:
        self.websockets.dec()
        left = self._sockets.get(room_id, 1) - 1
        if left > 0:
            self._sockets[room_id] = left
        else:
            self._sockets.pop(room_id, None)
        self.rooms_live.set(len(self._sockets))

    # -- scrape --------------------------------------------------------------------

    async def render(self, services: Backend) -> bytes:
        async with services.rooms.db.transaction() as session:
            counts = await store.count_rooms_by_status(session)
        for status in {*STATUSES, *counts}:
            self.rooms.labels(status).set(counts.get(status, 0))
        return generate_latest(self.registry)


class SocketCounter:
    """ASGI middleware: counts websockets accepted and closed, per room path."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        room_id = path.split("/")[3] if path.startswith("/api/rooms/") else path
        opened = False

        async def counting_send(message: Message) -> None:
            nonlocal opened
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                self.metrics.socket_opened(room_id)
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if opened:
                self.metrics.socket_closed(room_id)


router = APIRouter()


def _loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def from_this_machine(request: Request, settings: Settings) -> bool:
    """Whether a request plainly comes from this machine, for metrics without a token.

    The client address is the one the server settled on: the peer, or with
    ``TRUST_PROXY_HEADERS`` the address the trusted proxies forwarded. It must be
    loopback. A proxy on this machine makes every client look local, so a request
    that came through one counts only with ``TRUST_PROXY_HEADERS`` on (never with
    ``FORWARDED_ALLOW_IPS=*``, where the client writes the address) and every
    forwarded address on loopback too. A request with no forwarding header must name
    a loopback host: a proxy passing the site's own name in ``Host`` is still one.
    """
    if request.client is None or not _loopback(request.client.host):
        return False
    headers = request.headers
    if headers.get("forwarded"):
        return False  # RFC 7239: the server does not read it, so it vets nothing
    hops = [
        hop
        for name in ("x-forwarded-for", "x-real-ip")
        for value in headers.getlist(name)
        for hop in value.split(",")
    ]
    if hops:
        trusted = settings.trust_proxy_headers and "*" not in settings.forwarded_allow_ips
        return trusted and all(_loopback(hop) for hop in hops)
    host = urlsplit("//" + headers.get("host", "")).hostname or ""
    return host == "localhost" or _loopback(host)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    services: Backend = request.app.state.services
    settings = services.settings
    if not settings.metrics_enabled:
        raise ApiError(404, "not_found", "Metrics are switched off (METRICS_ENABLED).")
    if settings.metrics_token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            given.strip().encode(), settings.metrics_token.encode()
        ):
            raise ApiError(401, "bad_token", "Send the metrics token as a bearer token.")
    elif not from_this_machine(request, settings):
        raise ApiError(
            403,
            "metrics_local_only",
            "Without METRICS_TOKEN, /metrics answers only scrapes from this machine's "
            "loopback; set METRICS_TOKEN to scrape from elsewhere.",
        )
    body = await request.app.state.metrics.render(services)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
