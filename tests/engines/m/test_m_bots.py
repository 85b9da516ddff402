"""The M bots: legal, deterministic, fair (public facts only), and the strong one wins."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engines.base import Budget
from engines.m import ENGINE
from engines.m.state import State
from tests.engines.levels import assert_every_level_blind

Variants = Callable[[State, int | None], list[State]]
Positions = Callable[..., list[State]]
Builder = Callable[..., State]
# a searching bot thinks a fixed number of iterations here, the same on any machine;
# few, as legality and determinism don't depend on how many (the search takes twice as
# many worlds from four players on, and three times at the end)
BUDGET = Budget(iterations=4, seconds=None)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_choose_legal_moves_deterministically(players: int, positions: Positions) -> None:
    for state in positions(players, 500 + players, every=5):
        acting = ENGINE.to_act(state)
        if not acting:
            continue
        legal = ENGINE.legal_moves(state, acting[0])
        for bot in ENGINE.bots().values():
            move = bot.choose(state, acting[0], 17, BUDGET)
            assert move in legal
            assert bot.choose(state, acting[0], 17, BUDGET) == move


def test_the_random_bot_depends_on_its_seed() -> None:
    state = ENGINE.new_game(3, 8)
    bot = ENGINE.random_bot()
    assert len({str(bot.choose(state, 0, seed)) for seed in range(20)}) > 3


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_strong_bot_uses_only_what_its_seat_may_see(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    strong = ENGINE.bots()["medium"]
    for state in positions(players, 600 + players, every=4):
        acting = ENGINE.to_act(state)
        if not acting:
            continue
        seat = acting[0]
        move = strong.choose(state, seat, 5)
        for variant in hidden_variants(state, seat):
            assert strong.choose(variant, seat, 5) == move


@pytest.mark.parametrize("players", [2, 4])
def test_every_level_uses_only_what_its_seat_may_see(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    # every level a room offers, the searching one on a small budget (its own tests,
    # engines/m/test_m_search.py, look at it closer)
    small = Budget(iterations=2, seconds=None)
    states = [s for s in positions(players, 610 + players, every=2) if ENGINE.to_act(s)]
    assert states
    for state in states[:: max(1, len(states) // 6)][:6]:  # six spread along the game
        seat = ENGINE.to_act(state)[0]
        assert_every_level_blind(ENGINE, state, seat, hidden_variants(state, seat), small)


def test_the_strong_bot_takes_what_keeps_two_colours(build: Builder) -> None:
    row = {
        (0, 0): "green-40-cross",
        (0, 1): "brown-40-cross",
        (0, 2): "red-40-triangle",
        (0, 3): "red-20-cube",
        (0, 4): "blue-10-cube",
    }
    state = build(
        row,
        [["green-0-a"], ["brown-0-a"]],
        collections=[["blue-30-cube", "red-30-cube"], []],
        phase="take",
        line="row",
        run=tuple(sorted(row)),
        last=(0, 3),
    )
    # the green 40 would cost 20 (a third colour), the blue 10 is worth 10
    assert ENGINE.bots()["medium"].choose(state, 0, 1) == {"type": "take", "card": "blue-10-cube"}


def test_the_strong_bot_takes_tokens_when_it_can(build: Builder) -> None:
    state = build(
        {(0, 1): "red-30-triangle", (1, 2): "green-40-circle"},
        [["green-20-triangle", "yellow-0-a"], ["blue-0-a"]],
    )
    move = ENGINE.bots()["medium"].choose(state, 0, 1)
    assert move == {"type": "place", "card": "green-20-triangle", "at": [1, 1]}


def strong_against_random(games: int, players: int = 3) -> float:
    """The strong bot's share of wins (rank 1) against random bots, its seat rotating."""
    strong, weak = ENGINE.bots()["medium"], ENGINE.random_bot()
    wins = 0
    for game in range(games):
        strong_seat = game % players
        state = ENGINE.new_game(players, 20_000 + game)
        step = 0
        while acting := ENGINE.to_act(state):
            seat = acting[0]
            bot = strong if seat == strong_seat else weak
            state = ENGINE.play(state, seat, bot.choose(state, seat, 31 * game + step))
            step += 1
        result = ENGINE.result(state)
        assert result is not None
        wins += result["ranks"][strong_seat] == 1
    return wins / games


def test_the_strong_bot_beats_two_random_bots() -> None:
    # bench/bench_m.py plays the full sample (target 0.8); this smaller one keeps a margin
    assert strong_against_random(24) >= 0.7
