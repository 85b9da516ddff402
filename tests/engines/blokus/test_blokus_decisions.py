"""One test per Blokus item of docs/rules.md (BLOKUS-1 to BLOKUS-12, and ALL-4), in its
order; each test's docstring names the items it checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from engines.base import BadOptions, IllegalMove
from engines.blokus import BlokusEngine, rules
from engines.blokus.pieces import PIECE_NAMES, PIECE_SIZES, SHAPES
from engines.blokus.rules import State

Build = Callable[..., State]
Game = Callable[[str, int, bool, int], Iterator[State]]
CORNERS = {"blue": (0, 0), "yellow": (0, 19), "red": (19, 19), "green": (19, 0)}


def _covers(move: dict[str, object], cell: tuple[int, int]) -> bool:
    return list(cell) in move["cells"]  # type: ignore[operator]


def _all_pieces(
    variant: str = "classic", *, last: str = "I1", skip: tuple[str, ...] = ()
) -> list[tuple[str, list[tuple[int, int]]]]:
    """Each piece once (in its base shape at the top left), ``last`` last: for scoring."""
    names = [name for name in PIECE_NAMES if name != last and name not in skip]
    if last not in skip:
        names.append(last)
    shapes = dict(zip(PIECE_NAMES, SHAPES, strict=True))
    return [(name, list(shapes[name])) for name in names]


def _over(
    build: Build, placed: dict[int, list[tuple[str, list[tuple[int, int]]]]], **kw: object
) -> State:
    colours = 2 if kw.get("variant") == "duo" else 4
    return build(placed, turn=None, out=[True] * colours, **kw)


def test_decision_board_20x20_and_colour_order_blue_yellow_red_green(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-1, BLOKUS-9 and ALL-2."""
    state = engine.new_game(4, 1)
    view = engine.view(state, None)
    assert (
        view["size"] == 20 and len(view["board"]) == 20 and {len(r) for r in view["board"]} == {20}
    )
    assert [c["name"] for c in view["colours"]] == ["blue", "yellow", "red", "green"]
    seen = []
    for _ in range(8):
        seen.append(engine.view(state, None)["to_move"]["name"])
        assert engine.to_act(state) == [state.turn]
        state = engine.play(state, state.turn or 0, engine.legal_moves(state, state.turn or 0)[0])
    assert seen == ["blue", "yellow", "red", "green"] * 2


