"""The 21 Blokus pieces, their 91 fixed orientations, and every placement per board.

docs/rules.md BLOKUS-2: each colour has 21 pieces named I1 I2 I3 V3 I4 L4 T4 O4 Z4
F I5 L5 N P T5 U V5 W X Y Z5 (1 monomino, 1 domino, 2 trominoes, 5 tetrominoes,
12 pentominoes; 89 squares), which may be turned and flipped: 91 fixed
orientations in all.

Following Pentobi, every placement of every orientation on a board is computed once
per board size (``placements(size)``, cached) and carries integer bitmasks: its
cells, its edge neighbours and its corner neighbours. Cell ``(r, c)`` is bit
``r * size + c``. Above the board's bits sit one bit per piece (``size * size + i``),
so a colour's "forbidden" mask can also say which pieces it has used, and one
``mask & forbidden`` test rules out both a covered cell and a spent piece.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import compress
from operator import not_

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

# Each base shape drawn in (row, col); any orientation would do, ``orientations``
# derives the rest.
_BASE_SHAPES: dict[str, Shape] = {
    "I1": ((0, 0),),
    "I2": ((0, 0), (0, 1)),
    "I3": ((0, 0), (0, 1), (0, 2)),
    "V3": ((0, 0), (1, 0), (1, 1)),
    "I4": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "L4": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "T4": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "O4": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "Z4": ((0, 0), (0, 1), (1, 1), (1, 2)),
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I5": ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T5": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V5": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z5": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}

PIECE_NAMES: tuple[str, ...] = tuple(_BASE_SHAPES)
PIECE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PIECE_NAMES)}
PIECE_SIZES: tuple[int, ...] = tuple(len(cells) for cells in _BASE_SHAPES.values())
ALL_PIECES_SQUARES = sum(PIECE_SIZES)
MONOMINO = PIECE_INDEX["I1"]


def normalize(cells: Iterable[Cell]) -> Shape:
    """The cells moved to touch row 0 and column 0, sorted: a shape's fixed form."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def orientations(shape: Shape) -> tuple[Shape, ...]:
    """The distinct shapes under the 4 rotations and their mirror images, sorted."""
    found: set[Shape] = set()
    for mirror in (False, True):
        cells = [(r, -c) if mirror else (r, c) for r, c in shape]
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            found.add(normalize(cells))
    return tuple(sorted(found))


SHAPES: tuple[Shape, ...] = tuple(normalize(cells) for cells in _BASE_SHAPES.values())
ORIENTATIONS: tuple[tuple[Shape, ...], ...] = tuple(orientations(s) for s in SHAPES)
# A normalized set of cells names its piece: how a move's cells are recognised.
PIECE_OF_SHAPE: dict[Shape, int] = {
    shape: piece for piece, shapes in enumerate(ORIENTATIONS) for shape in shapes
}


def piece_bit(size: int, piece: int) -> int:
    """The bit that marks ``piece`` as used in a colour's forbidden mask."""
    return 1 << (size * size + piece)


