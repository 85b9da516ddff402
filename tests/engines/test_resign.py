"""Resigning, per game (docs/rules.md ALL-6, M-23, MAEDN-19 and BLOKUS-14): what a resignation does
to the game, the ranks it leaves, and that the move the log keeps for it replays."""

from __future__ import annotations

from typing import Any

import pytest

from engines import ENGINES, get_engine
from engines.base import RESIGN, IllegalMove, ranks_with_last
from engines.blokus import rules as blokus_rules


def _play(name: str, players: int, moves: int, options: dict[str, Any] | None = None) -> Any:
    engine = get_engine(name)
    state = engine.new_game(players, 7, options)
    for _ in range(moves):
        seat = engine.to_act(state)[0]
        state = engine.play(state, seat, engine.legal_moves(state, seat)[0])
    return state


def test_all6_the_resigning_seat_ranks_last_and_the_others_share_ranks() -> None:
    assert ranks_with_last([10, 30, 30, 5], 1) == [2, 4, 1, 3]
    assert ranks_with_last([30, 30, 30], 2) == [1, 1, 3]
    assert ranks_with_last([0, 0], 0) == [2, 1]


@pytest.mark.parametrize("name", sorted(n for n in ENGINES if n != "secret"))
def test_resigning_replays_through_apply_and_survives_a_snapshot(name: str) -> None:
    engine = get_engine(name)
    state = _play(name, 3, 2)
    seat = engine.to_act(state)[0]
    resigned = engine.apply(state, (seat + 1) % 3, RESIGN)
    assert resigned == engine.resign(state, (seat + 1) % 3)
    assert engine.load(engine.dump(resigned)) == resigned
    assert engine.view(resigned, None) is not None


def test_blokus14_blokus_colours_stop_and_the_pieces_stay() -> None:
    engine = get_engine("blokus")
    state = _play("blokus", 4, 5)
    placed = state.placed[2]
    assert placed, "red has a piece on the board"
    after = engine.resign(state, 2)
    assert after.out[2] and after.placed[2] == placed
    assert after.turn != 2 and 2 not in engine.to_act(after)
    assert engine.result(after) is None, "the others play on"
    with pytest.raises(IllegalMove):
        engine.resign(after, 2)
    # two players: both of the seat's colours stop; the other seat plays on alone
    two = engine.resign(_play("blokus", 2, 4), 0)
    assert two.out[0] and two.out[2] and not two.out[1] and engine.to_act(two) == [1]


def test_blokus14_blokus_three_players_stop_the_shared_green_too() -> None:
    engine = get_engine("blokus")
    state = _play("blokus", 3, 4)
    after = engine.resign(state, 1)
    assert after.out[1] and after.out[blokus_rules.GREEN]
    assert engine.to_act(after) and 1 not in engine.to_act(after)


def test_blokus14_blokus_the_last_seat_resigning_ends_the_game_ranked_as_usual() -> None:
    engine = get_engine("blokus")
    state = engine.resign(_play("blokus", 2, 4), 0)
    over = engine.resign(state, 1)
    result = engine.result(over)
    assert result is not None and over.turn is None
    assert result["scores"] == blokus_rules.seat_scores(over)


def test_m23_m_the_game_ends_with_the_seat_last() -> None:
    engine = get_engine("m")
    state = _play("m", 3, 3)
    after = engine.resign(state, 0)
    result = engine.result(after)
    assert result is not None and engine.to_act(after) == []
    assert result["ranks"][0] == 3
    assert engine.view(after, 1)["ended"] == "resigned"
    assert engine.view(after, 1)["resigned"] == 0
    with pytest.raises(IllegalMove):
        engine.resign(after, 1)


def test_maedn19_maedn_the_game_ends_with_the_seat_last_and_no_winner() -> None:
    engine = get_engine("maedn")
    state = _play("maedn", 3, 3)
    after = engine.resign(state, 2)
    result = engine.result(after)
    assert result is not None and engine.to_act(after) == []
    assert result["ranks"][2] == 3 and result["scores"] == list(state.scores)
    view = engine.view(after, None)
    assert view["end"] == "resigned" and view["winner"] is None and view["resigned"] == 2
    with pytest.raises(IllegalMove):
        engine.resign(after, 0)
