"""Random 2-, 3- and 4-player games, checking the invariants after every move."""

from __future__ import annotations

import copy

import pytest

from engines import prng
from engines.maedn import ENGINE, cards, rules
from tests.engines.maedn.maedn_positions import check_invariants


def random_game(players: int, seed: int) -> int:
    """Play one game with uniformly random legal moves; return its length in moves."""
    state = ENGINE.new_game(players, seed)
    pick = prng.seed_state(seed ^ 0x5EED)
    check_invariants(state)
    moves = 0
    bound = rules.QUIET_ROUNDS * players * 60  # far beyond any game the stall rule allows
    while ENGINE.to_act(state):
        assert moves < bound, "the game did not end"
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        assert legal
        index, pick = prng.below(pick, len(legal))
        before_rows = len(state.rows[seat])
        after = ENGINE.play(state, seat, legal[index])
        check_invariants(after)
        if legal[index]["type"] == "discard":
            # the dead end: three open rows, nothing fits
            assert before_rows == cards.MAX_OPEN_ROWS and after.rows == state.rows
        assert after.over or after.turn == (seat + 1) % players
        state = after
        moves += 1
    result = ENGINE.result(state)
    assert result is not None
    if state.end == "target":
        assert state.winner is not None
        assert state.scores[state.winner] >= state.target
        assert result["ranks"][state.winner] == 1 and result["ranks"].count(1) == 1
    else:
        assert state.end == "stalled" and state.quiet == rules.QUIET_ROUNDS * players
    return moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(60):
        random_game(players, 1000 * players + seed)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_random_games_keep_every_invariant(
    players: int, request: pytest.FixtureRequest
) -> None:
    # About three minutes: run when slow tests are asked for (`make test-long`,
    # `pytest -m slow`), not on a bare `pytest` of this folder.
    if "slow" not in (request.config.getoption("markexpr") or "").replace("not slow", ""):
        pytest.skip("slow: select with -m slow")
    for seed in range(1200):
        random_game(players, 10**6 * players + seed)


def test_play_never_changes_its_input_and_replay_rebuilds_the_game() -> None:
    state = ENGINE.new_game(3, 31337)
    start = state
    history = []
    pick = prng.seed_state(9)
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        index, pick = prng.below(pick, len(legal))
        frozen = copy.deepcopy(ENGINE.dump(state))
        after = ENGINE.play(state, seat, legal[index])
        assert ENGINE.dump(state) == frozen
        assert ENGINE.load(ENGINE.dump(after)) == after
        history.append((seat, legal[index]))
        state = after
    replay = start
    for seat, move in history:
        replay = ENGINE.play(replay, seat, move)
    assert replay == state
