"""Every refusal of MÄDN's rules word for word, each a sentence that says what to do
(pinned after the mutation run of 2026-11-30 found the wording unchecked; see
docs/testing.md)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.maedn import ENGINE
from engines.maedn.state import State
from tests.engines.maedn.maedn_positions import position

THREE_ROWS = position(2, hands=[[2, 6], [1, 1]], rows={0: [[5], [11], [38]]})
NO_ROWS = position(2, hands=[[2, 6], [1, 1]])
EMPTY_HAND = position(2, hands=[[], [1, 1]])
# both copies of figure 2 lie with seats 1 and 2: seat 0 must say whom it takes from
TWO_HOLDERS = position(3, hands=[[2, 6], [1, 1], [1, 1]], rows={1: [[2]], 2: [[2]]})
ONE_PLACE = position(3, hands=[[2, 6], [1, 1], [1, 1]])
OVER = dataclasses.replace(THREE_ROWS, end="target", winner=1)

REFUSALS: list[tuple[State, int, dict[str, Any], str, str]] = [
    (OVER, 0, {"type": "start", "dice": [2]}, "game_over", "The game is over."),
    (
        THREE_ROWS,
        1,
        {"type": "start", "dice": [1]},
        "not_your_turn",
        ("It is seat 0's turn, not seat 1's."),
    ),
    (
        THREE_ROWS,
        0,
        {"type": "start", "dice": [5]},
        "die_not_in_hand",
        ("You hold no 5 to play (your dice: 2 and 6)."),
    ),
    (
        EMPTY_HAND,
        0,
        {"type": "start", "dice": [5]},
        "die_not_in_hand",
        ("You hold no 5 to play (your dice: nothing)."),
    ),
    (
        THREE_ROWS,
        0,
        {"type": "discard", "die": 2},
        "must_play",
        ("You may only discard when you can neither start nor extend a row."),
    ),
    (
        THREE_ROWS,
        0,
        {"type": "start", "dice": [2]},
        "too_many_rows",
        ("You already have 3 open rows; extend one instead."),
    ),
    (
        THREE_ROWS,
        0,
        {"type": "extend", "row": 3, "die": 2},
        "unknown_row",
        ("You have no row 3; your open rows are numbered 0 to 2."),
    ),
    (
        NO_ROWS,
        0,
        {"type": "extend", "row": 0, "die": 2},
        "unknown_row",
        ("You have no open row to extend; start one."),
    ),
    (
        THREE_ROWS,
        0,
        {"type": "extend", "row": 2, "die": 6},
        "past_40",
        ("Row 2 ends at 38; a 6 would pass 40."),
    ),
    (
        ONE_PLACE,
        0,
        {"type": "start", "dice": [2], "from": 1},
        "from_not_allowed",
        ("Figure 2 can only come from one place; leave out 'from'."),
    ),
    (
        TWO_HOLDERS,
        0,
        {"type": "start", "dice": [2]},
        "from_required",
        ("Two players hold figure 2: say whom you take it from (seat 1 or seat 2)."),
    ),
    (
        TWO_HOLDERS,
        0,
        {"type": "start", "dice": [2], "from": 0},
        "bad_from",
        ("Seat 0 does not hold figure 2; take it from seat 1 or seat 2."),
    ),
]


@pytest.mark.parametrize(
    ("state", "seat", "move", "code", "message"), REFUSALS, ids=[r[3] for r in REFUSALS]
)
def test_each_refusal_word_for_word(
    state: State, seat: int, move: dict[str, Any], code: str, message: str
) -> None:
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, seat, move)
    refused = excinfo.value
    assert (refused.code, refused.message) == (code, message)
    assert not refused.malformed
