"""The examples of the M rulebook (named in docs/rules.md), rebuilt as positions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engines.base import IllegalMove
from engines.m import ENGINE
from engines.m.cards import DECK, INDEX
from engines.m.state import State

Builder = Callable[..., State]


def card(card_id: str) -> int:
    return INDEX[card_id]


def ids(cards: tuple[int, ...]) -> list[str]:
    return [DECK[c].id for c in cards]


def place(card_id: str, at: tuple[int, int]) -> dict[str, object]:
    return {"type": "place", "card": card_id, "at": list(at)}


def test_rulebook_two_30s_match_on_value(build: Builder) -> None:
    # Different colour, different symbol, same value: the card may be placed.
    state = build({(0, 0): "blue-30-cube"}, [["brown-30-triangle"], ["red-0-a"]])
    assert place("brown-30-triangle", (0, 1)) in ENGINE.legal_moves(state, 0)
    after = ENGINE.play(state, 0, place("brown-30-triangle", (0, 1)))
    assert after.grid[(0, 1)] == card("brown-30-triangle")


def test_rulebook_green_20_triangle_between_green_40_and_red_30_triangle(build: Builder) -> None:
    # Colour with the green 40 to its right, symbol with the red 30 triangle above.
    state = build(
        {(0, 1): "red-30-triangle", (1, 2): "green-40-circle"},
        [["green-20-triangle"], ["blue-0-a"], ["brown-0-a"]],
    )
    after = ENGINE.play(state, 0, place("green-20-triangle", (1, 1)))
    assert after.grid[(1, 1)] == card("green-20-triangle")
    # two neighbours: one token, from the player on the right (seat 2)
    assert after.tokens == (7, 6, 5)


def test_rulebook_red_20_moebius_over_a_green_0_is_illegal(build: Builder) -> None:
    # Matches the red card above (colour) and the 20 to the right (value), not the green 0 below.
    state = build(
        {(0, 1): "red-40-circle", (1, 2): "blue-20-cube", (2, 1): "green-0-a"},
        [["red-20-moebius"], ["blue-0-a"]],
    )
    move = place("red-20-moebius", (1, 1))
    assert move not in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, 0, move)
    assert excinfo.value.code == "mismatch"
    assert not excinfo.value.malformed
    assert "green 0 below" in excinfo.value.message


def test_rulebook_red_20_cube_triggers_scoring_and_earns_a_token(build: Builder) -> None:
    # Fifth card of a row: red with the card to its left, cube and 20 with the one to its right.
    row = {
        (0, 0): "blue-10-circle",
        (0, 1): "brown-40-cross",
        (0, 2): "red-40-triangle",
        (0, 4): "yellow-20-cube",
    }
    state = build(row, [["red-20-cube", "blue-0-a"], ["brown-0-a"], ["green-0-a"]])
    after = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    assert after.tokens == (7, 6, 5)
    assert after.phase == "take"
    assert after.line == "row"
    assert after.run == ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4))
    # the placer takes first ("takes the pillar marker")
    assert ENGINE.to_act(after) == [0]
    # a lone row: only its ends can go without splitting it
    takes = [move["card"] for move in ENGINE.legal_moves(after, 0)]
    assert takes == ["blue-10-circle", "yellow-20-cube"]
    view = ENGINE.view(after, 1)
    assert view["expect"] == "take"
    assert view["scoring"]["line"] == "row"
    assert [item["takeable"] for item in view["scoring"]["run"]] == [
        True,
        False,
        False,
        False,
        True,
    ]
    assert ids(after.hands[0]) == ["blue-0-a"]  # no draw before the scoring phase is over
