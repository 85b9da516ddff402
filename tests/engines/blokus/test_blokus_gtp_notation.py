"""Moves in Pentobi's notation (``.blksgf`` values and its GTP engine's moves), as the
outside-engine bench (``bench/bench_blokus_gtp.py``) sends and reads them: every
placement goes there and back, the start points sit where Pentobi has them, and text
that names no placement is refused. No outside engine is needed."""

from __future__ import annotations

import pytest

from engines.blokus import rules
from engines.blokus.pieces import PIECE_INDEX, placements
from engines.blokus.sgf import SgfError, move_text, placement_of, point


@pytest.mark.parametrize("size", [14, 20])
def test_every_placement_goes_there_and_back(size: int) -> None:
    table = placements(size)
    for pid in range(len(table)):
        text = move_text(table, pid)
        assert placement_of(table, text) == pid
        # Pentobi lists the squares from a1 on: lowest row first, then left to right.
        squares = text.split(",")
        rows = [(int(square[1:]), square[0]) for square in squares]
        assert rows == sorted(rows)


def test_a_few_pieces_in_detail() -> None:
    table = placements(14)
    for name in ("I1", "V3", "F", "W"):
        ids = [pid for pid in range(len(table)) if table.name[pid] == name]
        assert ids
        for pid in ids:
            cells = table.xy[pid]
            text = move_text(table, pid)
            assert sorted(text.split(",")) == sorted(point(14, r, c) for r, c in cells)
            shuffled = ", ".join(reversed(text.upper().split(",")))
            assert placement_of(table, shuffled) == pid


def test_duo_start_points_are_pentobis() -> None:
    # Pentobi's Duo: Black (first) starts on e10, White on j5.
    starts = rules.LAYOUTS["duo"].starts
    assert [point(14, r, c) for r, c in starts] == ["e10", "j5"]
    table = placements(14)
    state = rules.new_state("duo", 2, False)
    # Two opening moves written as Pentobi writes them: an X on each start point.
    first = placement_of(table, "e8,d9,e9,f9,e10")
    assert table.piece[first] == PIECE_INDEX["X"]
    assert first in rules.legal_placements(state)
    state = rules.place(state, first)
    reply = placement_of(table, "i4,h5,i5,j5,i6")
    assert table.piece[reply] == PIECE_INDEX["X"]
    assert reply in rules.legal_placements(state)


@pytest.mark.parametrize(
    "text",
    ["", "e10,", "e8,d9", "e10,e10", "o1", "a15", "a0", "e8;d9", "1e", "a1,a2,a3,a4,a5,a6"],
)
def test_text_that_names_no_placement_is_refused(text: str) -> None:
    with pytest.raises(SgfError):
        placement_of(placements(14), text)
