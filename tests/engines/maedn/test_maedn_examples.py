"""The rulebook's worked examples, played through the engine."""

from __future__ import annotations

from engines.maedn import ENGINE, cards
from tests.engines.maedn.maedn_positions import play, position, rows_of

MARIE, LUKAS = 0, 1


def test_rulebook_marie_starts_with_2_and_6_and_takes_the_8() -> None:
    state = position(2, hands=[[2, 6], [1, 1]])
    after = play(state, MARIE, {"type": "start", "dice": [2, 6]})
    assert rows_of(after, MARIE) == [[8]]
    assert after.middle[8] == 0
    line = ENGINE.log_line(state, MARIE, {"type": "start", "dice": [2, 6]}, after)
    assert line["figure"] == 8 and line["taken_from"] == "middle" and line["dice"] == [2, 6]


def test_rulebook_marie_extends_her_row_to_12_then_15() -> None:
    state = position(2, hands=[[4, 5], [1, 1]], rows={MARIE: [[8]]})
    state = play(state, MARIE, {"type": "extend", "row": 0, "die": 4})
    assert rows_of(state, MARIE) == [[8, 12]]
    state = position(2, hands=[[3, 5], [1, 1]], rows={MARIE: [[8, 12]]})
    state = play(state, MARIE, {"type": "extend", "row": 0, "die": 3})
    assert rows_of(state, MARIE) == [[8, 12, 15]]


def test_rulebook_lukas_at_9_plays_a_3_and_takes_maries_12() -> None:
    state = position(
        2, turn=LUKAS, hands=[[1, 1], [3, 5]], rows={MARIE: [[8, 12, 15]], LUKAS: [[9]]}
    )
    move = {"type": "extend", "row": 0, "die": 3}
    after = play(state, LUKAS, move)
    assert rows_of(after, LUKAS) == [[9, 12]]
    assert rows_of(after, MARIE) == [[8, 15]]  # the gap is closed
    line = ENGINE.log_line(state, LUKAS, move, after)
    assert line["taken_from"] == "stolen" and line["from_seat"] == MARIE


def test_rulebook_marie_finishes_8_to_40_for_7_figures_and_4_stars() -> None:
    row = [8, 15, 20, 28, 33, 38]
    state = position(2, hands=[[2, 5], [1, 1]], rows={MARIE: [row]})
    move = {"type": "extend", "row": 0, "die": 2}
    after = play(state, MARIE, move)
    assert after.scores[MARIE] == 11
    assert after.rows[MARIE] == ()
    assert after.finished[MARIE] == ((*row, 40),)
    for figure in (*row, 40):
        assert after.middle[figure] == 1  # sorted back into the middle
    line = ENGINE.log_line(state, MARIE, move, after)
    assert line["finished"] == {"figures": [*row, 40], "points": 11}


def test_rulebook_figure_39_carries_3_stars_and_is_worth_4_points() -> None:
    assert cards.stars(39) == 3
    assert cards.row_points([39]) == 4
