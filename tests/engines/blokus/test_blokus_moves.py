"""Moves as the server receives them: malformed vs illegal, any cell order, canonical output."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.blokus import BlokusEngine, rules
from engines.blokus.rules import State

Build = Callable[..., State]


@pytest.fixture
def opened(engine: BlokusEngine) -> State:
    """Every colour has placed I1 on its corner; blue (seat 0) is to move."""
    state = engine.new_game(4, 3)
    for seat, corner in enumerate(([0, 0], [0, 19], [19, 19], [19, 0])):
        state = engine.play(state, seat, {"piece": "I1", "cells": [corner]})
    return state


F_AT_1_1 = [[1, 1], [1, 2], [2, 0], [2, 1], [3, 1]]


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (None, "not_an_object"),
        ([["F"]], "not_an_object"),
        ("F", "not_an_object"),
        ({"piece": "F", "cells": F_AT_1_1, "colour": "blue"}, "unknown_field"),
        ({"cells": F_AT_1_1}, "unknown_piece"),
        ({"piece": "Q", "cells": F_AT_1_1}, "unknown_piece"),
        ({"piece": "f", "cells": F_AT_1_1}, "unknown_piece"),
        ({"piece": 5, "cells": F_AT_1_1}, "unknown_piece"),
        ({"piece": "F"}, "bad_cells"),
        ({"piece": "F", "cells": "1,1"}, "bad_cells"),
        ({"piece": "F", "cells": []}, "bad_cells"),
        ({"piece": "I1", "cells": [[1]]}, "bad_cells"),
        ({"piece": "I1", "cells": [[1, 1, 1]]}, "bad_cells"),
        ({"piece": "I1", "cells": [["1", 1]]}, "bad_cells"),
        ({"piece": "I1", "cells": [[True, 1]]}, "bad_cells"),
        ({"piece": "I1", "cells": [[1.0, 1]]}, "bad_cells"),
        ({"piece": "I1", "cells": [{"r": 1, "c": 1}]}, "bad_cells"),
        ({"piece": "I2", "cells": [[1, 1], [1, 1]]}, "duplicate_cells"),
        ({"piece": "I1", "cells": [[-1, 0]]}, "off_board"),
        ({"piece": "I2", "cells": [[1, 19], [1, 20]]}, "off_board"),
        ({"piece": "F", "cells": [[1, 1], [1, 2], [1, 3], [1, 4], [2, 4]]}, "wrong_shape"),
        ({"piece": "F", "cells": [[1, 1], [1, 2], [1, 3]]}, "wrong_shape"),
        ({"piece": "I2", "cells": [[1, 1], [2, 2]]}, "wrong_shape"),
    ],
)
def test_malformed_moves_have_their_own_codes(
    engine: BlokusEngine, opened: State, move: Any, code: str
) -> None:
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(opened, 0, move)
    assert excinfo.value.malformed is True
    assert excinfo.value.code == code
    assert excinfo.value.message.endswith(".")


@pytest.mark.parametrize(
    ("seat", "move", "code"),
    [
        (0, {"piece": "I2", "cells": [[0, 19], [1, 19]]}, "overlap"),
        (0, {"piece": "I1", "cells": [[1, 1]]}, "piece_used"),
        (0, {"piece": "I2", "cells": [[0, 1], [0, 2]]}, "edge_contact"),
        (0, {"piece": "I2", "cells": [[5, 5], [5, 6]]}, "no_corner_contact"),
        (1, {"piece": "I2", "cells": [[1, 1], [1, 2]]}, "not_your_turn"),
        (7, {"piece": "I2", "cells": [[1, 1], [1, 2]]}, "not_your_turn"),
    ],
)
def test_illegal_moves_have_their_own_codes(
    engine: BlokusEngine, opened: State, seat: int, move: Any, code: str
) -> None:
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(opened, seat, move)
    assert excinfo.value.malformed is False
    assert excinfo.value.code == code
    assert excinfo.value.message.endswith(".")


def test_messages_name_the_problem(engine: BlokusEngine, opened: State) -> None:
    def message(seat: int, move: dict[str, Any]) -> str:
        with pytest.raises(IllegalMove) as excinfo:
            engine.play(opened, seat, move)
        return excinfo.value.message

    assert "form L4" in message(0, {"piece": "F", "cells": [[1, 1], [2, 1], [3, 1], [3, 2]]})
    assert "Blue has already placed I1" in message(0, {"piece": "I1", "cells": [[1, 1]]})
    assert "blue is to move" in message(2, {"piece": "I1", "cells": [[1, 1]]})
    assert "[0, 1]" in message(0, {"piece": "I2", "cells": [[0, 1], [0, 2]]})


def test_first_piece_message_lists_the_start_point(engine: BlokusEngine) -> None:
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(engine.new_game(2, 1), 0, {"piece": "I1", "cells": [[3, 3]]})
    assert "[0, 0]" in excinfo.value.message and excinfo.value.code == "not_on_start"


def test_cells_accepted_in_any_order(engine: BlokusEngine, opened: State) -> None:
    expected = engine.play(opened, 0, {"piece": "F", "cells": F_AT_1_1})
    for order in (F_AT_1_1[::-1], F_AT_1_1[2:] + F_AT_1_1[:2]):
        assert engine.play(opened, 0, {"piece": "F", "cells": order}) == expected
    as_tuples = [tuple(cell) for cell in reversed(F_AT_1_1)]
    assert engine.play(opened, 0, {"piece": "F", "cells": as_tuples}) == expected


def test_legal_moves_are_canonical_distinct_and_json(engine: BlokusEngine, opened: State) -> None:
    moves = engine.legal_moves(opened, 0)
    assert moves
    json.dumps(moves)
    for move in moves:
        assert set(move) == {"piece", "cells"}
        assert move["cells"] == sorted(move["cells"])
    keys = {(m["piece"], tuple(map(tuple, m["cells"]))) for m in moves}
    assert len(keys) == len(moves)
    assert {"piece": "F", "cells": F_AT_1_1} in moves
    assert engine.legal_moves(opened, 1) == []


def test_legal_moves_are_fresh_objects(engine: BlokusEngine, opened: State) -> None:
    moves = engine.legal_moves(opened, 0)
    saved = copy.deepcopy(moves)
    moves[0]["cells"].append([9, 9])
    moves[1]["cells"][0][0] = 99
    assert engine.legal_moves(opened, 0) == saved


def test_play_leaves_its_input_alone(engine: BlokusEngine, opened: State) -> None:
    before = engine.dump(opened)
    masks = (opened.occupied, opened.forbidden, opened.attach)
    move = {"piece": "F", "cells": [list(c) for c in F_AT_1_1]}
    saved_move = copy.deepcopy(move)
    engine.play(opened, 0, move)
    assert (
        engine.dump(opened) == before
        and (opened.occupied, opened.forbidden, opened.attach) == masks
    )
    assert move == saved_move


def test_internal_api_agrees_with_dict_moves(engine: BlokusEngine, opened: State) -> None:
    ids = rules.legal_placements(opened)
    moves = engine.legal_moves(opened, 0)
    assert len(ids) == len(moves)
    table = opened.table
    for pid, move in zip(ids, moves, strict=True):
        assert rules.parse_move(table, move) == pid
        assert rules.place(opened, pid) == engine.play(opened, 0, move)
