"""The cards of Mensch ärgere Dich nicht: Das Kartenspiel, as data.

Two decks (docs/rules.md MAEDN-1):

* figures 1-40, laid out in the middle of the table; 1-10 exist twice with three
  or four players and once with two, 11-40 always once;
* 130 dice cards: 22 each of 1-4 and 21 each of 5-6.

The stars printed on figures are a reconstruction (docs/rules.md MAEDN-2): no
published source lists them, so they live in this one table and can
be corrected here without touching the rules. Both copies of a duplicated figure
carry the same stars, which is why a figure is identified by its number alone.
"""

from __future__ import annotations

from types import MappingProxyType

LOWEST = 1
GOAL = 40
FIGURES = tuple(range(LOWEST, GOAL + 1))
HAND_SIZE = 2
MAX_OPEN_ROWS = 3
DIE_FACES = (1, 2, 3, 4, 5, 6)

DICE_COUNTS = MappingProxyType({1: 22, 2: 22, 3: 22, 4: 22, 5: 21, 6: 21})
"""How many dice cards show each face (130 in all)."""

DICE_TOTAL = sum(DICE_COUNTS.values())

# Reconstruction (docs/rules.md MAEDN-2): correct values here only.
STARS = MappingProxyType(
    {5: 1, 10: 1, 15: 1, 20: 1, 25: 1, 30: 1, 35: 1, 36: 1, 37: 1, 38: 2, 39: 3}
)
"""Stars on a figure by number; figures not listed carry none."""

TARGETS = MappingProxyType({2: 40, 3: 35, 4: 30})
"""Points that win at once, by player count (docs/rules.md MAEDN-16)."""


def stars(figure: int) -> int:
    """The stars printed on ``figure`` (both copies alike)."""
    return STARS.get(figure, 0)


def copies(players: int, figure: int) -> int:
    """How many cards of ``figure`` the game uses with ``players`` players.

    The duplicates of 1-10 are only used with three or four players
    (docs/rules.md MAEDN-1).
    """
    if not LOWEST <= figure <= GOAL:
        return 0
    return 2 if players >= 3 and figure <= 10 else 1


def figure_counts(players: int) -> tuple[int, ...]:
    """Copies of every figure, indexed by number (index 0 is always 0)."""
    return tuple(copies(players, figure) for figure in range(GOAL + 1))


def dice_deck() -> tuple[int, ...]:
    """The 130 dice cards in a fixed order, before shuffling."""
    return tuple(face for face in DIE_FACES for _ in range(DICE_COUNTS[face]))


def row_points(row: tuple[int, ...] | list[int]) -> int:
    """What a finished row scores: 1 per figure plus 1 per star (docs/rules.md MAEDN-15)."""
    return len(row) + sum(stars(figure) for figure in row)
