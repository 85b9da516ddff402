"""Blokus bots, the levels a room offers strongest first: "hard" (the search of
``engines.blokus.search``), "medium" (greedy) and "easy" (the greedy, but half its
moves, drawn by the seed, a random legal placement). The uniformly random bot
(``RANDOM``) is kept for tests and benches.

All are deterministic for a budget without a time limit: the seed argument is mixed
with the position, so the same state and seed give the same move, and different
positions draw differently.
"""

from __future__ import annotations

from engines import prng
from engines.base import JSON, Bot, Budget
from engines.blokus import rules
from engines.blokus.pieces import PIECE_SIZES
from engines.blokus.rules import State

_FOLD = (1 << 61) - 1  # a Mersenne prime: folds a board mask of any size into one word


def stream(state: State, seed: int) -> int:
    """A PRNG state drawn from ``seed`` and the position (boards and colour to move)."""
    value = prng.seed_state(seed)
    for mask in (*state.occupied, -1 if state.turn is None else state.turn):
        # The output, not the bare counter, carries on: it mixes every bit of the input.
        value, _ = prng.next_u64(value ^ (mask % _FOLD))
    return value


def _check_turn(state: State, seat: int) -> None:
    if seat not in rules.to_act(state):
        raise ValueError(f"Seat {seat} is not to move in this Blokus position.")


def _move(state: State, pid: int) -> JSON:
    table = state.table
    return {"piece": table.name[pid], "cells": table.coords(pid)}


def random_placement(state: State, seed: int) -> int:
    """A legal placement id of the colour to move, uniformly at random."""
    ids = rules.legal_placements(state)
    index, _ = prng.below(stream(state, seed), len(ids))
    return ids[index]


def strong_placement(state: State, seed: int) -> int:
    """The placement with the best greedy score; ties broken by the seed.

    Big pieces first (small ones fit late, big ones don't), then the fewest own
    corners spent and the most new ones opened, the most opponents' corners taken,
    the fewest teammates' corners taken, and in the opening the way to the centre.
    """
    colour = state.turn
    assert colour is not None
    table = state.table
    size = table.size
    seat = rules.controller(state, colour)
    team = set(rules.owned_colours(state, seat)) | {colour}
    owners = {c: s for s in range(state.players) for c in rules.owned_colours(state, s)}
    # Blocking a colour that is already out, or the unscored shared green, gains nothing.
    live = [c for c in range(state.colours) if not state.out[c] and c in owners]
    rivals = [state.attach[c] for c in live if c not in team]
    friends = [state.attach[c] for c in live if c in team and c != colour]
    forbidden = state.forbidden[colour]
    attach = state.attach[colour]
    opening = len(state.placed[colour]) < 4
    centre = size // 2
    best: list[int] = []
    best_score = -(10**9)
    for pid in rules.legal_placements(state):
        cells = table.cell_mask[pid]
        blocked = forbidden | table.adj[pid] | cells
        fresh = (table.corner[pid] & ~blocked & ~attach).bit_count()
        spent = (attach & (cells | table.adj[pid])).bit_count()
        score = 12 * PIECE_SIZES[table.piece[pid]] + 3 * fresh - 2 * spent
        for mask in rivals:
            score += 4 * (mask & cells).bit_count()
        for mask in friends:
            score -= 4 * (mask & cells).bit_count()
        if opening:
            score += 6 * _reach(table.cells[pid], size, centre)
        if score > best_score:
            best_score, best = score, [pid]
        elif score == best_score:
            best.append(pid)
    index, _ = prng.below(stream(state, seed), len(best))
    return best[index]


def _reach(cells: tuple[int, ...], size: int, centre: int) -> int:
    # How far the piece gets toward the middle: minus its nearest cell's distance.
    return -min(abs(i // size - centre) + abs(i % size - centre) for i in cells)


def _choose_random(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    _check_turn(state, seat)
    return _move(state, random_placement(state, seed))


def _choose_strong(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    _check_turn(state, seat)
    return _move(state, strong_placement(state, seed))


# the easy level plays a random placement this often in a hundred moves, else the greedy's
EASY_RANDOM_PERCENT = 50
_EASY_SALT = 0x5EA5_1DE5


def easy_placement(state: State, seed: int) -> int:
    """The greedy's placement, or (``EASY_RANDOM_PERCENT`` times in a hundred, by the
    seed and position) a uniformly random legal one."""
    coin, rest = prng.below(stream(state, seed ^ _EASY_SALT), 100)
    if coin >= EASY_RANDOM_PERCENT:
        return strong_placement(state, seed)
    ids = rules.legal_placements(state)
    index, _ = prng.below(rest, len(ids))
    return ids[index]


def _choose_easy(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    _check_turn(state, seat)
    return _move(state, easy_placement(state, seed))


def _choose_hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    return search.choose_hard(state, seat, seed, budget)


RANDOM: Bot[State] = Bot("random", "Random", _choose_random)

# The search reads this module's greedy, so it is imported once that is defined (the
# package imports this module first).
from engines.blokus import search  # noqa: E402

BOTS: dict[str, Bot[State]] = {
    "hard": Bot(
        "hard",
        "Hard",
        _choose_hard,
        search.HARD_BUDGET,
        "Looks ahead: tries its placements against the others' replies.",
    ),
    "medium": Bot(
        "medium",
        "Medium",
        _choose_strong,
        description="Greedy: places big pieces first and keeps many corners open.",
    ),
    "easy": Bot(
        "easy",
        "Easy",
        _choose_easy,
        description="A beginner: plays like medium, but every other move at random.",
    ),
}
