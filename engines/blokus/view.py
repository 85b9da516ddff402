"""What a seat sees of a Blokus game: the only code deciding what leaves the server.

Nothing in Blokus is hidden, so every seat and spectators get the same facts; only
``"you"`` differs. The game seed is not part of the state and never appears here
(docs/rules.md BLOKUS-13).

``view(state, seat)`` returns exactly these keys::

    {
      "variant": "classic" | "duo",
      "size": 20 | 14,                 # the board is size x size
      "players": 2 | 3 | 4,
      "free_corners": bool,
      "you": seat | null,              # null for a spectator
      "board": [str] * size,           # row r is board[r]; column c is board[r][c]:
                                       # "." empty, or the colour's index as a digit
                                       # ("0" blue/purple, "1" yellow/orange, "2" red, "3" green)
      "colours": [                     # in turn order, index = position in this list
        {"index": int, "name": "blue",
         "seat": int,                  # the seat that places this colour's next piece
                                       # (3 players: green rotates, seat k mod 3)
         "owner": int | null,          # the seat this colour scores for (null: shared green)
         "start": [r, c],              # its own start point (free corners: any listed
                                       # in "start_points" will do)
         "remaining": ["I1", ...],     # unplaced pieces, canonical order
         "squares_left": int,
         "placed": int,                # pieces placed so far
         "score": int,                 # live score (final once the game is over)
         "out": bool,                  # blocked: it can place no more (skipped)
         "last_piece": "F" | null,     # the last piece it placed ...
         "last_cells": [[r, c], ...]}  # ... and its cells, for highlighting ([] if none)
      ],
      "seats": [{"seat": int, "colours": [int, ...], "score": int}],  # scored colours
      "to_move": {"colour": int, "name": str, "seat": int} | null,  # null once over
      "over": bool,
      "start_points": [[r, c], ...],   # start points nobody has covered yet
      "pieces": {"I1": [[0, 0]], ...}  # each piece's cells in one normalized orientation
    }
"""

from __future__ import annotations

from typing import Any

from engines.base import JSON, shared_ranks
from engines.blokus import rules
from engines.blokus.pieces import PIECE_NAMES, PIECE_SIZES, SHAPES
from engines.blokus.rules import State

_PIECE_SHAPES: dict[str, list[list[int]]] = {
    name: [[r, c] for r, c in shape] for name, shape in zip(PIECE_NAMES, SHAPES, strict=True)
}
_PIECES = range(len(PIECE_NAMES))


def board_rows(state: State) -> list[str]:
    """The board as ``size`` strings of ``size`` characters ("." or a colour digit)."""
    size = state.layout.size
    cells = ["."] * (size * size)
    table = state.table
    for colour, ids in enumerate(state.placed):
        mark = str(colour)
        for pid in ids:
            for index in table.cells[pid]:
                cells[index] = mark
    return ["".join(cells[row * size : (row + 1) * size]) for row in range(size)]


_last: tuple[State | None, JSON] = (None, {})


def view(state: State, seat: int | None) -> JSON:
    """The public position, as described in this module's docstring: the same for every
    seat but ``you``, so the parts are worked out once for the last state asked about (a
    push asks for every seat's view of one state in a row) and shared by its views. A
    state never changes, so the one kept is right for as long as it is that state."""
    global _last
    last, public = _last
    if last is not state:
        public = _public(state)
        _last = (state, public)
    return {**public, "you": seat}


def _public(state: State) -> JSON:
    layout = state.layout
    table = state.table
    owners = _owners(state)
    taken = 0
    for mask in state.occupied:
        taken |= mask
    colours: list[JSON] = []
    scores: list[int] = []
    for colour, name in enumerate(layout.colours):
        ids = state.placed[colour]
        played = [table.piece[pid] for pid in ids]
        score = rules.colour_score(played)
        scores.append(score)
        used = set(played)
        left = [piece for piece in _PIECES if piece not in used]
        colours.append(
            {
                "index": colour,
                "name": name,
                "seat": rules.controller(state, colour),
                "owner": owners[colour],
                "start": list(layout.starts[colour]),
                "remaining": [PIECE_NAMES[piece] for piece in left],
                "squares_left": sum(PIECE_SIZES[piece] for piece in left),
                "placed": len(ids),
                "score": score,
                "out": state.out[colour],
                "last_piece": table.name[ids[-1]] if ids else None,
                "last_cells": table.coords(ids[-1]) if ids else [],
            }
        )
    turn = state.turn
    to_move: JSON | None = None
    if turn is not None:
        to_move = {
            "colour": turn,
            "name": layout.colours[turn],
            "seat": rules.controller(state, turn),
        }
    seats = []
    for seat in range(state.players):
        owned = rules.owned_colours(state, seat)
        seats.append({"seat": seat, "colours": owned, "score": sum(scores[c] for c in owned)})
    return {
        "variant": state.variant,
        "size": layout.size,
        "players": state.players,
        "free_corners": state.free_corners,
        "you": None,
        "board": board_rows(state),
        "colours": colours,
        "seats": seats,
        "to_move": to_move,
        "over": turn is None,
        "start_points": [
            [r, c] for r, c in layout.starts if not taken >> (r * layout.size + c) & 1
        ],
        # the same lists in every view: a view is sent, never changed
        "pieces": _PIECE_SHAPES,
    }


def _owners(state: State) -> list[int | None]:
    owners: list[int | None] = [None] * state.colours
    for seat in range(state.players):
        for colour in rules.owned_colours(state, seat):
            owners[colour] = seat
    return owners


def result(state: State) -> JSON | None:
    """Scores and ranks per seat once no colour can place; equal scores share a rank
    (docs/rules.md ALL-4).

    ``"colours"`` adds each colour's own score (docs/rules.md BLOKUS-8, BLOKUS-10,
    BLOKUS-11: the shared green is listed but scores for no seat).
    """
    if state.turn is not None:
        return None
    scores = rules.seat_scores(state)
    owners = _owners(state)
    return {
        "scores": scores,
        "ranks": shared_ranks(scores),
        "colours": [
            {"colour": name, "score": score, "owner": owners[colour]}
            for colour, (name, score) in enumerate(
                zip(state.layout.colours, rules.colour_scores(state), strict=True)
            )
        ],
    }


def log_line(before: State, seat: int, after: State) -> JSON:
    """The public facts of one placement: who, which colour, which piece, where, who got blocked."""
    colour = before.turn
    line: dict[str, Any] = {"seat": seat}
    if colour is None or len(after.placed[colour]) == len(before.placed[colour]):
        return line
    table = after.table
    pid = after.placed[colour][-1]
    names = after.layout.colours
    line.update(
        colour=names[colour],
        piece=table.name[pid],
        cells=table.coords(pid),
        blocked=[
            names[c]
            for c, (was, now) in enumerate(zip(before.out, after.out, strict=True))
            if now and not was
        ],
        over=after.turn is None,
    )
    return line
