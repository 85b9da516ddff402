"""Blokus test fixtures: the engine, hand-built positions, and seeded random positions."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

import pytest

from engines.blokus import ENGINE, BlokusEngine, bots, rules
from engines.blokus.pieces import PIECE_INDEX, placements
from engines.blokus.rules import LAYOUTS, State

Placed = Sequence[tuple[str, Sequence[tuple[int, int]]]]
Build = Callable[..., State]

# The pieces as drawn in the rulebook's picture of a set (any orientation).
PICTURES: dict[str, list[str]] = {
    "I1": ["#"],
    "I2": ["##"],
    "I3": ["###"],
    "V3": ["#.", "##"],
    "I4": ["####"],
    "L4": ["#..", "###"],
    "T4": ["###", ".#."],
    "O4": ["##", "##"],
    "Z4": [".##", "##."],
    "F": [".##", "##.", ".#."],
    "I5": ["#####"],
    "L5": ["#...", "####"],
    "N": ["##..", ".###"],
    "P": ["##", "##", "#."],
    "T5": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V5": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["..#.", "####"],
    "Z5": ["##.", ".#.", ".##"],
}


@pytest.fixture(scope="session")
def pictures() -> dict[str, list[str]]:
    """Each piece drawn by hand ("#" a square), independent of ``engines.blokus.pieces``."""
    return PICTURES


# Every setup a room can create: (variant, players, free corners).
SETUPS = [
    ("classic", 4, False),
    ("classic", 3, False),
    ("classic", 2, False),
    ("classic", 4, True),
    ("classic", 3, True),
    ("duo", 2, False),
    ("duo", 2, True),
]


@pytest.fixture
def engine() -> BlokusEngine:
    return ENGINE


def pid_of(variant: str, piece: str, cells: Sequence[tuple[int, int]]) -> int:
    """The placement id of ``piece`` on ``cells`` (checked to be that piece)."""
    table = placements(LAYOUTS[variant].size)
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * table.size + c)
    pid = table.by_cell_mask[mask]
    assert table.piece[pid] == PIECE_INDEX[piece], f"{cells} is not {piece}"
    return pid


def build_state(
    placed: Mapping[int, Placed],
    *,
    variant: str = "classic",
    players: int = 4,
    free_corners: bool = False,
    turn: int | None = 0,
    out: Sequence[bool] | None = None,
) -> State:
    """A position with these pieces on the board, whether or not play could reach it."""
    colours = len(LAYOUTS[variant].colours)
    ids = tuple(
        tuple(pid_of(variant, piece, cells) for piece, cells in placed.get(colour, ()))
        for colour in range(colours)
    )
    flags = tuple(out) if out is not None else (False,) * colours
    return rules.rebuild(variant, players, free_corners, ids, flags, turn)


@pytest.fixture
def build() -> Build:
    return build_state


def random_game(variant: str, players: int, free_corners: bool, seed: int) -> Iterator[State]:
    """Every position of one game of the random bot, from the empty board to the end."""
    state = rules.new_state(variant, players, free_corners)
    yield state
    move = 0
    while state.turn is not None:
        state = rules.place(state, bots.random_placement(state, seed * 1000 + move))
        move += 1
        yield state


Picker = Callable[[State, int], int]  # (state, seed) -> the placement id to play


def duel(game: int, variant: str, mine: Picker, theirs: Picker) -> bool:
    """One two-seat game, ``mine`` choosing for seat ``game % 2`` and ``theirs`` for the
    other, seeded by the game number: did ``mine`` win outright?"""
    me = game % 2
    state = rules.new_state(variant, 2, False)
    move = 0
    while state.turn is not None:
        seed = game * 1000 + move
        pick = mine if rules.controller(state, state.turn) == me else theirs
        state = rules.place(state, pick(state, seed))
        move += 1
    scores = rules.seat_scores(state)
    return scores[me] > scores[1 - me]


def sample_positions(count: int, seed: int = 0) -> list[State]:
    """``count`` positions from seeded random games over every setup, spread over each game."""
    found: list[State] = []
    game = 0
    while len(found) < count:
        variant, players, free = SETUPS[game % len(SETUPS)]
        states = list(random_game(variant, players, free, seed * 100_000 + game))
        found.extend(states[game % 3 :: 3])
        game += 1
    return found[:count]


@pytest.fixture(scope="session")
def positions() -> list[State]:
    return sample_positions(300)


@pytest.fixture
def game() -> Callable[[str, int, bool, int], Iterator[State]]:
    """``random_game`` as a fixture: ``game(variant, players, free_corners, seed)``."""
    return random_game


@pytest.fixture
def sample() -> Callable[..., list[State]]:
    """``sample_positions`` as a fixture, for runs of other sizes."""
    return sample_positions
