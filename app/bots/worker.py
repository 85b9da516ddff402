"""What runs in a bot worker process: load the state, let the bot choose."""

from __future__ import annotations

from typing import Any

from engines import get_engine
from engines.base import Budget


def choose_move(
    game: str,
    dumped: dict[str, Any],
    seat: int,
    bot: str,
    seed: int,
    think_seconds: float | None = None,
) -> dict[str, Any]:
    """The move ``bot`` (a level, or an old name for one) chooses for ``seat``, thinking
    no longer than ``think_seconds`` (the site's cap; ``None``: the bot's own budget)."""
    engine = get_engine(game)
    state = engine.load(dumped)
    chooser = engine.bot(bot) or next(iter(engine.bots().values()))
    return chooser.choose(state, seat, seed, capped(chooser.budget, think_seconds))


def capped(budget: Budget, think_seconds: float | None) -> Budget:
    """``budget`` with its time limit no longer than ``think_seconds``."""
    if think_seconds is None:
        return budget
    seconds = think_seconds if budget.seconds is None else min(budget.seconds, think_seconds)
    return Budget(iterations=budget.iterations, seconds=seconds)
