"""The public history of a game of M (docs/rules.md M-22): what every seat saw happen,
kept with the state and its snapshot, never a hidden card."""

from __future__ import annotations

from collections.abc import Callable

from engines.m import ENGINE, rules
from engines.m.moves import Pass, parse
from engines.m.state import PASSED, PLACED, SWAPPED, TOOK, State, dump, load
from engines.prng import below, seed_state

Positions = Callable[..., list[State]]


def _game_with_swaps(players: int, seed: int) -> list[tuple[State, int, dict[str, object]]]:
    """The steps of one game of random moves, swapping now and then while the pile lasts."""
    state = ENGINE.new_game(players, seed)
    rng = seed_state(seed)
    steps = []
    while acting := ENGINE.to_act(state):
        seat = acting[0]
        moves = ENGINE.legal_moves(state, seat)
        swaps = [m for m in moves if m["type"] == "pass" and "swap" in m]
        places = [m for m in moves if m["type"] != "pass"]
        coin, rng = below(rng, 10)
        pool = swaps if swaps and coin == 0 else places or moves
        index, rng = below(rng, len(pool))
        steps.append((state, seat, pool[index]))
        state = ENGINE.play(state, seat, pool[index])
    steps.append((state, -1, {}))
    return steps


def test_every_placement_pass_and_take_goes_into_the_history_in_order() -> None:
    """docs/rules.md M-22: the history names what each seat did, and nothing more."""
    steps = _game_with_swaps(3, 17)
    final = steps[-1][0]
    assert final.history is not None
    expected = []
    for before, seat, move in steps[:-1]:
        parsed = parse(move)
        if move["type"] == "place":
            expected.append((seat, PLACED, parsed.card, *parsed.at))  # type: ignore[union-attr]
        elif move["type"] == "pass":
            expected.append((seat, SWAPPED if "swap" in move else PASSED))
        elif move["type"] == "take":
            cell = next(c for c, card in before.grid.items() if card == parsed.card)  # type: ignore[union-attr]
            expected.append((seat, TOOK, parsed.card, *cell))
    assert final.history == tuple(expected)
    assert any(entry[1] == SWAPPED for entry in expected)


def test_a_swap_never_names_the_card_put_under_the_pile(build: Callable[..., State]) -> None:
    """docs/rules.md M-8 and M-22."""
    state = build(
        {(1, 0): "red-10-cube", (0, 1): "blue-20-cube"},
        [["green-0-a", "green-0-b"], ["yellow-0-a"]],
        history=(),
    )
    after = rules.play(state, 0, Pass(state.hands[0][0]))
    assert after.history == ((0, SWAPPED),)
    assert "green-0-a" not in str(dump(after)["history"])


def test_the_history_survives_a_snapshot(positions: Positions) -> None:
    for state in positions(4, 23, every=7):
        assert state.history is not None
        assert load(dump(state)) == state


def test_a_snapshot_from_before_the_history_loads_and_keeps_none(positions: Positions) -> None:
    """Snapshots written before the history was kept have no such key: the game goes on
    without one, and a bot reads no history from it."""
    state = positions(3, 29, every=5)[3]
    data = dump(state)
    del data["history"]
    old = load(data)
    assert old.history is None
    seat = ENGINE.to_act(old)[0]
    after = ENGINE.play(old, seat, ENGINE.legal_moves(old, seat)[0])
    assert after.history is None
    assert "history" not in dump(after)
