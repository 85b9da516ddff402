"""Views: the documented shape, and no hidden fact reaching another seat."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engines.maedn import ENGINE, bots
from engines.maedn.state import State
from tests.engines.maedn.maedn_positions import play, position

KEYS = {
    "game",
    "players",
    "seat",
    "turn",
    "target",
    "max_open_rows",
    "hand",
    "hand_sizes",
    "rows",
    "finished",
    "middle",
    "scores",
    "draw_pile",
    "discard_pile",
    "quiet",
    "over",
    "winner",
    "end",
    "resigned",
}


def states_along_a_game(players: int, seed: int, every: int = 7) -> list[State]:
    state = ENGINE.new_game(players, seed)
    seen = [state]
    turn = 0
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, bots.choose_random(state, seat, seed + turn))
        turn += 1
        if turn % every == 0:
            seen.append(state)
    return seen


def test_view_has_the_documented_shape() -> None:
    state = position(
        3,
        turn=1,
        hands=[[2, 6], [1, 3], [4, 4]],
        rows={0: [[8, 12, 15]]},
        finished={1: [[36, 38, 40]]},
        scores=[0, 6, 0],
        discard=[3, 5],
    )
    view = ENGINE.view(state, 0)
    assert set(view) == KEYS
    json.dumps(view)
    assert view["seat"] == 0 and view["turn"] == 1 and view["target"] == 35
    assert view["hand"] == [2, 6] and view["hand_sizes"] == [2, 2, 2]
    assert view["rows"] == [[{"figures": [8, 12, 15], "stars": [0, 0, 1]}], [], []]
    assert view["finished"][1] == [{"figures": [36, 38, 40], "stars": [1, 2, 0], "points": 6}]
    assert len(view["middle"]) == 40
    assert view["middle"][7] == {"figure": 8, "count": 1, "copies": 2, "stars": 0}
    assert view["middle"][11] == {"figure": 12, "count": 0, "copies": 1, "stars": 0}
    assert view["discard_pile"] == {"size": 2, "top": 5}
    assert view["draw_pile"] == 130 - 6 - 2
    assert view["scores"] == [0, 6, 0]
    spectator = ENGINE.view(state, None)
    assert spectator["seat"] is None and spectator["hand"] is None
    assert {k: v for k, v in spectator.items() if k not in ("seat", "hand")} == {
        k: v for k, v in view.items() if k not in ("seat", "hand")
    }


def _swap_hand_with_pile(state: State, seat: int) -> State | None:
    """Give ``seat`` other dice from the pile: a different hidden hand, same public facts.

    ``None`` when the pile holds no other die (it may be empty just before a reshuffle).
    """
    hand = state.hands[seat]
    if not hand:
        return None
    pile = list(state.pile)
    for index, die in enumerate(pile):
        if die not in hand:
            new_hand = tuple(sorted((die, *hand[1:])))  # a winner holds one die
            pile[index] = hand[0]
            hands = tuple(new_hand if s == seat else h for s, h in enumerate(state.hands))
            return dataclasses.replace(state, hands=hands, pile=tuple(pile))
    return None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_other_hands_pile_order_and_prng_never_reach_another_seat(players: int) -> None:
    """docs/rules.md MAEDN-18 and ALL-5."""
    for state in states_along_a_game(players, 4000 + players):
        reordered = dataclasses.replace(state, pile=state.pile[::-1], rng=state.rng ^ 0xBEEF)
        for seat in [None, *range(players)]:
            assert ENGINE.view(reordered, seat) == ENGINE.view(state, seat)
        for secret in range(players):
            changed = _swap_hand_with_pile(state, secret)
            if changed is None:
                continue
            assert changed.hands[secret] != state.hands[secret]
            for seat in [None, *range(players)]:
                if seat != secret:
                    assert ENGINE.view(changed, seat) == ENGINE.view(state, seat)
            assert ENGINE.view(changed, secret)["hand"] == list(changed.hands[secret])


def test_the_dice_drawn_are_not_in_the_log_line() -> None:
    """docs/rules.md MAEDN-18."""
    state = position(2, hands=[[2, 6], [1, 1]], pile=[4, 5])
    move = {"type": "start", "dice": [2, 6]}
    after = play(state, 0, move)
    other = dataclasses.replace(state, pile=(*state.pile[:-2], 3, 3))
    after_other = play(other, 0, move)
    assert after.hands[0] != after_other.hands[0]
    assert ENGINE.log_line(state, 0, move, after) == ENGINE.log_line(other, 0, move, after_other)
