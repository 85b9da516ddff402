"""Checks over every bot level a game offers, shared by the games' own tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Budget, Engine

SEEDS = (3, 4)  # several, so a level's random choices and its reasoned ones both come up


def assert_every_level_blind(
    engine: Engine[Any], state: Any, seat: int, variants: Sequence[Any], budget: Budget
) -> None:
    """Every level plays the same move for ``seat`` in ``state`` and in each of
    ``variants``, states that differ from it only in what that seat cannot see."""
    assert variants
    for name, bot in engine.bots().items():
        for seed in SEEDS:
            move = bot.choose(state, seat, seed, budget)
            for variant in variants:
                assert bot.choose(variant, seat, seed, budget) == move, name
