"""The bot pool shares the machine fairly: workers think at a lower OS priority than the
server, turns of many rooms are served round-robin, one per room at a time, and every
move is thought about no longer than the site's think time (``bot_think_seconds``)."""

from __future__ import annotations

import asyncio
import os

import pytest

from app.bots.runner import WORKER_NICENESS, BotPool, TurnQueue
from app.bots.worker import capped, choose_move
from app.core.config import Settings
from app.services import Services
from engines import get_engine
from engines.base import Budget


async def _served(queue: TurnQueue, wants: dict[str, int]) -> list[str]:
    """Each room asks for its turns one after another; the order they were served in."""
    served: list[str] = []

    async def room(name: str, turns: int) -> None:
        for _ in range(turns):
            async with queue.turn(name):
                served.append(name)
                # the turn's work: the others meanwhile ask and wait
                for _ in range(3):
                    await asyncio.sleep(0)

    await asyncio.gather(*(room(name, turns) for name, turns in wants.items()))
    return served


async def test_turns_of_many_rooms_are_served_round_robin() -> None:
    served = await _served(TurnQueue(1), {"a": 4, "b": 2, "c": 1})
    # a room that just had a turn waits behind every room already waiting
    assert served == ["a", "b", "c", "a", "b", "a", "a"]


async def test_a_room_with_many_bots_cannot_crowd_out_the_others() -> None:
    served = await _served(TurnQueue(2), {"busy": 6, "quiet": 2, "other": 2})
    # two at once, never one room twice at once: the quiet rooms are done by the busy
    # room's third turn, not after its sixth
    assert served.index("quiet") < 3 and served.index("other") < 3
    assert len(served) - served[::-1].index("quiet") <= 5
    assert served.count("busy") == 6


async def test_one_room_asks_for_one_turn_at_a_time() -> None:
    queue = TurnQueue(4)
    async with queue.turn("a"):
        with pytest.raises(RuntimeError):
            async with queue.turn("a"):
                pass


async def test_a_room_that_gives_up_waiting_leaves_the_queue() -> None:
    queue = TurnQueue(1)
    async with queue.turn("a"):
        waiting = asyncio.create_task(_served(queue, {"b": 1}))
        later = asyncio.create_task(_served(queue, {"c": 1}))
        for _ in range(10):  # the two tasks start and ask
            await asyncio.sleep(0)
        assert queue.waiting == ["b", "c"]
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert queue.waiting == ["c"]
    assert await later == ["c"]
    assert queue.waiting == []


async def test_bot_workers_run_at_a_lower_priority_than_the_server() -> None:
    pool = BotPool(workers=1)
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert await pool.niceness() == min(19, mine + WORKER_NICENESS)
        # and so does the pool rebuilt after a worker died
        pool._replace(pool._executor, RuntimeError("test"))
        assert await pool.niceness() == min(19, mine + WORKER_NICENESS)
    finally:
        await asyncio.to_thread(pool.close)


def test_the_sites_think_time_caps_every_bots_budget() -> None:
    assert capped(Budget(iterations=200, seconds=1.0), 0.05) == Budget(200, 0.05)
    assert capped(Budget(iterations=200, seconds=0.01), 0.05) == Budget(200, 0.01)
    assert capped(Budget(iterations=None, seconds=3.0), 0.5) == Budget(None, 0.5)
    # a budget of iterations alone gets the time limit too
    assert capped(Budget(iterations=50, seconds=None), 0.5) == Budget(50, 0.5)
    assert capped(Budget(iterations=50, seconds=None), None) == Budget(50, None)


@pytest.mark.parametrize("bot", ["hard", "medium", "easy", "strong", "random"])
def test_a_worker_plays_every_level_and_old_name_within_the_think_time(bot: str) -> None:
    engine = get_engine("maedn")
    state = engine.new_game(2, 9)
    seat = engine.to_act(state)[0]
    move = choose_move("maedn", engine.dump(state), seat, bot, 4, 0.05)
    assert move in engine.legal_moves(state, seat)


def test_the_think_time_is_a_setting_the_bots_get() -> None:
    assert Settings().bot_think_seconds == 1.0
    services = Services.build(Settings(bot_workers=0, bot_think_seconds=0.25))
    assert services.bots.think_seconds == 0.25
    with pytest.raises(ValueError):
        Settings(bot_think_seconds=0)
