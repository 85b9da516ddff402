"""Bot seats play by themselves, off the event loop, through the same path as people.

After every commit (and for running games when the app starts) the runner looks
at whose turn it is; if a bot is to act, a worker process (or thread) chooses
and the move goes through ``Rooms.move_by`` like any other: a bot that loses a
race simply looks again.

The runner is supervised: a worker process that dies breaks the pool, which is
then rebuilt and the turn chosen again. And since the process that should move a
bot may itself die, every process sweeps now and then for running games that
have waited on a bot longer than a grace period, and takes those turns over.
Two processes moving the same bot can't both store a move: ``move_by`` appends
at the seq the choice was made from, and the loser is refused as stale.

Resuming and sweeping are the site's chores, not each process's: only the process
holding the duty (``app.core.duty``) does them, so N processes don't each think every
resumed bot turn. The one that takes the duty over from another resumes every
game once, as a process does at its start.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta
from typing import Any

from app.bots.worker import choose_move
from app.core.clock import clock
from app.core.duty import Duty
from app.core.errors import ApiError
from app.play import store
from app.play.actor import Actor
from app.play.rooms import Rooms
from app.play.state import RoomState

log = logging.getLogger(__name__)

PAGE = 500
CHOICE_ATTEMPTS = 3
# how long health reports a worker that died, so a monitor sees it happened
FAILURE_REPORT_SECONDS = 60.0
# bot turns thought about at once; more wait their turn (and keep database load sane)
CONCURRENT_TURNS = 16


def bot_seed(state: RoomState) -> int:
    """Deterministic per game and position, so a replayed game gets the same bot moves."""
    digest = hashlib.sha256(f"{state.seed}:{state.seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class BotPool:
    """The worker processes (or threads) bots think in; rebuilt when a worker dies."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.restarts = 0
        self.last_failure: str | None = None
        self.failed_at: datetime | None = None
        self._executor = self._build()

    def _build(self) -> Executor:
        if self.workers > 0:
            return ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")

    async def run(self, *args: Any) -> dict[str, Any]:
        """``choose_move(*args)`` in a worker; a broken pool is rebuilt and asked again."""
        loop = asyncio.get_running_loop()
        for attempt in range(CHOICE_ATTEMPTS):
            executor = self._executor
            try:
                move: dict[str, Any] = await loop.run_in_executor(executor, choose_move, *args)
            except BrokenProcessPool as exc:
                self._replace(executor, exc)
                if attempt == CHOICE_ATTEMPTS - 1:
                    raise
                continue
            return move
        raise AssertionError("unreachable")  # pragma: no cover

    def check(self) -> None:
        """Rebuild the pool now if a worker died while nobody was asking it anything."""
        executor = self._executor
        try:
            executor.submit(os.getpid).add_done_callback(lambda f: f.exception())
        except BrokenProcessPool as exc:
            self._replace(executor, exc)
        except RuntimeError:  # shut down
            return

    def _replace(self, broken: Executor, exc: BaseException) -> None:
        if broken is not self._executor:
            return  # another turn rebuilt it already
        self.restarts += 1
        self.last_failure = str(exc) or type(exc).__name__
        self.failed_at = clock.now()
        log.error("bot worker pool broke (%s); starting a new one", self.last_failure)
        self._executor = self._build()
        # its workers are gone already; waiting lets it release what it holds
        threading.Thread(
            target=broken.shutdown, kwargs={"cancel_futures": True}, daemon=True
        ).start()

    def health(self) -> dict[str, Any]:
        report: dict[str, Any] = {
            "status": "ok",
            "workers": self.workers,
            "restarts": self.restarts,
        }
        recent = self.failed_at is not None and clock.now() - self.failed_at < timedelta(
            seconds=FAILURE_REPORT_SECONDS
        )
        if recent:
            report["status"] = "degraded"
            report["message"] = f"a bot worker died and was replaced: {self.last_failure}"
        return report

    def close(self) -> None:
        """Stop the workers and wait for them, so nothing is left behind."""
        self._executor.shutdown(wait=True, cancel_futures=True)


