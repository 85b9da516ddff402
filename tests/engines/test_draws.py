"""``Engine.draws``: the cards a move drew, exactly those, for the replay of a finished game."""

from __future__ import annotations

from collections import Counter

import pytest

from engines import get_engine


@pytest.mark.parametrize(("game", "players", "seed"), [("m", 2, 3), ("m", 5, 4), ("maedn", 3, 5)])
def test_every_card_that_comes_into_a_hand_is_told_as_drawn(
    game: str, players: int, seed: int
) -> None:
    engine = get_engine(game)
    bot = engine.random_bot()
    state = engine.new_game(players, seed)
    told = 0
    while acting := engine.to_act(state):
        seat = acting[0]
        move = bot.choose(state, seat, seed + told)
        after = engine.play(state, seat, move)
        drawn = engine.draws(state, seat, move, after)
        for who in range(players):
            before_hand = Counter(_key(c) for c in engine.view(state, who)["hand"])
            after_hand = Counter(_key(c) for c in engine.view(after, who)["hand"])
            mine = Counter(_key(d["card"]) for d in drawn if d["seat"] == who)
            # what the hand holds now, less what it drew, was in it before
            assert not (after_hand - mine) - before_hand
            assert not mine - after_hand
        told += len(drawn)
        state = after
    assert told > 0


def test_a_maedn_die_drawn_like_the_one_played_is_still_told() -> None:
    engine = get_engine("maedn")
    bot = engine.random_bot()
    state = engine.new_game(2, 9)
    for n in range(400):
        acting = engine.to_act(state)
        if not acting:
            break
        seat = acting[0]
        move = bot.choose(state, seat, n)
        after = engine.play(state, seat, move)
        played = move.get("dice") or [move["die"]]
        drawn = [d["card"] for d in engine.draws(state, seat, move, after)]
        if after.end is None:
            # the mover draws back to a full hand, whatever the faces
            assert len(drawn) == len(played)
        state = after


def test_blokus_draws_nothing() -> None:
    """docs/rules.md BLOKUS-13."""
    engine = get_engine("blokus")
    state = engine.new_game(2, 0, {"variant": "duo"})
    move = engine.legal_moves(state, 0)[0]
    assert engine.draws(state, 0, move, engine.play(state, 0, move)) == []


def _key(card: object) -> object:
    return card["id"] if isinstance(card, dict) else card
