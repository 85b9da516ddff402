"""The cards of M, as data (docs/rules.md M-1).

RECONSTRUCTION: no published source lists the deck card by card. The table here
follows docs/rules.md M-1: 90 cards, five colours of 18; per colour two
0-cards without a symbol and four symbols at 10, 20, 30 and 40, each colour lacking
one of the five symbols. Correct it here, and only here, if a better source turns up.

Inside the engine a card is its index in ``DECK`` (a small int, cheap to compare
and to keep in tuples); everything that leaves the engine uses the readable ids
(``"blue-40-cube"``, ``"red-0-a"``).
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("blue", "brown", "red", "green", "yellow")
SYMBOLS: tuple[str, ...] = ("cube", "triangle", "moebius", "circle", "cross")
VALUES: tuple[int, ...] = (10, 20, 30, 40)

# RECONSTRUCTION (docs/rules.md M-1): the one symbol each colour lacks.
MISSING_SYMBOL: dict[str, str] = {
    "blue": "moebius",
    "brown": "circle",
    "red": "cross",
    "green": "cube",
    "yellow": "triangle",
}

# Cards kept per player count: 30 + 10·N, the rulebook's table (docs/rules.md M-3).
KEEP: dict[int, int] = {2: 50, 3: 60, 4: 70, 5: 80, 6: 90}

TOKENS_EACH = 6
HAND_SIZE = 4
BOX = 6

# docs/rules.md M-4: the start M, five face-up cards touching only at corners.
START_CELLS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 2), (0, 3), (1, 4))


@dataclass(frozen=True)
class Card:
    """One card: colour, value and symbol (``None`` for the 0-cards' blank centre)."""

    id: str
    colour: str
    value: int
    symbol: str | None

    def describe(self) -> dict[str, object]:
        """The JSON shape of a card in views and logs."""
        return {"id": self.id, "colour": self.colour, "value": self.value, "symbol": self.symbol}

    def words(self) -> str:
        """A short name for messages, e.g. ``"red 20 moebius"`` or ``"green 0"``."""
        base = f"{self.colour} {self.value}"
        return f"{base} {self.symbol}" if self.symbol else base


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for colour in COLOURS:
        cards.append(Card(f"{colour}-0-a", colour, 0, None))
        cards.append(Card(f"{colour}-0-b", colour, 0, None))
        for symbol in SYMBOLS:
            if symbol == MISSING_SYMBOL[colour]:
                continue
            for value in VALUES:
                cards.append(Card(f"{colour}-{value}-{symbol}", colour, value, symbol))
    return tuple(cards)


DECK: tuple[Card, ...] = _build_deck()
INDEX: dict[str, int] = {card.id: i for i, card in enumerate(DECK)}


def shared(a: Card, b: Card) -> int:
    """How many characteristics two cards share; a blank centre is never shared."""
    same = (a.colour == b.colour) + (a.value == b.value)
    return same + (a.symbol is not None and a.symbol == b.symbol)


# Precomputed per pair of indices, because placement and trigger checks ask often.
SHARED: tuple[tuple[int, ...], ...] = tuple(tuple(shared(a, b) for b in DECK) for a in DECK)

# As bitmasks over card indices, for the placement search: bit b of CLASHES[a] is set
# when cards a and b share nothing, so a card fits a cell iff it clashes with none of
# the cell's neighbours.
CLASHES: tuple[int, ...] = tuple(
    sum(1 << b for b, count in enumerate(row) if count == 0) for row in SHARED
)
