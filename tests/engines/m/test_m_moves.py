"""Moves of M: malformed ones, forbidden ones (each with its own code), legal_moves,
snapshots."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.m import ENGINE
from engines.m.state import State

Builder = Callable[..., State]
Positions = Callable[..., list[State]]

MALFORMED: list[Any] = [
    None,
    [],
    "place",
    {},
    {"type": None},
    {"type": 3},
    {"type": "jump"},
    {"type": "place"},
    {"type": "place", "card": "blue-40-cube"},
    {"type": "place", "at": [0, 0]},
    {"type": "place", "card": "blue-50-cube", "at": [0, 0]},
    {"type": "place", "card": 7, "at": [0, 0]},
    {"type": "place", "card": "blue-40-cube", "at": [0]},
    {"type": "place", "card": "blue-40-cube", "at": [0, 0, 0]},
    {"type": "place", "card": "blue-40-cube", "at": "0,0"},
    {"type": "place", "card": "blue-40-cube", "at": [0.5, 1]},
    {"type": "place", "card": "blue-40-cube", "at": [True, 0]},
    {"type": "place", "card": "blue-40-cube", "at": [0, 10**9]},
    {"type": "place", "card": "blue-40-cube", "at": [0, 0], "extra": 1},
    {"type": "pass", "swap": "nothing"},
    {"type": "pass", "swap": 4},
    {"type": "pass", "card": "blue-40-cube"},
    {"type": "line"},
    {"type": "line", "line": "diagonal"},
    {"type": "take"},
    {"type": "take", "card": "joker"},
]


@pytest.mark.parametrize("move", MALFORMED)
def test_malformed_moves_are_refused_as_malformed(move: Any) -> None:
    state = ENGINE.new_game(3, 1)
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, move)
    assert excinfo.value.malformed and excinfo.value.message and excinfo.value.code


def forbidden(state: State, seat: int, move: dict[str, Any]) -> str:
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, seat, move)
    assert not excinfo.value.malformed and excinfo.value.message
    assert move not in ENGINE.legal_moves(state, seat)
    return excinfo.value.code


ROW = {
    (0, 0): "blue-10-circle",
    (0, 1): "brown-40-cross",
    (0, 2): "red-40-triangle",
    (0, 4): "yellow-20-cube",
}


def test_each_forbidden_move_has_its_own_code(build: Builder) -> None:
    state = build(
        {**ROW, (1, 0): "green-0-a"},
        [["red-20-cube", "blue-20-cross", "yellow-40-moebius"], ["brown-0-a"]],
        tokens=[0, 12],
    )
    checks = [
        (forbidden(state, 1, {"type": "pass"}), "not_your_turn"),
        (forbidden(state, 0, {"type": "place", "card": "brown-0-a", "at": [1, 1]}), "not_in_hand"),
        (forbidden(state, 0, {"type": "place", "card": "red-20-cube", "at": [0, 0]}), "occupied"),
        (
            forbidden(state, 0, {"type": "place", "card": "red-20-cube", "at": [3, 3]}),
            "not_adjacent",
        ),
        (forbidden(state, 0, {"type": "place", "card": "red-20-cube", "at": [2, 0]}), "mismatch"),
        (forbidden(state, 0, {"type": "pass"}), "pass_needs_token"),
        (forbidden(state, 0, {"type": "take", "card": "blue-10-circle"}), "wrong_phase"),
        (forbidden(state, 0, {"type": "line", "line": "row"}), "wrong_phase"),
    ]
    wide = build(
        {**ROW, (0, 3): "red-20-cube", (0, 5): "yellow-40-cube"},
        [["yellow-10-circle"], ["brown-0-a"]],
        pile=[],
    )
    checks.append(
        (
            forbidden(wide, 0, {"type": "place", "card": "yellow-10-circle", "at": [0, -1]}),
            "box_exceeded",
        )
    )
    checks.append((forbidden(wide, 0, {"type": "pass", "swap": "yellow-10-circle"}), "empty_pile"))
    scoring = ENGINE.play(
        build(ROW, [["red-20-cube", "blue-0-a"], ["brown-0-a"]]),
        0,
        {"type": "place", "card": "red-20-cube", "at": [0, 3]},
    )
    checks.append((forbidden(scoring, 0, {"type": "take", "card": "brown-0-a"}), "not_on_table"))
    checks.append(
        (forbidden(scoring, 0, {"type": "take", "card": "red-40-triangle"}), "would_split")
    )
    checks.append((forbidden(scoring, 0, {"type": "pass"}), "wrong_phase"))
    checks.append(
        (forbidden(scoring, 1, {"type": "take", "card": "blue-10-circle"}), "not_your_turn")
    )
    choosing = build(ROW, [["blue-0-a"], ["brown-0-a"]], phase="line", lines=("row",), last=(0, 2))
    checks.append((forbidden(choosing, 0, {"type": "line", "line": "col"}), "line_not_offered"))
    over = build(ROW, [["blue-0-a"], ["brown-0-a"]], phase="over", ended="guard")
    checks.append((forbidden(over, 0, {"type": "pass"}), "game_over"))
    assert [code for code, _ in checks] == [expected for _, expected in checks]
    assert len({code for code, _ in checks}) == 13  # each reason its own code (+ not_in_run)


def test_not_in_run_for_a_table_card_outside_the_scored_line(build: Builder) -> None:
    state = build({**ROW, (1, 1): "green-0-a"}, [["red-20-cube", "blue-0-a"], ["brown-0-a"]])
    state = ENGINE.play(state, 0, {"type": "place", "card": "red-20-cube", "at": [0, 3]})
    assert forbidden(state, 0, {"type": "take", "card": "green-0-a"}) == "not_in_run"


def test_mismatch_names_the_neighbour(build: Builder) -> None:
    state = build({(0, 0): "blue-40-cube", (1, 1): "red-10-triangle"}, [["red-20-moebius"], []])
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, {"type": "place", "card": "red-20-moebius", "at": [0, 1]})
    assert "blue 40 cube to the left" in excinfo.value.message
    assert "[0, 0]" in excinfo.value.message


@pytest.mark.parametrize("players", [2, 3, 5])
def test_legal_moves_are_exactly_the_accepted_ones(players: int, positions: Positions) -> None:
    for state in positions(players, 300 + players, every=4):
        acting = ENGINE.to_act(state)
        for seat in range(players):
            if seat not in acting:
                assert ENGINE.legal_moves(state, seat) == []
        if not acting:
            continue
        seat = acting[0]
        legal = ENGINE.legal_moves(state, seat)
        assert len({str(m) for m in legal}) == len(legal)
        candidates = [{"type": "pass"}]
        candidates += [{"type": "line", "line": line} for line in ("row", "col")]
        dumped = ENGINE.dump(state)
        for card_id in dumped["hands"][seat]:
            candidates.append({"type": "pass", "swap": card_id})
            for r in range(-7, 9):
                for c in range(-7, 9):
                    candidates.append({"type": "place", "card": card_id, "at": [r, c]})
        candidates += [{"type": "take", "card": item["card"]} for item in dumped["table"]]
        frozen = copy.deepcopy(dumped)
        for move in candidates:
            try:
                ENGINE.play(state, seat, move)
                accepted = True
            except IllegalMove as error:
                assert not error.malformed
                accepted = False
            assert accepted == (move in legal), move
        assert ENGINE.dump(state) == frozen


def test_placements_list_every_hand_card_on_every_legal_cell(build: Builder) -> None:
    state = build({(0, 0): "blue-30-cube"}, [["brown-30-triangle", "blue-10-cross"], ["red-0-a"]])
    places = [(m["card"], m["at"]) for m in ENGINE.legal_moves(state, 0) if m["type"] == "place"]
    cells = [[-1, 0], [0, -1], [0, 1], [1, 0]]
    assert places == [("brown-30-triangle", cell) for cell in cells] + [
        ("blue-10-cross", cell) for cell in cells
    ]
    passes = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "pass"]
    assert passes == [
        {"type": "pass"},
        {"type": "pass", "swap": "brown-30-triangle"},
        {"type": "pass", "swap": "blue-10-cross"},
    ]


def test_snapshots_round_trip_and_bad_ones_are_refused() -> None:
    state = ENGINE.new_game(5, 77)
    data = ENGINE.dump(state)
    assert ENGINE.load(copy.deepcopy(data)) == state
    broken = copy.deepcopy(data)
    broken["pile"].append(broken["pile"][0])
    with pytest.raises(ValueError):
        ENGINE.load(broken)
    missing = {key: value for key, value in data.items() if key != "tokens"}
    with pytest.raises(ValueError):
        ENGINE.load(missing)
    with pytest.raises(ValueError):
        ENGINE.load({**data, "phase": "dancing"})


def test_bad_player_counts_are_refused() -> None:
    from engines.base import BadOptions

    for players in (1, 7):
        with pytest.raises(BadOptions):
            ENGINE.new_game(players, 1)
    with pytest.raises(BadOptions):
        ENGINE.new_game(3, 1, {"variant": True})
    assert (ENGINE.name, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == ("m", "M", 2, 6)
