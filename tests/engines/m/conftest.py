"""Fixtures for the M tests: positions built by hand.

The ``build`` fixture lays chosen cards on chosen cells and in chosen hands; every card not
named goes to the draw pile (in deck order) unless ``pile`` is given, in which case
the rest is set aside as removed, so the 90 cards are always all accounted for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engines.m import ENGINE
from engines.m.cards import DECK, INDEX
from engines.m.state import State, table_of
from engines.prng import below, seed_state


def card(card_id: str) -> int:
    return INDEX[card_id]


def _build(
    table: Mapping[tuple[int, int], str],
    hands: Sequence[Sequence[str]],
    *,
    tokens: Sequence[int] | None = None,
    pile: Sequence[str] | None = None,
    collections: Sequence[Sequence[str]] | None = None,
    turn: int = 0,
    **extra: Any,
) -> State:
    players = len(hands)
    named = [*table.values(), *(c for hand in hands for c in hand)]
    if pile is not None:
        named += list(pile)
    for cards in collections or []:
        named += list(cards)
    assert len(named) == len(set(named)), "a card is named twice"
    rest = tuple(i for i in range(len(DECK)) if DECK[i].id not in set(named))
    state = State(
        players=players,
        rng=0,
        pile=tuple(card(c) for c in pile) if pile is not None else rest,
        removed=() if pile is None else rest,
        hands=tuple(tuple(card(c) for c in hand) for hand in hands),
        table=table_of({cell: card(c) for cell, c in table.items()}),
        tokens=tuple(tokens) if tokens is not None else (6,) * players,
        collections=tuple(tuple(card(c) for c in cards) for cards in collections or [[]] * players),
        turn=turn,
        taker=turn,
    )
    return replace(state, **extra) if extra else state


def ids(cards: Sequence[int]) -> list[str]:
    return [DECK[c].id for c in cards]


Builder = Callable[..., State]
HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The M tests marked ``slow`` (thousands of games) run only when asked for with
    ``-m slow`` (``make test-long``), so a plain ``pytest tests/engines/m`` stays fast."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="thousands of games: run with -m slow (make test-long)")
    for item in items:
        if item.get_closest_marker("slow") and HERE in item.path.parents:
            item.add_marker(skip)


@pytest.fixture
def build() -> Builder:
    """``build(table, hands, tokens=, pile=, collections=, turn=, **state fields)``."""
    return _build


def _hidden_variants(state: State, viewer: int | None) -> list[State]:
    """States that differ from ``state`` only in what ``viewer`` cannot see: the pile's
    order, which hidden cards sit in the other hands, in the pile or among the removed."""
    others = [s for s in range(state.players) if s != viewer and state.hands[s]]
    found = []
    if len(state.pile) > 1:
        found.append(replace(state, pile=state.pile[::-1]))
    for seat in others[:2]:
        if state.pile:
            hands = list(state.hands)
            hands[seat] = (state.pile[0], *hands[seat][1:])
            pile = (state.hands[seat][0], *state.pile[1:])
            found.append(replace(state, hands=tuple(hands), pile=pile))
        if state.removed:
            hands = list(state.hands)
            hands[seat] = (*hands[seat][:-1], state.removed[0])
            removed = (state.hands[seat][-1], *state.removed[1:])
            found.append(replace(state, hands=tuple(hands), removed=removed))
    if len(others) >= 2:
        a, b = others[:2]
        hands = list(state.hands)
        hands[a], hands[b] = (hands[b][0], *hands[a][1:]), (hands[a][0], *hands[b][1:])
        found.append(replace(state, hands=tuple(hands)))
    if state.pile and state.removed:
        found.append(
            replace(
                state,
                pile=(state.removed[0], *state.pile[1:]),
                removed=(state.pile[0], *state.removed[1:]),
            )
        )
    return [variant for variant in found if variant != state]


@pytest.fixture
def hidden_variants() -> Callable[[State, int | None], list[State]]:
    """``hidden_variants(state, viewer)``: states equal to ``state`` as ``viewer`` sees it."""
    return _hidden_variants


def _positions(players: int, seed: int, every: int = 1) -> list[State]:
    """Positions along one game of random moves (every ``every``-th), the last included."""
    state = ENGINE.new_game(players, seed)
    rng = seed_state(seed)
    found = []
    step = 0
    while True:
        if step % every == 0 or state.phase in ("line", "take"):
            found.append(state)
        acting = ENGINE.to_act(state)
        if not acting:
            found.append(state)
            return found
        moves = ENGINE.legal_moves(state, acting[0])
        # prefer placing: random passes stall the game long before scoring phases
        places = [m for m in moves if m["type"] != "pass"] or moves
        index, rng = below(rng, len(places))
        state = ENGINE.play(state, acting[0], places[index])
        step += 1


@pytest.fixture
def positions() -> Callable[..., list[State]]:
    """``positions(players, seed, every=1)``: positions along a game that always places."""
    return _positions
