"""Game records for the replay and record tests: played by the engines' own bots."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from engines import get_engine

GOLDEN = Path(__file__).resolve().parent.parent / "engines" / "golden"
NAMES = ["Anna", "Ben", "Cara", "Dora", "Emil", "Fritz"]


def digest(data: Any) -> str:
    """The state digest the golden transcripts use (tests/engines/test_golden.py)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def golden(name: str) -> dict[str, Any]:
    return dict(json.loads((GOLDEN / name).read_text()))


def from_golden(data: dict[str, Any]) -> dict[str, Any]:
    """A golden transcript as a game record (no commitment: the import makes one)."""
    return {
        "format": "spieltisch-record",
        "format_version": 1,
        "engine": data["game"],
        "players": data["players"],
        "options": data["options"],
        "names": NAMES[: data["players"]],
        "moves": [{"seat": s["seat"], "move": s["move"]} for s in data["steps"]],
        "seed": data["seed"],
        "result": data["result"],
    }


def bot_record(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A whole game played by the engine's random bot in every seat, as a record."""
    engine = get_engine(game)
    bot = engine.random_bot()
    state = engine.new_game(players, seed, options)
    moves = []
    while acting := engine.to_act(state):
        move = bot.choose(state, acting[0], seed + len(moves))
        state = engine.play(state, acting[0], move)
        moves.append({"seat": acting[0], "move": move})
    return {
        "format": "spieltisch-record",
        "format_version": 1,
        "engine": game,
        "players": players,
        "options": engine.normalize_options(players, options),
        "names": NAMES[:players],
        "moves": moves,
        "seed": seed,
        "result": engine.result(state),
    }
