"""The engine's moves against a deliberately naive generator.

The reference knows nothing of bitmasks or placement tables: it turns each piece's
picture every way, slides it over every offset of the board the view shows, and
checks the rules cell by cell.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.blokus import ENGINE, rules
from engines.blokus.rules import State

Move = tuple[str, frozenset[tuple[int, int]]]
Turns = dict[str, list[list[tuple[int, int]]]]
START_POINTS = {"classic": [(0, 0), (0, 19), (19, 19), (19, 0)], "duo": [(4, 4), (9, 9)]}
EDGES = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _turns(picture: list[str]) -> list[list[tuple[int, int]]]:
    cells = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "#"]
    found = set()
    for flip in (1, -1):
        for turn in range(4):
            moved = [(r, c * flip) for r, c in cells]
            for _ in range(turn):
                moved = [(c, -r) for r, c in moved]
            top = min(r for r, _ in moved)
            left = min(c for _, c in moved)
            found.add(tuple(sorted((r - top, c - left) for r, c in moved)))
    return [list(shape) for shape in sorted(found)]


@pytest.fixture(scope="module")
def turns(pictures: dict[str, list[str]]) -> Turns:
    return {name: _turns(picture) for name, picture in pictures.items()}


def naive_moves(turns: Turns, view: dict[str, Any], colour: int) -> set[Move]:
    """Every legal placement of ``colour`` found by brute force from the view alone."""
    board: list[str] = view["board"]
    size = len(board)
    mine = str(colour)
    own = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == mine}
    # A cell is closed to this colour if anything covers it or it borders its own
    # colour along an edge; it is a corner to build from if it touches it diagonally.
    closed = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch != "."}
    closed |= {(r + dr, c + dc) for r, c in own for dr, dc in EDGES}
    corners = {(r + dr, c + dc) for r, c in own for dr, dc in DIAGONALS}
    if not own:
        starts = START_POINTS[view["variant"]]
        corners = set(starts if view["free_corners"] else [starts[colour]])

    found: set[Move] = set()
    for name in view["colours"][colour]["remaining"]:
        for shape in turns[name]:
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for top in range(size - height + 1):
                for left in range(size - width + 1):
                    cells = [(r + top, c + left) for r, c in shape]
                    if closed.isdisjoint(cells) and not corners.isdisjoint(cells):
                        found.add((name, frozenset(cells)))
    return found


def engine_moves(state: State, colour: int) -> set[Move]:
    table = state.table
    moves = set()
    for pid in rules.legal_placements(state, colour):
        cells = frozenset((r, c) for r, c in table.coords(pid))
        moves.add((table.name[pid], cells))
    return moves


def _check(turns: Turns, state: State, colours: list[int]) -> None:
    view = ENGINE.view(state, None)
    for colour in colours:
        expected = naive_moves(turns, view, colour)
        assert engine_moves(state, colour) == expected, (view["variant"], colour)
        assert rules.has_any_move(state, colour) == bool(expected)
        if state.turn == colour:
            assert {
                (m["piece"], frozenset(map(tuple, m["cells"])))
                for m in ENGINE.legal_moves(state, ENGINE.to_act(state)[0])
            } == expected


def test_engine_moves_equal_the_naive_reference(turns: Turns, positions: list[State]) -> None:
    for state in positions:
        colours = [state.turn] if state.turn is not None else list(range(state.colours))
        _check(turns, state, colours)


def test_play_accepts_exactly_the_naive_moves(turns: Turns, positions: list[State]) -> None:
    """Random placements, legal or not: ``play`` accepts just those the reference lists."""
    rng = random.Random(4)
    for state in positions[::10]:
        if state.turn is None:
            continue
        view = ENGINE.view(state, None)
        legal = naive_moves(turns, view, state.turn)
        seat = ENGINE.to_act(state)[0]
        size = view["size"]
        tries = [rng.choice(sorted(legal))] if legal else []
        for _ in range(40):
            name = rng.choice(view["colours"][state.turn]["remaining"])
            shape = rng.choice(turns[name])
            top, left = rng.randrange(size - 4), rng.randrange(size - 4)
            tries.append((name, frozenset((r + top, c + left) for r, c in shape)))
        for name, cells in tries:
            move = {"piece": name, "cells": [list(cell) for cell in cells]}
            try:
                ENGINE.play(state, seat, move)
                accepted = True
            except IllegalMove as error:
                assert not error.malformed, error
                accepted = False
            assert accepted == ((name, cells) in legal), move


@pytest.mark.slow
def test_engine_moves_equal_the_naive_reference_for_every_colour_long(
    turns: Turns, sample: Callable[..., list[State]], request: pytest.FixtureRequest
) -> None:
    """Thousands of positions, every colour, when slow tests are asked for (``-m slow``,
    ``make test-long``); a bare ``pytest`` of this folder gets a 100-position taste."""
    chosen = (request.config.getoption("markexpr") or "").replace("not slow", "")
    for state in sample(3000 if "slow" in chosen else 100, seed=1):
        _check(turns, state, list(range(state.colours)))
