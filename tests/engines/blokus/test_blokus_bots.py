"""The bots: legal, deterministic, and the strong one beats the random one."""

from __future__ import annotations

from engines.base import Budget
from engines.blokus import BlokusEngine, bots
from engines.blokus.rules import State

from .conftest import duel

# a searching bot thinks a fixed number of iterations here, the same on any machine
BUDGET = Budget(iterations=8, seconds=None)


def _duel(game: int, variant: str = "classic") -> bool:
    """One two-player game, strong bot in seat ``game % 2``: did it win outright?"""
    return duel(game, variant, bots.strong_placement, bots.random_placement)


def test_strong_bot_beats_random_bot() -> None:
    assert sum(_duel(game) for game in range(10)) >= 8


def test_strong_bot_beats_random_bot_in_duo() -> None:
    assert sum(_duel(game, "duo") for game in range(6)) >= 5


def test_bots_choose_legal_moves_and_repeat_themselves(
    engine: BlokusEngine, positions: list[State]
) -> None:
    for state in positions[::15]:
        if state.turn is None:
            continue
        seat = engine.to_act(state)[0]
        legal = engine.legal_moves(state, seat)
        for bot in engine.bots().values():
            move = bot.choose(state, seat, 12, BUDGET)
            assert move in legal
            assert bot.choose(state, seat, 12, BUDGET) == move


def test_random_bot_depends_on_seed_and_position(engine: BlokusEngine) -> None:
    state = engine.new_game(4, 1)
    bot = engine.random_bot()
    assert len({str(bot.choose(state, 0, seed)) for seed in range(20)}) > 5
    other = engine.play(state, 0, {"piece": "I1", "cells": [[0, 0]]})
    assert bots.stream(state, 3) != bots.stream(other, 3)


def test_bots_refuse_a_seat_not_to_move(engine: BlokusEngine) -> None:
    state = engine.new_game(4, 1)
    for bot in engine.bots().values():
        try:
            bot.choose(state, 2, 1, BUDGET)
        except ValueError as error:
            assert "not to move" in str(error)
        else:
            raise AssertionError(f"{bot.name} moved for a seat not to act")
