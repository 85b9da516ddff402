"""What several bench scripts share: progress lines and percentiles (scratch databases:
``tests/pg.py``; a Blokus Duo table played over websockets: ``bench/table.py``)."""

from __future__ import annotations

import math
import statistics
import sys
from typing import Any


def say(text: str) -> None:
    """Progress goes to stderr; stdout holds the one JSON line."""
    print(text, file=sys.stderr, flush=True)


def percentile(values: list[float], share: float) -> float:
    """Nearest rank: the smallest value with at least ``share`` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def figures(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 3),
        "p90": round(percentile(values, 0.90), 3),
        "p99": round(percentile(values, 0.99), 3),
        "max": round(max(values), 3),
    }


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (a tie counted as half a win)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
