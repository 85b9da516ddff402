"""What runs in a bot worker process: load the state, let the bot choose."""

from __future__ import annotations

from typing import Any

from engines import get_engine


def choose_move(
    game: str, dumped: dict[str, Any], seat: int, bot: str, seed: int
) -> dict[str, Any]:
    engine = get_engine(game)
    state = engine.load(dumped)
    bots = engine.bots()
    chooser = bots.get(bot) or next(iter(bots.values()))
    return chooser.choose(state, seat, seed)
