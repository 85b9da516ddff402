"""The four moves of M, read from JSON (docs/protocol.md, "The moves of each game").

``parse`` only checks shape: a move that is not a move of M at all (not an object,
an unknown type, an unknown card id, coordinates that are not two integers) is
refused here as malformed. Whether the rules allow it now is ``engines.m.rules``'s
business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import JSON, IllegalMove
from engines.m.cards import DECK, INDEX
from engines.m.table import Cell

# Far beyond any table a game can build (the table drifts at most one cell per
# placement); a coordinate past this is a mistake, not a move.
COORD_LIMIT = 1000

_KEYS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required keys, optional keys) besides "type"
    "place": ({"card", "at"}, set()),
    "pass": (set(), {"swap"}),
    "line": ({"line"}, set()),
    "take": ({"card"}, set()),
}


@dataclass(frozen=True)
class Place:
    card: int
    at: Cell

    def json(self) -> JSON:
        return {"type": "place", "card": DECK[self.card].id, "at": [self.at[0], self.at[1]]}


@dataclass(frozen=True)
class Pass:
    swap: int | None = None

    def json(self) -> JSON:
        if self.swap is None:
            return {"type": "pass"}
        return {"type": "pass", "swap": DECK[self.swap].id}


@dataclass(frozen=True)
class Line:
    line: str

    def json(self) -> JSON:
        return {"type": "line", "line": self.line}


@dataclass(frozen=True)
class Take:
    card: int

    def json(self) -> JSON:
        return {"type": "take", "card": DECK[self.card].id}


Move = Place | Pass | Line | Take


def _malformed(message: str, code: str) -> IllegalMove:
    return IllegalMove(message, code=code, malformed=True)


def _card(value: Any, what: str) -> int:
    if not isinstance(value, str):
        raise _malformed(f"The {what} must be a card id such as 'blue-40-cube'.", "bad_card")
    index = INDEX.get(value)
    if index is None:
        raise _malformed(f"There is no card {value!r} in M.", "unknown_card")
    return index


def _coordinate(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > COORD_LIMIT:
        return None
    return value


def _cell(value: Any) -> Cell:
    if isinstance(value, list | tuple) and len(value) == 2:
        r, c = _coordinate(value[0]), _coordinate(value[1])
        if r is not None and c is not None:
            return r, c
    raise _malformed(
        "A place move needs 'at': [row, col], two whole numbers (they may be negative).",
        "bad_cell",
    )


def parse(move: Any) -> Move:
    """The typed move ``move`` spells; ``IllegalMove(malformed=True)`` if it spells none."""
    if not isinstance(move, Mapping):
        raise _malformed("A move must be a JSON object with a 'type'.", "not_an_object")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise _malformed(
            "An M move has a 'type' of 'place', 'pass', 'line' or 'take'.", "unknown_type"
        )
    required, optional = _KEYS[kind]
    keys = set(move) - {"type"}
    if not required <= keys or keys - required - optional:
        wanted = ", ".join(sorted(required | optional)) or "nothing else"
        raise _malformed(f"A {kind!r} move takes: {wanted}.", "bad_fields")
    if kind == "place":
        return Place(_card(move["card"], "card"), _cell(move["at"]))
    if kind == "pass":
        swap = move.get("swap")
        return Pass(None if swap is None else _card(swap, "card to swap"))
    if kind == "line":
        line = move["line"]
        if line not in ("row", "col"):
            raise _malformed("The line to score is 'row' or 'col'.", "bad_line")
        return Line(line)
    return Take(_card(move["card"], "card"))
