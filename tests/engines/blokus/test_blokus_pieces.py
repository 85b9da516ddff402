"""The piece set and the placement tables, against pictures drawn here by hand."""

from __future__ import annotations

import pytest

from engines.blokus.pieces import (
    ALL_PIECES_SQUARES,
    ORIENTATIONS,
    PIECE_NAMES,
    PIECE_OF_SHAPE,
    PIECE_SIZES,
    SHAPES,
    normalize,
    placements,
)


def _cells(picture: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "#"}


def test_21_pieces_in_canonical_order_with_89_squares(pictures: dict[str, list[str]]) -> None:
    assert tuple(pictures) == PIECE_NAMES
    assert sorted(PIECE_SIZES) == [1, 2, 3, 3] + [4] * 5 + [5] * 12
    assert ALL_PIECES_SQUARES == 89


def test_each_piece_has_its_pictured_shape(pictures: dict[str, list[str]]) -> None:
    for name, picture in pictures.items():
        assert PIECE_OF_SHAPE[normalize(_cells(picture))] == PIECE_NAMES.index(name), name


def test_91_fixed_orientations_in_all() -> None:
    counts = dict(zip(PIECE_NAMES, (len(o) for o in ORIENTATIONS), strict=True))
    assert sum(counts.values()) == 91
    assert counts["X"] == counts["O4"] == counts["I1"] == 1
    assert counts["F"] == counts["N"] == counts["P"] == counts["Y"] == counts["L5"] == 8
    assert counts["I5"] == counts["I2"] == 2
    assert len(PIECE_OF_SHAPE) == 91  # no shape belongs to two pieces


def test_orientations_are_rotations_and_mirror_images() -> None:
    """docs/rules.md BLOKUS-2."""
    for shape, shapes in zip(SHAPES, ORIENTATIONS, strict=True):
        turned = normalize((c, -r) for r, c in shape)
        mirrored = normalize((r, -c) for r, c in shape)
        assert shape in shapes and turned in shapes and mirrored in shapes


@pytest.mark.parametrize("size", [20, 14])
def test_placement_table_covers_every_translation_once(size: int) -> None:
    table = placements(size)
    expected = sum(
        (size - max(r for r, _ in s)) * (size - max(c for _, c in s))
        for shapes in ORIENTATIONS
        for s in shapes
    )
    assert len(table) == expected == len(table.by_cell_mask)
    assert placements(size) is table  # built once per board size


@pytest.mark.parametrize("size", [20, 14])
def test_placement_masks_match_their_cells(size: int) -> None:
    table = placements(size)
    for pid in range(0, len(table), 7):
        cells = {(i // size, i % size) for i in table.cells[pid]}
        edges = {
            (r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        }
        corners = {(r + dr, c + dc) for r, c in cells for dr in (1, -1) for dc in (1, -1)}

        def mask(found: set[tuple[int, int]]) -> int:
            return sum(1 << (r * size + c) for r, c in found if 0 <= r < size and 0 <= c < size)

        assert table.cell_mask[pid] == mask(cells)
        assert table.adj[pid] == mask(edges - cells)
        assert table.corner[pid] == mask(corners - edges - cells)
        assert len(cells) == PIECE_SIZES[table.piece[pid]]
        assert table.coords(pid) == sorted([r, c] for r, c in cells)
