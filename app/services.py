"""The composition root: every part of one app process, built from the settings in one
place, wired in an order a reader can follow, started and stopped together.

The packages below (``app/core``, ``play``, ``live``, ``alerts``, ``history``, ``bots``,
``web``) know nothing of one another's wiring: each takes what it needs in its
constructor, and the hooks that join them are all registered here, in
``Services.build``. docs/architecture.md draws the packages and walks a move and an
alert through them.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncEngine

from app.alerts import store as alert_store
from app.alerts.due import Alerts, enqueue_turn_alert
from app.alerts.outbox import Outbox
from app.bots.runner import BotRunner
from app.core.cautions import warn_at_start
from app.core.config import Settings, get_settings
from app.core.db import make_engine, make_sessionmaker
from app.core.dblock import hold_shared, sqlite_path
from app.core.duty import Duty, duty_key
from app.core.limits import RateLimit
from app.core.logs import note_room
from app.core.migrate import upgrade
from app.core.redislink import RedisLink
from app.history.replay import Replays
from app.live.catchup import CatchUp
from app.live.doorbell import Doorbell, make_doorbell
from app.live.hub import Hub
from app.live.presence import Presence, make_presence
from app.play.away import Aways
from app.play.deadlines import Deadlines
from app.play.endings import Endings
from app.play.retention import Retention
from app.play.rooms import Rooms
from app.play.seats import Seats
from app.play.state import RoomState
from app.play.store import DeadlineRecord, Store
from app.play.table_settings import TableSettings
from app.play.undo import Undo
from app.web.app import build_app
from app.web.metrics import Metrics
from engines import ENGINES


async def remind(session: Any, state: RoomState, deadline: DeadlineRecord) -> None:
    """A quarter of a seat's time is left: a reminder on the person's alert channels."""
    await enqueue_turn_alert(session, state, deadline.seat, "reminder", turn_seq=deadline.seq)


@dataclass
class Services:
    """Everything one app process holds (``app.web.deps.Backend`` is what routes see)."""

    settings: Settings
    engine: AsyncEngine
    redis: RedisLink | None
    rooms: Rooms
    doorbell: Doorbell
    presence: Presence
    hub: Hub
    bots: BotRunner
    catch_up: CatchUp
    room_limit: RateLimit
    alerts: Alerts
    outbox: Outbox
    seats: Seats
    table_settings: TableSettings
    endings: Endings
    undo: Undo
    deadlines: Deadlines
    aways: Aways
    duty: Duty
    replays: Replays
    retention: Retention
    metrics: Metrics | None

    @classmethod
    def build(cls, settings: Settings, metrics: Metrics | None = None) -> Services:
        # storage and the links between processes
        engine = make_engine(settings)
        redis = RedisLink(settings.redis_url) if settings.redis_url else None
        doorbell = make_doorbell(redis)
        presence = make_presence(redis)
        sqlite = engine.dialect.name == "sqlite"
        db = Store(
            make_sessionmaker(engine),
            one_at_a_time=sqlite,
            group_writes=True,
            # a commit that syncs the disk (SQLITE_SYNCHRONOUS=full) stays off the loop
            inline_writes=settings.sqlite_synchronous == "normal",
        )
        duty = Duty(redis, duty_key(settings.effective_database_url))

        # the use cases, and what is built on them
        rooms = Rooms(db, doorbell.publish, settings.snapshot_every, bells_travel=redis is not None)
        seats = Seats(rooms)
        deadlines = Deadlines(rooms, settings.deadline_poll_seconds)
        aways = Aways(rooms)
        hub = Hub(rooms, presence, doorbell, settings)
        bots = BotRunner(
            rooms,
            settings.bot_workers,
            settings.bot_delay_ms,
            sweep_seconds=settings.catch_up_seconds,
            grace_seconds=settings.bot_grace_seconds,
            think_seconds=settings.bot_think_seconds,
            duty=duty,
        )
        alerts = Alerts(timedelta(minutes=settings.alert_delay_minutes))
        outbox = Outbox(rooms, presence.online, presence.closed_at, alerts, settings)

        # written in the very transaction of each event (Rooms.on_append): the alerts
        # it makes due, the deadline of the turn it starts, the counts it adds
        rooms.on_append.append(alerts.on_append)
        rooms.on_append.append(deadlines.within)
        # after each commit (Rooms.after_commit): wake the outbox, the deadline loop and
        # the bots, and name the room in the request's log lines
        rooms.after_commit.append(outbox.poke)
        rooms.after_commit.append(deadlines.notice)
        rooms.after_commit.append(bots.notice)
        rooms.after_commit.append(lambda state: note_room(state.room.id))
        # a reminder when a quarter of a seat's time is left; a freed seat's alerts go
        deadlines.reminders.append(remind)
        seats.on_release.append(alert_store.forget_person)
        # a person away: the aways table follows the log, the deadline loop ends them
        rooms.on_append.append(aways.within)
        deadlines.sweeps.append(aways.sweep)

        services = cls(
            settings=settings,
            engine=engine,
            redis=redis,
            rooms=rooms,
            doorbell=doorbell,
            presence=presence,
            hub=hub,
            bots=bots,
            catch_up=CatchUp(hub, rooms, settings.catch_up_seconds),
            room_limit=RateLimit(settings.rooms_per_minute, 60.0),
            alerts=alerts,
            outbox=outbox,
            seats=seats,
            table_settings=TableSettings(rooms),
            endings=Endings(rooms),
            undo=Undo(rooms),
            deadlines=deadlines,
            aways=aways,
            duty=duty,
            replays=Replays(rooms),
            retention=Retention(db, settings.retention_days, duty=duty),
            metrics=metrics,
        )
        if metrics is not None:
            # its own hooks (appends, commits, pushes, alert outcomes, the pool)
            metrics.attach(services)
        return services

    async def start(self) -> None:
        await self.doorbell.start()
        await self.hub.start()
        await self.catch_up.start()
        await self.duty.start()
        await self.bots.start()
        await self.outbox.start()
        await self.deadlines.start()
        self.retention.start()

    async def stop(self) -> None:
        await self.retention.stop()
        await self.deadlines.stop()
        await self.outbox.stop()
        await self.bots.close()
        await self.duty.stop()
        await self.catch_up.stop()
        await self.hub.stop()
        await self.doorbell.stop()
        await self.presence.close()
        if self.redis is not None:
            await self.redis.close()
        self.rooms.db.close()
        await self.engine.dispose()


def warm_engines() -> None:
    """Build each engine's tables now, not on the first player's move."""
    for engine in ENGINES.values():
        for players in engine.player_counts():
            engine.new_game(players, 0)
        for opt in engine.options:
            for choice in opt.choices:
                for players in engine.player_counts({opt.name: choice}):
                    engine.legal_moves(engine.new_game(players, 0, {opt.name: choice}), 0)


@asynccontextmanager
async def running(settings: Settings, metrics: Metrics | None = None) -> AsyncIterator[Services]:
    """One process's life: said what is off, the database held, migrated, every part
    built and started; on the way out, stopped and let go."""
    warn_at_start(settings)
    # while this process runs, `python -m app restore` is refused on its SQLite file
    database = sqlite_path(settings.effective_database_url)
    held = await asyncio.to_thread(hold_shared, database) if database is not None else None
    try:
        if settings.auto_migrate:
            await asyncio.to_thread(upgrade, settings.effective_database_url)
        services = Services.build(settings, metrics)
        await services.start()
        try:
            await asyncio.to_thread(warm_engines)
            # what exists now lives as long as the process: keep full collections off it
            gc.freeze()
            yield services
        finally:
            await services.stop()
    finally:
        if held is not None:
            held.release()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app of one process, its parts built and started when it starts."""
    settings = settings or get_settings()
    metrics = Metrics()
    return build_app(settings, metrics, lambda: running(settings, metrics))
