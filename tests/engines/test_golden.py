"""Golden transcripts: one recorded game per engine and setup, replayed move by move.

Each file in ``golden/`` holds a seed, the moves its bots chose and, after every
move, a digest of the complete state. A change to the rules, the deal or the
PRNG shows up here as the first move where the game goes another way.
Regenerate (after a deliberate rules change) with
``.venv/bin/python tests/engines/test_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines import get_engine

GOLDEN = Path(__file__).resolve().parent / "golden"
SETUPS = [
    ("blokus", 4, {}, 11),
    ("blokus", 2, {"variant": "duo"}, 12),
    ("m", 3, {}, 13),
    ("m", 6, {}, 14),
    ("maedn", 2, {}, 15),
    ("maedn", 4, {}, 16),
]


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _name(game: str, players: int, options: dict[str, Any]) -> str:
    suffix = "".join(f"-{v}" for v in options.values())
    return f"{game}-{players}p{suffix}.json"


def record(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play a game with the engine's default bot in every seat and write down every step."""
    engine = get_engine(game)
    bot = next(iter(engine.bots().values()))
    state = engine.new_game(players, seed, options)
    steps = []
    while acting := engine.to_act(state):
        seat = acting[0]
        move = bot.choose(state, seat, seed + len(steps))
        state = engine.play(state, seat, move)
        steps.append({"seat": seat, "move": move, "state": _digest(engine.dump(state))})
    return {
        "game": game,
        "players": players,
        "options": options,
        "seed": seed,
        "steps": steps,
        "result": engine.result(state),
    }


@pytest.mark.parametrize(("game", "players", "options", "seed"), SETUPS)
def test_golden_transcript_replays_exactly(
    game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """docs/rules.md ALL-5."""
    golden = json.loads((GOLDEN / _name(game, players, options)).read_text())
    engine = get_engine(game)
    state = engine.new_game(golden["players"], golden["seed"], golden["options"])
    for number, step in enumerate(golden["steps"]):
        assert step["seat"] in engine.to_act(state), (
            f"move {number}: seat {step['seat']} may not act"
        )
        state = engine.play(state, step["seat"], step["move"])
        assert _digest(engine.dump(state)) == step["state"], f"move {number} leads elsewhere"
    assert engine.to_act(state) == []
    assert engine.result(state) == golden["result"]


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for game, players, options, seed in SETUPS:
        path = GOLDEN / _name(game, players, options)
        path.write_text(json.dumps(record(game, players, options, seed), indent=1) + "\n")
        print(path.name)