def test_decision_21_pieces_with_canonical_names(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-2."""
    view = engine.view(engine.new_game(4, 1), None)
    names = [
        "I1",
        "I2",
        "I3",
        "V3",
        "I4",
        "L4",
        "T4",
        "O4",
        "Z4",
        "F",
        "I5",
        "L5",
        "N",
        "P",
        "T5",
        "U",
        "V5",
        "W",
        "X",
        "Y",
        "Z5",
    ]
    assert list(view["pieces"]) == names
    assert all(c["remaining"] == names for c in view["colours"])


def test_decision_start_corners_default(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-3, BLOKUS-9 and ALL-1."""
    state = engine.new_game(4, 1)
    for seat, (name, corner) in enumerate(CORNERS.items()):
        moves = engine.legal_moves(state, seat)
        assert moves and all(_covers(m, corner) for m in moves), name
        later = [list(c) for c in CORNERS.values()][seat + 1 :]  # corners not covered yet
        for cell in [*later, [10, 10]]:
            with pytest.raises(IllegalMove) as excinfo:
                engine.play(state, seat, {"piece": "I1", "cells": [cell]})
            assert excinfo.value.code == "not_on_start" and not excinfo.value.malformed
        state = engine.play(state, seat, {"piece": "I1", "cells": [list(corner)]})


def test_decision_free_corners_any_uncovered_corner(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-4."""
    state = engine.new_game(4, 1, {"free_corners": True})
    moves = engine.legal_moves(state, 0)
    assert {c for c in CORNERS.values() if any(_covers(m, c) for m in moves)} == set(
        CORNERS.values()
    )
    state = engine.play(state, 0, {"piece": "I1", "cells": [[19, 19]]})  # red's usual corner
    moves = engine.legal_moves(state, 1)
    assert all(sum(_covers(m, c) for c in CORNERS.values()) == 1 for m in moves)
    assert not any(_covers(m, (19, 19)) for m in moves)
    for seat, corner in ((1, [0, 0]), (2, [0, 19]), (3, [19, 0])):
        state = engine.play(state, seat, {"piece": "I1", "cells": [corner]})
    # Blue's later pieces need a corner of blue, not another start point.
    assert all(_covers(m, (18, 18)) for m in engine.legal_moves(state, 0))
    assert engine.view(state, None)["start_points"] == []


def test_decision_edge_contact_forbidden(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-5."""
    state = engine.new_game(4, 1)
    for seat, corner in enumerate(CORNERS.values()):
        state = engine.play(state, seat, {"piece": "I1", "cells": [list(corner)]})
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(state, 0, {"piece": "V3", "cells": [[1, 1], [0, 1], [1, 2]]})
    assert excinfo.value.code == "edge_contact" and not excinfo.value.malformed
    for move in engine.legal_moves(state, 0):
        assert not any(_covers(move, cell) for cell in ((0, 1), (1, 0)))


def test_decision_corner_contact_required(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-5."""
    state = engine.new_game(4, 1)
    for seat, corner in enumerate(CORNERS.values()):
        state = engine.play(state, seat, {"piece": "I1", "cells": [list(corner)]})
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(state, 0, {"piece": "I2", "cells": [[5, 5], [5, 6]]})
    assert excinfo.value.code == "no_corner_contact" and not excinfo.value.malformed
    assert all(_covers(m, (1, 1)) for m in engine.legal_moves(state, 0))
    engine.play(state, 0, {"piece": "I2", "cells": [[1, 1], [1, 2]]})


def test_decision_other_colours_may_touch_along_edges(engine: BlokusEngine, build: Build) -> None:
    """docs/rules.md BLOKUS-5."""
    state = build({0: [("V3", [(0, 0), (1, 0), (1, 1)])], 1: [("I2", [(2, 3), (3, 3)])]})
    after = engine.play(state, 0, {"piece": "I1", "cells": [[2, 2]]})
    assert engine.view(after, None)["board"][2][2:4] == "01"


def test_decision_blocked_colour_skipped(engine: BlokusEngine, build: Build) -> None:
    """docs/rules.md BLOKUS-6."""
    # Blue's only corner (1,1) is taken by red; green's move makes blue's turn come next.
    state = build(
        {
            0: [("I1", [(0, 0)])],
            1: [("I1", [(0, 19)])],
            2: [("I1", [(19, 19)]), ("V3", [(1, 1), (1, 2), (2, 1)])],
        },
        turn=3,
    )
    after = engine.play(state, 3, {"piece": "I1", "cells": [[19, 0]]})
    assert after.out == (True, False, False, False)
    assert engine.to_act(after) == [1]  # no pass move: blue is skipped
    assert engine.legal_moves(after, 0) == [] and rules.legal_placements(after, 0) == []
    assert engine.log_line(state, 3, {}, after)["blocked"] == ["blue"]
    assert engine.view(after, 0)["colours"][0]["out"] is True


def test_decision_blocked_colour_stays_out(game: Game) -> None:
    """docs/rules.md BLOKUS-6."""
    for seed in range(3):
        blocked: set[int] = set()
        for state in game("classic", 4, False, seed):
            assert blocked <= {c for c, out in enumerate(state.out) if out}
            assert state.turn not in blocked
            blocked |= {c for c, out in enumerate(state.out) if out}
            for colour in blocked:
                assert rules.legal_placements(state, colour) == []


def test_decision_all_placed_colour_is_out(build: Build) -> None:
    """docs/rules.md BLOKUS-6."""
    state = build({0: _all_pieces()})
    assert not rules.has_any_move(state, 0)
    assert rules.legal_placements(state, 0) == []


def test_decision_game_over_when_no_colour_can_place(engine: BlokusEngine, game: Game) -> None:
    """docs/rules.md BLOKUS-7."""
    states = list(game("classic", 4, False, 5))
    end = states[-1]
    assert all(s.turn is not None and engine.result(s) is None for s in states[:-1])
    assert end.turn is None and engine.to_act(end) == [] and all(end.out)
    assert all(rules.legal_placements(end, c) == [] for c in range(4))
    assert engine.result(end) is not None
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(end, 0, {"piece": "I1", "cells": [[10, 10]]})
    assert excinfo.value.code == "game_over"


def test_decision_score_minus_one_per_square(engine: BlokusEngine, build: Build) -> None:
    """docs/rules.md BLOKUS-8."""
    state = _over(build, {0: [("I5", [(0, c) for c in range(5)]), ("I1", [(1, 5)])]})
    assert rules.colour_scores(state) == [-(89 - 6), -89, -89, -89]
    assert engine.result(state)["scores"] == [-83, -89, -89, -89]  # type: ignore[index]


def test_decision_all_placed_plus_15(build: Build) -> None:
    """docs/rules.md BLOKUS-8."""
    assert rules.colour_scores(_over(build, {0: _all_pieces(last="X")}))[0] == 15
    one_left = _all_pieces(last="X", skip=("I1",))
    assert rules.colour_scores(_over(build, {0: one_left}))[0] == -1


def test_decision_last_i1_plus_5(build: Build) -> None:
    """docs/rules.md BLOKUS-8."""
    assert rules.colour_scores(_over(build, {0: _all_pieces(last="I1")}))[0] == 20
    assert rules.colour_score([PIECE_NAMES.index("I1")]) == -(89 - 1)  # no bonus on its own


def test_decision_two_players_seat0_blue_red_seat1_yellow_green(
    engine: BlokusEngine, build: Build
) -> None:
    """docs/rules.md BLOKUS-10."""
    state = engine.new_game(2, 1)
    acting = []
    for _ in range(8):
        acting.append(engine.to_act(state)[0])
        state = engine.play(state, acting[-1], engine.legal_moves(state, acting[-1])[0])
    assert acting == [0, 1, 0, 1, 0, 1, 0, 1]
    assert [c["seat"] for c in engine.view(state, 0)["colours"]] == [0, 1, 0, 1]
    end = _over(build, {0: _all_pieces(), 1: _all_pieces(skip=("X",))}, players=2)
    result = engine.result(end)
    assert result is not None
    assert [c["score"] for c in result["colours"]] == [20, -5, -89, -89]
    assert result["scores"] == [20 - 89, -5 - 89] and result["ranks"] == [1, 2]


def test_decision_three_players_green_shared_rotation_and_unscored(
    engine: BlokusEngine, game: Game
) -> None:
    """docs/rules.md BLOKUS-11."""
    green_moves = 0
    for state in game("classic", 3, False, 2):
        if state.turn == 3:
            assert engine.to_act(state) == [len(state.placed[3]) % 3]
            assert engine.view(state, None)["colours"][3]["seat"] == len(state.placed[3]) % 3
            green_moves += 1
        elif state.turn is not None:
            assert engine.to_act(state) == [state.turn]
    assert green_moves >= 4
    result = engine.result(state)
    assert result is not None
    colours = result["colours"]
    assert result["scores"] == [c["score"] for c in colours[:3]]
    assert colours[3]["colour"] == "green" and colours[3]["owner"] is None


def test_decision_duo_14x14_purple_orange_start_points(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-12."""
    assert engine.player_counts({"variant": "duo"}) == [2]
    state = engine.new_game(2, 1, {"variant": "duo"})
    view = engine.view(state, 0)
    assert view["size"] == 14 and len(view["board"]) == 14
    assert [c["name"] for c in view["colours"]] == ["purple", "orange"]
    assert view["start_points"] == [[4, 4], [9, 9]]
    assert all(_covers(m, (4, 4)) for m in engine.legal_moves(state, 0))
    state = engine.play(state, 0, engine.legal_moves(state, 0)[0])
    assert engine.to_act(state) == [1]
    assert all(_covers(m, (9, 9)) for m in engine.legal_moves(state, 1))


def test_decision_duo_is_for_exactly_two_players(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-12."""
    for players in (3, 4):
        with pytest.raises(BadOptions) as excinfo:
            engine.new_game(players, 1, {"variant": "duo"})
        assert "exactly 2 players" in excinfo.value.message


def test_decision_duo_free_corners_either_start_point(engine: BlokusEngine) -> None:
    """docs/rules.md BLOKUS-12 and BLOKUS-4."""
    state = engine.new_game(2, 1, {"variant": "duo", "free_corners": True})
    state = engine.play(state, 0, {"piece": "I1", "cells": [[9, 9]]})
    assert all(_covers(m, (4, 4)) for m in engine.legal_moves(state, 1))


def test_decision_duo_same_scoring(engine: BlokusEngine, build: Build) -> None:
    """docs/rules.md BLOKUS-12."""
    end = _over(
        build, {0: _all_pieces(), 1: _all_pieces(skip=("F", "I1"))}, variant="duo", players=2
    )
    result = engine.result(end)
    assert result is not None and result["scores"] == [20, -6] and result["ranks"] == [1, 2]


def test_decision_equal_scores_share_rank(engine: BlokusEngine, build: Build) -> None:
    """docs/rules.md ALL-4."""
    end = _over(build, {0: _all_pieces(skip=("X",)), 1: _all_pieces(skip=("W",)), 3: _all_pieces()})
    result = engine.result(end)
    assert result is not None
    assert result["scores"] == [-5, -5, -89, 20]
    assert result["ranks"] == [2, 2, 4, 1]


def test_rulebook_example_scores_20_minus8_minus24_minus20(
    engine: BlokusEngine, build: Build
) -> None:
    """docs/rules.md BLOKUS-8. The rulebook's finished game: blue placed all, I1 last; the others are stuck with
    yellow: two 4-square pieces; red: one 3, four 4s and one 5; green: one 3, three 4s, one 5."""
    end = _over(
        build,
        {
            0: _all_pieces(last="I1"),
            1: _all_pieces(skip=("L4", "T4")),
            2: _all_pieces(skip=("I3", "I4", "L4", "T4", "O4", "F")),
            3: _all_pieces(skip=("V3", "I4", "Z4", "O4", "X")),
        },
    )
    left = {c["name"]: c["squares_left"] for c in engine.view(end, None)["colours"]}
    assert left == {"blue": 0, "yellow": 8, "red": 24, "green": 20}
    result = engine.result(end)
    assert result is not None
    assert result["scores"] == [20, -8, -24, -20]
    assert result["ranks"] == [1, 2, 4, 3]
    assert sum(PIECE_SIZES) == 89
