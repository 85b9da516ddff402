"""Blokus's board edge, start-point message and finished game, to the exact cell
(pinned after the mutation run of `make mutate` found them unchecked)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.base import IllegalMove
from engines.blokus import ENGINE, rules


@pytest.mark.parametrize("cell", [[20, 0], [0, 20], [-1, 0], [0, -1], [20, 20]])
def test_a_cell_just_past_the_edge_is_off_the_board(cell: list[int]) -> None:
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(ENGINE.new_game(4, 1), 0, {"piece": "I1", "cells": [cell]})
    assert excinfo.value.code == "off_board"
    assert excinfo.value.message == f"Cell [{cell[0]}, {cell[1]}] is off the 20x20 board."


def test_the_first_piece_message_names_exactly_the_colours_start_point() -> None:
    state = ENGINE.new_game(4, 1)
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, {"piece": "I1", "cells": [[5, 5]]})
    assert excinfo.value.message == "Blue's first piece must cover a start point: [0, 0]."
    state = ENGINE.play(state, 0, {"piece": "I1", "cells": [[0, 0]]})
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 1, {"piece": "I1", "cells": [[5, 5]]})
    assert excinfo.value.message == "Yellow's first piece must cover a start point: [0, 19]."


def test_a_finished_game_has_no_move_for_anyone() -> None:
    state = ENGINE.new_game(4, 1)
    assert rules.has_any_move(state)
    assert not rules.has_any_move(dataclasses.replace(state, turn=None))
