"""Blokus positions and transitions: who moves, which placements are legal, placing.

The rules (docs/rules.md BLOKUS-1 to BLOKUS-13):

- Colours move in a fixed order: blue, yellow, red, green; in Duo purple, orange
  (BLOKUS-1, BLOKUS-12).
- A colour's first piece covers its start point: classic corners blue (0,0),
  yellow (0,19), red (19,19), green (19,0); Duo (4,4) purple, (9,9) orange. With
  "free corners" it covers any start point nobody has covered yet (BLOKUS-3,
  BLOKUS-4).
- Every later piece touches its own colour at a corner and never along an edge;
  other colours don't matter. Pieces never overlap (BLOKUS-5).
- A colour that cannot place is out for the rest of the game and is skipped (there
  is no pass move); the game is over when no colour can place (BLOKUS-6, BLOKUS-7).

This module is the fast core, in placement ids (see ``pieces.Placements``): per
colour the state keeps ``occupied`` (its cells), ``forbidden`` (every occupied cell,
its own edge neighbours and the bits of its used pieces) and ``attach`` (empty cells
it may build from). A placement is legal for a colour iff it covers one of its
attach cells and ``check_mask & forbidden == 0``. Being blocked never ends once it
starts (the board only fills), so after every placement each colour still in play
is asked once whether it has any move, and those that have none are marked out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import not_

from engines.base import IllegalMove
from engines.blokus.pieces import (
    ALL_PIECES_SQUARES,
    MONOMINO,
    PIECE_INDEX,
    PIECE_NAMES,
    PIECE_SIZES,
    Cell,
    Placements,
    piece_bit,
    placements,
)


@dataclass(frozen=True)
class Layout:
    """A variant's board: its size, colours in turn order and their start points."""

    size: int
    colours: tuple[str, ...]
    starts: tuple[Cell, ...]


LAYOUTS: dict[str, Layout] = {
    # docs/rules.md BLOKUS-1 and BLOKUS-3.
    "classic": Layout(20, ("blue", "yellow", "red", "green"), ((0, 0), (0, 19), (19, 19), (19, 0))),
    # docs/rules.md BLOKUS-12.
    "duo": Layout(14, ("purple", "orange"), ((4, 4), (9, 9))),
}
GREEN = 3  # the shared colour of a three-player classic game


@dataclass(frozen=True, slots=True)
class Known:
    """A colour's legal placement ids as they were when its masks were ``forbidden`` and
    ``attach``, and whether it had placed a piece then."""

    ids: tuple[int, ...]
    forbidden: int
    attach: int
    started: bool


