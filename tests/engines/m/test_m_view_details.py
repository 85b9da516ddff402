"""Fields of M's view and log lines that a leak test can't tell apart from a wrong value.

Each test pins a value the mutation run (`make mutate`) showed no other test checked:
who counts as seated, the table's bounding box off the origin, the latest placement,
and what the log says of a pass, a line and a take.
"""

from __future__ import annotations

from typing import Any

from engines.m import ENGINE
from tests.engines.m.conftest import Builder, ids

CROSS = {
    (2, 0): "blue-0-a", (2, 1): "red-20-triangle", (2, 3): "brown-10-cube",
    (2, 4): "brown-0-a", (0, 2): "green-0-a", (1, 2): "yellow-20-cube",
    (3, 2): "red-40-moebius", (4, 2): "green-0-b",
}  # fmt: skip


def test_seat_zero_sees_its_hand_and_a_seat_past_the_last_sees_what_a_spectator_sees() -> None:
    state = ENGINE.new_game(3, 7)
    first = ENGINE.view(state, 0)
    assert first["game"] == "m" and first["seat"] == 0
    assert [c["id"] for c in first["hand"]] == ids(state.hands[0])
    assert ENGINE.view(state, 3) == ENGINE.view(state, None)
    assert ENGINE.view(state, -1) == ENGINE.view(state, None)


def test_the_box_measures_a_table_that_reaches_into_negative_cells(build: Builder) -> None:
    table = {(-2, -3): "blue-10-circle", (-1, -3): "brown-40-cross", (0, -1): "red-40-triangle"}
    view = ENGINE.view(build(table, [["red-20-cube"], ["green-0-a"]]), None)
    assert view["table"][0] == {
        "at": [-2, -3],
        "card": {"id": "blue-10-circle", "colour": "blue", "value": 10, "symbol": "circle"},
    }
    assert view["box"] | {"limit": 0} == {
        "top": -2, "left": -3, "bottom": 0, "right": -1, "height": 3, "width": 3, "limit": 0,
    }  # fmt: skip


def test_the_latest_placement_is_marked_and_no_line_choice_is_offered_without_one(
    build: Builder,
) -> None:
    row = {(0, 0): "blue-10-circle", (0, 1): "brown-40-cross"}
    state = build(row, [["red-20-cube", "blue-0-a"], ["brown-0-a"]])
    after = ENGINE.play(state, 0, {"type": "place", "card": "blue-0-a", "at": [1, 0]})
    view = ENGINE.view(after, 1)
    assert view["last"] == [1, 0]
    assert view["choice"] is None and view["scoring"] is None


def test_log_of_a_placement_that_completes_a_row_and_a_column_says_choose(
    build: Builder,
) -> None:
    state = build(CROSS, [["red-20-cube"], ["blue-0-b"]])
    move = {"type": "place", "card": "red-20-cube", "at": [2, 2]}
    after = ENGINE.play(state, 0, move)
    assert ENGINE.log_line(state, 0, move, after)["scoring"] == "choose"
    line: dict[str, Any] = {"type": "line", "line": "col"}
    chosen = ENGINE.play(after, 0, line)
    assert ENGINE.log_line(after, 0, line, chosen) == {"seat": 0, "type": "line", "line": "col"}


def test_log_of_a_pass_names_the_seat_on_the_right_only_when_a_token_went(
    build: Builder,
) -> None:
    hands = [["green-0-a"], ["blue-0-b"], ["red-20-cube"]]
    table = {(0, 0): "blue-40-cube"}
    for tokens, gave in [(1, {"seat": 2, "tokens": 1}), (0, None), (2, {"seat": 2, "tokens": 1})]:
        state = build(table, hands, tokens=[tokens, 6, 6])
        after = ENGINE.play(state, 0, {"type": "pass"})
        line = ENGINE.log_line(state, 0, {"type": "pass"}, after)
        assert line == {"seat": 0, "type": "pass", "swapped": False, "gave": gave}


def test_log_of_a_take_says_whether_the_placer_drew(build: Builder) -> None:
    row = {
        (0, 0): "blue-10-circle", (0, 1): "brown-40-cross",
        (0, 2): "red-40-triangle", (0, 4): "yellow-20-cube",
    }  # fmt: skip
    state = build(row, [["red-20-cube", "blue-0-a"], ["brown-0-a"], ["green-0-a"]])
    state = ENGINE.play(state, 0, {"type": "place", "card": "red-20-cube", "at": [0, 3]})
    lines = []
    while ENGINE.view(state, None)["scoring"] is not None:
        seat = ENGINE.to_act(state)[0]
        take = ENGINE.legal_moves(state, seat)[0]
        after = ENGINE.play(state, seat, take)
        lines.append(ENGINE.log_line(state, seat, take, after))
        state = after
    assert [line["phase_over"] for line in lines] == [False] * (len(lines) - 1) + [True]
    assert [line["drew"] for line in lines] == [False] * (len(lines) - 1) + [True]
