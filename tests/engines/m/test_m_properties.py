"""Random games of M for 2 to 6 players, with the invariants checked after every move.

A few hundred games run by default; the ``slow`` test plays thousands. Moves are
picked with the engine's own PRNG from a seed, so every failure replays exactly.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.m import ENGINE, table
from engines.m.bots import BOTS
from engines.m.cards import DECK, SHARED
from engines.m.moves import Place, parse
from engines.m.state import State
from engines.prng import below, seed_state

MAX_MOVES = 3000


def check(state: State) -> None:
    n = state.players
    # tokens: 6 per seat among the players, never created, never negative
    assert sum(state.tokens) == 6 * n and min(state.tokens) >= 0
    # cards: table + hands + pile + collections + removed = the 90, each once
    every = [
        *state.grid.values(),
        *(c for hand in state.hands for c in hand),
        *state.pile,
        *(c for cards in state.collections for c in cards),
        *state.removed,
    ]
    assert sorted(every) == list(range(len(DECK)))
    top, left, bottom, right = table.bounds(state.grid)
    assert bottom - top < 6 and right - left < 6
    assert table.connected(state.grid)
    if state.phase == "play" and state.pile:
        assert all(len(hand) == 4 for hand in state.hands)
    if state.phase == "take":
        # the cached articulation cells agree with a plain connectivity test per card
        free = {cell for cell in state.run if not table.splits(state.grid, cell)}
        taken = {cell for cell in state.run if cell not in state.pinned}
        assert free == taken and len(state.run) >= 2 and free
    assert ENGINE.load(ENGINE.dump(state)) == state


def check_refusals(state: State, seat: int, legal: list[dict[str, object]], rng: int) -> int:
    """Every placement of a hand card on a cell around the table is accepted by ``play``
    exactly when ``legal_moves`` lists it."""
    if state.phase != "play":
        return rng
    top, left, bottom, right = table.bounds(state.grid)
    index, rng = below(rng, len(state.hands[seat]))
    card = DECK[state.hands[seat][index]].id
    for r in range(top - 1, bottom + 2):
        for c in range(left - 1, right + 2):
            move = {"type": "place", "card": card, "at": [r, c]}
            try:
                ENGINE.play(state, seat, move)
                accepted = True
            except IllegalMove as error:
                assert not error.malformed and error.code
                accepted = False
            assert accepted == (move in legal), move
    return rng


def play_game(players: int, seed: int, thorough: bool = True) -> tuple[State, list[Any]]:
    """One game, a quarter of the moves by the strong bot (it reaches scoring phases far
    more often than random play), the rest uniformly random; the end and the moves."""
    state = ENGINE.new_game(players, seed)
    rng = seed_state(seed ^ 0x5EED)
    history: list[Any] = []
    for step in range(MAX_MOVES):
        if thorough:
            check(state)
        acting = ENGINE.to_act(state)
        if not acting:
            break
        seat = acting[0]
        legal = ENGINE.legal_moves(state, seat)
        if thorough and step % 5 == 0:
            rng = check_refusals(state, seat, legal, rng)
        index, rng = below(rng, 4 * len(legal) // 3 + 1)
        if index < len(legal):
            move = legal[index]
        else:
            move = BOTS["medium"].choose(state, seat, index)
            assert move in legal
        before_tokens = state.tokens
        history.append((seat, move))
        after = ENGINE.play(state, seat, move)
        parsed = parse(move)
        assert parsed.json() == move
        if isinstance(parsed, Place):
            # k neighbours earn at most k - 1, all of it from others; each one matches
            near = [c for _, c, _ in table.neighbours(after.grid, parsed.at)]
            gained = after.tokens[seat] - before_tokens[seat]
            assert 0 <= gained <= len(near) - 1
            assert all(SHARED[parsed.card][c] for c in near)
        state = after
    else:
        pytest.fail(f"game {players}/{seed} did not end within {MAX_MOVES} moves")
    check(state)
    assert state.phase == "over" and ENGINE.result(state) is not None
    return state, history


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(40):
        play_game(players, 1000 * players + seed)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_and_replay_identically(players: int) -> None:
    ends: Counter[str | None] = Counter()
    for seed in range(20):
        state, history = play_game(players, 7000 + seed, thorough=False)
        ends[state.ended] += 1
        replay = ENGINE.new_game(players, 7000 + seed)
        for seat, move in history:
            replay = ENGINE.play(replay, seat, move)
        assert replay == state
    assert set(ends) <= {"final_scoring", "hands_empty", "all_passed", "jammed", "guard"}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_thousands_of_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(500):
        play_game(players, 100_000 * players + seed)[0]
