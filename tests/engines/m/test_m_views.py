"""What each seat sees of a game of M, and what the log says: never a hidden card."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engines.m import ENGINE
from engines.m.state import State

Variants = Callable[[State, int | None], list[State]]
Positions = Callable[..., list[State]]
Builder = Callable[..., State]

VIEW_KEYS = {
    "game", "players", "seat", "phase", "turn", "to_act", "expect", "hand", "hand_sizes",
    "pile", "removed", "tokens", "collections", "table", "box", "open_cells", "pays", "last",
    "choice", "scoring", "scores", "ended", "resigned", "result",
}  # fmt: skip
CARD_KEYS = {"id", "colour", "value", "symbol"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_views_are_equal_for_states_differing_only_in_hidden_cards(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    """docs/rules.md M-22."""
    checked = 0
    for state in positions(players, 40 + players, every=3):
        for viewer in [None, *range(players)]:
            seen = ENGINE.view(state, viewer)
            for variant in hidden_variants(state, viewer):
                assert ENGINE.view(variant, viewer) == seen
                checked += 1
    assert checked > 100


def test_a_changed_hand_does_show_to_its_owner(hidden_variants: Variants) -> None:
    # the leak test above would pass trivially if views ignored hands altogether
    state = ENGINE.new_game(3, 5)
    variants = [v for v in hidden_variants(state, 0) if v.hands[1] != state.hands[1]]
    assert variants
    assert all(ENGINE.view(v, 1) != ENGINE.view(state, 1) for v in variants)


def test_view_shape_for_a_seat_and_a_spectator() -> None:
    state = ENGINE.new_game(4, 123)
    mine = ENGINE.view(state, 2)
    watcher = ENGINE.view(state, None)
    assert set(mine) == set(watcher) == VIEW_KEYS
    assert mine["seat"] == 2 and watcher["seat"] is None
    assert watcher["hand"] is None
    assert [c["id"] for c in mine["hand"]] == ENGINE.dump(state)["hands"][2]
    assert all(set(c) == CARD_KEYS for c in mine["hand"])
    assert mine["hand_sizes"] == [4, 4, 4, 4] and mine["tokens"] == [6, 6, 6, 6]
    assert [item["at"] for item in mine["table"]] == [[0, 1], [0, 3], [1, 0], [1, 2], [1, 4]]
    assert mine["box"] == {
        "top": 0, "left": 0, "bottom": 1, "right": 4, "height": 2, "width": 5, "limit": 6,
    }  # fmt: skip
    assert mine["expect"] == "place_or_pass" and mine["to_act"] == [0]
    assert [1, 1] in mine["open_cells"] and [2, 5] not in mine["open_cells"]
    assert mine["scoring"] is None and mine["choice"] is None and mine["result"] is None
    text = json.dumps(mine) + json.dumps(watcher)
    for seat in (0, 1, 3):
        for card_id in ENGINE.dump(state)["hands"][seat]:
            assert card_id not in text
    for card_id in ENGINE.dump(state)["pile"] + ENGINE.dump(state)["removed"]:
        assert card_id not in text
    assert "rng" not in text


def test_view_of_a_line_choice_and_a_scoring_phase(build: Builder) -> None:
    cross = {
        (2, 0): "blue-0-a", (2, 1): "red-20-triangle", (2, 3): "brown-10-cube",
        (2, 4): "brown-0-a", (0, 2): "green-0-a", (1, 2): "yellow-20-cube",
        (3, 2): "red-40-moebius", (4, 2): "green-0-b",
    }  # fmt: skip
    state = build(cross, [["red-20-cube"], ["blue-0-b"]])
    state = ENGINE.play(state, 0, {"type": "place", "card": "red-20-cube", "at": [2, 2]})
    choice = ENGINE.view(state, 1)
    assert choice["expect"] == "line" and choice["to_act"] == [0]
    assert choice["choice"] == {
        "lines": {
            "row": [[2, 0], [2, 1], [2, 2], [2, 3], [2, 4]],
            "col": [[0, 2], [1, 2], [2, 2], [3, 2], [4, 2]],
        }
    }
    state = ENGINE.play(state, 0, {"type": "line", "line": "row"})
    state = ENGINE.play(state, 0, {"type": "take", "card": "blue-0-a"})
    scoring = ENGINE.view(state, None)["scoring"]
    assert scoring["line"] == "row" and scoring["placer"] == 0 and scoring["taker"] == 1
    assert [item["at"] for item in scoring["run"]] == [[2, 1], [2, 2], [2, 3], [2, 4]]
    takeable = [item["card"]["id"] for item in scoring["run"] if item["takeable"]]
    assert takeable == [m["card"] for m in ENGINE.legal_moves(state, 1)]
    assert ENGINE.view(state, None)["collections"][0][0]["id"] == "blue-0-a"
    assert ENGINE.view(state, 1)["scores"][0]["best"] == ["blue"]


def test_log_lines_are_public_and_never_name_the_swapped_card(build: Builder) -> None:
    """docs/rules.md M-22 and M-8."""
    state = build(
        {(0, 0): "blue-40-cube"},
        [["red-10-triangle", "red-30-triangle"], ["blue-0-a"]],
        pile=["yellow-0-a", "yellow-0-b"],
    )
    lines = []
    for swap in ("red-10-triangle", "red-30-triangle"):
        move = {"type": "pass", "swap": swap}
        line = ENGINE.log_line(state, 0, move, ENGINE.play(state, 0, move))
        assert swap not in json.dumps(line)
        lines.append(line)
    assert lines[0] == lines[1]
    plain = ENGINE.log_line(state, 0, {"type": "pass"}, ENGINE.play(state, 0, {"type": "pass"}))
    assert plain == {"seat": 0, "type": "pass", "swapped": False, "gave": {"seat": 1, "tokens": 1}}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_log_lines_depend_only_on_public_facts(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    for state in positions(players, 90 + players, every=2):
        acting = ENGINE.to_act(state)
        if not acting:
            continue
        seat = acting[0]
        for move in ENGINE.legal_moves(state, seat)[:3]:
            line = ENGINE.log_line(state, seat, move, ENGINE.play(state, seat, move))
            json.dumps(line)
            assert line["seat"] == seat and line["type"] == move["type"]
            for variant in hidden_variants(state, None):
                if seat == ENGINE.to_act(variant)[0] and move in ENGINE.legal_moves(variant, seat):
                    after = ENGINE.play(variant, seat, move)
                    if move["type"] == "pass" and "swap" in move:
                        continue  # the swapping seat's own card may differ in a variant
                    seen = ENGINE.log_line(variant, seat, move, after)
                    expected = line
                    if "jammed" in (seen.get("ended"), line.get("ended")):
                        # End (d) is decided by the cards still in play: that the table
                        # jammed is the one hidden fact a game's end makes public.
                        seen.pop("ended", None)
                        expected = {k: v for k, v in line.items() if k != "ended"}
                    assert seen == expected


def test_log_line_of_a_placement_a_line_and_a_take(build: Builder) -> None:
    row = {
        (0, 0): "blue-10-circle", (0, 1): "brown-40-cross",
        (0, 2): "red-40-triangle", (0, 4): "yellow-20-cube",
    }  # fmt: skip
    state = build(row, [["red-20-cube", "blue-0-a"], ["brown-0-a"], ["green-0-a"]])
    move: dict[str, Any] = {"type": "place", "card": "red-20-cube", "at": [0, 3]}
    after = ENGINE.play(state, 0, move)
    line = ENGINE.log_line(state, 0, move, after)
    assert line == {
        "seat": 0,
        "type": "place",
        "card": {"id": "red-20-cube", "colour": "red", "value": 20, "symbol": "cube"},
        "at": [0, 3],
        "neighbours": 2,
        "tokens": {"owed": 1, "earned": 1, "paid_by": [{"seat": 2, "tokens": 1}], "lost": 0},
        "scoring": "row",
        "drew": False,
    }
    take = {"type": "take", "card": "yellow-20-cube"}
    line = ENGINE.log_line(after, 0, take, ENGINE.play(after, 0, take))
    assert line["card"]["id"] == "yellow-20-cube" and line["at"] == [0, 4]
    assert line["phase_over"] is False
