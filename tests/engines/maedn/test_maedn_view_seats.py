"""Fields of MÄDN's view no other test pinned (the mutation run of `make mutate` found
them unchecked): who counts as seated, the stars in the middle, the stall count, the
turn once the game is over."""

from __future__ import annotations

import dataclasses

from engines.maedn import ENGINE, cards
from engines.maedn.rules import QUIET_ROUNDS
from tests.engines.maedn.maedn_positions import position


def test_a_seat_past_the_last_sees_exactly_what_a_spectator_sees() -> None:
    state = ENGINE.new_game(3, 11)
    watcher = ENGINE.view(state, None)
    assert watcher["game"] == "maedn"
    assert ENGINE.view(state, 3) == watcher
    assert ENGINE.view(state, -1) == watcher
    last = ENGINE.view(state, 2)
    assert last["seat"] == 2 and last["hand"] == list(state.hands[2])


def test_the_view_tells_the_stars_of_every_figure_the_quiet_count_and_no_turn_once_over() -> None:
    state = position(2, turn=1, quiet=7)
    view = ENGINE.view(state, 0)
    assert [m["stars"] for m in view["middle"]] == [cards.stars(f) for f in cards.FIGURES]
    assert any(m["stars"] for m in view["middle"])
    assert view["quiet"] == {"turns": 7, "limit": QUIET_ROUNDS * 2}
    assert view["turn"] == 1
    over = dataclasses.replace(state, end="stalled")
    assert ENGINE.view(over, 0)["turn"] is None
