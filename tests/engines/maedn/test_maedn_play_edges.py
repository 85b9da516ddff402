"""The must-play rule at the edge of 40, and whose plays count (pinned after the
mutation run of 2026-11-30; see docs/testing.md)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.base import IllegalMove
from engines.maedn import ENGINE, rules
from tests.engines.maedn.maedn_positions import position


def test_a_die_that_reaches_exactly_40_is_a_play_so_no_discard() -> None:
    # three open rows (no start); only 36 + 4 fits, and it lands exactly on 40
    state = position(2, hands=[[4, 5], [1, 1]], rows={0: [[37], [38], [36]]})
    assert rules.has_play(state, 0)
    assert ENGINE.legal_moves(state, 0) == [{"type": "extend", "row": 2, "die": 4}]
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, {"type": "discard", "die": 5})
    assert excinfo.value.code == "must_play"


def test_an_empty_hand_has_no_play() -> None:
    assert not rules.has_play(position(2, hands=[[], [1, 1]]), 0)


def test_only_the_seat_to_move_has_plays_and_none_once_the_game_is_over() -> None:
    state = position(2, hands=[[2, 6], [1, 3]])
    assert rules.plays(state, 0)
    assert rules.plays(state, 1) == []
    assert rules.plays(dataclasses.replace(state, end="target", winner=1), 0) == []
