"""Bot seats play by themselves, off the event loop, through the same path as people.

After every commit (and for running games when the app starts) the runner looks
at whose turn it is; if a bot is to act, a worker process (or thread) chooses
and the move goes through ``Rooms.move_by`` like any other: a bot that loses a
race simply looks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from app import store
from app.actor import Actor
from app.bot_worker import choose_move
from app.errors import ApiError
from app.rooms import Rooms
from app.roomstate import RoomState

log = logging.getLogger(__name__)


def bot_seed(state: RoomState) -> int:
    """Deterministic per game and position, so a replayed game gets the same bot moves."""
    digest = hashlib.sha256(f"{state.seed}:{state.seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class BotRunner:
    def __init__(self, rooms: Rooms, workers: int, delay_ms: int) -> None:
        self.rooms = rooms
        self.delay = delay_ms / 1000
        self._executor: Executor
        if workers > 0:
            self._executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn")
            )
        else:
            self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._closed = False
        rooms.after_commit.append(self.notice)

    def notice(self, state: RoomState) -> None:
        """A commit happened: start (or re-arm) the room's bot task if a bot may act."""
        if self._closed or not state.bots_to_act():
            return
        self.kick(state.room.id)

    def kick(self, room_id: str) -> None:
        if room_id in self._running:
            self._again.add(room_id)
            return
        self._running[room_id] = asyncio.create_task(self._drive(room_id))

    async def resume_all(self) -> None:
        """After a (re)start: every running game with a bot seat gets looked at."""
        async with self.rooms.db.transaction() as session:
            room_ids = await store.rooms_in_play_with_bots(session)
        for room_id in room_ids:
            self.kick(room_id)

    async def _drive(self, room_id: str) -> None:
        try:
            while not self._closed:
                self._again.discard(room_id)
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
        loop = asyncio.get_running_loop()
        move: dict[str, Any] = await loop.run_in_executor(
            self._executor,
            choose_move,
            engine.name,
            engine.dump(state.game),
            seat,
            bot,
            bot_seed(state),
        )
        try:
            await self.rooms.move_by(room_id, Actor.bot(seat), state.seq, move)
        except ApiError as exc:
            if exc.code != "stale":
                log.warning("bot move refused in room %s: %s", room_id, exc.message)
                return False
        return True

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._executor.shutdown(wait=False, cancel_futures=True)