class BotRunner:
    def __init__(
        self,
        rooms: Rooms,
        workers: int,
        delay_ms: int,
        sweep_seconds: float = 5.0,
        grace_seconds: float = 30.0,
        duty: Duty | None = None,
    ) -> None:
        self.rooms = rooms
        self.duty = duty or Duty(None, "")
        self._resume = False
        self.delay = delay_ms / 1000
        self.sweep_seconds = sweep_seconds
        self.grace = timedelta(seconds=grace_seconds)
        self.pool = BotPool(workers)
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._turns = asyncio.Semaphore(CONCURRENT_TURNS)
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        """Resume every running game with a bot, then keep sweeping for abandoned turns
        (both only while this process has the duty)."""
        if self.duty.mine:
            await self.resume_all()
        self.duty.on_gain.append(self._gained)
        self._sweeper = asyncio.create_task(self._sweep_loop())

    def notice(self, state: RoomState) -> None:
        """A commit happened: start (or re-arm) the room's bot task if a bot may act."""
        if self._closed or not state.bots_to_act():
            return
        self.kick(state.room.id)

    def kick(self, room_id: str) -> None:
        if self._closed:
            return
        if room_id in self._running:
            self._again.add(room_id)
            return
        self._running[room_id] = asyncio.create_task(self._drive(room_id))

    async def resume_all(self) -> int:
        """After a (re)start: every running game with a bot seat gets looked at."""
        return await self.sweep(idle_before=None)

    async def sweep(self, idle_before: datetime | None) -> int:
        """Kick every running game with a bot (idle since ``idle_before``); returns how many."""
        kicked, after = 0, ""
        while True:
            async with self.rooms.db.transaction() as session:
                page = await store.rooms_in_play_with_bots(
                    session, after=after, limit=PAGE, idle_before=idle_before
                )
            for room in page:
                cached = self.rooms.cache.get(room.id)
                if cached is not None and cached.seq == room.seq and not cached.bots_to_act():
                    continue  # a person's turn: nothing for a bot to do
                if idle_before is not None and room.id not in self._running:
                    log.info("room %s idle since seq %d: looking for a bot turn", room.id, room.seq)
                self.kick(room.id)
                kicked += 1
            if len(page) < PAGE:
                return kicked
            after = page[-1].id

    def _gained(self) -> None:
        self._resume = True

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            self.pool.check()
            if not self.duty.mine:
                continue
            try:
                if self._resume:
                    self._resume = False
                    await self.resume_all()
                else:
                    await self.sweep(idle_before=clock.now() - self.grace)
            except Exception:
                log.exception("bot sweep failed")

    async def _drive(self, room_id: str) -> None:
        try:
            while not self._closed:
                self._again.discard(room_id)
                async with self._turns:
                    moved = await self._step(room_id)
                if not moved and room_id not in self._again:
                    return
        except Exception:
            log.exception("bot for room %s failed", room_id)
        finally:
            self._running.pop(room_id, None)

    async def _step(self, room_id: str) -> bool:
        state = await self.rooms.load(room_id)
        acting = state.bots_to_act()
        if not acting:
            return False
        engine = state.engine
        if self.delay:
            await asyncio.sleep(self.delay)
        seat = acting[0]
        bot = state.seats[seat].player_bot
        assert bot is not None  # bots_to_act lists bot seats only
        move = await self.pool.run(engine.name, engine.dump(state.game), seat, bot, bot_seed(state))
        try:
            await self.rooms.move_by(room_id, Actor.bot(seat), state.seq, move)
        except ApiError as exc:
            if exc.code != "stale":
                log.warning("bot move refused in room %s: %s", room_id, exc.message)
                return False
        return True

    def health(self) -> dict[str, Any]:
        return {**self.pool.health(), "thinking": len(self._running)}

    async def close(self) -> None:
        self._closed = True
        tasks = [t for t in [self._sweeper, *self._running.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await asyncio.to_thread(self.pool.close)
