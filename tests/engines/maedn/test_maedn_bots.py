"""The bots: legal, deterministic, and the strong one clearly beats random."""

from __future__ import annotations

from engines.base import Budget
from engines.maedn import ENGINE, bots

# a searching bot thinks a fixed number of iterations here, the same on any machine
BUDGET = Budget(iterations=8, seconds=None)


def test_the_bots_are_the_levels() -> None:
    assert list(ENGINE.bots()) == ["hard", "medium", "easy"]


def test_bots_choose_legal_moves_and_repeat_themselves() -> None:
    for players in (2, 3, 4):
        state = ENGINE.new_game(players, 500 + players)
        turn = 0
        while ENGINE.to_act(state) and turn < 120:
            seat = ENGINE.to_act(state)[0]
            for bot in ENGINE.bots().values():
                move = bot.choose(state, seat, turn, BUDGET)
                assert move in ENGINE.legal_moves(state, seat)
                assert move == bot.choose(state, seat, turn, BUDGET)
            state = ENGINE.play(state, seat, bots.choose_strong(state, seat, turn))
            turn += 1


def strong_wins(games: int, seed: int) -> int:
    """Strong against random in 2-player games, alternating seats; count outright wins."""
    wins = 0
    for game in range(games):
        state = ENGINE.new_game(2, seed + game)
        strong = game % 2
        turn = 0
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            choose = bots.choose_strong if seat == strong else bots.choose_random
            state = ENGINE.play(state, seat, choose(state, seat, seed + turn))
            turn += 1
        result = ENGINE.result(state)
        assert result is not None
        if result["ranks"][strong] == 1 and result["ranks"][1 - strong] == 2:
            wins += 1
    return wins


def test_strong_bot_beats_random_by_a_clear_margin() -> None:
    assert strong_wins(24, 77_000) >= 20
