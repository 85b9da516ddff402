"""Building Mensch ärgere Dich nicht positions directly, for the tests."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engines.maedn import ENGINE, cards
from engines.maedn.state import State


def position(
    players: int = 2,
    *,
    turn: int = 0,
    hands: Sequence[Sequence[int]] | None = None,
    rows: dict[int, list[list[int]]] | None = None,
    scores: Sequence[int] | None = None,
    finished: dict[int, list[list[int]]] | None = None,
    pile: Sequence[int] | None = None,
    discard: Sequence[int] = (),
    rng: int = 12345,
    quiet: int = 0,
) -> State:
    """A state with the given hands and rows; every other figure lies in the middle.

    Dice not in a hand, the pile or the discard pile are put in the pile, so the
    130 dice cards are all there; ``pile`` given lists its top card last.
    """
    hands = [list(hand) for hand in (hands or [[1, 2]] * players)]
    rows = rows or {}
    finished = finished or {}
    middle = list(cards.figure_counts(players))
    for seat_rows in rows.values():
        for row in seat_rows:
            for figure in row:
                middle[figure] -= 1
                assert middle[figure] >= 0, f"too many copies of {figure}"
    left = Counter(cards.dice_deck())
    for die in [d for hand in hands for d in hand] + list(discard) + list(pile or []):
        left[die] -= 1
        assert left[die] >= 0, f"too many dice of {die}"
    rest = sorted(left.elements())
    full_pile = rest + list(pile or [])
    return State(
        players=players,
        turn=turn,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        pile=tuple(full_pile),
        discard=tuple(discard),
        middle=tuple(middle),
        rows=tuple(tuple(tuple(row) for row in rows.get(seat, [])) for seat in range(players)),
        finished=tuple(
            tuple(tuple(row) for row in finished.get(seat, [])) for seat in range(players)
        ),
        scores=tuple(scores or [0] * players),
        quiet=quiet,
        rng=rng,
    )


def rows_of(state: State, seat: int) -> list[list[int]]:
    return [list(row) for row in state.rows[seat]]


def play(state: State, seat: int, move: dict[str, Any]) -> State:
    return ENGINE.play(state, seat, move)


def check_invariants(state: State) -> None:
    """What must hold in every position of every game."""
    players = state.players
    # figures conserved: middle + open rows = the figures in use
    held = Counter(figure for rows in state.rows for row in rows for figure in row)
    for figure in cards.FIGURES:
        assert state.middle[figure] + held[figure] == cards.copies(players, figure), figure
    assert state.middle[0] == 0
    # dice conserved
    dice = Counter(d for hand in state.hands for d in hand)
    dice.update(state.pile)
    dice.update(state.discard)
    assert dice == Counter(cards.dice_deck())
    assert sum(dice.values()) == 130
    for seat in range(players):
        assert len(state.rows[seat]) <= cards.MAX_OPEN_ROWS
        for row in state.rows[seat]:
            assert row, "an empty row survived"
            assert all(a < b for a, b in itertools.pairwise(row)), row
            assert row[-1] < cards.GOAL, "a row holding the 40 was not finished"
        for row in state.finished[seat]:
            assert row[-1] == cards.GOAL
        assert state.scores[seat] == sum(cards.row_points(row) for row in state.finished[seat])
    if not state.over:
        assert all(len(hand) == cards.HAND_SIZE for hand in state.hands)
        assert all(score < state.target for score in state.scores)
    elif state.winner is not None:
        # the winning move ends the game at once: the winner played one die, drew none
        held = [len(hand) for hand in state.hands]
        assert held[state.winner] == cards.HAND_SIZE - 1
        assert all(n == cards.HAND_SIZE for s, n in enumerate(held) if s != state.winner)