class Placements:
    """Every placement of every piece on a ``size`` x ``size`` board, by id.

    Ids run piece by piece, orientation by orientation, row-major by offset, so
    sorting ids gives a stable, readable move order. Per id: ``piece`` (index) and
    ``name``, ``cells`` (sorted cell indices) and ``xy`` (the same as (row, col)),
    ``cell_mask``, ``check_mask`` (cells plus the piece's bit), ``adj`` (its edge
    neighbours) and ``corner`` (cells touching it only diagonally). The columns are
    tuples of atoms, which the garbage collector stops scanning after one look.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.board = (1 << (size * size)) - 1
        pieces: list[int] = []
        cells: list[tuple[int, ...]] = []
        masks: list[int] = []
        for piece, shapes in enumerate(ORIENTATIONS):
            for shape in shapes:
                base = self._mask(shape)
                indices = [r * size + c for r, c in shape]
                height = 1 + max(r for r, _ in shape)
                width = 1 + max(c for _, c in shape)
                for top in range(size - height + 1):
                    for left in range(size - width + 1):
                        offset = top * size + left
                        pieces.append(piece)
                        cells.append(tuple(index + offset for index in indices))
                        masks.append(base << offset)
        self.piece: tuple[int, ...] = tuple(pieces)
        self.name: tuple[str, ...] = tuple(PIECE_NAMES[piece] for piece in pieces)
        self.cells: tuple[tuple[int, ...], ...] = tuple(cells)
        xy = [divmod(index, size) for index in range(size * size)]
        self.xy: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(xy[index] for index in found) for found in cells
        )
        self.cell_mask: tuple[int, ...] = tuple(masks)
        self.check_mask: tuple[int, ...] = tuple(
            mask | piece_bit(size, piece) for mask, piece in zip(masks, pieces, strict=True)
        )
        # Shifting a mask sideways must not wrap into the next row.
        self.not_first = not_first = self.board & ~self._mask((r, 0) for r in range(size))
        self.not_last = not_last = self.board & ~self._mask((r, size - 1) for r in range(size))
        adj, corner = [], []
        for mask in masks:
            vertical = mask >> size | (mask << size) & self.board
            edges = self.edges(mask)
            diagonal = (vertical & not_last) << 1 | (vertical & not_first) >> 1
            adj.append(edges)
            corner.append(diagonal & ~edges & ~mask)
        self.adj: tuple[int, ...] = tuple(adj)
        self.corner: tuple[int, ...] = tuple(corner)
        self.by_cell_mask: dict[int, int] = {mask: pid for pid, mask in enumerate(masks)}
        covering: list[list[int]] = [[] for _ in range(size * size)]
        for pid, found in enumerate(cells):
            for index in found:
                covering[index].append(pid)
        self.covering: tuple[tuple[int, ...], ...] = tuple(tuple(ids) for ids in covering)
        self.neighbourhood: tuple[int, ...] = tuple(
            self._mask(self._near(xy[index])) for index in range(size * size)
        )
        self._memo: list[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = [
            {} for _ in range(size * size)
        ]

    def __len__(self) -> int:
        return len(self.piece)

    def edges(self, mask: int) -> int:
        """The squares beside (not diagonal to) those of ``mask``, on the board."""
        mask &= self.board
        vertical = mask >> self.size | (mask << self.size) & self.board
        return (vertical | (mask & self.not_last) << 1 | (mask & self.not_first) >> 1) & ~mask

    def coords(self, pid: int) -> list[list[int]]:
        """A placement's cells as ``[row, col]`` pairs, row-major: the move's canonical form."""
        return [[r, c] for r, c in self.xy[pid]]

    def _mask(self, cells: Iterable[Cell]) -> int:
        mask = 0
        for r, c in cells:
            if 0 <= r < self.size and 0 <= c < self.size:
                mask |= 1 << (r * self.size + c)
        return mask

    @staticmethod
    def _near(cell: Cell) -> list[Cell]:
        # A cell's four edge neighbours: their forbidden pattern already rules out
        # most placements through it, and 16 patterns per cell bound the memo.
        r, c = cell
        return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]

    def candidates(self, cell: int, forbidden: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Placements through ``cell`` that miss the forbidden cells near it: (ids, check masks).

        Memoized per cell on the forbidden pattern of its neighbourhood, so the
        caller's full ``mask & forbidden`` test only sees plausible placements.
        """
        key = forbidden & self.neighbourhood[cell]
        memo = self._memo[cell]
        found = memo.get(key)
        if found is None:
            ids = self.covering[cell]
            masks = self.check_mask
            keep = tuple(compress(ids, map(not_, map(key.__and__, map(masks.__getitem__, ids)))))
            found = (keep, tuple(masks[pid] for pid in keep))
            memo[key] = found
        return found


@cache
def placements(size: int) -> Placements:
    """The placement table of a ``size`` x ``size`` board, built once per process."""
    return Placements(size)
