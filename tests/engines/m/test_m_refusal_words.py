"""Every refusal of M's rules word for word (pinned after the mutation run of
2026-11-30 found the wording unchecked; see docs/testing.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.m import ENGINE
from engines.m.state import State
from tests.engines.m.m_moves import Builder, place, take
from tests.engines.m.test_m_decisions_scoring import CROSS

SIX_WIDE = ["blue-30-cube", "blue-10-cube", "blue-20-cube", "blue-40-cube", "blue-0-a"]


def _words(state: State, seat: int, move: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, seat, move)
    return excinfo.value.code, excinfo.value.message


def test_refusals_while_placing_word_for_word(build: Builder) -> None:
    state = build(
        {(0, 0): "blue-30-cube"}, [["brown-30-triangle", "red-10-triangle"], ["green-0-a"]]
    )
    brown = place("brown-30-triangle", (0, 1))
    assert _words(replace(state, phase="over"), 0, brown) == ("game_over", "The game is over.")
    assert _words(state, 1, place("green-0-a", (0, 1))) == (
        "not_your_turn",
        "It is not your turn.",
    )
    assert _words(state, 0, take("blue-30-cube")) == (
        "wrong_phase",
        "It is your turn to place a card or pass.",
    )
    assert _words(state, 0, place("green-0-a", (0, 1))) == (
        "not_in_hand",
        "The green 0 is not in your hand.",
    )
    assert _words(state, 0, place("brown-30-triangle", (0, 0))) == (
        "occupied",
        "There is already a card at [0, 0].",
    )
    assert _words(state, 0, place("brown-30-triangle", (2, 2))) == (
        "not_adjacent",
        "A card must touch the side of a card on the table; [2, 2] touches none.",
    )
    assert _words(state, 0, place("red-10-triangle", (0, 1))) == (
        "mismatch",
        "The red 10 triangle shares no colour, value or symbol with the blue 30 cube "
        "to the left (at [0, 0]).",
    )
    wide = build(
        {(0, c): card for c, card in enumerate([*SIX_WIDE, "blue-10-triangle"])},
        [["brown-30-triangle"], ["green-0-a"]],
    )
    assert _words(wide, 0, place("brown-30-triangle", (0, 6))) == (
        "box_exceeded",
        "A card at [0, 6] would stretch the table past 6 by 6.",
    )


def test_refusals_of_a_pass_word_for_word(build: Builder) -> None:
    state = build({(0, 0): "blue-30-cube"}, [["brown-30-triangle"], ["green-0-a"]])
    assert _words(replace(state, tokens=(0, 6)), 0, {"type": "pass"}) == (
        "pass_needs_token",
        "You can still place a card; passing by choice costs a token and you have none.",
    )
    assert _words(state, 0, {"type": "pass", "swap": "green-0-a"}) == (
        "not_in_hand",
        "The green 0 is not in your hand.",
    )
    no_pile = build({(0, 0): "blue-30-cube"}, [["brown-30-triangle"], ["green-0-a"]], pile=[])
    assert _words(no_pile, 0, {"type": "pass", "swap": "brown-30-triangle"}) == (
        "empty_pile",
        "The draw pile is empty: there is nothing to swap with.",
    )


def test_refusals_while_scoring_word_for_word(build: Builder) -> None:
    state = build(CROSS, [["blue-0-b"], ["red-20-cube"], ["brown-0-b"]], turn=1)
    choosing = ENGINE.play(state, 1, place("red-20-cube", (2, 2)))
    assert _words(choosing, 1, take("blue-0-a")) == (
        "wrong_phase",
        "Choose the row or the column to score first.",
    )
    assert _words(replace(choosing, lines=("row",)), 1, {"type": "line", "line": "col"}) == (
        "line_not_offered",
        "The col does not qualify for scoring.",
    )
    col = ENGINE.play(choosing, 1, {"type": "line", "line": "col"})
    assert _words(col, 1, {"type": "line", "line": "col"}) == (
        "wrong_phase",
        "Take a card from the line being scored first.",
    )
    assert _words(col, 1, take("blue-0-a")) == (
        "not_in_run",
        "The blue 0 is not part of the col being scored.",
    )
    assert _words(col, 1, take("blue-0-b")) == ("not_on_table", "The blue 0 is not on the table.")
    assert _words(col, 1, take("yellow-20-cube")) == (
        "would_split",
        "Taking the yellow 20 cube would split the cards on the table into separate groups.",
    )
