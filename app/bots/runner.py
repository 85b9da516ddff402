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

Bots never starve people: the worker processes run at a lower OS priority
(``WORKER_NICENESS``), so a person's move is served first when the machine is busy,
and the site's bot turns are served round-robin (``TurnQueue``): one turn per room
at a time, a room that just had one waits behind every room already waiting, so a
game of four bots can't crowd out a table with one. Each move is thought about for
at most ``think_seconds`` (setting ``bot_think_seconds``).

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
from collections import deque
from collections.abc import AsyncIterator
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
# bot turns thought about at once, at most; more wait their turn (and keep database load
# sane). A pool serves two per worker at once: one thinks while the other's move is
# stored. More only make bots commit faster in the server's own process, where people's
# moves are served too (docs/benchmarks.md, "Bot levels: a live table beside 100 bot games").
CONCURRENT_TURNS = 16
TURNS_PER_WORKER = 2
# how much lower than the server's the bot workers' OS priority is (os.nice; 19 is lowest)
WORKER_NICENESS = 10


def _lower_priority() -> None:
    """A bot worker's first step: yield the CPU to the server's own process."""
    os.nice(WORKER_NICENESS)


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


class TurnQueue:
    """Bot turns of many rooms, served round-robin: at most ``limit`` at once, each room
    one at a time, the waiting rooms in the order they asked, and a room that just had
    a turn behind every room waiting when it asks again."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._serving: set[str] = set()
        self._waiting: deque[tuple[str, asyncio.Future[None]]] = deque()

    @contextlib.asynccontextmanager
    async def turn(self, room_id: str) -> AsyncIterator[None]:
        """Hold one of the turns for ``room_id`` while the block runs."""
        if room_id in self._serving or any(room == room_id for room, _ in self._waiting):
            raise RuntimeError(f"room {room_id} asked for a second bot turn at once")
        if len(self._serving) < self.limit and not self._waiting:
            self._serving.add(room_id)
        else:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append((room_id, ready))
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._release(room_id)  # it was handed the turn as it was cancelled
                else:
                    self._waiting.remove((room_id, ready))
                raise
        try:
            yield
        finally:
            self._release(room_id)

    def _release(self, room_id: str) -> None:
        self._serving.discard(room_id)
        while self._waiting and len(self._serving) < self.limit:
            room, ready = self._waiting.popleft()
            if ready.cancelled():
                continue
            self._serving.add(room)
            ready.set_result(None)

    @property
    def waiting(self) -> list[str]:
        """The rooms waiting for a turn, first served first."""
        return [room for room, _ in self._waiting]


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
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")

    @property
    def turns(self) -> int:
        """How many bot turns are served at once: ``TURNS_PER_WORKER`` per worker (one
        thinks while the other's move is stored), at most ``CONCURRENT_TURNS``."""
        return min(CONCURRENT_TURNS, TURNS_PER_WORKER * max(self.workers, 1))

    async def niceness(self) -> int:
        """The OS priority (niceness) a worker runs at."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _niceness)

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
        think_seconds: float | None = None,
    ) -> None:
        self.rooms = rooms
        self.duty = duty or Duty(None, "")
        self._resume = False
        self.delay = delay_ms / 1000
        self.sweep_seconds = sweep_seconds
        self.grace = timedelta(seconds=grace_seconds)
        # the longest a bot thinks about one move (None: as long as its own budget says)
        self.think_seconds = think_seconds
        self.pool = BotPool(workers)
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self.turns = TurnQueue(self.pool.turns)
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
                if self.delay:
                    # the pause people follow a bot by holds no turn of the pool
                    await asyncio.sleep(self.delay)
                async with self.turns.turn(room_id):
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
        seat = acting[0]
        bot = state.seats[seat].player_bot
        assert bot is not None  # bots_to_act lists bot seats only
        move = await self.pool.run(
            engine.name, engine.dump(state.game), seat, bot, bot_seed(state), self.think_seconds
        )
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
