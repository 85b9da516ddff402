"""Blokus games as Pentobi's SGF dialect (``.blksgf``), written and read.

The dialect, as Pentobi documents it: ``GM`` names the variant as a string
("Blokus", "Blokus Two-Player", "Blokus Three-Player", "Blokus Duo"); with two
colours the moves are ``B``/``W``, with four they are ``1``..``4`` in colour
order; a move's value lists the squares its piece covers, comma-separated, each
a column letter and a row number counted from ``a1`` at the lower left corner
(our rows count from the top). One node per move along the main line.

One property of our own: ``XFREECORNERS[1]`` in the root node marks a game played
with the ``free_corners`` option (a colour's first piece may cover any free start
point). SGF readers skip properties they don't know, so Pentobi still opens the
file; reading it back here restores the option, without which the moves would not
replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines import get_engine
from engines.base import RecordFormat, UnreadableFile
from engines.blokus.pieces import Placements, placements
from engines.blokus.rules import LAYOUTS

MEDIA_TYPE = "application/x-blokus-sgf"
BAD_SGF = "bad_sgf"
GAMES = {
    ("classic", 4): "Blokus",
    ("classic", 2): "Blokus Two-Player",
    ("classic", 3): "Blokus Three-Player",
    ("duo", 2): "Blokus Duo",
}
VARIANTS = {name: setup for setup, name in GAMES.items()}
MOVE_PROPS = ("B", "W", "1", "2", "3", "4")
FREE_CORNERS = "XFREECORNERS"
# the longest point is "t20" (a 20x20 board); property names are a few letters
MAX_POINT = 3
MAX_PROP_NAME = 32
# the largest Blokus piece covers five squares
PIECE_MAX = 5


class SgfError(UnreadableFile):
    """A file that can't be read as a game: ``code`` is ``bad_sgf`` for one that is no
    ``.blksgf`` file, ``illegal_move`` for one whose move ``move`` breaks the rules
    (``reason`` as the engine gave it); ``message`` says so for a person."""

    def __init__(
        self, message: str, code: str = BAD_SGF, move: int | None = None, reason: str = ""
    ) -> None:
        super().__init__(message, code=code, move=move, reason=reason)


def _bad(message: str) -> SgfError:
    return SgfError(message)


def _shown(text: str) -> str:
    """A piece of the file for an error message: quoted, and short."""
    return repr(text) if len(text) <= 24 else repr(text[:20]) + "…"


def point(size: int, r: int, c: int) -> str:
    return f"{chr(ord('a') + c)}{size - r}"


def cell(size: int, text: str) -> list[int]:
    """``"f9"`` on a board of ``size`` as ``[row, col]``; ``SgfError`` if not on it."""
    if len(text) > MAX_POINT:
        raise _bad(f"{_shown(text)} is not a point like 'f9'.")
    letters = text.rstrip("0123456789").lower()
    digits = text[len(letters) :]
    if not (len(letters) == 1 and "a" <= letters <= "z" and digits.isascii() and digits.isdigit()):
        raise _bad(f"{_shown(text)} is not a point like 'f9'.")
    c, row = ord(letters) - ord("a"), int(digits)
    if not (0 <= c < size and 1 <= row <= size):
        raise _bad(f"The point {_shown(text)} is off the {size}x{size} board.")
    return [size - row, c]


def squares_text(size: int, cells: Iterable[Sequence[int]]) -> str:
    """Squares in the notation of a ``.blksgf`` move value (and of Pentobi's GTP engine):
    comma-separated, lowest row first."""
    ordered = sorted(cells, key=lambda rc: (-rc[0], rc[1]))
    return ",".join(point(size, r, c) for r, c in ordered)


def move_text(table: Placements, pid: int) -> str:
    """A placement in that notation."""
    return squares_text(table.size, table.xy[pid])


def _squares(size: int, points: Sequence[str]) -> tuple[list[list[int]], int]:
    """The squares ``points`` name as ``[row, col]`` pairs, and their mask (fewer bits
    than squares: one was named twice); ``SgfError`` for a point off the board."""
    cells = [cell(size, found) for found in points]
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * size + c)
    return cells, mask


def placement_of(table: Placements, text: str) -> int:
    """The placement id a move in that notation names (squares in any order, any case,
    spaces around them ignored); ``SgfError`` if they are no placement."""
    points = [part.strip() for part in text.split(",")]
    if not points or len(points) > PIECE_MAX:
        raise _bad(f"{_shown(text)} is not a move like 'e8,d9,e9,f9,e10'.")
    cells, mask = _squares(table.size, points)
    if mask.bit_count() != len(cells):
        raise _bad(f"The move {_shown(text)} names a square twice.")
    pid = table.by_cell_mask.get(mask)
    if pid is None:
        raise _bad(f"The squares {_shown(text)} are no piece's placement.")
    return pid


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write(record: Mapping[str, Any]) -> str:
    """A Blokus record as ``.blksgf`` text."""
    engine = get_engine("blokus")
    variant = record["options"].get("variant", "classic")
    players = record["players"]
    size = LAYOUTS[variant].size
    two_colours = len(LAYOUTS[variant].colours) == 2
    root = f"FF[4]CA[UTF-8]AP[Spieltisch]GM[{GAMES[(variant, players)]}]"
    if record["options"].get("free_corners"):
        root += f"{FREE_CORNERS}[1]"
    names = record.get("names") or []
    if players == 2 and len(names) == 2:
        root += f"PB[{_escape(names[0])}]PW[{_escape(names[1])}]"
    state = engine.new_game(players, 0, record["options"])
    nodes = [root]
    for entry in record["moves"]:
        colour = state.turn
        prop = ("B", "W")[colour] if two_colours else str(colour + 1)
        nodes.append(f"{prop}[{squares_text(size, entry['move']['cells'])}]")
        state = engine.play(state, entry["seat"], entry["move"])
    return "(;" + "\n;".join(nodes) + ")\n"


def parse(text: str) -> list[dict[str, list[str]]]:
    """The nodes of the first game's main line, each ``{property: [values]}``."""
    nodes: list[dict[str, list[str]]] = []
    if not text.startswith("("):
        raise _bad("This is not an SGF game: it needs '(;' ... ')'.")
    i, n = 0, len(text)
    depth = 0
    done_main = False
    prop: str | None = None
    node: dict[str, list[str]] | None = None
    while i < n:
        ch = text[i]
        if ch == "(":
            # the first variation is the main line; the first ")" ends it
            depth += 1
            i += 1
        elif ch == ")":
            depth -= 1
            done_main = True
            i += 1
            if depth <= 0:
                break
        elif ch == ";":
            i += 1
            if done_main:
                node = None
                continue
            node = {}
            nodes.append(node)
            prop = None
        elif ch == "[":
            end = i + 1
            value = []
            while end < n and text[end] != "]":
                if text[end] == "\\" and end + 1 < n:
                    end += 1
                value.append(text[end])
                end += 1
            if end >= n:
                raise _bad("A property value is not closed with ']'.")
            if node is not None and prop is not None:
                node.setdefault(prop, []).append("".join(value))
            elif node is not None or not done_main:
                raise _bad("A value [..] comes before any property name.")
            i = end + 1
        elif ch.isascii() and ch.isalnum():
            start = i
            while i < n and text[i].isascii() and text[i].isalnum():
                i += 1
            if i - start > MAX_PROP_NAME:
                raise _bad(f"A property name at character {start + 1} is too long.")
            prop = text[start:i]
        elif ch.isspace():
            i += 1
        else:
            raise _bad(f"Unexpected {ch!r} at character {i + 1}.")
    if not nodes or not done_main:
        raise _bad("This is not an SGF game: it needs '(;' ... ')'.")
    return nodes


def read(text: str, name_max: int = 40) -> dict[str, Any]:
    """A ``.blksgf`` game as a game record (``app.history.records``), moves named by piece.

    The players' names (``PB``, ``PW``) come cut to ``name_max`` characters and
    otherwise as written: the import checks them as it checks every name. A file that
    is none raises ``SgfError``."""
    nodes = parse(text.strip())
    root = nodes[0]
    game = (root.get("GM") or [""])[0]
    if game not in VARIANTS:
        raise _bad(
            f"GM[{game}] is not a Blokus variant this server plays; "
            f"known: {', '.join(GAMES.values())}."
        )
    for setup in ("AB", "AW", "A1", "A2", "A3", "A4", "AE"):
        if any(setup in node for node in nodes):
            raise _bad("Setup positions (AB, AW, A1…A4, AE) can't be imported, only moves.")
    variant, players = VARIANTS[game]
    size = LAYOUTS[variant].size
    table = placements(size)
    two_colours = len(LAYOUTS[variant].colours) == 2
    engine = get_engine("blokus")
    options: dict[str, Any] = {"variant": variant}
    flag = (root.get(FREE_CORNERS) or [""])[0].strip()
    if flag not in ("", "0", "1"):
        raise _bad(f"{FREE_CORNERS}[{flag}] must be 1 (free start corners) or 0.")
    if flag == "1":
        options["free_corners"] = True
    state = engine.new_game(players, 0, options)
    moves: list[dict[str, Any]] = []
    for node in nodes[1:]:
        props = [p for p in MOVE_PROPS if p in node]
        if not props:
            continue
        if len(props) > 1:
            raise _bad(f"Move {len(moves) + 1} has more than one move property.")
        prop = props[0]
        number = len(moves) + 1
        colour = ("B", "W").index(prop) if prop in ("B", "W") and two_colours else None
        if colour is None:
            if prop in ("B", "W") or int(prop) > len(LAYOUTS[variant].colours):
                raise _bad(f"Move {number}: {prop}[…] is not a colour of {game}.")
            colour = int(prop) - 1
        value = node[prop][0]
        points = [p for p in value.split(",") if p]
        no_piece = _bad(f"Move {number}: the squares {_shown(value)} form no Blokus piece.")
        if len(points) > PIECE_MAX:
            raise no_piece
        cells, mask = _squares(size, points)
        pid = table.by_cell_mask.get(mask)
        if pid is None or len(cells) != mask.bit_count():
            raise no_piece
        if state.turn != colour:
            expected = state.turn
            raise SgfError(
                f"Move {number} is for colour {colour + 1}, but colour "
                f"{'none' if expected is None else expected + 1} is to move.",
                "illegal_move",
                move=number,
                reason="not_your_turn",
            )
        seat = engine.to_act(state)[0]
        move = {"piece": table.name[pid], "cells": cells}
        try:
            state = engine.play(state, seat, move)
        except ValueError as exc:
            raise SgfError(f"Move {number} is illegal: {exc}", "illegal_move", move=number) from exc
        moves.append({"seat": seat, "move": move})
    names = [f"Player {i + 1}" for i in range(players)]
    if players == 2:
        for i, key in enumerate(("PB", "PW")):
            given = " ".join((root.get(key) or [""])[0].split())
            if given:
                # checked as a typed name would be where the record is read (the import)
                names[i] = given[:name_max]
    return {
        "format": "spieltisch-record",
        "format_version": 1,
        "engine": "blokus",
        "version": engine.version,
        "options": options,
        "players": players,
        "names": names,
        "moves": moves,
        "result": None,
    }


FORMAT = RecordFormat(
    name="blksgf",
    title="Pentobi file (.blksgf)",
    media_type=MEDIA_TYPE,
    suffix=".blksgf",
    error_code=BAD_SGF,
    write=write,
    read=read,
)
