"""Final scores (docs/rules.md M-21).

10 points per token, plus the collected cards of the two colours that give the
best total, minus the collected cards of every other colour. The player does not
choose: the engine picks the best two, which is always the two largest totals
because no card is worth less than 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import JSON
from engines.m.cards import COLOURS, DECK

TOKEN_POINTS = 10


def colour_totals(collection: Iterable[int]) -> dict[str, int]:
    """The value collected per colour, for the colours collected at all, in deck order."""
    totals: dict[str, int] = {}
    for card in collection:
        colour = DECK[card].colour
        totals[colour] = totals.get(colour, 0) + DECK[card].value
    return {colour: totals[colour] for colour in COLOURS if colour in totals}


def best_colours(totals: dict[str, int]) -> list[str]:
    """The (at most) two colours that count positively; ties go to deck order."""
    ranked = sorted(totals, key=lambda colour: (-totals[colour], COLOURS.index(colour)))
    return ranked[:2]


def score(tokens: int, collection: Iterable[int]) -> int:
    """The final score of one seat (docs/rules.md M-21)."""
    totals = colour_totals(collection)
    best = best_colours(totals)
    cards = sum(value if colour in best else -value for colour, value in totals.items())
    return TOKEN_POINTS * tokens + cards


def breakdown(tokens: int, collection: Iterable[int]) -> JSON:
    """A seat's score with its parts, for views: which two colours count, and the total."""
    cards = tuple(collection)
    totals = colour_totals(cards)
    return {
        "tokens": tokens,
        "token_points": TOKEN_POINTS * tokens,
        "colours": totals,
        "best": best_colours(totals),
        "total": score(tokens, cards),
    }
