"""Move shapes, refusals with their codes, the judgement calls, and the log line."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.maedn import ENGINE
from engines.maedn.state import draw_up
from tests.engines.maedn.maedn_positions import check_invariants, play, position, rows_of


@pytest.mark.parametrize(
    "move",
    [
        "start",
        None,
        [1, 2],
        {},
        {"type": "jump"},
        {"type": 3},
        {"type": "start"},
        {"type": "start", "dice": 8},
        {"type": "start", "dice": []},
        {"type": "start", "dice": [1, 2, 3]},
        {"type": "start", "dice": [0]},
        {"type": "start", "dice": [7]},
        {"type": "start", "dice": ["2"]},
        {"type": "start", "dice": [2.0]},
        {"type": "start", "dice": [True]},
        {"type": "start", "dice": [2], "row": 0},
        {"type": "start", "dice": [2], "from": "1"},
        {"type": "start", "dice": [2], "from": -1},
        {"type": "extend", "die": 2},
        {"type": "extend", "row": 0},
        {"type": "extend", "row": -1, "die": 2},
        {"type": "extend", "row": "0", "die": 2},
        {"type": "extend", "row": 0, "die": 9},
        {"type": "discard"},
        {"type": "discard", "die": 2, "from": 1},
        {"type": "discard", "dice": [2]},
    ],
)
def test_malformed_moves_are_refused_as_malformed(move: Any) -> None:
    state = position(2, hands=[[2, 6], [1, 1]], rows={0: [[5]]})
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, move)
    assert excinfo.value.malformed
    assert excinfo.value.code == "malformed"
    assert excinfo.value.message


def test_moves_out_of_turn_are_refused() -> None:
    state = position(2, hands=[[2, 6], [2, 6]])
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 1, {"type": "start", "dice": [2]})
    assert excinfo.value.code == "not_your_turn" and not excinfo.value.malformed
    assert ENGINE.legal_moves(state, 1) == []


def test_each_refusal_has_its_own_code() -> None:
    refusals = {
        "die_not_in_hand": {"type": "start", "dice": [5]},
        "unknown_row": {"type": "extend", "row": 3, "die": 2},
        "past_40": {"type": "extend", "row": 2, "die": 6},
        "must_play": {"type": "discard", "die": 2},
    }
    state = position(2, hands=[[2, 6], [1, 1]], rows={0: [[5], [11], [38]]})
    for code, move in refusals.items():
        with pytest.raises(IllegalMove) as excinfo:
            ENGINE.play(state, 0, move)
        assert excinfo.value.code == code, move
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, {"type": "start", "dice": [2]})
    assert excinfo.value.code == "too_many_rows"


def test_judgement_start_may_take_from_own_row_and_a_lone_figure_moves_to_the_end() -> None:
    """docs/rules.md MAEDN-11."""
    state = position(2, hands=[[5, 6], [1, 1]], rows={0: [[5], [20]]})
    after = play(state, 0, {"type": "start", "dice": [5]})
    assert rows_of(after, 0) == [[20], [5]]
    check_invariants(after)


def test_judgement_both_piles_empty_leaves_the_hand_short() -> None:
    """docs/rules.md MAEDN-6."""
    assert draw_up([3], [], [], 5) == ((3,), (), (), 5)
    assert draw_up([3], [], [4], 5)[0] == (3, 4)


def test_legal_moves_list_every_legal_move_and_only_those() -> None:
    state = position(
        3, hands=[[3, 6], [1, 1], [1, 1]], rows={0: [[3], [30, 37]], 1: [[6]], 2: [[2, 6]]}
    )
    moves = ENGINE.legal_moves(state, 0)
    assert sorted(json.dumps(m, sort_keys=True) for m in moves) == sorted(
        json.dumps(m, sort_keys=True)
        for m in [
            {"type": "start", "dice": [3]},  # the other 3 lies in the middle
            {"type": "start", "dice": [6], "from": 1},
            {"type": "start", "dice": [6], "from": 2},
            {"type": "start", "dice": [3, 6]},
            {"type": "extend", "row": 0, "die": 3, "from": 1},
            {"type": "extend", "row": 0, "die": 3, "from": 2},
            {"type": "extend", "row": 0, "die": 6},
            {"type": "extend", "row": 1, "die": 3},
        ]
    )
    for move in moves:
        check_invariants(ENGINE.play(state, 0, move))


def test_log_lines_state_public_facts() -> None:
    state = position(3, hands=[[2, 4], [1, 1], [1, 1]], rows={1: [[4]], 2: [[1, 4, 7]]})
    move = {"type": "start", "dice": [4], "from": 1}
    after = play(state, 0, move)
    assert ENGINE.log_line(state, 0, move, after) == {
        "seat": 0,
        "type": "start",
        "dice": [4],
        "row": 0,
        "figure": 4,
        "taken_from": "stolen",
        "from_seat": 1,
        "from_row": 0,
        "row_vanished": True,
        "finished": None,
        "score": 0,
        "end": None,
    }
    dead = position(2, hands=[[4, 6], [1, 1]], rows={0: [[35, 37], [36, 38], [39]]})
    after = play(dead, 0, {"type": "discard", "die": 4})
    line = ENGINE.log_line(dead, 0, {"type": "discard", "die": 4}, after)
    assert line == {"seat": 0, "type": "discard", "die": 4, "score": 0, "end": None}
    won = position(2, hands=[[1, 1], [1, 1]], rows={0: [[38, 39]]}, scores=[36, 0])
    after = play(won, 0, {"type": "extend", "row": 0, "die": 1})
    line = ENGINE.log_line(won, 0, {"type": "extend", "row": 0, "die": 1}, after)
    assert line["finished"] == {"figures": [38, 39, 40], "points": 8}
    assert line["score"] == 44 and line["end"] == {"reason": "target", "winner": 0}


def test_dump_and_load_round_trip_and_reject_nonsense() -> None:
    state = ENGINE.new_game(4, 77)
    state = play(state, 0, ENGINE.legal_moves(state, 0)[-1])
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state
    with pytest.raises(ValueError):
        ENGINE.load({"players": 2})
    with pytest.raises(ValueError):
        ENGINE.load({**data, "pile": ["x"]})
    with pytest.raises(ValueError):
        ENGINE.load({**data, "players": 7})
    assert dataclasses.replace(state) == state
