"""What seats see, what the log says, what the result holds."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from engines.blokus import BlokusEngine
from engines.blokus.rules import State

Game = Callable[[str, int, bool, int], Iterator[State]]

VIEW_KEYS = {
    "variant",
    "size",
    "players",
    "free_corners",
    "you",
    "board",
    "colours",
    "seats",
    "to_move",
    "over",
    "start_points",
    "pieces",
}
COLOUR_KEYS = {
    "index",
    "name",
    "seat",
    "owner",
    "start",
    "remaining",
    "squares_left",
    "placed",
    "score",
    "out",
    "last_piece",
    "last_cells",
}


def test_view_has_the_documented_shape(engine: BlokusEngine) -> None:
    state = engine.new_game(4, 9)
    view = engine.view(state, 2)
    assert set(view) == VIEW_KEYS
    assert view["you"] == 2 and view["variant"] == "classic" and view["size"] == 20
    assert view["board"] == ["." * 20] * 20
    assert all(set(c) == COLOUR_KEYS for c in view["colours"])
    assert view["to_move"] == {"colour": 0, "name": "blue", "seat": 0}
    assert view["start_points"] == [[0, 0], [0, 19], [19, 19], [19, 0]]
    assert view["pieces"]["F"] == [[0, 1], [0, 2], [1, 0], [1, 1], [2, 1]]
    assert view["colours"][1]["start"] == [0, 19]
    assert view["seats"][0] == {"seat": 0, "colours": [0], "score": -89}
    json.dumps(view)


def test_board_marks_colours_and_last_placements(engine: BlokusEngine) -> None:
    state = engine.new_game(4, 9)
    state = engine.play(state, 0, {"piece": "V3", "cells": [[0, 0], [1, 0], [1, 1]]})
    state = engine.play(state, 1, {"piece": "I2", "cells": [[0, 19], [0, 18]]})
    view = engine.view(state, None)
    assert view["board"][0] == "0" + "." * 17 + "11"
    assert view["board"][1].startswith("00.")
    blue, yellow, red = view["colours"][:3]
    assert blue["last_piece"] == "V3" and blue["last_cells"] == [[0, 0], [1, 0], [1, 1]]
    assert yellow["last_cells"] == [[0, 18], [0, 19]] and yellow["placed"] == 1
    assert red["last_piece"] is None and red["last_cells"] == []
    assert "V3" not in blue["remaining"] and blue["squares_left"] == 86 and blue["score"] == -86
    assert view["start_points"] == [[19, 19], [19, 0]]
    assert view["to_move"] == {"colour": 2, "name": "red", "seat": 2}


def test_every_seat_and_spectators_see_the_same_facts(engine: BlokusEngine, game: Game) -> None:
    """docs/rules.md BLOKUS-13."""
    for state in list(game("classic", 3, False, 4))[::10]:
        views = [engine.view(state, seat) for seat in (None, 0, 1, 2)]
        for view in views:
            view.pop("you")
        assert all(view == views[0] for view in views)


def test_two_player_view_names_seats_and_owners(engine: BlokusEngine) -> None:
    view = engine.view(engine.new_game(2, 9), 1)
    assert [c["seat"] for c in view["colours"]] == [0, 1, 0, 1]
    assert [c["owner"] for c in view["colours"]] == [0, 1, 0, 1]
    assert view["seats"] == [
        {"seat": 0, "colours": [0, 2], "score": -178},
        {"seat": 1, "colours": [1, 3], "score": -178},
    ]


def test_three_player_view_shows_green_as_shared(engine: BlokusEngine) -> None:
    view = engine.view(engine.new_game(3, 9), 0)
    green = view["colours"][3]
    assert green["owner"] is None and green["seat"] == 0
    assert [s["colours"] for s in view["seats"]] == [[0], [1], [2]]


def test_log_line_names_seat_colour_piece_cells(engine: BlokusEngine) -> None:
    state = engine.new_game(2, 9)
    move = {"piece": "L4", "cells": [[2, 0], [0, 0], [1, 0], [2, 1]]}
    after = engine.play(state, 0, move)
    line = engine.log_line(state, 0, move, after)
    assert line == {
        "seat": 0,
        "colour": "blue",
        "piece": "L4",
        "cells": [[0, 0], [1, 0], [2, 0], [2, 1]],
        "blocked": [],
        "over": False,
    }
    json.dumps(line)


def test_log_line_reports_the_end(engine: BlokusEngine, game: Game) -> None:
    states = list(game("duo", 2, False, 3))
    before, after = states[-2], states[-1]
    seat = engine.to_act(before)[0]
    line = engine.log_line(before, seat, {}, after)
    assert line["over"] is True and line["seat"] == seat
    names = ("purple", "orange")
    newly = [name for name, was, now in zip(names, before.out, after.out, strict=True) if now > was]
    assert line["blocked"] == newly
    assert line["blocked"]


def test_result_lists_colour_scores(engine: BlokusEngine, game: Game) -> None:
    end = list(game("classic", 2, False, 8))[-1]
    result = engine.result(end)
    assert result is not None
    colours = result["colours"]
    assert [c["colour"] for c in colours] == ["blue", "yellow", "red", "green"]
    assert result["scores"] == [
        colours[0]["score"] + colours[2]["score"],
        colours[1]["score"] + colours[3]["score"],
    ]
    view = engine.view(end, None)
    assert view["over"] is True and view["to_move"] is None
    assert [s["score"] for s in view["seats"]] == result["scores"]
    json.dumps(result)
