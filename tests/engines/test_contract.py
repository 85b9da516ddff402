"""The contract every registered engine keeps, checked over random games.

After every move: the moves offered are legal, ``play`` leaves its input alone,
``load(dump(s)) == s``, every view is JSON and free of the seed; at the end the
game is over, has a result, and replaying the moves from the seed rebuilds it.
"""

from __future__ import annotations

import ast
import copy
import json
import pathlib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import ENGINES, FORMAT_NAME, get_engine, record_format, register
from engines.base import Budget, Engine, IllegalMove, RecordFormat

ENGINE_NAMES = sorted(ENGINES)
MAX_MOVES = 5000
SEED_FLOOR = 1 << 62  # seeds of 19 digits: their appearance in a view cannot be chance
# a searching bot thinks a fixed number of iterations here, the same on any machine
BUDGET = Budget(iterations=8, seconds=None)


def _setups(engine: Engine[Any]) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with default options, plus each option flipped on its own."""
    setups: list[tuple[int, dict[str, Any]]] = []
    for players in engine.player_counts():
        setups.append((players, {}))
    for opt in engine.options:
        values = (
            [not opt.default]
            if opt.kind == "bool"
            else [c for c in opt.choices if c != opt.default]
        )
        for value in values:
            for players in engine.player_counts({opt.name: value}):
                setups.append((players, {opt.name: value}))
    return setups


def play_random_game(
    engine: Engine[Any], players: int, options: dict[str, Any], seed: int, pick: Any
) -> list[tuple[int, dict[str, Any]]]:
    """Play one game choosing with ``pick(n) -> index``, checking the contract at every step."""
    state = engine.new_game(players, seed, options)
    start = state
    history: list[tuple[int, dict[str, Any]]] = []
    for _ in range(MAX_MOVES):
        assert engine.load(engine.dump(state)) == state
        json.dumps(engine.dump(state))
        for seat in [None, *range(players)]:
            view = engine.view(state, seat)
            assert str(seed) not in json.dumps(view), "the seed leaked into a view"
        acting = engine.to_act(state)
        if not acting:
            break
        assert engine.result(state) is None
        seat = acting[pick(len(acting))]
        moves = engine.legal_moves(state, seat)
        assert moves, f"seat {seat} is to act but has no legal move"
        json.dumps(moves)
        # the text a server sends is exactly these moves
        assert json.loads(engine.legal_moves_json(state, seat)) == moves
        # and so is the compact form, where the engine has one, in the same order
        compact = engine.legal_moves_compact(state, seat)
        if compact is not None:
            assert engine.expand_compact(json.loads(compact)) == moves
        for other in range(players):
            if other not in acting:
                assert engine.legal_moves(state, other) == []
                assert json.loads(engine.legal_moves_json(state, other)) == []
                none = engine.legal_moves_compact(state, other)
                assert none is None or engine.expand_compact(json.loads(none)) == []
        move = moves[pick(len(moves))]
        frozen = copy.deepcopy(engine.dump(state))
        after = engine.play(state, seat, move)
        assert engine.dump(state) == frozen, "play() changed its input"
        # a second legal move from the same position is also accepted
        other_move = moves[pick(len(moves))]
        engine.play(state, seat, other_move)
        history.append((seat, move))
        state = after
    else:
        pytest.fail(f"game did not end within {MAX_MOVES} moves")
    result = engine.result(state)
    assert result is not None
    assert len(result["scores"]) == players
    assert len(result["ranks"]) == players
    json.dumps(result)
    replay = start
    for seat, move in history:
        replay = engine.play(replay, seat, move)
    assert replay == state
    assert engine.new_game(players, seed, options) == start
    return history


@pytest.mark.parametrize("name", ENGINE_NAMES)
@given(data=st.data(), seed=st.integers(min_value=SEED_FLOOR, max_value=2**63 - 1))
def test_random_games_keep_the_contract(name: str, data: st.DataObject, seed: int) -> None:
    engine = get_engine(name)
    players, options = data.draw(st.sampled_from(_setups(engine)), label="setup")
    chooser = data.draw(st.randoms(use_true_random=False), label="chooser")
    play_random_game(engine, players, options, seed, lambda n: chooser.randrange(n))


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_moves_for_a_seat_not_to_act_are_refused(name: str) -> None:
    engine = get_engine(name)
    players = engine.min_players
    state = engine.new_game(players, 7)
    acting = engine.to_act(state)
    idle = [seat for seat in range(players) if seat not in acting]
    if not idle:
        pytest.skip("every seat may act at the start")
    move = engine.legal_moves(state, acting[0])[0]
    with pytest.raises(IllegalMove):
        engine.play(state, idle[0], move)


@pytest.mark.parametrize("name", ENGINE_NAMES)
@pytest.mark.parametrize("move", [{}, {"nonsense": 1}, {"type": 3}, {"piece": None}])
def test_malformed_moves_are_refused_as_malformed(name: str, move: dict[str, Any]) -> None:
    engine = get_engine(name)
    state = engine.new_game(engine.min_players, 7)
    seat = engine.to_act(state)[0]
    with pytest.raises(IllegalMove) as excinfo:
        engine.play(state, seat, move)
    assert excinfo.value.malformed
    assert excinfo.value.message


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_bots_choose_legal_moves_deterministically(name: str) -> None:
    engine = get_engine(name)
    for players in engine.player_counts():
        state = engine.new_game(players, 11)
        for bot in engine.bots().values():
            seat = engine.to_act(state)[0]
            move = bot.choose(state, seat, 3, BUDGET)
            assert move == bot.choose(state, seat, 3, BUDGET)
            engine.play(state, seat, move)


def test_unknown_engine_names_the_known_ones() -> None:
    with pytest.raises(KeyError) as excinfo:
        get_engine("chess")
    for name in ENGINE_NAMES:
        assert name in str(excinfo.value)


def test_record_formats_have_names_of_their_own() -> None:
    names = [fmt.name for engine in ENGINES.values() for fmt in engine.record_formats()]
    assert len(names) == len(set(names))
    for engine in ENGINES.values():
        assert isinstance(engine.hidden_information, bool)
        for fmt in engine.record_formats():
            assert FORMAT_NAME.fullmatch(fmt.name), fmt.name
            assert fmt.suffix.startswith(".") and fmt.media_type and fmt.error_code
            assert engine.record_format(fmt.name) is fmt
            assert record_format(fmt.name) == (engine, fmt)
    assert record_format("no-such-format") is None


def test_an_engine_whose_format_name_another_has_is_not_registered() -> None:
    blokus = get_engine("blokus")

    class Copy(type(blokus)):  # type: ignore[misc]
        name = "copy"

    with pytest.raises(ValueError, match="blksgf"):
        register(Copy())
    assert "copy" not in ENGINES

    class Shouting(type(blokus)):  # type: ignore[misc]
        name = "shouting"

        def record_formats(self) -> tuple[RecordFormat, ...]:
            return (replace(super().record_formats()[0], name="BLKSGF"),)

    with pytest.raises(ValueError, match="lowercase"):
        register(Shouting())
    assert "shouting" not in ENGINES


FORBIDDEN_IMPORTS = {"app", "random", "time", "datetime", "secrets", "os", "uuid", "asyncio"}
# a hard bot's search may read the clock, only to stop when ``Budget.seconds`` runs out
# (with ``iterations`` alone it never looks, and stays deterministic)
CLOCK_ALLOWED = {"search.py": {"time"}, "determinized.py": {"time"}}


def test_engines_import_no_app_clock_or_global_randomness() -> None:
    root = pathlib.Path(__file__).resolve().parents[2] / "engines"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for imported in names:
                top = imported.split(".")[0]
                if top in FORBIDDEN_IMPORTS and top not in CLOCK_ALLOWED.get(path.name, set()):
                    offenders.append(f"{path.relative_to(root.parent)}: {imported}")
    assert offenders == []
