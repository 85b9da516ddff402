"""Geometry of the cards on the table: neighbours, the 6x6 box, runs, connectivity.

The table is a mapping ``(row, col) -> card index``. Coordinates are absolute and
may go negative (docs/rules.md M-4); nothing here knows about seats, hands or tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engines.m.cards import BOX

Cell = tuple[int, int]
Grid = Mapping[Cell, int]

# Orthogonal steps with the word a message uses for a neighbour found there.
ORTHOGONAL: tuple[tuple[int, int, str], ...] = (
    (-1, 0, "above"),
    (1, 0, "below"),
    (0, -1, "to the left"),
    (0, 1, "to the right"),
)
_AROUND: tuple[Cell, ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
)
LINE_STEP: dict[str, Cell] = {"row": (0, 1), "col": (1, 0)}


def neighbours(grid: Grid, cell: Cell) -> list[tuple[Cell, int, str]]:
    """The orthogonal neighbours of ``cell``: (their cell, their card, where they lie)."""
    r, c = cell
    found = []
    for dr, dc, where in ORTHOGONAL:
        near = (r + dr, c + dc)
        card = grid.get(near)
        if card is not None:
            found.append((near, card, where))
    return found


def bounds(cells: Iterable[Cell]) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of the cells, inclusive; the table is never empty."""
    listed = list(cells)
    if not listed:
        raise ValueError("the table has no cards")
    rows = [r for r, _ in listed]
    cols = [c for _, c in listed]
    return min(rows), min(cols), max(rows), max(cols)


def fits(box: tuple[int, int, int, int], cell: Cell) -> bool:
    """Whether the box grown to take in ``cell`` stays within 6x6 (docs/rules.md M-5)."""
    top, left, bottom, right = box
    r, c = cell
    return max(bottom, r) - min(top, r) < BOX and max(right, c) - min(left, c) < BOX


def open_cells(grid: Grid) -> list[Cell]:
    """Cells where some card could still go as far as adjacency and the box allow:
    empty, orthogonally next to a card, and keeping the table within 6x6.
    """
    top, left, bottom, right = bounds(grid)
    # the rows and columns a new card may reach without stretching the box past BOX
    low_r, high_r = bottom - BOX + 1, top + BOX - 1
    low_c, high_c = right - BOX + 1, left + BOX - 1
    found: set[Cell] = set()
    for r, c in grid:
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near not in grid and low_r <= near[0] <= high_r and low_c <= near[1] <= high_c:
                found.add(near)
    return sorted(found)


def run(grid: Grid, cell: Cell, line: str) -> list[Cell]:
    """The contiguous cards of ``line`` ("row" or "col") through ``cell``, in order."""
    dr, dc = LINE_STEP[line]
    r, c = cell
    while (r - dr, c - dc) in grid:
        r, c = r - dr, c - dc
    cells = []
    while (r, c) in grid:
        cells.append((r, c))
        r, c = r + dr, c + dc
    return cells


def connected(cells: Iterable[Cell]) -> bool:
    """Whether the cells form one group, touching orthogonally or diagonally."""
    remaining = set(cells)
    if not remaining:
        return True
    stack = [remaining.pop()]
    while stack:
        r, c = stack.pop()
        for dr, dc in _AROUND:
            near = (r + dr, c + dc)
            if near in remaining:
                remaining.remove(near)
                stack.append(near)
    return not remaining


def splits(grid: Grid, cell: Cell) -> bool:
    """Whether taking the card on ``cell`` would leave the table in several groups."""
    return not connected(other for other in grid if other != cell)


def holding(grid: Grid, candidates: Iterable[Cell]) -> set[Cell]:
    """The candidate cells whose card holds the table together: taking it would leave
    the cards in two or more groups (orthogonal or diagonal contact).

    Each scoring phase asks this for every card of the run after every take, so it
    works on a bitboard: one bit per cell of a frame one cell wider than the table
    on every side, so that shifting a bit off the table lands on an empty border
    cell instead of wrapping onto a card.
    """
    top, left, _, right = bounds(grid)
    stride = right - left + 3
    bits = {(r, c): 1 << ((r - top + 1) * stride + (c - left + 1)) for r, c in grid}
    every = sum(bits.values())
    shifts = (1, stride - 1, stride, stride + 1)
    found = set()
    for cell in candidates:
        rest = every & ~bits[cell]
        if rest and not _one_group(rest, shifts):
            found.add(cell)
    return found


def _one_group(cells: int, shifts: tuple[int, ...]) -> bool:
    """Whether the set bits form one group, touching along the given shifts."""
    group = cells & -cells
    while True:
        grown = group
        for shift in shifts:
            grown |= (group << shift) | (group >> shift)
        grown &= cells
        if grown == group:
            return group == cells
        group = grown
