"""Verify a game record: the commitment recomputed from seed and salt, the game dealt
again from the seed, and every move replayed to the record's result
(``POST /api/records/verify``, ``python -m app verify``, the room page's button)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.history.format import BadRecord, Record, from_json
from app.play.fairness import IMPORTED_SALT, commitment
from engines import get_engine
from engines.base import BadOptions, IllegalMove, is_resign


@dataclass(frozen=True)
class Check:
    """The outcome of a verification: ``ok``, or where and why it differs.

    ``seed_from`` is ``"record"`` when the game was imported from a file, which chose
    its seed: the deal then follows from the seed, but nobody drew it fairly; ``note``
    says so in words.
    """

    ok: bool
    message: str
    where: str | None = None
    move: int | None = None
    imported: bool = False
    seed_from: str = "server"
    note: str | None = None

    def body(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "message": self.message,
            "where": self.where,
            "move": self.move,
            "imported": self.imported,
            "seed_from": self.seed_from,
            "note": self.note,
        }


def _origin(record: Record) -> tuple[bool, str]:
    """Whether the record's game was imported, and where its seed came from. The salt's
    mark outweighs what the record says: the commitment binds the salt."""
    if record.salt is not None and record.salt.startswith(IMPORTED_SALT):
        return True, "record"
    if record.imported:
        return True, record.seed_from or "record"
    return False, "server"


IMPORTED_NOTE = (
    "This game was imported from a file: its seed came from that file, not from a "
    "server's draw, so whoever wrote the file could know every hand. The check shows "
    "that the game follows from that seed, not that the deal was fair."
)


def verify(raw: Record | Mapping[str, Any]) -> Check:
    """Recompute the commitment, deal from the seed and replay every move to the result."""
    try:
        record = raw if isinstance(raw, Record) else from_json(raw)
    except BadRecord as exc:
        return Check(False, exc.message, "record")
    imported, seed_from = _origin(record)
    checked = _verify(record)
    return Check(
        checked.ok,
        checked.message,
        checked.where,
        checked.move,
        imported=imported,
        seed_from=seed_from,
        note=IMPORTED_NOTE if imported and seed_from == "record" else None,
    )


def _verify(record: Record) -> Check:
    engine = get_engine(record.engine)
    seed, salt, promised = record.seed, record.salt, record.commitment
    if seed is None or salt is None:
        return Check(
            False, "The record has no seed and salt: they are revealed after the game.", "seed"
        )
    if promised is None:
        return Check(False, "The record carries no commitment to check against.", "commitment")
    if commitment(seed, salt) != promised:
        return Check(
            False,
            "SHA-256 of the seed and salt does not match the commitment made at the start: "
            "the seed or the salt was changed.",
            "commitment",
        )
    try:
        options = engine.normalize_options(record.players, record.options)
        if record.players not in engine.player_counts(options):
            raise BadOptions(
                f"{engine.title} with these options is not for {record.players} players."
            )
        state = engine.new_game(record.players, seed, options)
    except BadOptions as exc:
        return Check(False, f"The game cannot be dealt again: {exc.message}", "options")
    for number, entry in enumerate(record.moves, start=1):
        seat, move = entry.seat, entry.move
        if seat not in engine.to_act(state) and not is_resign(move):
            return Check(
                False, f"Move {number}: seat {seat + 1} may not act here.", "moves", number
            )
        try:
            state = engine.apply(state, seat, move)
        except IllegalMove as exc:
            return Check(False, f"Move {number} is illegal: {exc.message}", "moves", number)
    if engine.result(state) != record.result:
        return Check(
            False,
            "Replaying every move from the seed ends elsewhere than the recorded result.",
            "result",
        )
    return Check(
        True,
        f"The commitment matches, the deal follows from the seed and all {len(record.moves)} "
        "moves replay to the recorded result.",
    )