@dataclass(frozen=True, slots=True)
class State:
    """A Blokus position. ``placed[colour]`` lists that colour's placement ids in order.

    ``turn`` is the colour to move, ``None`` once no colour can place. The masks are
    derived from ``placed`` (hence left out of equality) and kept for speed.
    """

    variant: str
    players: int
    free_corners: bool
    placed: tuple[tuple[int, ...], ...]
    out: tuple[bool, ...]
    turn: int | None
    occupied: tuple[int, ...] = field(compare=False, repr=False)
    forbidden: tuple[int, ...] = field(compare=False, repr=False)
    attach: tuple[int, ...] = field(compare=False, repr=False)
    # Each colour's legal placement ids where they were last worked out in this game's
    # line of play, with the masks they were worked out for (``Known``). Later states
    # share them as they are; a colour's list is brought up to date when asked for
    # (``legal_placements``), which costs a fraction of a fresh search.
    legal: tuple[Known | None, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def layout(self) -> Layout:
        return LAYOUTS[self.variant]

    @property
    def table(self) -> Placements:
        return placements(LAYOUTS[self.variant].size)

    @property
    def colours(self) -> int:
        return len(self.placed)


def start_mask(layout: Layout, free_corners: bool, colour: int) -> int:
    """The cells a colour's first piece may cover (before anyone has placed)."""
    starts = layout.starts if free_corners else (layout.starts[colour],)
    mask = 0
    for r, c in starts:
        mask |= 1 << (r * layout.size + c)
    return mask


def rebuild(
    variant: str,
    players: int,
    free_corners: bool,
    placed: tuple[tuple[int, ...], ...],
    out: tuple[bool, ...],
    turn: int | None,
) -> State:
    """The state with these placements, its masks computed from scratch."""
    layout = LAYOUTS[variant]
    table = placements(layout.size)
    occupied = tuple(_union(table.cell_mask, ids) for ids in placed)
    everything = 0
    for mask in occupied:
        everything |= mask
    forbidden = []
    for ids in placed:
        mask = everything | _union(table.adj, ids)
        for pid in ids:
            mask |= piece_bit(layout.size, table.piece[pid])
        forbidden.append(mask)
    attach = tuple(
        (_union(table.corner, ids) if ids else start_mask(layout, free_corners, colour))
        & ~forbidden[colour]
        for colour, ids in enumerate(placed)
    )
    return State(
        variant, players, free_corners, placed, out, turn, occupied, tuple(forbidden), attach
    )


def _union(masks: tuple[int, ...], ids: tuple[int, ...]) -> int:
    total = 0
    for pid in ids:
        total |= masks[pid]
    return total


def new_state(variant: str, players: int, free_corners: bool) -> State:
    """The empty board, the first colour to move."""
    colours = len(LAYOUTS[variant].colours)
    return rebuild(variant, players, free_corners, ((),) * colours, (False,) * colours, 0)


def legal_placements(state: State, colour: int | None = None) -> list[int]:
    """Every legal placement id of ``colour`` (default: the colour to move), sorted."""
    if colour is None:
        colour = state.turn
        if colour is None:
            return []
    table = state.table
    forbidden, attach = state.forbidden[colour], state.attach[colour]
    started = bool(state.placed[colour])
    known = state.legal[colour] if state.legal is not None else None
    if known is None or known.started != started:
        # none yet, or its first piece left the start points behind: a fresh search
        found = generate(table, forbidden, attach)
    elif known.forbidden == forbidden and known.attach == attach:
        return list(known.ids)
    else:
        found = catch_up(table, known, forbidden, attach)
    lists: list[Known | None] = (
        list(state.legal) if state.legal is not None else [None] * len(state.placed)
    )
    lists[colour] = Known(tuple(found), forbidden, attach, started)
    # a memo, not a change: the position is the same, only known better
    object.__setattr__(state, "legal", tuple(lists))
    return found


def catch_up(table: Placements, known: Known, forbidden: int, attach: int) -> list[int]:
    """The legal ids now that the colour's masks are ``forbidden`` and ``attach``, from
    those ``known`` for masks of the same game before.

    Along a game a colour's forbidden cells only grow, and an attach cell only leaves
    when it becomes forbidden (after the first piece). So a placement legal now either
    goes through an attach cell it had then, and was legal then, or through a new one:
    the known ones that miss the newly forbidden cells, and those the new cells open.
    """
    check = table.check_mask
    newly = forbidden & ~known.forbidden
    found = [pid for pid in known.ids if not check[pid] & newly] if newly else list(known.ids)
    fresh = attach & ~known.attach
    if fresh:
        gather(found, table, forbidden, fresh, forbidden | (attach & known.attach))
        found.sort()
    return found


def generate(table: Placements, forbidden: int, attach: int) -> list[int]:
    """Placement ids covering an attach cell and missing ``forbidden``, sorted."""
    found: list[int] = []
    gather(found, table, forbidden, attach, forbidden)
    found.sort()
    return found


def gather(found: list[int], table: Placements, forbidden: int, attach: int, seen: int) -> None:
    """Add to ``found`` the placement ids that cover a cell of ``attach``, miss
    ``forbidden`` and miss ``seen`` (``forbidden`` and the attach cells whose
    placements ``found`` holds already), each once."""
    candidates = table.candidates
    while attach:
        low = attach & -attach
        attach ^= low
        ids, masks = candidates(low.bit_length() - 1, forbidden)
        found.extend(compress(ids, map(not_, map(seen.__and__, masks))))
        # A placement covering several attach cells is kept at the first only.
        seen |= low


def any_placement(table: Placements, forbidden: int, attach: int) -> bool:
    """Whether some placement covers an attach cell and misses ``forbidden`` (early exit)."""
    candidates = table.candidates
    while attach:
        low = attach & -attach
        attach ^= low
        _, masks = candidates(low.bit_length() - 1, forbidden)
        if not all(map(forbidden.__and__, masks)):
            return True
    return False


def has_any_move(state: State, colour: int | None = None) -> bool:
    """Whether ``colour`` (default: the colour to move) has a legal placement."""
    if colour is None:
        colour = state.turn
        if colour is None:
            return False
    return any_placement(state.table, state.forbidden[colour], state.attach[colour])


def place(state: State, pid: int) -> State:
    """The colour to move places ``pid`` (assumed legal); blocked colours drop out.

    The turn passes to the next colour in order that can still place: a blocked
    colour is skipped without a move (docs/rules.md BLOKUS-6).
    """
    colour = state.turn
    assert colour is not None, "place() after the game is over"
    table = state.table
    cells = table.cell_mask[pid]
    keep = ~cells
    occupied = list(state.occupied)
    occupied[colour] |= cells
    forbidden = [mask | cells for mask in state.forbidden]
    forbidden[colour] |= table.adj[pid] | piece_bit(table.size, table.piece[pid])
    attach = [mask & keep for mask in state.attach]
    # The first piece leaves the start points behind: later pieces need a corner.
    grown = table.corner[pid] if not state.placed[colour] else attach[colour] | table.corner[pid]
    attach[colour] = grown & ~forbidden[colour]
    out = tuple(
        gone or not any_placement(table, mask, points)
        for gone, mask, points in zip(state.out, forbidden, attach, strict=True)
    )
    placed = list(state.placed)
    placed[colour] += (pid,)
    return State(
        state.variant,
        state.players,
        state.free_corners,
        tuple(placed),
        out,
        next_colour(colour, out),
        tuple(occupied),
        tuple(forbidden),
        tuple(attach),
        state.legal,
    )


def next_colour(colour: int, out: tuple[bool, ...]) -> int | None:
    """The first colour after ``colour`` (cyclically, itself last) still in play."""
    count = len(out)
    for step in range(1, count + 1):
        candidate = (colour + step) % count
        if not out[candidate]:
            return candidate
    return None


def resign(state: State, seat: int) -> State:
    """``seat`` resigns: its colours place no more, as if blocked, and its pieces stay
    on the board and score as they lie. In a three-player game the shared green stops
    too, since one of the three who take turns with it is gone (docs/rules.md BLOKUS-14)."""
    if state.turn is None:
        raise IllegalMove("The game is over.", code="game_over")
    gone = set(owned_colours(state, seat))
    if state.variant == "classic" and state.players == 3:
        gone.add(GREEN)
    if all(state.out[colour] for colour in owned_colours(state, seat)):
        raise IllegalMove("Your colours are out of the game already.", code="out")
    out = tuple(flag or colour in gone for colour, flag in enumerate(state.out))
    turn = state.turn if not out[state.turn] else next_colour(state.turn, out)
    return replace(state, out=out, turn=turn)


def controller(state: State, colour: int) -> int:
    """The seat that places ``colour``'s next piece.

    Four players or Duo: one colour each. Two players: seat 0 blue + red, seat 1
    yellow + green. Three players: green's k-th piece (k = 0, 1, …) is placed by
    seat k mod 3 (docs/rules.md BLOKUS-9 to BLOKUS-12).
    """
    if state.variant == "duo" or state.players == 4:
        return colour
    if state.players == 2:
        return colour % 2
    if colour == GREEN:
        return len(state.placed[GREEN]) % 3
    return colour


def owned_colours(state: State, seat: int) -> list[int]:
    """The colours whose score counts for ``seat`` (the shared green counts for none;
    docs/rules.md BLOKUS-10, BLOKUS-11)."""
    if state.variant == "classic" and state.players == 2:
        return [seat, seat + 2]
    return [seat]


def to_act(state: State) -> list[int]:
    """The seat to move, as a one-element list; ``[]`` once the game is over."""
    if state.turn is None:
        return []
    return [controller(state, state.turn)]


def pieces_left(state: State, colour: int) -> list[int]:
    """The piece indices ``colour`` has not placed, in canonical order."""
    table = state.table
    used = {table.piece[pid] for pid in state.placed[colour]}
    return [piece for piece in range(len(PIECE_SIZES)) if piece not in used]


def colour_score(pieces_placed: list[int] | tuple[int, ...]) -> int:
    """A colour's score from the pieces it placed, in order.

    Minus 1 per square left; +15 when all 21 are placed; +5 more when the last one
    placed was the monomino I1 (docs/rules.md BLOKUS-8).
    """
    left = ALL_PIECES_SQUARES - sum(PIECE_SIZES[piece] for piece in pieces_placed)
    if len(set(pieces_placed)) < len(PIECE_SIZES):
        return -left
    return 15 + (5 if pieces_placed[-1] == MONOMINO else 0)


def colour_scores(state: State) -> list[int]:
    """Every colour's score as the board stands (final once the game is over)."""
    table = state.table
    return [colour_score([table.piece[pid] for pid in ids]) for ids in state.placed]


def seat_scores(state: State) -> list[int]:
    """Each seat's score: the sum of the colours it owns (two each with 2 players)."""
    scores = colour_scores(state)
    return [
        sum(scores[colour] for colour in owned_colours(state, seat))
        for seat in range(state.players)
    ]


def parse_move(table: Placements, move: object) -> int:
    """The placement id a move names, whoever plays it; ``IllegalMove`` (malformed) if none.

    A move is ``{"piece": NAME, "cells": [[row, col], ...]}``, cells in any order.
    """
    if not isinstance(move, Mapping):
        raise _malformed('A move is an object like {"piece": "F", "cells": [[0, 0], ...]}.')
    extra = sorted(str(key) for key in move if key not in ("piece", "cells"))
    if extra:
        raise _malformed(f'A move has only "piece" and "cells", not {extra[0]!r}.', "unknown_field")
    name = move.get("piece")
    if not isinstance(name, str) or name not in PIECE_INDEX:
        raise _malformed(
            f"Unknown piece {name!r}; the pieces are {', '.join(PIECE_NAMES)}.", "unknown_piece"
        )
    cells = move.get("cells")
    if not isinstance(cells, (list, tuple)) or not cells:
        raise _malformed('A move needs "cells": a list of [row, column] pairs.', "bad_cells")
    size = table.size
    mask = 0
    for cell in cells:
        if not (
            isinstance(cell, (list, tuple))
            and len(cell) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
        ):
            raise _malformed(
                f"Each cell is a [row, column] pair of whole numbers, not {cell!r}.", "bad_cells"
            )
        r, c = cell
        if not (0 <= r < size and 0 <= c < size):
            raise _malformed(f"Cell [{r}, {c}] is off the {size}x{size} board.", "off_board")
        bit = 1 << (r * size + c)
        if mask & bit:
            raise _malformed(f"Cell [{r}, {c}] is listed twice.", "duplicate_cells")
        mask |= bit
    pid = table.by_cell_mask.get(mask)
    if pid is None or table.name[pid] != name:
        formed = "" if pid is None else f" (they form {table.name[pid]})"
        raise _malformed(
            f"These {len(cells)} cells do not form {name} in any orientation{formed}.",
            "wrong_shape",
        )
    return pid


def check_placement(state: State, seat: int, pid: int) -> None:
    """Raise ``IllegalMove`` unless ``seat`` may place ``pid`` for the colour to move."""
    colour = state.turn
    if colour is None:
        raise IllegalMove("The game is over: no colour can place any more.", code="game_over")
    name = state.layout.colours[colour]
    seat_to_move = controller(state, colour)
    if seat != seat_to_move:
        raise IllegalMove(
            f"It is not your turn: {name} is to move, placed by seat {seat_to_move}.",
            code="not_your_turn",
        )
    table = state.table
    piece = table.name[pid]
    if state.forbidden[colour] & piece_bit(table.size, table.piece[pid]):
        # well-formed, but the position forbids it: a stale client sees 422, not 400
        raise IllegalMove(f"{name.capitalize()} has already placed {piece}.", code="piece_used")
    cells = table.cell_mask[pid]
    taken = 0
    for mask in state.occupied:
        taken |= mask
    if cells & taken:
        raise IllegalMove(
            f"{piece} would cover {_where(table, cells & taken)}, which is already taken.",
            code="overlap",
        )
    touching = cells & state.forbidden[colour] & ~taken
    if touching:
        raise IllegalMove(
            f"{piece} would touch {name} along an edge at {_where(table, touching)}; "
            "pieces of one colour may meet only at corners.",
            code="edge_contact",
        )
    if cells & state.attach[colour]:
        return
    if not state.placed[colour]:
        free = state.attach[colour]
        points = ", ".join(_where(table, 1 << i) for i in range(table.size**2) if free >> i & 1)
        raise IllegalMove(
            f"{name.capitalize()}'s first piece must cover a start point: {points}.",
            code="not_on_start",
        )
    raise IllegalMove(
        f"{piece} must touch another {name} piece at a corner.", code="no_corner_contact"
    )


def _where(table: Placements, mask: int) -> str:
    index = (mask & -mask).bit_length() - 1
    return f"[{index // table.size}, {index % table.size}]"


def _malformed(message: str, code: str = "not_an_object") -> IllegalMove:
    return IllegalMove(message, code=code, malformed=True)
