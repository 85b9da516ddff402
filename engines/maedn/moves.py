"""What a move of Mensch ärgere Dich nicht: Das Kartenspiel looks like.

Three move types (docs/protocol.md, "The moves of each game"):

* ``{"type": "start", "dice": [d]}`` or ``{"type": "start", "dice": [d1, d2]}``
* ``{"type": "extend", "row": i, "die": d}``
* ``{"type": "discard", "die": d}``

``start`` and ``extend`` take an optional ``"from": seat`` naming the player to
steal from; it is required exactly when two other players hold the figure and
refused otherwise (docs/rules.md MAEDN-8). Anything else — a non-object, an unknown type or field, a die
that is not a whole number 1-6, a negative row — is malformed: no position could
make it legal. This module checks shape only; ``engines.maedn.rules`` decides
whether the move is allowed now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import IllegalMove
from engines.maedn import cards

START = "start"
EXTEND = "extend"
DISCARD = "discard"

_FIELDS = {
    START: ({"type", "dice"}, {"from"}),
    EXTEND: ({"type", "row", "die"}, {"from"}),
    DISCARD: ({"type", "die"}, set()),
}


@dataclass(frozen=True)
class Move:
    """A well-formed move: ``dice`` sorted ascending, ``row`` only for extend."""

    kind: str
    dice: tuple[int, ...]
    row: int | None = None
    source: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        if self.kind == START:
            data["dice"] = list(self.dice)
        else:
            if self.kind == EXTEND:
                data["row"] = self.row
            data["die"] = self.dice[0]
        if self.source is not None:
            data["from"] = self.source
        return data


def _malformed(message: str) -> IllegalMove:
    return IllegalMove(message, code="malformed", malformed=True)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _die(value: Any) -> int:
    if not _whole(value) or value not in cards.DIE_FACES:
        raise _malformed(f"A die is a whole number from 1 to 6, not {value!r}.")
    return int(value)


def parse_move(move: Any) -> Move:
    """The ``Move`` that ``move`` spells, or ``IllegalMove(malformed=True)``."""
    if not isinstance(move, Mapping):
        raise _malformed("A move must be an object with a 'type'.")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed(
            f"Unknown move type {kind!r}; a move is of type 'start', 'extend' or 'discard'."
        )
    required, optional = _FIELDS[kind]
    missing = sorted(required - set(move))
    if missing:
        raise _malformed(f"A {kind!r} move needs the field {missing[0]!r}.")
    extra = sorted(str(key) for key in set(move) - required - optional)
    if extra:
        raise _malformed(f"A {kind!r} move has no field {extra[0]!r}.")
    source = move.get("from")
    if source is not None and (not _whole(source) or source < 0):
        raise _malformed(f"'from' names a seat by its number, not {source!r}.")
    if kind == START:
        dice = move["dice"]
        if not isinstance(dice, list | tuple) or len(dice) not in (1, 2):
            raise _malformed("'dice' is a list of one or two dice, e.g. [2, 6].")
        return Move(START, tuple(sorted(_die(d) for d in dice)), source=source)
    if kind == EXTEND:
        row = move["row"]
        if not _whole(row) or row < 0:
            raise _malformed(f"'row' counts your open rows from 0, not {row!r}.")
        return Move(EXTEND, (_die(move["die"]),), row=int(row), source=source)
    return Move(DISCARD, (_die(move["die"]),))
