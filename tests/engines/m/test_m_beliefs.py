"""What the hard bot of M reads from the public history (engines/m/beliefs.py): the
replay finds the public facts again, a forced pass and a cheap placement say which
cards a player did not hold, and nothing hidden changes what is read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from engines.m import ENGINE, beliefs
from engines.m.cards import HAND_SIZE, INDEX, KEEP, START_CELLS
from engines.m.state import PASSED, PLACED, SWAPPED, TOOK, State, table_of

Positions = Callable[..., list[State]]
Variants = Callable[[State, int | None], list[State]]

# the start M (docs/rules.md M-4): reds on the left, blues on the right
START = {
    (1, 0): "red-10-cube",
    (0, 1): "red-20-triangle",
    (1, 2): "red-30-circle",
    (0, 3): "blue-10-cube",
    (1, 4): "blue-20-cube",
}


def _table() -> tuple[tuple[int, int, int], ...]:
    return table_of({cell: INDEX[card] for cell, card in START.items()})


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_replay_of_the_history_finds_the_public_facts_again(
    players: int, positions: Positions
) -> None:
    """docs/rules.md M-22: the history and the public facts tell one story."""
    for state in positions(players, 40 + players, every=5):
        replayed = beliefs.replay(state)
        assert replayed is not None
        turns, drew = replayed
        assert state.history is not None
        assert len(turns) == sum(1 for entry in state.history if entry[1] != TOOK)
        # every card that left the pile went into a hand; a swap draws one more
        swaps = sum(1 for entry in state.history if entry[1] == SWAPPED)
        dealt = len(START_CELLS) + HAND_SIZE * players
        assert sum(len(draws) for draws in drew) == KEEP[players] - dealt - len(state.pile) + swaps


def test_a_position_without_a_history_is_not_read(
    positions: Positions, build: Callable[..., State]
) -> None:
    state = positions(3, 50, every=5)[2]
    assert beliefs.replay(replace(state, history=None)) is None
    assert beliefs.weights(replace(state, history=None), 0) is None
    built = build({(1, 0): "red-10-cube", (0, 1): "red-20-cube"}, [["blue-0-a"], ["blue-0-b"]])
    assert beliefs.replay(replace(built, history=())) is None


def test_after_a_pass_without_tokens_no_card_that_fitted_was_held() -> None:
    """docs/rules.md M-7: a player without tokens passes only when nothing fits."""
    turn = beliefs.Turn(1, _table(), (12, 0), ((), ()), True, (1, PASSED))
    read = beliefs.reading(turn)
    assert read[INDEX["red-40-cube"]] == 0.0  # it fitted beside the reds
    assert read[INDEX["yellow-0-a"]] == 1.0  # it shares nothing with any card there


def test_a_card_that_would_have_paid_much_more_was_probably_not_held() -> None:
    """docs/rules.md M-6: the red 40 fitted between three reds for two tokens, where the
    player placed a card beside one card for none."""
    placed = (0, PLACED, INDEX["green-10-circle"], 2, 0)
    read = beliefs.reading(beliefs.Turn(0, _table(), (6, 6), ((), ()), True, placed))
    assert read[INDEX["red-40-cube"]] < 0.05
    assert read[INDEX["yellow-0-a"]] == 1.0


@pytest.mark.parametrize("players", [2, 3, 5])
def test_what_is_read_does_not_depend_on_hidden_cards(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    for state in positions(players, 60 + players, every=6)[1:6]:
        acting = ENGINE.to_act(state)
        if not acting:
            continue
        seat = acting[0]
        read = beliefs.weights(state, seat)
        assert read is not None
        for variant in hidden_variants(state, seat):
            assert beliefs.weights(variant, seat) == read
