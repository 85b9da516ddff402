"""Everything one app process holds, built from the settings and torn down with it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.alerts.due import Alerts, enqueue_turn_alert
from app.alerts.outbox import Outbox
from app.bots.runner import BotRunner
from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker
from app.core.duty import Duty, duty_key
from app.core.limits import RateLimit
from app.core.redislink import RedisLink
from app.live.catchup import CatchUp
from app.live.doorbell import Doorbell, make_doorbell
from app.live.hub import Hub
from app.live.presence import Presence, make_presence
from app.play.deadlines import Deadlines
from app.play.rooms import Rooms
from app.play.seats import Seats
from app.play.state import RoomState
from app.play.store import DeadlineRecord, Store


async def remind(session: Any, state: RoomState, deadline: DeadlineRecord) -> None:
    """A quarter of a seat's time is left: a reminder on the person's alert channels."""
    await enqueue_turn_alert(session, state, deadline.seat, "reminder", turn_seq=deadline.seq)


@dataclass
class Services:
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
    deadlines: Deadlines
    duty: Duty

    @classmethod
    def build(cls, settings: Settings) -> Services:
        engine = make_engine(settings)
        redis = RedisLink(settings.redis_url) if settings.redis_url else None
        doorbell = make_doorbell(redis)
        presence = make_presence(redis)
        sqlite = engine.dialect.name == "sqlite"
        db = Store(make_sessionmaker(engine), one_at_a_time=sqlite, group_writes=True)
        rooms = Rooms(db, doorbell.publish, settings.snapshot_every)
        hub = Hub(rooms, presence, doorbell, settings)
        duty = Duty(redis, duty_key(settings.effective_database_url))
        bots = BotRunner(
            rooms,
            settings.bot_workers,
            settings.bot_delay_ms,
            sweep_seconds=settings.catch_up_seconds,
            grace_seconds=settings.bot_grace_seconds,
            duty=duty,
        )
        alerts = Alerts(timedelta(minutes=settings.alert_delay_minutes))
        rooms.on_append.append(alerts.on_append)
        outbox = Outbox(rooms, presence, alerts, settings)
        rooms.after_commit.append(outbox.poke)
        deadlines = Deadlines(rooms, settings.deadline_poll_seconds)
        deadlines.reminders.append(remind)
        return cls(
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
            seats=Seats(rooms),
            deadlines=deadlines,
            duty=duty,
        )

    async def start(self) -> None:
        await self.doorbell.start()
        await self.hub.start()
        await self.catch_up.start()
        await self.duty.start()
        await self.bots.start()
        await self.outbox.start()
        await self.deadlines.start()

    async def stop(self) -> None:
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
        await self.engine.dispose()
