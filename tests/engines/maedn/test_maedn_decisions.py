"""One test per MÄDN item of docs/rules.md (MAEDN-1 to MAEDN-17, and ALL-3), named after
it; each test's docstring names the items it checks."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from engines import prng
from engines.base import IllegalMove
from engines.maedn import ENGINE, cards, rules
from engines.maedn.state import State
from tests.engines.maedn.maedn_positions import check_invariants, play, position, rows_of


def codes(state: State, seat: int, move: dict[str, Any]) -> str:
    """The code of the refusal of a well-formed move."""
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, seat, move)
    assert not excinfo.value.malformed
    assert excinfo.value.message
    return excinfo.value.code


def test_maedn_decision_cards() -> None:
    """docs/rules.md MAEDN-1 and MAEDN-3."""
    two = cards.figure_counts(2)
    assert sum(two) == 40 and all(two[figure] == 1 for figure in cards.FIGURES)
    for players in (3, 4):
        counts = cards.figure_counts(players)
        assert sum(counts) == 50
        assert [counts[f] for f in range(1, 11)] == [2] * 10
        assert [counts[f] for f in range(11, 41)] == [1] * 30
    assert Counter(cards.dice_deck()) == {1: 22, 2: 22, 3: 22, 4: 22, 5: 21, 6: 21}
    assert len(cards.dice_deck()) == 130
    for players in (2, 3, 4):
        state = ENGINE.new_game(players, 99)
        assert state.middle == cards.figure_counts(players)
        assert all(len(hand) == 2 for hand in state.hands)
        assert len(state.pile) == 130 - 2 * players
        # hands are hidden: a seat sees its own dice only
        view = ENGINE.view(state, 1)
        assert view["hand"] == list(state.hands[1])
        assert view["hand_sizes"] == [2] * players


def test_maedn_decision_stars() -> None:
    """docs/rules.md MAEDN-2."""
    starred = {5: 1, 10: 1, 15: 1, 20: 1, 25: 1, 30: 1, 35: 1, 36: 1, 37: 1, 38: 2, 39: 3}
    assert {f: cards.stars(f) for f in cards.FIGURES if cards.stars(f)} == starred
    assert cards.stars(40) == 0
    # both copies of 5 and 10 carry the star: a figure is known by its number alone
    assert cards.row_points([5, 10, 40]) == 5


def test_maedn_decision_turn_start_row() -> None:
    """docs/rules.md MAEDN-4."""
    state = position(2, hands=[[2, 6], [1, 1]])
    assert ENGINE.legal_moves(state, 0) == [
        {"type": "start", "dice": [2]},
        {"type": "start", "dice": [6]},
        {"type": "start", "dice": [2, 6]},
    ]
    # either order of the two dice is the same play: their sum
    assert rows_of(play(state, 0, {"type": "start", "dice": [6, 2]}), 0) == [[8]]
    assert rows_of(play(state, 0, {"type": "start", "dice": [6]}), 0) == [[6]]
    # a pair needs both dice in hand
    assert codes(state, 0, {"type": "start", "dice": [2, 2]}) == "die_not_in_hand"
    doubles = position(2, hands=[[3, 3], [1, 1]])
    assert rows_of(play(doubles, 0, {"type": "start", "dice": [3, 3]}), 0) == [[6]]
    # only with fewer than three open rows
    full = position(2, hands=[[2, 6], [1, 1]], rows={0: [[11], [21], [31]]})
    assert codes(full, 0, {"type": "start", "dice": [2]}) == "too_many_rows"
    assert all(m["type"] == "extend" for m in ENGINE.legal_moves(full, 0))
    two_open = position(2, hands=[[2, 6], [1, 1]], rows={0: [[11], [21]]})
    assert rows_of(play(two_open, 0, {"type": "start", "dice": [2]}), 0) == [[11], [21], [2]]


def test_maedn_decision_three_rows_are_counted_before_the_figure_is_taken() -> None:
    """docs/rules.md MAEDN-4."""
    # two players, one copy of each figure: my lone 2 would leave its row if taken,
    # but with three open rows before the move there is no start
    state = position(2, hands=[[2, 6], [1, 1]], rows={0: [[2], [21], [31]]})
    assert codes(state, 0, {"type": "start", "dice": [2]}) == "too_many_rows"
    assert all(m["type"] == "extend" for m in ENGINE.legal_moves(state, 0))
    # with two open rows the same start takes the lone 2 and opens a row at the end
    two = position(2, hands=[[2, 6], [1, 1]], rows={0: [[2], [21]]})
    assert rows_of(play(two, 0, {"type": "start", "dice": [2]}), 0) == [[21], [2]]


def test_maedn_decision_extend() -> None:
    """docs/rules.md MAEDN-5."""
    state = position(2, hands=[[3, 6], [1, 1]], rows={0: [[30, 36]]})
    after = play(state, 0, {"type": "extend", "row": 0, "die": 3})
    assert rows_of(after, 0) == [[30, 36, 39]]
    # never past 40
    assert codes(state, 0, {"type": "extend", "row": 0, "die": 6}) == "past_40"
    assert {"type": "extend", "row": 0, "die": 6} not in ENGINE.legal_moves(state, 0)
    # only one die at a time: an extend move has no "dice"
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, {"type": "extend", "row": 0, "dice": [3, 6]})
    assert excinfo.value.malformed
    assert codes(state, 0, {"type": "extend", "row": 1, "die": 3}) == "unknown_row"


def test_maedn_decision_draw_back_and_reshuffle() -> None:
    """docs/rules.md MAEDN-6 and ALL-5."""
    state = position(2, hands=[[2, 6], [1, 1]], pile=[4, 5])
    after = play(state, 0, {"type": "start", "dice": [2, 6]})
    assert after.hands[0] == (4, 5)  # drawn from the top of the pile, back to two
    assert after.discard == (2, 6)
    one = play(state, 0, {"type": "start", "dice": [2]})
    assert one.hands[0] == (5, 6)
    # an empty draw pile: the discard pile, with the dice just played, is shuffled
    empty = dataclasses.replace(state, pile=(), discard=state.pile)
    after = play(empty, 0, {"type": "start", "dice": [2, 6]})
    expected, rng = prng.shuffled(empty.rng, [*empty.discard, 2, 6])
    assert after.hands[0] == tuple(sorted(expected[-2:]))
    assert after.pile == tuple(expected[:-2])
    assert after.discard == () and after.rng == rng
    check_invariants(after)


def test_maedn_decision_take_from_middle() -> None:
    """docs/rules.md MAEDN-7."""
    # seat 1 holds one 5, the other copy lies in the middle: it comes from there
    state = position(3, hands=[[5, 6], [1, 1], [1, 1]], rows={1: [[5, 9]]})
    after = play(state, 0, {"type": "start", "dice": [5]})
    assert rows_of(after, 0) == [[5]] and rows_of(after, 1) == [[5, 9]]
    assert after.middle[5] == 0


def test_maedn_decision_take_from_own_row() -> None:
    """docs/rules.md MAEDN-7, MAEDN-8 and MAEDN-11."""
    # the middle has no 7; one copy is seat 1's, one is mine: I must take mine
    state = position(3, hands=[[3, 6], [1, 1], [1, 1]], rows={0: [[3, 7, 9], [4]], 1: [[7]]})
    assert {"type": "extend", "row": 1, "die": 3} in ENGINE.legal_moves(state, 0)
    after = play(state, 0, {"type": "extend", "row": 1, "die": 3})
    assert rows_of(after, 0) == [[3, 9], [4, 7]]
    assert rows_of(after, 1) == [[7]]
    move = {"type": "extend", "row": 1, "die": 3, "from": 1}
    assert codes(state, 0, move) == "from_not_allowed"


def test_maedn_decision_steal() -> None:
    """docs/rules.md MAEDN-7."""
    state = position(2, hands=[[3, 6], [1, 1]], rows={0: [[9]], 1: [[8, 12, 15]]})
    after = play(state, 0, {"type": "extend", "row": 0, "die": 3})
    assert rows_of(after, 0) == [[9, 12]] and rows_of(after, 1) == [[8, 15]]
    line = ENGINE.log_line(state, 0, {"type": "extend", "row": 0, "die": 3}, after)
    assert (line["taken_from"], line["from_seat"], line["from_row"]) == ("stolen", 1, 0)


def test_maedn_decision_steal_choose_victim() -> None:
    """docs/rules.md MAEDN-8."""
    state = position(3, hands=[[6, 1], [1, 1], [1, 1]], rows={1: [[2, 6]], 2: [[6, 8]]})
    moves = ENGINE.legal_moves(state, 0)
    assert {"type": "start", "dice": [6], "from": 1} in moves
    assert {"type": "start", "dice": [6], "from": 2} in moves
    assert {"type": "start", "dice": [6]} not in moves
    assert codes(state, 0, {"type": "start", "dice": [6]}) == "from_required"
    assert codes(state, 0, {"type": "start", "dice": [6], "from": 0}) == "bad_from"
    assert codes(state, 0, {"type": "start", "dice": [6], "from": 5}) == "bad_from"
    after = play(state, 0, {"type": "start", "dice": [6], "from": 2})
    assert rows_of(after, 2) == [[8]] and rows_of(after, 1) == [[2, 6]]
    assert rows_of(after, 0) == [[6]]


def test_maedn_decision_both_copies_in_own_rows_take_first_started() -> None:
    """docs/rules.md MAEDN-9."""
    state = position(3, hands=[[2, 5], [1, 1], [1, 1]], rows={0: [[2, 6], [3, 6, 9], [4]]})
    after = play(state, 0, {"type": "extend", "row": 2, "die": 2})
    assert rows_of(after, 0) == [[2], [3, 6, 9], [4, 6]]


def test_maedn_decision_close_gap() -> None:
    """docs/rules.md MAEDN-12."""
    state = position(2, hands=[[1, 1], [2, 6]], turn=1, rows={0: [[1, 5, 8, 12]], 1: [[3]]})
    after = play(state, 1, {"type": "extend", "row": 0, "die": 2})
    assert rows_of(after, 0) == [[1, 8, 12]]
    assert rows_of(after, 1) == [[3, 5]]


def test_maedn_decision_row_vanishes() -> None:
    """docs/rules.md MAEDN-12."""
    # the victim's only figure: their row ceases to exist, later rows move up
    state = position(2, hands=[[3, 6], [1, 1]], rows={0: [[9]], 1: [[12], [20, 22]]})
    after = play(state, 0, {"type": "extend", "row": 0, "die": 3})
    assert rows_of(after, 1) == [[20, 22]]  # now row 0 of seat 1
    # my own row vanishes: the row I extended is renumbered for the next move
    state = position(2, hands=[[5, 6], [1, 1]], rows={0: [[9], [4], [20]]})
    after = play(state, 0, {"type": "extend", "row": 1, "die": 5})
    assert rows_of(after, 0) == [[4, 9], [20]]
    line = ENGINE.log_line(state, 0, {"type": "extend", "row": 1, "die": 5}, after)
    assert line["taken_from"] == "own_row" and line["row_vanished"] is True
    again = dataclasses.replace(after, turn=0, hands=((1, 2), after.hands[1]))
    assert rows_of(play(again, 0, {"type": "extend", "row": 0, "die": 2}), 0) == [[4, 9, 11], [20]]


def test_maedn_decision_must_play() -> None:
    """docs/rules.md MAEDN-13."""
    # the 6 overshoots, but the 2 fits: no discard allowed
    state = position(2, hands=[[2, 6], [1, 1]], rows={0: [[35, 37], [36, 38], [30]]})
    moves = ENGINE.legal_moves(state, 0)
    assert all(m["type"] != "discard" for m in moves)
    assert codes(state, 0, {"type": "discard", "die": 6}) == "must_play"
    fresh = position(2, hands=[[2, 6], [1, 1]])
    assert codes(fresh, 0, {"type": "discard", "die": 2}) == "must_play"


def test_maedn_decision_dead_end_discard() -> None:
    """docs/rules.md MAEDN-14."""
    state = position(2, hands=[[4, 6], [1, 1]], rows={0: [[35, 37], [36, 38], [39]]}, pile=[3])
    assert ENGINE.legal_moves(state, 0) == [
        {"type": "discard", "die": 4},
        {"type": "discard", "die": 6},
    ]
    after = play(state, 0, {"type": "discard", "die": 6})
    assert after.hands[0] == (3, 4)  # kept the 4, drew back to two
    assert after.discard == (6,)
    assert after.rows == state.rows and after.turn == 1
    assert codes(state, 0, {"type": "discard", "die": 5}) == "die_not_in_hand"
    pair = dataclasses.replace(state, hands=((6, 6), (1, 1)))
    assert ENGINE.legal_moves(pair, 0) == [{"type": "discard", "die": 6}]


def test_maedn_decision_finishing_exactly_40() -> None:
    """docs/rules.md MAEDN-15."""
    state = position(
        2,
        hands=[[4, 5], [1, 1]],
        rows={0: [[30, 36], [11], [21]]},
    )
    assert codes(state, 0, {"type": "extend", "row": 0, "die": 5}) == "past_40"
    after = play(state, 0, {"type": "extend", "row": 0, "die": 4})
    assert after.scores[0] == cards.row_points([30, 36, 40]) == 5
    assert rows_of(after, 0) == [[11], [21]]
    assert after.middle[30] == after.middle[36] == after.middle[40] == 1
    # finished rows don't count toward the three-row limit
    again = dataclasses.replace(after, turn=0, hands=((1, 2), (1, 1)))
    assert {"type": "start", "dice": [1, 2]} in ENGINE.legal_moves(again, 0)
    assert len(play(again, 0, {"type": "start", "dice": [1, 2]}).rows[0]) == 3


@pytest.mark.parametrize(("players", "target"), [(2, 40), (3, 35), (4, 30)])
def test_maedn_decision_winning_thresholds(players: int, target: int) -> None:
    """docs/rules.md MAEDN-16."""
    hands = [[2, 3]] + [[1, 1]] * (players - 1)
    points = cards.row_points([36, 38, 40])  # 6
    short = position(players, hands=hands, rows={0: [[36, 38]]}, scores=[target - points - 1])
    after = play(short, 0, {"type": "extend", "row": 0, "die": 2})
    assert not after.over and after.scores[0] == target - 1
    just = position(players, hands=hands, rows={0: [[36, 38]]}, scores=[target - points])
    after = play(just, 0, {"type": "extend", "row": 0, "die": 2})
    assert after.over and after.winner == 0 and after.end == "target"
    assert ENGINE.to_act(after) == []
    assert ENGINE.legal_moves(after, 0) == []
    result = ENGINE.result(after)
    assert result is not None
    assert result["scores"][0] == target and result["ranks"][0] == 1
    assert codes(after, 1, {"type": "start", "dice": [1]}) == "game_over"


def test_maedn_decision_stolen_figure_one_opponent_holding_both_copies_gives_the_older_row() -> (
    None
):
    """docs/rules.md MAEDN-10 and MAEDN-8."""
    state = position(3, hands=[[4, 1], [1, 1], [1, 1]], rows={1: [[1, 4], [2, 4, 9]]})
    moves = ENGINE.legal_moves(state, 0)
    assert {"type": "start", "dice": [4]} in moves  # no choice to make: no "from"
    after = play(state, 0, {"type": "start", "dice": [4]})
    assert rows_of(after, 1) == [[1], [2, 4, 9]]
    # naming the victim is refused: "from" is only for a choice between two players
    assert codes(state, 0, {"type": "start", "dice": [4], "from": 1}) == "from_not_allowed"


def test_maedn_decision_termination_guard_300_rounds_without_a_finished_row() -> None:
    """docs/rules.md MAEDN-17 and ALL-4."""
    assert rules.QUIET_ROUNDS == 300
    limit = rules.QUIET_ROUNDS * 2  # turns: 300 full rounds of two players
    state = position(
        2, hands=[[2, 6], [1, 1]], finished={1: [[36, 38, 40]]}, scores=[0, 6], quiet=limit - 2
    )
    state = play(state, 0, {"type": "start", "dice": [2]})
    assert not state.over and state.quiet == limit - 1
    state = play(state, 1, ENGINE.legal_moves(state, 1)[0])
    assert state.over and state.end == "stalled" and state.winner is None
    assert ENGINE.result(state) == {"scores": [0, 6], "ranks": [2, 1]}
    # finishing a row resets the count
    near = position(2, hands=[[2, 6], [1, 1]], rows={0: [[36, 38]]}, quiet=limit - 1)
    assert play(near, 0, {"type": "extend", "row": 0, "die": 2}).quiet == 0


def test_maedn_decision_winning_move_ends_the_game_without_drawing_back() -> None:
    """docs/rules.md MAEDN-16."""
    points = cards.row_points([36, 38, 40])
    state = position(2, hands=[[2, 3], [1, 1]], rows={0: [[36, 38]]}, scores=[40 - points])
    after = play(state, 0, {"type": "extend", "row": 0, "die": 2})
    assert after.over and after.winner == 0
    assert after.hands[0] == (3,)  # the die left over; nothing drawn
    assert after.pile == state.pile and after.rng == state.rng
    assert after.discard == (*state.discard, 2)
    assert ENGINE.view(after, 1)["hand_sizes"] == [1, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_maedn_decision_first_player(players: int) -> None:
    """docs/rules.md ALL-3 and ALL-2."""
    state = ENGINE.new_game(players, 2024)
    order = []
    for _ in range(players + 1):
        seat = ENGINE.to_act(state)[0]
        order.append(seat)
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert order == [*range(players), 0]
