"""The bot levels every game offers: hard, medium and easy, strongest first; the old
names ``strong`` and ``random`` stand for medium and easy; and easy sits between the
greedy medium and a random player (fixed seeds: the same games on any machine)."""

from __future__ import annotations

from typing import Any

import pytest

from engines import get_engine
from engines.base import LEGACY_BOTS, LEVELS, Bot, Budget, Engine

# the games the project ships; not sorted(ENGINES), which in a whole run also holds the
# test engines tests/app registers, whose bots are no levels
ENGINE_NAMES = ["blokus", "m", "maedn"]


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_game_offers_the_three_levels_strongest_first(name: str) -> None:
    engine = get_engine(name)
    assert tuple(engine.bots()) == LEVELS == ("hard", "medium", "easy")
    described = engine.describe()["bots"]
    assert [b["name"] for b in described] == ["hard", "medium", "easy"]
    assert [b["title"] for b in described] == ["Hard", "Medium", "Easy"]
    assert all(b["description"] for b in described)
    # the hard level searches within its own budget; the others need none
    assert engine.bots()["hard"].budget.iterations


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_old_names_stand_for_the_levels(name: str) -> None:
    engine = get_engine(name)
    assert LEGACY_BOTS == {"strong": "medium", "random": "easy"}
    assert engine.bot_name("strong") == "medium"
    assert engine.bot_name("random") == "easy"
    assert engine.bot("strong") is engine.bots()["medium"]
    assert engine.bot("random") is engine.bots()["easy"]
    for level in LEVELS:
        assert engine.bot_name(level) == level
    for unknown in ("greedy", "", "Hard", None, 3):
        assert engine.bot_name(unknown) is None
        assert engine.bot(unknown) is None
    # the uniformly random bot is kept for tests and benches, never offered
    assert engine.random_bot().name == "random"
    assert engine.random_bot() not in engine.bots().values()


def _wins(engine: Engine[Any], hero: Bot[Any], rival: Bot[Any], games: int, seed: int) -> int:
    """Two-player games, ``hero`` in seat ``game % 2``: how many it won outright."""
    budget = Budget(iterations=4, seconds=None)
    wins = 0
    for game in range(games):
        state = engine.new_game(2, seed + game)
        seat_of_hero = game % 2
        turn = 0
        while acting := engine.to_act(state):
            seat = acting[0]
            bot = hero if seat == seat_of_hero else rival
            state = engine.play(state, seat, bot.choose(state, seat, seed * 7 + turn, budget))
            turn += 1
        result = engine.result(state)
        assert result is not None
        ranks = result["ranks"]
        wins += ranks[seat_of_hero] == 1 and ranks.count(1) == 1
    return wins


@pytest.mark.parametrize(("name", "games"), [("blokus", 8), ("m", 6), ("maedn", 8)])
def test_easy_is_weaker_than_medium_and_stronger_than_random(name: str, games: int) -> None:
    engine = get_engine(name)
    bots = engine.bots()
    assert _wins(engine, bots["easy"], engine.random_bot(), games, 100) >= games * 3 // 4
    assert _wins(engine, bots["medium"], bots["easy"], games, 300) >= games * 3 // 4


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_easy_plays_the_greedy_move_only_sometimes(name: str) -> None:
    engine = get_engine(name)
    state = engine.new_game(2, 5)
    seat = engine.to_act(state)[0]
    medium, easy = engine.bots()["medium"], engine.bots()["easy"]
    same = sum(
        easy.choose(state, seat, seed) == medium.choose(state, seat, seed) for seed in range(40)
    )
    assert 5 < same < 40
