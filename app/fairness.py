"""Shuffles anyone can check: a commitment to the seed when a game starts.

``game_started`` keeps the seed and a random salt private and publishes
``sha256("<seed>:<salt>")``. Once the game is over the seed and salt become part
of the game's record, and anyone can recompute the commitment, deal again from
the seed and replay every move to the same result (``verify``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines import ENGINES, get_engine
from engines.base import BadOptions, IllegalMove


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (hex) of ``"<seed>:<salt>"``; it binds the deal before it happens."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


@dataclass(frozen=True)
class Check:
    """The outcome of a verification: ``ok``, or where and why it differs."""

    ok: bool
    message: str
    where: str | None = None
    move: int | None = None

    def body(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message, "where": self.where, "move": self.move}


def verify(record: Mapping[str, Any]) -> Check:
    """Recompute the commitment, deal from the seed and replay every move to the result."""
    game = record.get("engine")
    if not isinstance(game, str) or game not in ENGINES:
        return Check(False, f"The record names no known game ({game!r}).", "engine")
    engine = get_engine(game)
    seed, salt, promised = record.get("seed"), record.get("salt"), record.get("commitment")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(salt, str):
        return Check(
            False, "The record has no seed and salt: they are revealed after the game.", "seed"
        )
    if not isinstance(promised, str):
        return Check(False, "The record carries no commitment to check against.", "commitment")
    if commitment(seed, salt) != promised:
        return Check(
            False,
            "SHA-256 of the seed and salt does not match the commitment made at the start: "
            "the seed or the salt was changed.",
            "commitment",
        )
    moves = record.get("moves")
    if not isinstance(moves, list):
        return Check(False, "The record has no list of moves.", "moves")
    try:
        state = engine.new_game(record.get("players", 0), seed, record.get("options") or {})
    except (BadOptions, TypeError) as exc:
        return Check(False, f"The game cannot be dealt again: {exc}", "options")
    for number, entry in enumerate(moves, start=1):
        seat = entry.get("seat") if isinstance(entry, Mapping) else None
        move = entry.get("move") if isinstance(entry, Mapping) else None
        if not isinstance(seat, int) or not isinstance(move, Mapping):
            return Check(False, f"Move {number} is not a {{seat, move}} pair.", "moves", number)
        if seat not in engine.to_act(state):
            return Check(
                False, f"Move {number}: seat {seat + 1} may not act here.", "moves", number
            )
        try:
            state = engine.play(state, seat, move)
        except IllegalMove as exc:
            return Check(False, f"Move {number} is illegal: {exc.message}", "moves", number)
    result = engine.result(state)
    if result != record.get("result"):
        return Check(
            False,
            "Replaying every move from the seed ends elsewhere than the recorded result.",
            "result",
        )
    return Check(
        True,
        f"The commitment matches, the deal follows from the seed and all {len(moves)} moves "
        "replay to the recorded result.",
    )
