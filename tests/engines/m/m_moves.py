"""Move builders and the refusal check shared by the M decision tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.m import ENGINE
from engines.m.cards import DECK
from engines.m.state import State

Builder = Callable[..., State]


def ids(cards: tuple[int, ...]) -> list[str]:
    return [DECK[c].id for c in cards]


def place(card_id: str, at: tuple[int, int]) -> dict[str, Any]:
    return {"type": "place", "card": card_id, "at": list(at)}


def take(card_id: str) -> dict[str, Any]:
    return {"type": "take", "card": card_id}


def refused(state: State, seat: int, move: dict[str, Any]) -> IllegalMove:
    """``move`` is refused as well-formed but illegal, and not offered as legal."""
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, seat, move)
    assert not excinfo.value.malformed
    assert move not in ENGINE.legal_moves(state, seat)
    return excinfo.value
