"""The view's ``pays``: what a placement on each open cell would bring the seat looking.

A player who cannot see the table hears, for the chosen card, each place it fits and
what it would pay (issue 15); the browser holds no rules, so the view says it. These
tests hold it to what playing the placement really pays, over many random games,
and check it tells nothing a seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from engines.m import ENGINE
from engines.m.state import State
from tests.engines.m.conftest import Builder

Positions = Callable[..., list[State]]
Variants = Callable[[State, int | None], list[State]]

START_M = {
    (1, 0): "blue-10-circle", (0, 1): "brown-40-cross", (1, 2): "red-40-triangle",
    (0, 3): "yellow-20-cube", (1, 4): "green-0-a",
}  # fmt: skip


def pays_by_cell(state: State, seat: int) -> dict[tuple[int, int], dict[str, object]]:
    pays = ENGINE.view(state, seat)["pays"]
    return {(e["at"][0], e["at"][1]): {k: v for k, v in e.items() if k != "at"} for e in pays}


def paid_by_playing(state: State, seat: int, move: dict[str, object]) -> dict[str, object]:
    """The tokens the placement moved, read off the states before and after it."""
    after = ENGINE.play(state, seat, move)
    earned = after.tokens[seat] - state.tokens[seat]
    paid_by = [
        {"seat": s, "tokens": state.tokens[s] - after.tokens[s]}
        for s in range(state.players)
        if s != seat and after.tokens[s] != state.tokens[s]
    ]
    return {"earned": earned, "paid_by": paid_by}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pays_is_what_placing_there_pays_for_every_seat_along_random_games(
    players: int, positions: Positions
) -> None:
    checked = 0
    for seed in range(3):
        for state in positions(players, 700 + 10 * players + seed, every=2):
            if state.phase != "play":
                continue
            for seat in range(players):
                # the seat's turn now, so that its placements can be played out
                mine = replace(state, turn=seat, taker=seat)
                pays = pays_by_cell(mine, seat)
                assert pays == pays_by_cell(state, seat), "the same whoever's turn it is"
                assert [list(c) for c in pays] == ENGINE.view(mine, seat)["open_cells"]
                for move in ENGINE.legal_moves(mine, seat):
                    if move["type"] != "place":
                        continue
                    at = (move["at"][0], move["at"][1])
                    expected = pays[at]
                    assert paid_by_playing(mine, seat, move) == {
                        "earned": expected["earned"],
                        "paid_by": expected["paid_by"],
                    }
                    assert expected["lost"] == expected["owed"] - expected["earned"]
                    log = ENGINE.log_line(mine, seat, move, ENGINE.play(mine, seat, move))
                    assert log["tokens"] == expected
                    checked += 1
    assert checked > 200, checked


def test_pays_follows_the_tokens_to_the_right_and_says_what_is_lost(build: Builder) -> None:
    # seat 0 of three: the right-hand neighbour is seat 2, then seat 1
    state = build(START_M, [["red-20-cube"], ["blue-0-b"], ["green-0-b"]], tokens=[6, 0, 1])
    pays = pays_by_cell(state, 0)
    # (1, 1) touches three cards: two tokens owed, seat 2 has one, seat 1 none
    assert pays[(1, 1)] == {
        "owed": 2, "earned": 1, "paid_by": [{"seat": 2, "tokens": 1}], "lost": 1,
    }  # fmt: skip
    # (0, 0) touches two: one token, from seat 2
    assert pays[(0, 0)] == {
        "owed": 1,
        "earned": 1,
        "paid_by": [{"seat": 2, "tokens": 1}],
        "lost": 0,
    }
    # (2, 0) touches one: nothing owed
    assert pays[(2, 0)] == {"owed": 0, "earned": 0, "paid_by": [], "lost": 0}
    # seat 1 looking: its right is seat 0, who has plenty
    assert pays_by_cell(state, 1)[(1, 1)] == {
        "owed": 2, "earned": 2, "paid_by": [{"seat": 0, "tokens": 2}], "lost": 0,
    }  # fmt: skip


def test_a_spectator_gets_no_pays() -> None:
    state = ENGINE.new_game(3, 11)
    assert ENGINE.view(state, None)["pays"] is None
    assert ENGINE.view(state, 1)["pays"] is not None


@pytest.mark.parametrize("players", [2, 4, 6])
def test_pays_tells_nothing_hidden_and_not_even_the_own_hand(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    checked = 0
    for state in positions(players, 330 + players, every=3):
        for seat in range(players):
            pays = ENGINE.view(state, seat)["pays"]
            for variant in hidden_variants(state, seat):
                assert ENGINE.view(variant, seat)["pays"] == pays
                checked += 1
            # the cell decides, not the card: another hand gives the same payments
            others = [s for s in range(players) if s != seat and state.hands[s]]
            if others and state.hands[seat]:
                hands = list(state.hands)
                hands[seat], hands[others[0]] = hands[others[0]], hands[seat]
                swapped = replace(state, hands=tuple(hands))
                assert ENGINE.view(swapped, seat)["pays"] == pays
    assert checked > 100, checked
